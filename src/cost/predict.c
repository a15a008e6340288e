/* predict.c — t_predicted: a statement's kernels timed by a calibrated chip (predict.h). */
#include "predict.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>

/* A matmul this many times smaller or larger than any measured is outside the grid. */
static const double GRID_REACH = 10;

bool predict_calibrated(const Chip *chip)
{
    for (int f = CHIP_TILE_M; chip && f <= CHIP_LAUNCH_EAGER; f++)
        if (chip->set[f])
            return true;
    return false;
}

static double field(const Chip *c, ChipField f)
{
    return c->set[f] ? c->value[f] : NAN;
}

/* One kernel's time before the floor, or NaN with *why set when the calibration does
 * not cover it. */
typedef struct {
    const Chip *chip;
    char *why, *how; /* PREDICT_NOTE bytes each */
} Ctx;

static double uncovered(const Ctx *x, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(x->why, PREDICT_NOTE, fmt, ap);
    va_end(ap);
    return NAN;
}

static ChipField matmul_eff_field(DType t)
{
    switch (t) {
    case DT_BF16: case DT_F16: return CHIP_MM_EFF;
    case DT_FP8_E4M3: case DT_FP8_E5M2: return CHIP_MM_EFF_FP8;
    case DT_INT8: return CHIP_MM_EFF_INT8;
    default: return CHIP_FIELD_COUNT;
    }
}

/* Under half a wave of tiles a library splits K (or runs a matrix-vector kernel) to
 * use the SMs the tiles leave idle. Measured only where that is memory-bound (the
 * matrix-vector cases that set mm_t0): mm_t0 plus the bytes, unless even the whole
 * chip's FLOP/s could not hide the work. */
static double narrow_matmul_time(const Ctx *x, const CostKernel *k, double tiles, double t_mem,
                                 double flops_per_s)
{
    const Chip *c = x->chip;
    if (!c->set[CHIP_MM_T0] || k->flops / flops_per_s > t_mem)
        return uncovered(x, "a matmul of %g tiles of %gx%g, under half a wave of %g SMs%s",
                         tiles, c->value[CHIP_TILE_M], c->value[CHIP_TILE_N],
                         c->value[CHIP_CORES], c->set[CHIP_MM_T0] ? ", not memory-bound" : "");
    if (x->how)
        snprintf(x->how, PREDICT_NOTE, "matmul: %g tiles, under half a wave: mm_t0 + bytes at "
                 "mm_hbm_eff", tiles);
    return t_mem;
}

static double matmul_time(const Ctx *x, const CostKernel *k, double bytes)
{
    const Chip *c = x->chip;
    ChipField ef = matmul_eff_field(k->dtype);
    double eff = ef < CHIP_FIELD_COUNT ? field(c, ef) : NAN;
    double peak = field(c, chip_peak_field(k->dtype)), tm = field(c, CHIP_TILE_M);
    double tn = field(c, CHIP_TILE_N), cores = field(c, CHIP_CORES);
    double lo = field(c, CHIP_MM_FLOPS_MIN), hi = field(c, CHIP_MM_FLOPS_MAX);
    if (isnan(eff))
        return uncovered(x, "no %s matmul was measured", dtype_name(k->dtype));
    if (isnan(peak) || isnan(tm) || isnan(tn) || isnan(cores) || !c->set[CHIP_MM_HBM_EFF])
        return uncovered(x, "the chip lacks a matmul field (tile_m, tile_n, cores, mm_hbm_eff)");
    if ((!isnan(lo) && k->flops < lo / GRID_REACH) || (!isnan(hi) && k->flops > hi * GRID_REACH))
        return uncovered(x, "a matmul of %.3g FLOPs, over 10x outside the %.3g-%.3g measured",
                         k->flops, lo, hi);
    double t_mem = (c->set[CHIP_MM_T0] ? c->value[CHIP_MM_T0] : 0) +
                   bytes / (c->value[CHIP_HBM_BW] * c->value[CHIP_MM_HBM_EFF]);
    double tiles = k->batch * ceil(k->rows / tm) * ceil(k->cols / tn);
    if (tiles < cores / 2)
        return narrow_matmul_time(x, k, tiles, t_mem, peak * eff);
    double waves = ceil(tiles / cores);
    double t_math = waves * cores * tm * tn * 2 * k->depth / (peak * eff);
    if (x->how)
        snprintf(x->how, PREDICT_NOTE, "matmul: %g waves of %gx%g tiles at mm_eff, or bytes at "
             "mm_hbm_eff%s", waves, tm, tn, c->set[CHIP_MM_T0] ? " + mm_t0" : "");
    return t_math > t_mem ? t_math : t_mem;
}

/* Flash attention: its first matmul (QK) gives the query tiles, one a unit of work. */
static double attention_time(const Ctx *x, const CostKernel *qk, double flops, double bytes)
{
    const Chip *c = x->chip;
    double eff = field(c, CHIP_ATTN_EFF), he = field(c, CHIP_HBM_EFF);
    double peak = field(c, chip_peak_field(qk->dtype)), cores = field(c, CHIP_CORES);
    if (isnan(eff) || isnan(he) || isnan(peak) || isnan(cores))
        return uncovered(x, "no attention was measured (attn_eff, hbm_eff)");
    double units = qk->batch * ceil(qk->rows / COST_TILE);
    double waves = ceil(units / cores);
    double t_math = waves * cores * (flops / units) / (peak * eff);
    double bw = c->value[CHIP_HBM_BW] * he;
    if (c->set[CHIP_ATTN_SM_BW] && (units < cores ? units : cores) * c->value[CHIP_ATTN_SM_BW] < bw)
        bw = (units < cores ? units : cores) * c->value[CHIP_ATTN_SM_BW];
    if (x->how)
        snprintf(x->how, PREDICT_NOTE, "attention: %g units of %d query rows, %g waves at attn_eff, "
             "or bytes at %s", units, COST_TILE, waves,
             bw < c->value[CHIP_HBM_BW] * he ? "attn_sm_bw a unit" : "hbm_eff");
    double t_mem = bytes / bw;
    return t_math > t_mem ? t_math : t_mem;
}

static double vector_time(const Ctx *x, double flops, double bytes, DType t)
{
    const Chip *c = x->chip;
    if (!c->set[CHIP_HBM_EFF])
        return uncovered(x, "no elementwise op was measured (hbm_eff)");
    double peak = c->set[CHIP_VPU_FLOPS] ? c->value[CHIP_VPU_FLOPS] : field(c, chip_peak_field(t));
    double t_math = isnan(peak) ? 0 : flops / peak;
    double t_mem = bytes / (c->value[CHIP_HBM_BW] * c->value[CHIP_HBM_EFF]);
    if (x->how)
        snprintf(x->how, PREDICT_NOTE, "elementwise: bytes at hbm_eff");
    return t_math > t_mem ? t_math : t_mem;
}

/* The derated bound of one kernel: where the calibration does not reach. */
static double derated_time(const Chip *c, const CostKernel *k, double flops, double bytes)
{
    double fe = c->set[CHIP_FLOPS_EFF] ? c->value[CHIP_FLOPS_EFF] : 1;
    double he = c->set[CHIP_HBM_EFF] ? c->value[CHIP_HBM_EFF] : 1;
    double peak = !k->matrix && c->set[CHIP_VPU_FLOPS] ? c->value[CHIP_VPU_FLOPS]
                                                      : field(c, chip_peak_field(k->dtype));
    double t_math = isnan(peak) ? 0 : flops / (peak * fe);
    double t_mem = bytes / (c->value[CHIP_HBM_BW] * he);
    return t_math > t_mem ? t_math : t_mem;
}

/* What each kernel pays besides its work: the floor, and eagerly the launch. */
static double launched(const Chip *c, bool graph, double t)
{
    if (c->set[CHIP_KERNEL_FLOOR])
        t += c->value[CHIP_KERNEL_FLOOR];
    if (!graph && c->set[CHIP_LAUNCH_EAGER] && t < c->value[CHIP_LAUNCH_EAGER])
        t = c->value[CHIP_LAUNCH_EAGER];
    return t;
}

double predict_kernel(const Chip *chip, const CostKernel *k, const CostKernel *qk,
                      double flops, double bytes, bool graph, char *why, char *how)
{
    char none[PREDICT_NOTE];
    Ctx x = {chip, why ? why : none, how};
    double t = qk ? attention_time(&x, qk, flops, bytes)
               : k->matrix ? matmul_time(&x, k, bytes)
                           : vector_time(&x, flops, bytes, k->dtype);
    return isnan(t) ? t : launched(chip, graph, t);
}

/* Adds one kernel: k's kind, with the flops and bytes given (a fused region's totals). */
static void add_kernel(Prediction *p, const Chip *chip, const CostKernel *k,
                       const CostKernel *qk, double flops, double bytes, bool graph)
{
    char why[PREDICT_NOTE] = "", how[PREDICT_NOTE] = "";
    double t = predict_kernel(chip, k, qk, flops, bytes, graph, why, how);
    if (isnan(t)) {
        t = launched(chip, graph, derated_time(chip, k, flops, bytes));
        if (p->fallbacks++ == 0)
            snprintf(p->why, PREDICT_NOTE, "%s", why);
    } else if (p->kernels == p->fallbacks) {
        snprintf(p->how, PREDICT_NOTE, "%s", how);
    }
    p->kernels++;
    p->t += t;
}

/* A fused region: one kernel of its totals; attention when it runs two matmuls. */
static void add_region(Prediction *p, const Chip *chip, const Cost *cost, double flops,
                       double bytes)
{
    const CostKernel *first = NULL;
    int matrices = 0;
    for (int i = 0; i < cost->nkernels; i++)
        if (cost->kernels[i].matrix && matrices++ == 0)
            first = &cost->kernels[i];
    CostKernel all = first ? *first : cost->kernels[0];
    add_kernel(p, chip, &all, matrices >= 2 ? first : NULL, flops, bytes, cost->graph);
}

static bool numbers(const Cost *cost, double flops, double bytes)
{
    bool known = !isnan(flops) && !isnan(bytes);
    for (int i = 0; i < cost->nkernels && known; i++) {
        const CostKernel *k = &cost->kernels[i];
        known = !isnan(k->flops) && !isnan(k->bytes) && (!k->matrix || !isnan(k->batch));
    }
    return known;
}

/* The whole statement at its derated bound (the network's too), as one kernel: the
 * calibration cannot speak for it. */
static Prediction whole_fallback(Prediction p, const Chip *chip, bool graph, double t_derated,
                                 const char *why)
{
    p.t = launched(chip, graph, t_derated);
    p.kernels = p.fallbacks = 1;
    snprintf(p.why, PREDICT_NOTE, "%s", why);
    return p;
}

Prediction predict_cost(const Cost *cost, const Chip *chip, double flops, double bytes,
                        double t_comm, double t_derated)
{
    Prediction p = {0};
    p.made = predict_calibrated(chip) && chip->set[CHIP_HBM_BW];
    p.known = p.made && numbers(cost, flops, bytes) && !isnan(t_comm) && !isnan(t_derated);
    if (!p.known || (cost->nkernels == 0 && !(t_comm > 0))) /* nothing runs */
        return p;
    if (cost->mode != COST_INFERENCE)
        return whole_fallback(p, chip, cost->graph, t_derated,
                              "a training step: no backward kernels were measured");
    if (t_comm > 0)
        return whole_fallback(p, chip, cost->graph, t_derated,
                              "collectives: none were measured");
    if (cost->region) {
        add_region(&p, chip, cost, flops, bytes);
        return p;
    }
    for (int i = 0; i < cost->nkernels; i++)
        add_kernel(&p, chip, &cost->kernels[i], NULL, cost->kernels[i].flops,
                   cost->kernels[i].bytes, cost->graph);
    return p;
}
