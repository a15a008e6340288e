/* model.h — whole models: the breakdown of block calls and repeats into operations,
 * with their totals.
 * Ownership: an Op owns its label and its children.
 */
#ifndef ROOFLINE_MODEL_H
#define ROOFLINE_MODEL_H

#include <stdbool.h>

#include "roof.h"

/* What a training step's backward pass keeps of the forward pass (`remat`):
 *   none       every operation's result (the default)
 *   full       only what the outermost block's own statements bind (a layer's output,
 *              one checkpoint a layer); everything inside the blocks they call is
 *              recomputed
 *   selective  the contractions' results; elementwise ops and reductions recomputed
 *   save       the results the paths name (`layer.x`: x as block layer binds it) */
typedef enum { REMAT_NONE, REMAT_FULL, REMAT_SELECTIVE, REMAT_SAVE } RematPolicy;

typedef struct {
    int *names;  /* interned: blocks, outermost first, then the name a statement binds */
    int n;
} RematPath;

typedef struct {
    RematPolicy policy;
    RematPath *paths;  /* REMAT_SAVE's, owned */
    int npaths;
} Remat;

/* How training memory is counted (`optimizer`): the optimizer's moments, master
 * weights and gradients, in bytes per parameter, and the ZeRO stage that shards them
 * over the chips that hold copies of each parameter (1: moments and master weights,
 * 2: gradients too). The defaults are the book's: Adam, fp32 moments, no master weights
 * or gradients counted (10 B a parameter with bf16 weights). */
typedef enum { OPT_ADAM, OPT_MOMENTUM, OPT_SGD, OPT_ADAFACTOR, OPT_NONE } OptKind;

typedef struct {
    OptKind kind;
    double moment_bytes, master_bytes, grad_bytes;
    int zero;
} Optimizer;

/* training.c */
void remat_free(Remat *r);
const char *remat_name(RematPolicy p);
const char *optimizer_name(OptKind k);

/* One node of a block's breakdown: an operation (a leaf), or a block call or a repeat
 * with its operations below. Figures are per chip, for one run; `runs` says how many
 * times the node runs (repeat L), so a node's totals are runs × its own. */
typedef struct Op Op;
/* Op.own's figures, in the order of the fields they total into. */
enum { OWN_PARAMS, OWN_PARAM_BYTES, OWN_LOCAL_PARAMS, OWN_CACHE, OWN_ACTIVATIONS,
       OWN_GRADIENTS, OWN_MASTER, OWN_OPTIMIZER, OWN_COUNT };
struct Op {
    char *label;
    double runs;
    bool known;        /* every figure below is a number (no dim left unbound) */
    bool leaf;
    double flops, bytes, comm_bytes, t_math, t_hbm, t_comm, t_lower, t_upper;
    double t_derated;  /* T_lower with the chip's achievable fractions; = t_lower without */
    double t_predicted; /* on a calibrated chip: its kernels as measured (predict.h) */
    double kernels, fallbacks; /* kernels, and of them those at the derated bound */
    double recomputed; /* training: the bytes of the results remat drops and the backward
                        * pass recomputes (a leaf's; a node's: its children's, by runs) */
    Bound bound;       /* a leaf's; a block's is what bounds most of its time */
    bool predicted;    /* t_predicted is set: the chip is calibrated */
    char fallback[PREDICT_NOTE]; /* a leaf's: why a kernel fell back ("" if none did) */
    DType compute;     /* a leaf's: the dtype whose peak runs its FLOPs (roof.h) */
    bool vector;       /* a leaf's: they run on the vector unit (vpu_flops) */
    double hidden;     /* a leaf's: its time under other work (a pipeline's overlapped
                        * sends): out of t_lower, in its bound's share of the time */
    double link_bw;    /* a leaf's: the one link bandwidth its collectives share (roof.h),
                        * else 0: a comm-bound leaf's chart point lies under that roof */
    /* With the children: params (all of them), and per chip the bytes of the params,
     * their count, the KV cache, the activations a backward pass keeps, and in training
     * the gradients, master weights and optimizer state (training.c). */
    double params, param_bytes, local_params, cache_bytes, act_bytes;
    double grad_bytes, master_bytes, optim_bytes;
    double own[OWN_COUNT]; /* the same eight, for what the node itself holds */
    double held;       /* a leaf's: its operands and result per chip (a report's memory) */
    double t_coll[4];  /* the network time by CollKind, every collective at its bandwidth
                        * (no latency floor): which kind of collective dominates */
    ChipFieldSet latency_unset; /* the latency fields its collectives' networks lack */
    /* A pipelined repeat (pipeline.c): its chips hold its layers, one stage of
     * `stages` (0 or 1: no pipeline), so the model's params count it that many times;
     * its activations are kept for `in_flight` microbatches at once (0 or 1: one). */
    double stages, in_flight;
    Op **children;
    int nchildren, cap;
};

Op *op_new(const char *label);
void op_free(Op *op);
bool op_add(Op *parent, Op *child);
/* Adds up the children into a node that is not a leaf (recursively). */
void op_total(Op *op);
/* Whether the node's totals (its figures times its runs) are all finite. */
bool op_finite(const Op *op);
/* The kind of collective (a CollKind) that takes most of the node's network time, or
 * -1 when it moves nothing over the network. */
int op_collective(const Op *op);
/* Adds each leaf's t_lower and hidden time, times scale and the runs above it, to
 * by[its bound]. */
void op_bound_shares(const Op *op, double scale, double *by);
/* The node's own figures times its runs: what it costs in all. Shallow: the copy
 * shares the children. */
Op op_scaled(const Op *op);
/* The peak working set of a statement's training step under remat (block: the
 * statement's node, the outermost block's call): the results that the backward pass
 * recomputes and holds for one unit at a time, the largest. A unit is a block call
 * among the outermost block's statements (one layer), or its operations together; a
 * repeat's or a pipeline's units are its body's. 0 when remat drops nothing. */
double op_working_set(const Op *block);
/* What a chip holds for a block: its params, the KV cache, and when training the
 * gradients, master weights and optimizer state (training.c) and the activations kept
 * for the backward pass. */
double op_block_memory(const Op *op, bool training);

#endif
