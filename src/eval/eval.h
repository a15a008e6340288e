/* eval.h — walks the tree: names, tensors, chips, statements.
 *
 * The World is what outlives one buffer of source: bindings, chips, the chip picked
 * by `use`. Evaluating a reported statement computes its Cost (cost.h), puts it on
 * the roofline of its chip (roof.h) and hands that to the report (report.h).
 *
 * Ownership: the World owns every value and chip; values never point into a tree, so
 * a tree can be freed as soon as it has been evaluated.
 */
#ifndef ROOFLINE_EVAL_H
#define ROOFLINE_EVAL_H

#include <stdbool.h>
#include <stdio.h>

#include "arch.h"
#include "ast.h"
#include "chart.h"
#include "chip.h"
#include "cost.h"
#include "diag.h"
#include "expect.h"
#include "intern.h"
#include "caps.h"
#include "layout.h"
#include "mesh.h"
#include "op.h"
#include "report.h"
#include "roof.h"
#include "world.h"

typedef struct Eval Eval;

/* The block a call runs: its callee's, or the one a model passed first names in its
 * place (`model(mixtral_8x7b, ...)` runs moe_model); NULL when there is none. */
const BlockDef *arch_call_target(const Eval *ev, const Node *call);
/* "attention(x: [B, T, D], keys: [...], N, G = N / K, tp = {})": the parameters as
 * written, defaults and shapes from the block's source. */
void call_block_signature(const World *w, const BlockDef *b, char *buf, size_t size);
/* A parameter whose default is a set of mesh axes, `tp = {}`, takes axes. */
bool call_block_axis_param(const Binding *param);

/* The sizes of a statement's dims that still depend on an unbound dim, each with the
 * span that wrote it: a sweep or solve checks them at every value it tries, as `let`
 * checks a dim (a whole number of at least 1). */
typedef struct {
    Poly *size;  /* the bound dims put in */
    Span span;
} OpenDim;
typedef struct {
    OpenDim *dims;
    int n, cap;
} OpenDims;

typedef struct Fusion Fusion; /* fuse.c: a fused region under way */
/* Runs an included file, resolved against the file being evaluated. */
typedef bool (*IncludeFn)(void *ctx, const Source *from, const char *path, Span span);
/* Runs help, names or chips (the session's), with include's context. */
typedef bool (*CommandFn)(void *ctx, const Source *from, const struct Stmt *s);
/* Takes the records written to Eval.out so far (--csv turns them into rows at once, so
 * that a long sweep's rows stream as --json's do); false if that failed. */
typedef bool (*RowsFn)(void *ctx);

struct Eval {
    World *world;
    bool *keep;        /* set when a block is defined: the source must outlive the run */
    Op *collect;       /* inside a block: operations go here instead of being reported */
    Frame *frame;      /* inside a block: its local names */
    int depth;         /* block calls under way */
    int repeats;       /* repeat bodies under way, through calls too */
    bool returned;     /* a `return` ran; its value is in result */
    BoundValue result;
    const Source *src;
    Diag *diag;
    bool exact;
    bool json;
    int jobs;      /* --jobs: processes a search may cost its configurations in */
    CostPlan plan; /* case 2 forced one way (a sweep's alternatives); else BEST */
    OpenDims *open; /* while costing for solve or sweep: dims not yet numbers go here */
    FILE *out;
    IncludeFn include;
    CommandFn command; /* NULL: help, names and chips are refused */
    void *include_ctx; /* include's and command's */
    RowsFn rows_written; /* NULL: what is written to out stays there */
    void *rows_ctx;
    const AstList *body; /* the statements being run (a block's, a repeat's), or NULL */
    int block;           /* the block being run (interned name), or -1 at top level */
    double stages;       /* pipeline stages around (1: none): each holds its own layers */
    const Eval *caller;  /* the evaluator that called it, or NULL */
    Span call;           /* where the caller called it (in caller->src) */
    Fusion *fusion;      /* inside `fused { ... }`; else NULL */
};


/* An expression statement (or a collective) costed on its chip but not reported: the
 * figures with the dims bound now, unbound ones left as formulas. For solve and sweep. */
typedef struct {
    Cost cost;
    Roofline roof;
    Tensor *result;
    Mesh mesh;
    ShardUses uses; /* its dims, for their padded values (layout.h: layout_lookup) */
    const Chip *chip;
    OpenDims open;
} Costed;
/* False after reporting an error; the statement needs an operation and a chip. */
bool eval_costed(Eval *ev, const Stmt *s, Costed *out);
void eval_costed_free(Costed *c);

/* Why a dim's value v is not one: below 1 or with a fraction, or above 2^53, where a
 * double no longer holds every whole number (exactness matters for a size; costs are
 * floats anyway). */
const char *eval_dim_rule(double v);
/* Whether a top-level statement of this value is a training step with an optimizer
 * update: training, an optimizer (not `optimizer none`), and a `param` of its own (not
 * one inside a block it calls, which is a step anyway). Such a statement is reported as
 * a breakdown that ends with the update, as a repeat or a block call is; with no update
 * a statement is its operation alone, in the book's per-pass terms. */
bool eval_is_step(const Eval *ev, const Node *value);
/* Runs a statement without a report: its operations go into root, its bindings are
 * undone; in training, with the optimizer's update of the params it holds. False after
 * reporting an error. */
bool eval_quietly(Eval *ev, const Stmt *s, Op *root);
/* The same without a training step's optimizer update: the work of the call alone. */
bool eval_work_quietly(Eval *ev, const Stmt *s, Op *root);
/* The chip a statement runs on (its `on`, else the one in `use`), or NULL. */
const Chip *eval_chip_of(Eval *ev, const Stmt *s);

/* solve, fit and sweep (explore.c). */
bool explore_solve(Eval *ev, const Stmt *s);
bool explore_fit(Eval *ev, const Stmt *s);
/* The largest whole value of an unbound dim at which the memory per chip of n
 * statements together fits in hbm bytes, what a chip holds there, and at one more.
 * False after reporting an error (at the first statement: even 1 does not fit; it fits
 * at every value). */
typedef struct {
    double largest, memory, next_memory;
} FitResult;
bool explore_fit_largest(Eval *ev, const Stmt *const *stmts, int n, int dim, double hbm,
                 FitResult *out);
bool explore_sweep(Eval *ev, const Stmt *s);
bool explore_plot(Eval *ev, const Stmt *s);
/* search (search.c). */
bool search_run(Eval *ev, const Stmt *s);
/* serve (serve.c): the largest batch, TTFT, TPOT, tokens/s and cost of a request mix. */
bool serve_run(Eval *ev, const Stmt *s);
/* `send T from (0, 0) to (3, 3) on v5e 4x4` (transfer.c). */
bool transfer_run(Eval *ev, const Stmt *s);
/* A send's figures for `expect`: comm_bytes, t_comm (= t_lower = t_upper), hops. */
void check_remember_transfer(Eval *ev, const Stmt *s, double bytes, double t, double hops,
                       double chips);

void check_remember_statement(Eval *ev, const Stmt *s, const Roofline *r);
void check_remember_block(Eval *ev, const Stmt *s, const Op *op, const Chip *chip, double chips);
bool check_expect(Eval *ev, const Stmt *s);

/* A number from an expression (dims bound, finite); false after reporting why not. */
bool eval_number(Eval *ev, const Node *n, double *out);
/* Evaluates one statement; false after reporting an error. */
bool stmt_run(Eval *ev, const Stmt *s);

/* What layout (layout.h) needs of ev: its errors' frame, the world's names, mesh and
 * values, ev's numbers; made afresh each time, as ev changes. */
LayoutEnv eval_layout(Eval *ev);
/* For the evaluator's phases (eval, explore, check): reports an error at
 * `span` of the source being evaluated and returns false; the spelling of a name. */
bool eval_fail(Eval *ev, Span span, const char *fmt, ...) DIAG_PRINTF(3, 4);
/* Memory ran out: "out of memory" at span, and the run stops there, whoever holds the
 * error back (nomem.h). Always false. */
bool eval_oom(Eval *ev, Span span);
/* Ctrl-C stopped the statement: says "interrupted"; false. */
bool eval_interrupted(Eval *ev);
/* The stack is nearly used up (stack.h): reported at span, with how many block calls
 * down the recursion is. Always false. */
bool eval_stack_fail(Eval *ev, Span span);
const char *eval_spelling(const Eval *ev, int name);
/* After a sweep's rows: passes them on (Eval.rows_written); false after an error. */
bool eval_rows_written(Eval *ev);
/* A long statement's progress line (progress.h), cleared by any error it reports. */
void eval_progress_begin(Eval *ev, Progress *p, const char *what, const char *items,
                         double total);
void eval_progress_end(Eval *ev, Progress *p);

#endif
