/* cost.h — the FLOPs, HBM bytes and collectives of one operation (docs/costmodel.md §1, §3).
 *
 * Everything is per chip: with a mesh, each chip holds its shard of every operand,
 * computes its part, and the collectives the shardings imply (AllGather of an
 * operand, AllReduce or ReduceScatter of partial sums) move arrays between chips.
 * Without a mesh every figure is the whole operation's. Nothing here knows about
 * syntax or chips: errors come back as codes with the indices involved, and the caller
 * words and places them; collectives come back as arrays and axes, and roof.c prices
 * them on a chip's network.
 *
 * Ownership: a Cost owns its polynomials, the arrays of its collectives and its kernels.
 */
#ifndef ROOFLINE_COST_H
#define ROOFLINE_COST_H

#include <stdbool.h>
#include <stddef.h>

#include "mesh.h"
#include "tensor.h"

enum { COST_MAX_COLLECTIVES = 16 };

typedef struct {
    CollKind kind;
    AxisSet axes;
    Poly *bytes;    /* V: the whole array within one group of chips */
    Tensor *array;  /* what moves, as laid out before the collective */
    const char *why;  /* why a contraction needs it; NULL when written out */
    bool backward;  /* only the backward pass has it (a weight's gradient): once */
    bool bucketed;  /* a small gradient (a norm's gain) that frameworks send in one
                     * bucket with the layer's other gradients, whose collectives pay
                     * the latency: its bandwidth time only, no latency floor of its own */
} Collective;

/* One GPU kernel of a statement, for a calibrated prediction (predict.h): each
 * operation outside a fused region is one, a fused region's operations one in all.
 * Per chip, numbers once the dims are bound (NaN before); recorded only when
 * CostOptions.kernels asks (the chip is calibrated), so costing pays nothing else. */
typedef struct {
    bool matrix;      /* a contraction on the matrix unit */
    DType dtype;      /* the dtype whose peak runs it */
    double flops, bytes;
    double rows, cols, depth, batch; /* a matrix kernel's output rows (the left operand's
                                      * free dims), columns (the right's), contracted
                                      * elements and batch: its tiles and their work */
} CostKernel;

/* How a statement runs: forward only, or a training step (forward + backward) whose
 * collectives overlap the computation of their own pass (the book's convention, the
 * default: a weight's gradient can only be reduced while the backward pass runs) or
 * of the whole step (`mode training overlap step`). roof.c reads it. */
typedef enum { COST_INFERENCE, COST_TRAIN_PASS, COST_TRAIN_STEP } CostMode;

/* FLOPs are kept by slot: the dtype whose peak runs them, on the matrix unit, or on the
 * vector unit (elementwise ops, reductions, dot products: docs/costmodel.md §6.1), priced at the
 * chip's vpu_flops when it gives one. */
enum { COST_SLOTS = 2 * DT_COUNT };
static inline int cost_slot(DType t, bool vector)
{
    return (int)t + (vector ? DT_COUNT : 0);
}
static inline DType cost_slot_dtype(int slot)
{
    return (DType)(slot % DT_COUNT);
}
static inline bool cost_slot_vector(int slot)
{
    return slot >= DT_COUNT;
}

/* Running totals of a statement, per chip: FLOPs by slot (above),
 * HBM bytes read and written, and the collectives. Every operation reads its operands
 * from HBM and writes its result, except in a fused region (`fused`): there a result
 * stays in on-chip memory (marked on_chip) and an operand marked on_chip is not read;
 * the evaluator adds the writes of what leaves the region. */
typedef struct Cost_ {
    Poly *flops[COST_SLOTS]; /* NULL where no op ran in that slot */
    Poly *padding[COST_SLOTS]; /* FLOPs the matrix unit runs on padding: a weight's dims
                            * rounded up to multiples of its side (CostOptions.mxu);
                            * reported, neither counted in flops nor priced (roof.c);
                            * NULL where none */
    Poly *read, *written;
    Poly *held;            /* HBM a chip holds: operands (gathered copies too), results */
    Collective colls[COST_MAX_COLLECTIVES];
    int ncolls;
    int ops;
    int choices;           /* contractions that could gather or make partial sums (case 2) */
    bool fused;            /* a fused region's statement: see above */
    Poly *recompute[COST_SLOTS]; /* FLOPs a training step's backward pass runs again (a
                            * fused region's intermediates, recomputed as flash attention
                            * recomputes its scores; an operation remat does not keep);
                            * NULL where none */
    Poly *recompute_bytes; /* the HBM bytes it moves doing so, or NULL */
    double tile;           /* fused: bytes of one tile of every operand and result, per
                            * chip; NaN once a dim's size is not a number */
    CostMode mode;         /* COST_INFERENCE until cost_train */
    double microbatches;   /* runs of the statement in one step: 1 until cost_accumulate */
    bool axes_add;         /* `mode ... axes add`: collectives on different lanes (mesh.h)
                            * add up, as in the book's first release; else they run at
                            * once (the default, the current book). roof.c reads it. */
    bool region;           /* a whole fused region's cost: its kernels run as one */
    bool graph;            /* `mode ... launch graph`: kernels replayed from a CUDA graph,
                            * not launched one by one (predict.c reads it) */
    CostKernel *kernels;   /* each operation's, when CostOptions.kernels (on the heap:
                            * a Cost lives on the stack of every nested block call) */
    int nkernels, kernels_cap;
} Cost;

void cost_init(Cost *c);
void cost_free(Cost *c);
/* Appends a kernel (Cost.kernels); false if out of memory. */
bool cost_add_kernel(Cost *c, const CostKernel *k);
/* Adds `from` into `into` (FLOPs, bytes, what is held, collectives, counts) and empties
 * `from`. False when the collectives do not fit or memory runs out. */
bool cost_absorb(Cost *into, Cost *from);
/* The tile a fused region streams: COST_TILE × COST_TILE elements of each tensor (a
 * matrix unit's tile), or all of a smaller one. */
enum { COST_TILE = 128 };
Poly *cost_total_flops(const Cost *c);
/* Training: each operation's backward pass too, 3 × its FLOPs and HBM traffic (the
 * gradients of both operands of a matmul: docs/costmodel.md §4), plus the FLOPs it recomputes
 * (`recompute`), its forward collectives
 * twice (the backward pass mirrors each); the weight-gradient collectives once. The
 * forward pass is then a third of the FLOPs and bytes and half of each collective
 * that is not `backward`. Records `mode` (a training one) for roof.c. */
bool cost_train(Cost *c, CostMode mode);
/* Before cost_train: the backward pass recomputes the whole forward of what c holds
 * (its result is not kept: remat), FLOPs and bytes. */
bool cost_recompute_all(Cost *c);
/* Gradient accumulation, after cost_train: the statement is one microbatch and the
 * step runs it M times, so its FLOPs, HBM traffic and forward collectives (both runs)
 * are M times one microbatch's; a weight's gradient is reduced once per step (its
 * `backward` collectives stay as they are). The held bytes stay one microbatch's.
 * Records M for roof.c, which lets the gradients overlap only the last microbatch's
 * backward pass. Extend here what else runs once per step. */
bool cost_accumulate(Cost *c, double microbatches);

typedef enum {
    COST_OK,
    COST_NOT_A_DIM,       /* contracted dim `index` is in neither operand */
    COST_NOT_IN_LHS,      /* contracted dim `index` is missing from the left operand */
    COST_NOT_IN_RHS,      /* ... from the right operand */
    COST_REPEATED,        /* contracted dim `index` is named twice */
    COST_SIZE_MISMATCH,   /* dim lhs_dim of the left and rhs_dim of the right differ */
    COST_RANK_MISMATCH,   /* elementwise: different numbers of dims */
    COST_SHARD_MISMATCH,  /* dims lhs_dim and rhs_dim are sharded over different axes:
                           * elementwise, or a contraction's batch dim */
    COST_AXIS_CLASH,      /* result dims lhs_dim and rhs_dim would share an axis */
    COST_NOT_SHARDED,     /* a collective's axis `index` shards no dim of its input */
    COST_ALREADY_SHARDED, /* a reduction's axis `index` already shards its input */
    COST_NO_TARGET,       /* no dim can take the axes a collective scatters */
    COST_TOO_MANY,        /* more collectives in one statement than COST_MAX_COLLECTIVES */
    COST_TOO_COMPLEX      /* a term would hold too many symbols (or memory ran out) */
} CostStatus;

typedef struct {
    CostStatus status;
    int index;            /* which contracted dim, or which mesh axis */
    int lhs_dim, rhs_dim;
} CostError;

/* Case 2 forced one way, for a sweep that compares the two plans at every point. */
typedef enum { COST_PLAN_BEST, COST_PLAN_GATHER, COST_PLAN_REDUCE } CostPlan;

typedef struct CostOptions_ {
    bool exact;           /* out·(2K−1) FLOPs instead of 2·out·K */
    int out_dtype;        /* -1: the wider input dtype */
    int compute_dtype;    /* -1: the wider input dtype */
    const Mesh *mesh;     /* the statement's chips; never NULL (0 axes: one chip) */
    const Tensor *want;   /* the `->` type: its shardings pick ReduceScatter; or NULL */
    PolyLookup lookup;    /* bound dims, so D and 8192 agree when D = 8192 */
    void *lookup_ctx;
    CostMode training;    /* not COST_INFERENCE: add the collectives of weight gradients */
    bool param_a, param_b;  /* which operands of a contraction or an elementwise op are
                             * weights (`param`) */
    /* Prices a plan on the statement's chip: its T_lower, or NaN when that is not
     * known yet (dims unbound). With it, a contracted dim sharded in one operand only
     * (case 2) takes the faster plan, gathering or partial sums; without it, or while
     * NaN, the one that moves fewer bytes. plan_ctx is the caller's (the chip). */
    double (*plan_time)(const struct Cost_ *plan, const struct CostOptions_ *opt);
    const void *plan_ctx;
    CostPlan plan;        /* how case 2 goes: COST_PLAN_BEST unless a caller forces it */
    int mxu;              /* the matrix unit's side (the chip's mxu_size), 0 for none: a
                           * contraction's weight dims, when numbers, pad to multiples of it */
    bool axes_add;        /* priced as Cost.axes_add says */
    bool kernels;         /* record each operation's kernel (Cost.kernels) */
} CostOptions;

/* a *_{names} b. On success *out is the result and the op's cost is added to acc. */
CostError cost_contract(const Tensor *a, const Tensor *b, const int *names, int nnames,
                        const CostOptions *opt, Tensor **out, Cost *acc);
/* a op b elementwise, on tensors of one shape and sharding, or one whose dims are
 * named dims of the other (broadcast over the rest): one FLOP per result element. */
CostError cost_elementwise(const Tensor *a, const Tensor *b, const CostOptions *opt,
                           Tensor **out, Cost *acc);
/* lookup(table, x): the rows of table[V, ...] that the tokens of x (the result's shape,
 * [B, T, D]) pick, an embedding: no FLOPs, the rows read (x's elements in the table's
 * dtype) and written in x's dtype (a quantized table's rows are dequantized). The
 * table's other dims split over axes that split x too (fsdp) are gathered first, as
 * FSDP gathers a weight; over axes that leave x whole (ws) each chip looks up its slice
 * of every row and the rows are gathered. V split over axes (tp: a vocabulary-parallel
 * table) leaves each chip the rows it holds, zeros for the rest: the rows are summed
 * over those axes (an AllReduce; a ReduceScatter over those that split x too, tsp). In
 * training, when the table is a `param` (opt->param_a), its gradient, the tokens'
 * gradient rows scatter-added into it (counted by the training rule: no FLOPs, twice
 * the forward's bytes), is all-reduced over the axes that split x but not the table,
 * and reduce-scattered back over those it was gathered over. */
CostError cost_lookup(const Tensor *table, const Tensor *x, const CostOptions *opt,
                      Tensor **out, Cost *acc);
/* f(a) elementwise (exp, rsqrt, silu, ...): one FLOP per element, a read, a write. */
CostError cost_unary(const Tensor *a, const CostOptions *opt, Tensor **out, Cost *acc);
/* A reduction of a's dim `dim` (sum, max, mean): one FLOP per element of a; when the
 * dim is sharded, an AllReduce of the result over its axes. */
CostError cost_reduce(const Tensor *a, int dim, const CostOptions *opt, Tensor **out,
                      Cost *acc);
/* A collective on its own: `allgather bf16[E_Y, F] over Y`. Over no axes (a block's
 * axis parameter given none) or over one chip it moves nothing and costs nothing. */
CostError cost_collective(const Tensor *t, CollKind kind, AxisSet axes,
                          const CostOptions *opt, Tensor **out, Cost *acc);

/* Equal sizes: the same polynomial, or the same number once bound dims are put in. */
bool cost_same_size(const Poly *a, const Poly *b, PolyLookup lookup, void *ctx);

#endif
