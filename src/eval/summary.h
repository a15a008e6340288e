/* summary.h — what a practitioner reads of a whole-model statement: MFU, tokens per
 * second, and with a token budget the days, chip-hours and cost of the whole run.
 *
 * A whole-model statement is one whose value is a single call of a block with
 * parameters named B and T (the stdlib's model and decode, or a block of one's own that
 * takes them): a step of B sequences of T tokens (decode: T = 1, a token for each of
 * B sequences). Its figures:
 *   tokens       B · T · M a step, M the microbatches (`mode training microbatches M`;
 *                1 in inference): B is one microbatch's
 *   model_flops  the FLOPs of the model: the call costed on one chip (every axis of
 *                the mesh of one chip, every axis parameter of its block empty), nothing
 *                recomputed (no remat, and fused
 *                regions run unfused, so flash attention's recomputed scores are not
 *                counted) and no optimizer update: 3 × the forward FLOPs in training
 *   mfu          model_flops / (t_lower · chips · peak), the peak of the dtype that runs
 *                most of the model's matrix FLOPs; at the bound t_lower, an upper limit
 *   tokens/s     tokens / t_lower on all the chips; per chip, over chips
 *   run          with `mode training tokens N`: N / tokens steps of t_lower each: its
 *                time, chip-hours = chips · time / 3600, and cost = chip-hours · price
 *                where the chip has a price
 * search's MFU column takes the model's FLOPs and the peak from here too.
 */
#ifndef ROOFLINE_SUMMARY_H
#define ROOFLINE_SUMMARY_H

#include <stdbool.h>
#include <stdio.h>

#include "eval.h"
#include "summary_rows.h"


/* The model's FLOPs of a statement whose value is a call of a block (a search's too),
 * costed on the axes of `mesh` (or none) each of one chip. Errors costing it are held
 * back (flops NaN); false only when memory ran out. */
bool summary_model_flops(Eval *ev, const Stmt *s, const Mesh *mesh, ModelFlops *out);
/* The figures of statement s, whose breakdown is root, on chip and mesh (whole false
 * when it is not a whole-model statement). Call it before the report: it costs the
 * call again, and keeps the statement's notes. False only when memory ran out. */
bool summary_measure(Eval *ev, const Stmt *s, const Op *root, const Chip *chip, const Mesh *mesh,
                     Summary *out);
/* Its figures for `expect`. */
void summary_remember(LastReport *last, const Summary *sm);

#endif
