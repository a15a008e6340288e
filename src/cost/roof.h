/* roof.h — a statement's cost put on a chip's roofline (docs/costmodel.md §2):
 *
 *   T_math = FLOPs / peak      T_hbm = bytes / HBM bandwidth
 *   T_comm = the collectives' bytes / network bandwidth (mesh.h); collectives on
 *            different links (lanes, mesh.h) run at once, so T_comm is the busiest
 *            link's time (per pass in training), unless the Cost says axes_add
 *   T_lower = max(...)         T_upper = sum      intensity = FLOPs / bytes
 *   ridge = peak / HBM bandwidth                  bound = the largest term
 *
 * A training step (cost.h: COST_TRAIN_PASS, the default of `mode training`) follows
 * the book (docs/costmodel.md §6.3): a collective overlaps only the pass that runs it, so each
 * pass is a roofline of its own,
 *
 *   T_lower = max(T_math/3, T_hbm/3, T_comm fwd) + max(2·T_math/3, 2·T_hbm/3, T_comm bwd)
 *
 * the forward pass with a third of the FLOPs and bytes and one run of each forward
 * collective, the backward pass with the rest: the other run of each forward
 * collective and the weights' gradients. bound = comm when either pass waits on its
 * collectives (its T_comm beats its work; then T_lower > max(T_math, T_hbm)), else
 * compute or memory, the larger of T_math and T_hbm (the same in both passes). That is
 * the book's "compute-bound": every pass hides its communication; so data parallelism
 * turns compute-bound at B/X = C/W (the backward pass decides), tensor parallelism at
 * Y = F·W/C (the forward pass decides), and `solve` finds those thresholds. The
 * network intensity is then the pass that decides it: its FLOPs over its bytes per
 * link, whichever pass's is the lower. With COST_TRAIN_STEP (`mode training overlap
 * step`) the collectives overlap the whole step: T_lower = max(T_math, T_hbm, T_comm)
 * and bound = the largest term, as in inference. T_upper is the sum either way;
 * t_derated follows T_lower's rule with each time divided by the chip's achievable
 * fraction; sweeps and solve (RoofCurve) use the same rules as a statement.
 *
 * With M microbatches (cost_accumulate) the times are the step's, M runs of one
 * microbatch, and per pass each microbatch's passes are rooflines of their own, the
 * weights' gradients reduced during the last backward pass only (docs/costmodel.md §6.3):
 *
 *   T_lower = max(T_math/3, T_hbm/3, T_comm fwd)
 *           + ((M−1)·max(2·T_math/3, 2·T_hbm/3, T_comm fwd) + max(2·T_math/3, 2·T_hbm/3,
 *              T_comm fwd + M·T_comm grad)) / M
 *
 * (T_math the step's, T_comm fwd the step's forward collectives, T_comm grad the
 * gradients'). With overlap step the formula above is unchanged: the gradients hide
 * behind the whole step, M microbatches of work.
 *
 * Each figure has a formula in the dims as written (names kept, so the report shows
 * the derivation) and its value now: a number once every dim it uses is bound, else
 * a polynomial in the dims still unbound.
 * Ownership: a Roofline owns its polynomials; roof_free releases them.
 */
#ifndef ROOFLINE_ROOF_H
#define ROOFLINE_ROOF_H

#include <stdbool.h>

#include "chip.h"
#include "cost.h"
#include "mesh.h"
#include "poly.h"
#include "predict.h"

typedef struct {
    Poly *formula; /* names kept */
    Poly *now;     /* bound dims put in */
    bool known;    /* now is a number */
    double value;
} Quantity;

typedef enum { BOUND_UNKNOWN, BOUND_COMPUTE, BOUND_MEMORY, BOUND_COMM } Bound;

/* One pass of a training step: its times, T_lower and bound. */
typedef struct {
    double t_math, t_hbm, t_comm, t_lower;
    Bound bound;
} RoofPass;

typedef struct {
    bool computes;  /* some operation computes; false for a collective alone */
    Quantity flops, bytes, read, written; /* per chip */
    PolyRatio intensity_formula, intensity_now;
    bool intensity_known;
    double intensity;

    const Chip *chip;  /* NULL: only the chip-independent part is filled */
    double chips;      /* of the statement's mesh */
    DType compute;     /* the dtype whose peak sets the ridge */
    bool vector;       /* the ridge is the vector unit's (vpu_flops): the statement runs
                        * only there (elementwise ops, reductions, dot products) */
    bool mixed;        /* FLOPs at several dtypes' peaks */
    double peak, hbm_bw, ridge;
    Quantity padding;  /* FLOPs the matrix unit runs on padding (cost.h); formula NULL
                        * when there is none */
    Quantity t_math, t_hbm; /* formula NULL: the report writes "flops / peak" */

    /* The network: one LinkCost per collective of the Cost, in order. */
    LinkCost links[COST_MAX_COLLECTIVES];
    int ncomm;
    Quantity comm_bytes, t_comm;
    /* The book's approximation of a lone collective's bandwidth time, beside the exact
     * one: V/W for an AllGather or ReduceScatter, 2V/W for an AllReduce, the ring's
     * (N−1)/N taken as 1 (ch. 3, 12); NaN where the book's form is the one costed (a
     * line, a hierarchy of levels, an AllToAll), in training, or with several. */
    double t_comm_book, t_comm_exact;
    bool latency_bound;  /* a collective's latency floor beat its bandwidth time */
    double link_bw;      /* one link direction, when every collective shares it; else 0 */
    double net_ridge;    /* peak / link_bw */
    PolyRatio net_formula, net_now; /* flops / comm_bytes */
    bool net_known;
    double net_intensity;
    int net_pass;   /* per pass: the pass whose network intensity it is (0 forward, 1 backward) */

    /* Training: t_comm_fwd is the forward pass's T_comm (the backward pass has
     * t_comm − t_comm_fwd; a forward collective and its mirror pay a latency floor
     * each). With overlap per pass (per_pass), once the times are known, pass[0] and
     * pass[1] are the forward and backward passes' times. */
    bool per_pass;
    double microbatches; /* the Cost's: runs of the statement per step (cost_accumulate) */
    bool times_only;    /* roof_times: no intensity or network ratio (formulas) */
    double parts_math, parts_hbm; /* per pass: the forward pass has 1 of these parts of
                                   * t_math and t_hbm (3; more with recompute) */
    Quantity t_comm_fwd;
    RoofPass pass[2];

    /* The collectives' lanes (mesh.h: the links each keeps busy). On one lane they take
     * turns; on several (overlapped), unless the Cost says axes_add, they run at once:
     * each pass's T_comm is its busiest lane's, and t_comm the step's sum of those
     * (roof.c: lanes_combine). lane_time[l] is lane l's time in the step and lane_fwd[l]
     * its forward passes' (formulas as t_comm's: bandwidth times), lane_value[l] the
     * step's with latency floors; set only when overlapped. */
    LaneSet lanes;
    bool overlapped;
    Quantity lane_time[MESH_LANES], lane_fwd[MESH_LANES];
    double lane_value[MESH_LANES];

    bool times_known;
    double t_lower, t_upper, attained;
    double t_derated;   /* t_lower at the chip's achievable fractions; = t_lower without */
    bool derated;       /* the chip gives some fraction */
    Bound bound;
    Prediction predict; /* on a calibrated chip, once the times are known (predict.h) */
    double memory;      /* HBM bytes a chip holds: its operands and result */
    bool memory_known;
} Roofline;

typedef enum {
    ROOF_OK,
    ROOF_NO_PEAK,     /* the chip has no peak for dtype `dtype` */
    ROOF_NO_HBM_BW,   /* the chip has no HBM bandwidth */
    ROOF_NO_NETWORK,  /* a collective cannot be priced on the chip: `detail` says why */
    ROOF_OVERFLOW,    /* a figure is too large for a double */
    ROOF_BAD_DIM,     /* a bound dim makes a size zero or negative */
    ROOF_TOO_COMPLEX  /* a polynomial could not be formed */
} RoofStatus;

typedef struct {
    RoofStatus status;
    DType dtype;
    const char *detail;
} RoofError;

/* A statement's figures at one binding of its dims, computed without allocating from
 * a Roofline's formulas (for sweeps and solving). */
typedef struct {
    double flops, bytes, intensity, t_math, t_hbm, t_comm, comm_bytes;
    double t_lower, t_upper, attained, t_derated;
    Bound bound;
    /* Differences of times whose signs decide the bound (roof.c: bound_gaps): it can
     * only change where one of them changes sign. */
    double gaps[3];
} RoofPoint;
/* A statement's figures as functions of one dim, every other dim put in: compiled
 * once from a Roofline's formulas, then evaluated at as many values of the dim as a
 * sweep or a solve needs, without lookups or allocation. Borrows r, which must have a
 * chip and outlive it. False when another dim is unbound or memory ran out. */
typedef struct {
    const Roofline *roof;
    PolyOne *flops, *bytes, *t_math, *t_hbm;
    PolyOne *comm[COST_MAX_COLLECTIVES]; /* the bytes of each collective */
    double runs[COST_MAX_COLLECTIVES];   /* 2·microbatches for a trained forward collective:
                                          * a run per pass of each microbatch */
    int ncomm;
    /* With no collectives and no passes, when flops, bytes, t_math and t_hbm are each
     * a·X + b (poly_one_linear): their coefficients, for one fused pass per block. */
    bool linear;
    double lin_k[4][2];
    bool lin_x[4][2];
} RoofCurve;
bool roof_curve(const Roofline *r, const Cost *cost, int dim, PolyLookup lookup, void *ctx,
                RoofCurve *out);
/* The figures of up to ROOF_BLOCK points along a RoofCurve, an array per figure (the
 * intensity and the bound are made by roof_block_point from these: a chart needs
 * neither). */
enum { ROOF_BLOCK = POLY_ONE_BLOCK };
typedef struct {
    int n;
    const double *x; /* the caller's */
    const RoofCurve *curve;
    double flops[ROOF_BLOCK], bytes[ROOF_BLOCK];
    double t_math[ROOF_BLOCK], t_hbm[ROOF_BLOCK], t_comm[ROOF_BLOCK], comm_bytes[ROOF_BLOCK];
    double t_comm_fwd[ROOF_BLOCK]; /* per pass: the forward pass's; else not set */
    double lane[MESH_LANES][ROOF_BLOCK], lane_fwd[MESH_LANES][ROOF_BLOCK]; /* overlapped */
    double t_lower[ROOF_BLOCK], t_upper[ROOF_BLOCK], attained[ROOF_BLOCK];
    double scratch[ROOF_BLOCK];
} RoofBlock;
/* The figures at x[0 .. min(n, ROOF_BLOCK)); fastest for a whole block. */
void roof_curve_block(const RoofCurve *c, const double *x, int n, RoofBlock *out);
/* roof_curve_block for a chart: out->attained (and n, x, curve) alone where the curve
 * is linear; everything where it is not. Only at x that roof_curve_finite accepted. */
void roof_curve_attained(const RoofCurve *c, const double *x, int n, RoofBlock *out);
/* Whether no figure roof_curve_block makes for 0 < x <= most can be inf or nan, nor any
 * sum of them: then a sweep need not check each block (explore.c: finite_block). Only
 * answered for a linear curve; false otherwise. */
bool roof_curve_finite(const RoofCurve *c, double most);
RoofPoint roof_block_point(const RoofBlock *b, int j);
void roof_curve_free(RoofCurve *c);

/* When a ratio of one dim crosses a threshold: num/den > t for X > value (or <).
 * Only for ratios of polynomials of degree at most 1 in a single dim. */
typedef struct {
    int sym;
    double value;
    int sense;   /* 1: X > value; -1: X < value; 2: always; 0: never */
} Crossing;
bool roof_crossing(const PolyRatio *r, double threshold, Crossing *out);

bool roof_has_derating(const Chip *chip);
/* True when the statement moves bytes over one shared link bandwidth, so that its
 * network intensity and net ridge mean something (not when every collective is empty). */
bool roof_has_network_ratio(const Roofline *r);

RoofError roof_compute(const Cost *cost, const Chip *chip, const Mesh *mesh,
                       PolyLookup lookup, void *ctx, Roofline *out);
/* The same without the intensity and network ratios (their formulas in lowest terms):
 * the times and the bound only, for pricing one of a contraction's plans. */
RoofError roof_times(const Cost *cost, const Chip *chip, const Mesh *mesh,
                     PolyLookup lookup, void *ctx, Roofline *out);
void roof_free(Roofline *r);
const char *roof_bound_name(Bound b);
/* The name of a lane in the report: its axis' ("X"), or "DCN", "NVLink", "node". */
const char *roof_lane_name(const Mesh *m, int lane, PolyNamer namer, void *ctx);
/* " (the backward pass's)" or " (the forward pass's)": which pass the network
 * intensity is, with overlap per pass; else "". */
const char *roof_net_pass(const Roofline *r);

#endif
