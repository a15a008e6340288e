/* evalparts.h — what the evaluator's own files share: eval.c (names, expressions,
 * statements) and call.c (blocks and their calls). Not for the rest of the program,
 * which goes through eval.h.
 */
#ifndef ROOFLINE_EVALPARTS_H
#define ROOFLINE_EVALPARTS_H

#include "eval.h"
#include "layout.h"

/* An expression's value: exactly one of scalar and tensor is set. Owns both. */
typedef struct {
    Poly *scalar;
    Tensor *tensor;
} ExprValue;
void eval_free(ExprValue *v);

/* What one statement accumulates while its expression is evaluated. */
typedef struct {
    Cost cost;
    CostOptions opt;
    Layout layout;
    Span span;   /* the statement's, for errors about it as a whole */
    const Chip *chip;
    const Stmt *stmt;
    Op *root;    /* a top-level statement that calls blocks: their breakdown */
    bool nothing; /* the value is a call of a block that returned nothing */
    double kept;  /* a fused region's: the bytes of its results the backward pass keeps */
    const Node *contracting; /* the contraction whose operands are being evaluated: a
                              * weight's quantization scales run along its dims */
} StmtState;

void eval_stmt_state_init(Eval *ev, StmtState *st);
/* An expression's value into out; on failure out holds nothing. */
bool eval_expr(Eval *ev, const Node *n, StmtState *st, int out_dtype, ExprValue *out);
/* A scalar's value with the bound dims put in; false (reported) if not a number. */
bool eval_number_now(Eval *ev, const Poly *p, Span span, double *out);
/* False (reported) for a polynomial that could not be formed or does not fit a double. */
bool eval_finite_poly(Eval *ev, const Poly *p, Span span);
/* The breakdown a top-level statement's block calls go into (made on first use). */
Op *eval_statement_root(Eval *ev, StmtState *st);

/* Binding names: inside a block a name bound for the first time is local to its
 * frame, and world_frame_restore puts back what it held. bind takes v's tensor. */
bool eval_bind(Eval *ev, int name, BoundValue v);
Frame world_frame_begin(World *w);
bool world_is_local(const World *w, const Frame *f, int name);
void world_frame_restore(World *w, Frame *f);

/* eval.c: whether n is a dtype (int8) or a name bound to one, and which. */
bool eval_names_dtype(const Eval *ev, const Node *n, DType *dtype);

/* call.c: a value to bind (a number, its dims bound, a tensor or a dtype); a block's
 * definition; a call of a block into out, its breakdown under the statement's. */
bool call_bindable_value(Eval *ev, const Node *n, StmtState *st, BoundValue *v);
bool call_define(Eval *ev, const Stmt *s);
bool call_eval(Eval *ev, const Node *n, StmtState *st, const BlockDef *b, ExprValue *out);
/* The index of a block's parameter of that name, or -1. */
int call_block_param_index(const BlockDef *b, int name);
/* The index of the parameter a call's argument goes to: a positional one the next
 * place's (*next counts them, from 0 after a model passed first; it may be past the
 * last), a named one its name's (-1 when b has none). */
int call_arg_param(const BlockDef *b, const Binding *arg, int *next);
/* Runs a block's (or a repeat's) statements until one fails or one returns. */
bool call_run_body(Eval *inner, const AstList *body);

/* stmt.c: the chip a statement's clauses name, else the one in use (NULL for none).
 * eval.c: an operation inside a block as a leaf of its breakdown (training: with its
 * backward pass). */
bool stmt_chip(Eval *ev, const Clauses *c, const Chip **chip);
bool eval_collect_leaf(Eval *ev, const Stmt *s, StmtState *st, Op *parent);

/* eval.c, for stmt.c's dispatcher: `let`; an expression or a collective, costed and
 * reported (or, in a block, a leaf of its breakdown); `return`; `repeat`. */
bool eval_let(Eval *ev, const Stmt *s);
bool eval_expr_stmt(Eval *ev, const Stmt *s);
bool eval_return(Eval *ev, const Stmt *s);
bool eval_repeat(Eval *ev, const Stmt *s);

/* training.c: `remat` and `optimizer`; whether the backward pass keeps a result bound
 * to `name` (contraction: it is a contraction's), or a call's result (remat full, in
 * the outermost block); a param tensor's optimizer state, master weights and gradients
 * on a chip into op's own figures (false when a size is not a number); the optimizer
 * step as a row of a training statement's breakdown (after op_total). */
bool training_remat(Eval *ev, const Stmt *s);
bool training_optimizer(Eval *ev, const Stmt *s);
bool training_remat_keeps(const Eval *ev, int name, bool contraction);
bool training_remat_keeps_call(const Eval *ev);
bool training_param_state(Eval *ev, const Tensor *t, const Mesh *m, double all, double count,
                       Op *op);
bool training_optimizer_step(Eval *ev, Op *root, const Chip *chip);

/* fuse.c: `fused { ... }` (a statement of a block's body); inside it, a name read
 * (t its value, marked on chip when already read or bound in the region), and a
 * statement's cost taken into the region's. */
bool fuse_run(Eval *ev, const Stmt *s);
bool fuse_switch(Eval *ev, const Stmt *s);
bool fuse_read(Eval *ev, int name, Tensor *t);
bool fuse_take(Eval *ev, const Stmt *s, StmtState *st);
/* A block called inside a region: its operations joined the region as it ran; its
 * params and cache (op's own figures) go to the region's row. Frees op. */
void fuse_adopt(Eval *ev, Op *op);

/* arch.c: the `arch` statement; hfconfig.c: its record from a config.json (into a). */
bool arch_define(Eval *ev, const Stmt *s);
bool hfconfig_arch(Eval *ev, const Stmt *s, Arch *a);
/* The model a call passes as its first argument (a bare name), or NULL. */
const Arch *arch_of_arg(const Eval *ev, const Node *call);
/* The model's dims into the values of b's parameters the call left unset (where: at,
 * the model's name in the call); false after an error: a dim b has no parameter for. */
bool arch_fill(Eval *ev, const BlockDef *b, const Arch *a, Span at, BoundValue *vals, Span *where);

#endif
