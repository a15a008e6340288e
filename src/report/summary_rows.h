/* summary_rows.h — the figures of a whole-model statement (summary.h says what each
 * is and how the evaluator finds them), and how the report writes them.
 *
 * Ownership: a Summary holds numbers and the chip's name, which the chip table owns.
 */
#ifndef ROOFLINE_SUMMARY_ROWS_H
#define ROOFLINE_SUMMARY_ROWS_H

#include <stdbool.h>
#include <stdio.h>

#include "dtype.h"

/* The model's FLOPs (above) and the dtype whose peak they run at. */
typedef struct {
    double flops; /* NaN when the call cannot be costed on one chip */
    DType dtype;
} ModelFlops;

typedef struct {
    bool whole;          /* a whole-model statement; nothing below is set otherwise */
    const char *chip;
    double batch, seq, microbatches, tokens;
    ModelFlops model;
    double peak;         /* NaN when the chip has no peak for model.dtype */
    double chips, t_lower;
    double mfu, tokens_per_s, tokens_per_s_chip;
    double run_tokens;   /* 0: no budget, and none of the run's figures */
    double steps, run_time, chip_hours, price, run_usd; /* price, run_usd NaN: no price */
} Summary;

/* Its rows in the text report, and its keys in the statement's JSON object; nothing
 * when sm is NULL or not a whole-model statement's. */
void summary_rows_text(FILE *out, const Summary *sm);
void summary_rows_json(FILE *out, const Summary *sm);

#endif
