/* calibrate.h — `roofline --calibrate CHIP FILE.jsonl`: a chip definition fitted to
 * measured kernel times (tools/measure_kernels.py writes them; README "Calibrated
 * prediction").
 *
 * Each line of the file is one measured case, {"case": NAME, "ms": median time, shape
 * fields}; the case's name says what ran (mm_*, add_*, sdpa_*, tiny_add_*, ...), and
 * "graph": true that it was timed inside a CUDA graph (GPU time, no launch: costed
 * under `launch graph`). Each case is a handful of kernels (cost.h: CostKernel) whose
 * time predict.h models, and the fields of `chip CHIP_cal : CHIP { ... }` are fitted
 * (least squares on log time) so that the model matches the measurements; every field
 * is printed with the measurements it comes from. With `cases`, the statements that cost each case follow
 * the chip, one a case, after a comment `# case NAME MS`: the tests run them and
 * compare t_predicted with the measured time.
 * Ownership: nothing outlives a call.
 */
#ifndef ROOFLINE_CALIBRATE_H
#define ROOFLINE_CALIBRATE_H

#include <stdbool.h>
#include <stdio.h>

#include "chip.h"

typedef struct {
    const char *path;       /* the measurements, JSON Lines */
    const char *leave_out;  /* a case fitted without (leave-one-out), or NULL */
    bool cases;             /* also print each case as a statement */
} CalibrateOptions;

/* Prints the calibrated chip (and the cases) to out; messages to err. Returns the
 * exit status: 0, 1 when the file cannot be read or fits nothing, 2 a usage error. */
int calibrate_run(const Chip *base, const CalibrateOptions *opt, FILE *out, FILE *err);

#endif
