/* predict.h — a calibrated chip's prediction of a statement's time: t_predicted.
 *
 * The bound (roof.h) says how long a statement must take at least; a chip calibrated
 * from measured kernels (calibrate.c, `roofline --calibrate`) says how long its kernels
 * do take. Each operation outside a fused region is one kernel, a fused region one in
 * all (cost.h: CostKernel), and the statement's t_predicted is the sum of its kernels':
 *
 *   matmul     max(waves · cores · tile_m · tile_n · 2·K / (peak · mm_eff[dtype]),
 *                  mm_t0 + bytes / (hbm_bw · mm_hbm_eff))
 *              tiles = batch · ⌈M/tile_m⌉ · ⌈N/tile_n⌉, waves = ⌈tiles / cores⌉: a
 *              product whose tiles fall just past a multiple of the SMs pays a wave more;
 *              mm_t0 (0 when unset) is a memory-bound matmul's fixed cost. Under half a
 *              wave of tiles a library splits K or runs a matrix-vector kernel: with
 *              mm_t0 set (matrix-vector products were measured) and the work memory-bound
 *              even at the whole chip's FLOP/s (flops / (peak · mm_eff) under the bytes'
 *              time), mm_t0 + bytes / (hbm_bw · mm_hbm_eff); else no measurement shows
 *              it: the derated bound
 *   attention  a fused region of two or more matmuls (flash attention): units = batch ·
 *              ⌈T·G / 128⌉ query tiles, waves = ⌈units / cores⌉,
 *              max(waves · cores · (flops / units) / (peak · attn_eff),
 *                  bytes / min(hbm_bw · hbm_eff, min(units, cores) · attn_sm_bw))
 *   the rest   max(bytes / (hbm_bw · hbm_eff), flops / the vector unit's peak)
 *
 * each plus kernel_floor (what a kernel costs at least, measured in a CUDA graph); with
 * `mode ... launch eager` (the default, as PyTorch runs) a kernel costs at least
 * launch_eager, the time the host takes to launch one, which a longer kernel hides.
 * A kernel the calibration does not cover (a dtype or kind with no measurement, a
 * matmul far outside the measured sizes) falls back to the derated bound, max(t_math /
 * flops_eff, t_hbm / hbm_eff), plus the floor and launch every kernel pays, and the
 * prediction says which and why. So do whole statements that the measurements cannot
 * speak for: training steps, collectives.
 * Ownership: a Prediction holds no pointers.
 */
#ifndef ROOFLINE_PREDICT_H
#define ROOFLINE_PREDICT_H

#include <stdbool.h>

#include "chip.h"
#include "cost.h"

enum { PREDICT_NOTE = 160 };

typedef struct {
    bool made;         /* the chip is calibrated (else no t_predicted at all) */
    bool known;        /* every dim bound: t is a number */
    double t;          /* seconds */
    int kernels;       /* kernels summed */
    int fallbacks;     /* of them, priced at the derated bound */
    char how[PREDICT_NOTE];  /* the first kernel's model, for the report's formula */
    char why[PREDICT_NOTE];  /* why the first fallback fell back; "" when none did */
} Prediction;

/* Whether a chip sets any calibrated field: then its statements get t_predicted. */
bool predict_calibrated(const Chip *chip);
/* The prediction of a costed statement on a chip (a fused region: one kernel), from
 * its totals per chip (flops and HBM bytes, NaN when unknown), t_comm and t_derated
 * (roof.h: the fallback of a whole statement). */
Prediction predict_cost(const Cost *cost, const Chip *chip, double flops, double bytes,
                        double t_comm, double t_derated);

/* One kernel's time on a calibrated chip, its floor and launch included: k's kind, or
 * flash attention when qk (its first matmul) is given, with the flops and bytes given.
 * NaN with why set (PREDICT_NOTE bytes; may be NULL) when the calibration does not
 * cover it; how (or NULL) says which model priced it. */
double predict_kernel(const Chip *chip, const CostKernel *k, const CostKernel *qk,
                      double flops, double bytes, bool graph, char *why, char *how);

#endif
