/* eval.c — walks the tree: binds names, builds tensors, costs and reports statements
 * (the dispatcher and use, mesh, chip and mode are in stmt.c, blocks and their calls in
 * call.c, solve and sweep in explore.c and scan.c, search in search.c, expect in
 * check.c).
 *
 * An expression evaluates to a scalar (a polynomial in the dims: names keep their
 * symbol, so formulas show B even once B is bound) or a tensor. Operations on tensors
 * add to the statement's Cost as they go.
 */
#include "eval.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "evalparts.h"
#include "layout.h"
#include "nomem.h"
#include "num.h"
#include "pipeline.h"
#include "report.h"
#include "roof.h"
#include "spell.h"
#include "stack.h"
#include "summary.h"

/* The expression evaluator recurses once per level of a tree up to LIMIT_EXPR_DEPTH
 * deep: each kind's handler gets its own frame so that eval_expr's stays small (with
 * them inlined, a 999-deep chain overflowed the stack under ASan). */
#if defined(__GNUC__)
#define SEPARATE __attribute__((noinline))
#else
#define SEPARATE
#endif

bool eval_bind(Eval *ev, int name, BoundValue v)
{
    return world_bind(ev->world, ev->frame, name, v);
}

void eval_free(ExprValue *v)
{
    poly_free(v->scalar);
    tensor_free(v->tensor);
    v->scalar = NULL;
    v->tensor = NULL;
}


const char *eval_spelling(const Eval *ev, int name)
{
    return intern_name(ev->world->names, name);
}

static char *shape(const Eval *ev, const Tensor *t, char *buf, size_t size)
{
    return tensor_format(t, world_namer, ev->world, buf, size);
}

/* Inside a stdlib block, the evaluator of the user's code that called into the
 * stdlib, and where (*call); else ev itself. */
static const Eval *user_frame(const Eval *ev, Span *call)
{
    while (ev->src && ev->src->library && ev->caller) {
        *call = ev->call;
        ev = ev->caller;
    }
    return ev;
}

/* Where ev's errors are shown: an error inside a stdlib block is the user's call's
 * (diag.h). */
static DiagFrame frame_of(const Eval *ev)
{
    Span call = {0};
    const Eval *user = user_frame(ev, &call);
    return (DiagFrame){user->src, call, user != ev ? ev->src : NULL};
}

bool eval_fail(Eval *ev, Span span, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    DiagFrame frame = frame_of(ev);
    diag_frame_verror(ev->diag, &frame, span, fmt, ap);
    va_end(ap);
    return false;
}

bool eval_oom(Eval *ev, Span span)
{
    nomem_note(NULL); /* the run cannot go on, whoever holds this error back */
    return eval_fail(ev, span, "out of memory");
}

static bool layout_number(void *ev, const Node *expr, double *out)
{
    return eval_number(ev, expr, out);
}

static const BoundValue *layout_value(void *ev, int name)
{
    return world_value(((Eval *)ev)->world, name);
}

static void layout_note(void *ev, const char *text)
{
    world_note(((Eval *)ev)->world, text);
}

LayoutEnv eval_layout(Eval *ev)
{
    World *w = ev->world;
    return (LayoutEnv){.diag = ev->diag, .frame = frame_of(ev), .src = ev->src,
                       .names = w->names, .mesh = &w->mesh, .calling = w->calling,
                       .padding = &w->padding, .oversplit = &w->under_way.oversplit,
                       .ctx = ev, .number = layout_number, .value = layout_value,
                       .note = layout_note};
}

bool eval_interrupted(Eval *ev)
{
    diag_interrupted(ev->diag);
    return false;
}

bool eval_rows_written(Eval *ev)
{
    return !ev->rows_written || ev->rows_written(ev->rows_ctx);
}

void eval_progress_begin(Eval *ev, Progress *p, const char *what, const char *items,
                         double total)
{
    progress_begin(p, what, items, total);
    ev->diag->progress = p;
}

void eval_progress_end(Eval *ev, Progress *p)
{
    progress_end(p);
    ev->diag->progress = NULL;
}

/* A scalar's value with the bound dims put in; false (reported) if not a number. */
bool eval_number_now(Eval *ev, const Poly *p, Span span, double *out)
{
    if (poly_value(p, world_lookup, ev->world, out) && isfinite(*out))
        return true; /* the usual case; the rest says what is wrong */
    Poly *now = poly_subst(p, world_lookup, ev->world);
    bool ok = now && poly_is_const(now, out);
    if (!ok) {
        char buf[256];
        int unbound[1];
        const Poly *shown = now ? now : p;
        poly_format(shown, POLY_STYLE_TEXT, world_namer, ev->world, buf, sizeof buf);
        bool one_name = p && poly_nterms(p) == 1 && strspn(buf, "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
                        "abcdefghijklmnopqrstuvwxyz0123456789_") == strlen(buf);
        const char *name = poly_symbols(shown, unbound, 1) > 0 ? eval_spelling(ev, unbound[0]) : "B";
        if (strlen(name) > 32) /* the message cuts a long name; the example need not show it */
            name = "it";
        if (one_name)
            eval_fail(ev, span, "needs a number, but %s is not bound", buf);
        else
            eval_fail(ev, span, "needs a number, but %s depends on %s, which is not bound", buf,
                      name);
        diag_note(ev->diag, "bind it first, e.g. `let %s = 256`", strcmp(name, "it") ? name : "B");
    } else if (!isfinite(*out)) {
        ok = eval_fail(ev, span, "number too large: the value overflows");
    }
    poly_free(now);
    return ok;
}

/* The value of a scalar with the bound dims put in, when that is a number. */
static bool value_now(Eval *ev, const Poly *p, double *out)
{
    return poly_value(p, world_lookup, ev->world, out);
}

/* With the bound dims put in, an operation must not overflow, nor turn two nonzero
 * numbers into zero. */
static bool check_result(Eval *ev, const Poly *a, const Poly *b, const Poly *r, Span span)
{
    double va, vb, vr;
    if (!value_now(ev, r, &vr))
        return !poly_has_nonfinite(r) ||
               eval_fail(ev, span, "number too large: the result overflows");
    if (!isfinite(vr))
        return eval_fail(ev, span, "number too large: the result overflows");
    if (vr == 0 && value_now(ev, a, &va) && value_now(ev, b, &vb) && va != 0 && vb != 0)
        return eval_fail(ev, span, "number too small: the result underflows to zero");
    return true;
}

bool eval_finite_poly(Eval *ev, const Poly *p, Span span)
{
    if (!p)
        return eval_fail(ev, span, "too many distinct dims in one term (at most %d)",
                         LIMIT_TERM_DIMS);
    if (poly_has_nonfinite(p))
        return eval_fail(ev, span, "number too large: the result overflows");
    return true;
}

/* p with the bound dims put in must be finite too: x * x with x = 1e200 is not. */
static bool finite_now(Eval *ev, const Poly *p, Span span)
{
    Poly *now = poly_subst(p, world_lookup, ev->world);
    bool ok = now ? eval_finite_poly(ev, now, span) : eval_oom(ev, span);
    poly_free(now);
    return ok;
}

/* A bound dim must be a whole number of elements, at least 1. */
/* Keeps a dim's size that is not a number yet, for solve and sweep to check. */
static bool keep_open(Eval *ev, Poly *now, Span span)
{
    OpenDims *o = ev->open;
    for (int i = 0; i < o->n; i++)
        if (poly_equal(o->dims[i].size, now)) { /* one check serves both */
            poly_free(now);
            return true;
        }
    if (o->n == o->cap) {
        int cap = o->cap ? 2 * o->cap : 8;
        OpenDim *more = realloc(o->dims, sizeof *more * (size_t)cap);
        if (!more) {
            poly_free(now);
            return eval_oom(ev, span);
        }
        o->dims = more;
        o->cap = cap;
    }
    o->dims[o->n++] = (OpenDim){now, span};
    return true;
}

const char *eval_dim_rule(double v)
{
    return v > 0x1p53 ? "a dim must be at most 2^53 = 9007199254740992, above which a double "
                        "skips whole numbers (the size computed may have been rounded)"
                      : "a dim must be a whole number of at least 1";
}

/* A name's or a number's value now, or NAN (an operand of a parameter's default). */
static double operand_now(Eval *ev, const Node *n)
{
    double v = NAN;
    if (n->kind == NODE_NUMBER)
        v = n->as.number;
    else if (n->kind == NODE_NAME && !world_lookup(n->as.name, &v, ev->world))
        v = NAN;
    return v;
}

/* A dim that is the running block's parameter defaulting to a quotient (attention's
 * G = N / K, mlp's J = F / M) is not whole because of the two numbers the caller chose:
 * the error names them, not the parameter they were never shown. False when the dim is
 * not such a parameter (nothing reported). */
static bool quotient_default_fail(Eval *ev, const Poly *size, Span span, double v)
{
    int sym = poly_bare_symbol(size);
    const BlockDef *b = ev->block >= 0 && sym >= 0 ? world_block(ev->world, ev->block) : NULL;
    int k = b ? call_block_param_index(b, sym) : -1;
    const Node *d = k >= 0 ? b->def->as.block.params[k].value : NULL;
    if (!d || d->kind != NODE_BINARY || d->as.binary.op != '/')
        return false;
    const Node *num = d->as.binary.lhs, *den = d->as.binary.rhs;
    double n = operand_now(ev, num), m = operand_now(ev, den);
    if (v == floor(v) || !(fabs(n / m - v) <= 1e-12 * fabs(v))) /* whole (below 1), or given */
        return false;
    const char *text = b->src->text, *name = eval_spelling(ev, sym);
    int nl = num->span.end - num->span.begin, ml = den->span.end - den->span.begin;
    char a[64], c[64], q[64];
    num_format_plain(n, a, sizeof a);
    num_format_plain(m, c, sizeof c);
    num_format_plain(n / m, q, sizeof q); /* 12 / 5 = 2.4, where E·(1/S) gave 2.4000000000000004 */
    eval_fail(ev, span, "%.*s = %s is not a multiple of %.*s = %s: dim %s = %.*s is %s; %s", nl,
              text + num->span.begin, a, ml, text + den->span.begin, c, name,
              d->span.end - d->span.begin, text + d->span.begin, q, eval_dim_rule(v));
    diag_note(ev->diag, "%s computes %s = %.*s from its arguments: give %.*s a multiple of %.*s",
              eval_spelling(ev, ev->block), name, d->span.end - d->span.begin,
              text + d->span.begin, nl, text + num->span.begin, ml, text + den->span.begin);
    return true;
}

/* A dim bound now to a whole number from 1 to 2^53: check_dim's usual case, without
 * the substituted poly it keeps for the others (an open dim, an error to report). */
static bool good_dim_now(Eval *ev, const Poly *size)
{
    double v;
    return poly_value(size, world_lookup, ev->world, &v) && v >= 1 && v == floor(v) &&
           v <= 0x1p53;
}

static bool check_dim(Eval *ev, const Poly *size, Span span, const char *what)
{
    if (good_dim_now(ev, size))
        return true;
    Poly *now = poly_subst(size, world_lookup, ev->world);
    double v;
    bool ok = true;
    if (now && poly_has_nonfinite(now)) {
        poly_free(now);
        return eval_fail(ev, span, "number too large: the size of this %s overflows", what);
    }
    if (now && !poly_is_const(now, &v) && ev->open)
        return keep_open(ev, now, span);
    if (now && poly_is_const(now, &v) && (v < 1 || v != floor(v) || v > 0x1p53)) {
        char value[64], formula[256];
        poly_format(size, POLY_STYLE_TEXT, world_namer, ev->world, formula, sizeof formula);
        num_format_plain(v, value, sizeof value);
        if (quotient_default_fail(ev, size, span, v))
            ok = false;
        else if (strcmp(formula, value) == 0)
            ok = eval_fail(ev, span, "%s %s: %s", what, value, eval_dim_rule(v));
        else
            ok = eval_fail(ev, span, "%s %s is %s; %s", what, formula, value, eval_dim_rule(v));
    }
    poly_free(now);
    return ok;
}

/* p with the bound dims put in has no inf or nan coefficient (false when memory ran
 * out too). */
static bool finite_subst(Eval *ev, const Poly *p)
{
    Poly *now = poly_subst(p, world_lookup, ev->world);
    bool ok = now && !poly_has_nonfinite(now);
    poly_free(now);
    return ok;
}

/* A tensor's size is one term of a polynomial, so it names at most LIMIT_TERM_DIMS
 * distinct dims (caps.h); its bytes, once its dims are bound, must fit in a double. */
static bool check_size(Eval *ev, const Tensor *t, Span span)
{
    Poly *bytes = tensor_bytes(t);
    if (!bytes)
        return eval_fail(ev, span, "this tensor names more than %d distinct dims, the most "
                         "one cost term holds (a dim written as a number does not count)",
                         LIMIT_TERM_DIMS);
    double v;
    bool ok = !poly_has_nonfinite(bytes) &&
              (poly_value(bytes, world_lookup, ev->world, &v) ? isfinite(v)
                                                              : finite_subst(ev, bytes));
    poly_free(bytes);
    return ok || eval_fail(ev, span, "tensor too large: its size in bytes overflows");
}


static bool eval_scalar(Eval *ev, const Node *n, StmtState *st, Poly **out)
{
    ExprValue v = {0};
    if (!eval_expr(ev, n, st, -1, &v))
        return false;
    if (v.tensor) {
        eval_free(&v);
        return eval_fail(ev, n->span, "expected a number or a dim here, not a tensor");
    }
    *out = v.scalar;
    return true;
}

/* A sharded name inside a dim expression: `B_X*T` would be a new dim named B_X, since
 * a dim is sharded only where it stands alone (B_X, B_{dp}); the first such name, or
 * NULL. A name bound to a number is that number, whatever its spelling. */
static const Node *sharded_in_expr(const Eval *ev, const Node *n)
{
    if (!n)
        return NULL;
    switch (n->kind) {
    case NODE_AXES:
        return n;
    case NODE_NAME: {
        const char *text = eval_spelling(ev, n->as.name), *underscore = strrchr(text, '_');
        bool axes = underscore && underscore != text && underscore[1] &&
                    strspn(underscore + 1, "ABCDEFGHIJKLMNOPQRSTUVWXYZ") == strlen(underscore + 1);
        return axes && world_value(ev->world, n->as.name)->kind == VAL_UNBOUND ? n : NULL;
    }
    case NODE_BINARY: {
        const Node *lhs = sharded_in_expr(ev, n->as.binary.lhs);
        return lhs ? lhs : sharded_in_expr(ev, n->as.binary.rhs);
    }
    case NODE_NEGATE:
        return sharded_in_expr(ev, n->as.operand);
    case NODE_CALL:
        for (int i = 0; i < n->as.call.nargs; i++) {
            const Node *arg = sharded_in_expr(ev, n->as.call.args[i].value);
            if (arg)
                return arg;
        }
        return NULL;
    default:
        return NULL;
    }
}

static bool dim_expr_unsharded(Eval *ev, const Node *d)
{
    const Node *name = sharded_in_expr(ev, d);
    if (!name)
        return true;
    int len = name->span.end - name->span.begin;
    const char *text = ev->src->text + name->span.begin;
    eval_fail(ev, name->span, "%.*s is sharded inside a dim expression: only a dim that stands "
              "alone is sharded (B_X), and a product has no name to shard", len, text);
    diag_note(ev->diag, "name the product and shard it (`let BT = B*T`, then `bf16[BT_X, ...]`), "
              "or keep the factors apart (`bf16[B_X, T, ...]`)");
    return false;
}

/* A dim written as a name (`B`, `B_X` sharded over X, `B_{dp}` over the axes dp
 * stands for) is the symbol B; any other expression is a size with no name. */
static bool eval_dim(Eval *ev, const Node *d, StmtState *st, Dim *dim)
{
    LayoutEnv lx = eval_layout(ev);
    dim->name = -1;
    if (d->kind != NODE_AXES && d->kind != NODE_NAME && !dim_expr_unsharded(ev, d))
        return false;
    if (d->kind == NODE_AXES) {
        dim->name = d->as.axes.dim;
        if (!layout_dim_axes(&lx, d, dim->axes, &dim->naxes))
            return false;
    } else if (d->kind != NODE_NAME) {
        return eval_scalar(ev, d, st, &dim->size);
    } else if (!layout_split_name(&lx, &st->layout, d->as.name, d->span, &dim->name, dim->axes,
                                  &dim->naxes)) {
        return false;
    }
    if (world_value(ev->world, dim->name)->kind == VAL_TENSOR)
        return eval_fail(ev, d->span, "%s is a tensor, not a dim", eval_spelling(ev, dim->name));
    dim->size = poly_sym(dim->name);
    return dim->size != NULL;
}

bool eval_names_dtype(const Eval *ev, const Node *n, DType *dtype)
{
    const BoundValue *v = n->kind == NODE_NAME ? world_value(ev->world, n->as.name) : NULL;
    if (n->kind == NODE_DTYPE)
        *dtype = n->as.tensor.dtype;
    else if (v && v->kind == VAL_DTYPE)
        *dtype = v->dtype;
    return n->kind == NODE_DTYPE || (v && v->kind == VAL_DTYPE);
}

/* The dtype of wdtype[D, F]: what the name is bound to, or an error that says what it
 * is instead (`int32[B, D]`: no dtype has that name). */
static bool named_dtype(Eval *ev, const NameRef *ref, DType *dtype)
{
    const BoundValue *v = world_value(ev->world, ref->name);
    const char *word = eval_spelling(ev, ref->name);
    if (v->kind == VAL_DTYPE) {
        *dtype = v->dtype;
        return true;
    }
    if (v->kind != VAL_UNBOUND)
        return eval_fail(ev, ref->span, "%s is %s, not a dtype: a tensor type is a dtype, or a "
                         "name bound to one, and its dims, as bf16[B, D]", word,
                         v->kind == VAL_NUMBER ? "a number" : v->kind == VAL_TENSOR ? "a tensor"
                         : v->kind == VAL_AXES ? "mesh axes" : "a chip");
    eval_fail(ev, ref->span, "unknown dtype %s: a tensor type is a dtype and its dims, as "
              "bf16[B, D]", word);
    SpellNear near = spell_begin(word);
    for (int i = 0; dtype_spellings[i]; i++)
        spell_offer(&near, dtype_spellings[i]);
    for (int i = 0; i < intern_count(ev->world->names); i++) /* wdtype for wdt */
        if (world_value(ev->world, i)->kind == VAL_DTYPE)
            spell_offer(&near, eval_spelling(ev, i));
    if (near.best)
        diag_note(ev->diag, "did you mean %s?", near.best);
    diag_note(ev->diag, "the dtypes: f64 f32 bf16 f16 fp8 (e4m3) fp8_e5m2 int8 int4 fp4 int32, or a "
              "name bound to one (let w = int8)");
    return false;
}

SEPARATE static bool eval_tensor_type(Eval *ev, const Node *n, StmtState *st, ExprValue *out)
{
    DType dtype = n->as.tensor.dtype;
    if (n->as.tensor.dtype_as.name >= 0 && !named_dtype(ev, &n->as.tensor.dtype_as, &dtype))
        return false;
    Tensor *t = tensor_new(dtype, n->as.tensor.ndims);
    if (!t)
        return eval_oom(ev, n->span);
    out->tensor = t;
    for (int i = 0; i < t->ndims; i++) {
        const Node *d = n->as.tensor.dims[i];
        if (!eval_dim(ev, d, st, &t->dims[i]) ||
            !check_dim(ev, t->dims[i].size, d->span, "dim"))
            return false;
    }
    int twice = tensor_repeated_dim(t);
    if (twice != -1)
        return twice < 0 ? eval_oom(ev, n->span)
                         : eval_fail(ev, n->as.tensor.dims[twice]->span, "dim %s appears twice "
                                     "in one tensor; give the second a name of its own",
                                     eval_spelling(ev, t->dims[twice].name));
    LayoutEnv lx = eval_layout(ev);
    return layout_apply(&lx, &st->layout, t, n->span) && check_size(ev, t, n->span);
}

SEPARATE static bool eval_name(Eval *ev, const Node *n, StmtState *st, ExprValue *out)
{
    const BoundValue *v = world_value(ev->world, n->as.name);
    if (v->kind == VAL_AXES)
        return eval_fail(ev, n->span, "%s stands for mesh axes, not a number or a tensor: shard "
                         "a dim over them, F_{%s}, or pass them on", eval_spelling(ev, n->as.name),
                         eval_spelling(ev, n->as.name));
    if (v->kind == VAL_DTYPE)
        return eval_fail(ev, n->span, "%s stands for the dtype %s, not a number or a tensor: "
                         "make a tensor type of it, %s[D, F], or pass it on",
                         eval_spelling(ev, n->as.name), dtype_name(v->dtype), eval_spelling(ev, n->as.name));
    if (v->kind == VAL_UNBOUND && strcmp(eval_spelling(ev, n->as.name), "training") == 0) {
        /* the mode as a number, for a block's defaults (stdlib's model: its logits) */
        out->scalar = poly_const(ev->world->training ? 1 : 0);
        return eval_finite_poly(ev, out->scalar, n->span);
    }
    if (v->kind != VAL_TENSOR) {
        out->scalar = poly_sym(n->as.name);
        return eval_finite_poly(ev, out->scalar, n->span);
    }
    for (int i = 0; i < v->tensor->ndims; i++)
        if (!check_dim(ev, v->tensor->dims[i].size, n->span, eval_spelling(ev, n->as.name)))
            return false;
    out->tensor = tensor_copy(v->tensor);
    if (!out->tensor || (ev->fusion && !fuse_read(ev, n->as.name, out->tensor)))
        return eval_oom(ev, n->span);
    LayoutEnv lx = eval_layout(ev);
    return layout_apply(&lx, &st->layout, out->tensor, n->span) &&
           check_size(ev, out->tensor, n->span);
}

/* a / b: a monomial divisor keeps the names; a sum divides once its dims are bound. */
static Poly *divide(Eval *ev, const Poly *a, const Poly *b, Span span)
{
    double v;
    Poly *now = poly_subst(b, world_lookup, ev->world);
    bool constant = now && poly_is_const(now, &v);
    Poly *q = NULL;
    if (constant && v == 0)
        eval_fail(ev, span, "division by zero");
    else if (poly_nterms(b) == 1)
        q = poly_div(a, b);
    else if (constant)
        q = poly_scale(a, 1 / v);
    else
        eval_fail(ev, span, "cannot divide by a sum of dims that are not bound");
    poly_free(now);
    return q;
}

SEPARATE static bool scalar_op(Eval *ev, const Node *n, Poly *a, Poly *b, ExprValue *out)
{
    switch (n->as.binary.op) {
    case '+': out->scalar = poly_add(a, b); break;
    case '-': out->scalar = poly_sub(a, b); break;
    case '*': out->scalar = poly_mul(a, b); break;
    default:
        out->scalar = divide(ev, a, b, n->as.binary.rhs->span);
        if (!out->scalar)
            return false;
    }
    if (!eval_finite_poly(ev, out->scalar, n->span) || !finite_now(ev, out->scalar, n->span))
        return false;
    return n->as.binary.op == '+' || n->as.binary.op == '-' ||
           check_result(ev, a, b, out->scalar, n->span);
}

/* The first named dim of a that b has too, or -1: what `a * b` meant to contract. */
static int shared_dim(const Tensor *a, const Tensor *b)
{
    for (int i = 0; i < a->ndims; i++)
        for (int j = 0; a->dims[i].name >= 0 && j < b->ndims; j++)
            if (a->dims[i].name == b->dims[j].name)
                return a->dims[i].name;
    return -1;
}

SEPARATE static bool elementwise_error(Eval *ev, const Node *n, const Tensor *a, const Tensor *b,
                              CostError e)
{
    char sa[512], sb[512];
    if (e.status == COST_TOO_COMPLEX)
        return eval_finite_poly(ev, NULL, n->span);
    if (e.status == COST_RANK_MISMATCH)
        eval_fail(ev, n->span, "elementwise %c needs tensors of one shape, or one whose "
                  "dims are named dims of the other, not %s and %s", n->as.binary.op,
                  shape(ev, a, sa, sizeof sa), shape(ev, b, sb, sizeof sb));
    else
        eval_fail(ev, n->span, "elementwise %c needs tensors of one shape%s, not %s and %s",
                  n->as.binary.op, e.status == COST_SHARD_MISMATCH ? " and sharding" : "",
                  shape(ev, a, sa, sizeof sa), shape(ev, b, sb, sizeof sb));
    int dim = shared_dim(a, b);
    if (n->as.binary.op == '*' && e.status != COST_SHARD_MISMATCH && dim >= 0)
        diag_note(ev->diag, "a matmul contracts the dim the operands share: write *_%s",
                  eval_spelling(ev, dim));
    return false;
}

/* a + b (or - * /) of two tensors: its own frame, so the CostOptions is not on the
 * stack of every level of a deep expression. */
SEPARATE static bool elementwise(Eval *ev, const Node *n, StmtState *st, int out_dtype,
                                 const ExprValue *a, const ExprValue *b, ExprValue *out)
{
    CostOptions opt = st->opt;
    opt.out_dtype = out_dtype;
    opt.want = NULL;
    opt.training = ev->world->training;
    opt.param_a = n->as.binary.lhs->kind == NODE_PARAM;
    opt.param_b = n->as.binary.rhs->kind == NODE_PARAM;
    CostError e = cost_elementwise(a->tensor, b->tensor, &opt, &out->tensor, &st->cost);
    return e.status == COST_OK || elementwise_error(ev, n, a->tensor, b->tensor, e);
}

SEPARATE static bool eval_binary(Eval *ev, const Node *n, StmtState *st, int out_dtype, ExprValue *out)
{
    ExprValue a = {0}, b = {0};
    bool ok = eval_expr(ev, n->as.binary.lhs, st, -1, &a) &&
              eval_expr(ev, n->as.binary.rhs, st, -1, &b);
    if (ok && a.scalar && b.scalar) {
        ok = scalar_op(ev, n, a.scalar, b.scalar, out);
    } else if (ok && a.tensor && b.tensor) {
        ok = elementwise(ev, n, st, out_dtype, &a, &b, out);
    } else if (ok) {
        ok = eval_fail(ev, n->span, "cannot mix a tensor and a number in %c; elementwise ops "
                       "take two tensors of one shape", n->as.binary.op);
    }
    eval_free(&a);
    eval_free(&b);
    return ok;
}

/* *_Q with no dim Q where the matmul's place (the left's last dim, the right's first)
 * holds a dim both operands name: that dim is the one to contract. Returns false. */
static bool by_place_note(Eval *ev, const Tensor *a, const Tensor *b, const char *dn)
{
    if (a->ndims == 0 || b->ndims == 0)
        return false;
    int name = a->dims[a->ndims - 1].name;
    if (name < 0 || name != b->dims[0].name)
        return false;
    const char *d = eval_spelling(ev, name);
    diag_note(ev->diag, "with no dim %s, *_%s pairs dims by place as a matmul does, the "
              "left's last unnamed dim with the right's first; here both operands name that "
              "place %s: did you mean *_%s?", dn, dn, d, d);
    return false;
}

SEPARATE static bool contract_error(Eval *ev, const Node *n, const StmtState *st, const Tensor *a,
                           const Tensor *b, CostError e)
{
    char sa[512], sb[512], da[256], db[256];
    const NameRef *d = e.index >= 0 ? &n->as.contract.dims[e.index] : NULL;
    const char *dn = d ? eval_spelling(ev, d->name) : "";
    shape(ev, a, sa, sizeof sa);
    shape(ev, b, sb, sizeof sb);
    switch (e.status) {
    case COST_NOT_A_DIM:
        eval_fail(ev, d->span, "cannot contract %s: neither %s nor %s has a dim %s", dn, sa, sb,
                  dn);
        return by_place_note(ev, a, b, dn);
    case COST_NOT_IN_LHS:
    case COST_NOT_IN_RHS:
        return eval_fail(ev, d->span, "cannot contract %s: %s has no dim %s, so it is not in "
                         "both operands", dn, e.status == COST_NOT_IN_LHS ? sa : sb, dn);
    case COST_REPEATED:
        return eval_fail(ev, d->span, "%s is contracted twice", dn);
    case COST_SIZE_MISMATCH:
        poly_format(a->dims[e.lhs_dim].size, POLY_STYLE_TEXT, world_namer, ev->world, da,
                    sizeof da);
        poly_format(b->dims[e.rhs_dim].size, POLY_STYLE_TEXT, world_namer, ev->world, db,
                    sizeof db);
        eval_fail(ev, d ? d->span : n->span, "%s: sizes differ, %s on the left and %s on "
                  "the right", d ? dn : "a batch dim", da, db);
        if (d && a->dims[e.lhs_dim].name < 0)
            diag_note(ev->diag, "no operand names a dim %s, so *_%s took the left's last "
                      "unnamed dim and the right's first, as in a matmul; name the dims "
                      "(`let %s = ...` and write %s in both) to contract by name", dn, dn, dn,
                      dn);
        return false;
    case COST_SHARD_MISMATCH: /* a batch dim: a contracted one may differ (FSDP × TP) */
        return eval_fail(ev, n->span, "batch dim %s is sharded differently in %s and %s, and "
                         "the result keeps it once; gather one of them first (allgather ... "
                         "over AXES)", eval_spelling(ev, a->dims[e.lhs_dim].name), sa, sb);
    case COST_AXIS_CLASH:
        eval_fail(ev, n->span, "axis %s would shard two dims of the result of %s and %s",
                  eval_spelling(ev, st->layout.mesh.axes[e.index].name), sa, sb);
        diag_note(ev->diag, "a contraction whose operands are sharded over one axis along "
                  "dims that are kept is invalid as is (the book's case 4): gather one operand "
                  "over %s first", eval_spelling(ev, st->layout.mesh.axes[e.index].name));
        return false;
    case COST_TOO_MANY:
        return eval_fail(ev, n->span, "more than %d collectives in one statement; split it",
                         COST_MAX_COLLECTIVES);
    default:
        return eval_finite_poly(ev, NULL, n->span);
    }
}

/* A contraction plan's T_lower on the statement's chip (CostOptions.plan_time). */
static double time_on_chip(const Cost *plan, const CostOptions *opt)
{
    Roofline r;
    RoofError e = roof_times(plan, opt->plan_ctx, opt->mesh, opt->lookup, opt->lookup_ctx, &r);
    double t = e.status == ROOF_OK && r.times_known ? r.t_lower : NAN;
    roof_free(&r);
    return t;
}

SEPARATE static bool eval_contract(Eval *ev, const Node *n, StmtState *st, int out_dtype, ExprValue *out)
{
    ExprValue a = {0}, b = {0};
    const Node *outer = st->contracting;
    st->contracting = n;
    bool ok = eval_expr(ev, n->as.contract.lhs, st, -1, &a) &&
              eval_expr(ev, n->as.contract.rhs, st, -1, &b);
    st->contracting = outer;
    if (ok && (!a.tensor || !b.tensor))
        ok = eval_fail(ev, (a.tensor ? n->as.contract.rhs : n->as.contract.lhs)->span,
                       "a contraction takes tensors on both sides, e.g. bf16[B,D] *_D "
                       "bf16[D,F]");
    int *names = ok ? malloc(sizeof *names * (size_t)n->as.contract.ndims) : NULL;
    if (ok && !names)
        ok = eval_oom(ev, n->span);
    if (ok) {
        for (int i = 0; i < n->as.contract.ndims; i++)
            names[i] = n->as.contract.dims[i].name;
        CostOptions opt = st->opt;
        opt.out_dtype = out_dtype;
        opt.want = out_dtype >= 0 ? st->opt.want : NULL; /* the statement's own result */
        opt.training = ev->world->training;
        opt.param_a = n->as.contract.lhs->kind == NODE_PARAM;
        opt.param_b = n->as.contract.rhs->kind == NODE_PARAM;
        if (st->chip) {
            opt.plan_time = time_on_chip;
            opt.plan_ctx = st->chip;
        }
        opt.plan = ev->plan;
        CostError e = cost_contract(a.tensor, b.tensor, names, n->as.contract.ndims, &opt,
                                    &out->tensor, &st->cost);
        ok = e.status == COST_OK || contract_error(ev, n, st, a.tensor, b.tensor, e);
    }
    free(names);
    eval_free(&a);
    eval_free(&b);
    return ok;
}

/* The value of a figure now, its dims' shards padded, when it is a number (0 for no
 * figure). */
static bool figure_of(const StmtState *st, const Poly *p, double *out)
{
    *out = 0;
    return !p || poly_value(p, layout_lookup, (void *)&st->layout.uses, out);
}

/* figure_of tensor_local_bytes (or _elements), with the same bits, mostly without
 * building the poly. */
static bool local_figure(const StmtState *st, const Tensor *t, const Mesh *m, bool bytes,
                         double *out)
{
    void *uses = (void *)&st->layout.uses;
    *out = 0;
    return bytes ? tensor_local_bytes_value(t, m, layout_lookup, uses, out)
                 : tensor_local_elements_value(t, m, layout_lookup, uses, out);
}

/* A count of the whole tensor (its params): the dims as bound, never padded, so that
 * the model's parameters do not depend on its mesh. Frees p. */
static bool whole_figure(const StmtState *st, Poly *p, double *out)
{
    const ShardPadding *world = st->layout.uses.values;
    bool known = p && poly_value(p, world->lookup, world->ctx, out);
    poly_free(p);
    return known;
}

static bool contracted_name(const Node *contraction, int name)
{
    for (int i = 0; name >= 0 && i < contraction->as.contract.ndims; i++)
        if (contraction->as.contract.dims[i].name == name)
            return true;
    return false;
}

/* A quantized weight's scales (dtype_weight_group): int4 one a group of 128; int8 one
 * an output column, the group the length its matmul contracts, or its first dim when
 * it is not written in the contraction (`out = param int8[D, V]`, contracted later
 * along D). Uncounted while that length is not a number. */
static void quantize_weight(const Node *n, const StmtState *st, Tensor *t)
{
    double group = dtype_weight_group(t->dtype), length;
    const Node *c = st->contracting;
    bool operand = c && (c->as.contract.lhs == n || c->as.contract.rhs == n);
    if (group != 0) {
        t->scale_every = group > 0 ? group : 0;
        return;
    }
    Poly *len = poly_const(1);
    for (int i = 0; i < t->ndims && len; i++)
        if (operand ? contracted_name(c, t->dims[i].name) : i == 0)
            len = poly_mul_into(len, t->dims[i].size);
    t->scale_every = whole_figure(st, len, &length) && length >= 1 ? length : 0;
}

/* `param T` and `cache T`: a tensor that counts as weights or as a KV cache in the
 * block it is written in. */
SEPARATE static bool eval_marked(Eval *ev, const Node *n, StmtState *st, ExprValue *out)
{
    if (!eval_expr(ev, n->as.operand, st, -1, out))
        return false;
    if (n->kind == NODE_PARAM)
        quantize_weight(n, st, out->tensor);
    Op *op = ev->collect;
    if (!op)
        return true;
    const Mesh *m = &st->layout.mesh;
    double all, bytes, count;
    bool known = whole_figure(st, tensor_elements(out->tensor), &all) &&
                 local_figure(st, out->tensor, m, true, &bytes) &&
                 local_figure(st, out->tensor, m, false, &count);
    op->known = op->known && known;
    if (known && n->kind == NODE_PARAM) {
        op->own[OWN_PARAMS] += all;
        op->own[OWN_PARAM_BYTES] += bytes;
        op->own[OWN_LOCAL_PARAMS] += count;
        if (ev->world->training)
            op->known = training_param_state(ev, out->tensor, m, all, count, op) && op->known;
    } else if (known) {
        op->own[OWN_CACHE] += bytes;
    }
    return true;
}

static bool eval_call(Eval *ev, const Node *n, StmtState *st, int out_dtype, ExprValue *out);

static bool eval_node(Eval *ev, const Node *n, StmtState *st, int out_dtype, ExprValue *out);

bool eval_stack_fail(Eval *ev, Span span)
{
    if (ev->depth == 0 && ev->repeats == 0)
        return eval_fail(ev, span, "expression too deep for a stack of %ld kB; split it with "
                         "`let`, or raise the limit (ulimit -s)", stack_limit_kb());
    return eval_fail(ev, span, "too deep for a stack of %ld kB (%d block calls and %d repeats "
                     "down); raise the limit (ulimit -s)", stack_limit_kb(), ev->depth,
                     ev->repeats);
}

/* Records the mesh axes t is split over as used by the statement (World.under_way). */
static void use_axes(World *w, const Tensor *t)
{
    for (int i = 0; i < t->ndims; i++)
        for (int k = 0; k < t->dims[i].naxes; k++)
            world_use_axis(w, t->dims[i].axes[k]);
}

/* An expression's value into out; on failure out holds nothing (a handler may have made
 * a tensor before a check failed: a call's argument bf16[B, 8] with B = 0.5 leaked). */
bool eval_expr(Eval *ev, const Node *n, StmtState *st, int out_dtype, ExprValue *out)
{
    if (eval_node(ev, n, st, out_dtype, out)) {
        if (out->tensor) {
            layout_note_tensor(&st->layout, out->tensor);
            use_axes(ev->world, out->tensor);
        }
        return true;
    }
    eval_free(out);
    return false;
}

static inline bool eval_node(Eval *ev, const Node *n, StmtState *st, int out_dtype, ExprValue *out)
{
    /* Children are shallower, so only the top of a too-deep tree gets here. */
    if (n->depth - 1 > LIMIT_EXPR_DEPTH) /* a leaf is depth 1 */
        return eval_fail(ev, n->span, "expression too deep: more than %d operations chained or "
                         "nested; split it with `let`", LIMIT_EXPR_DEPTH);
    if (stack_low()) /* a stack smaller than the cap assumes (stack.h) */
        return eval_stack_fail(ev, n->span);
    switch (n->kind) {
    case NODE_NUMBER:
        out->scalar = poly_const(n->as.number);
        return eval_finite_poly(ev, out->scalar, n->span);
    case NODE_NAME:
        return eval_name(ev, n, st, out);
    case NODE_TENSOR:
        return eval_tensor_type(ev, n, st, out);
    case NODE_BINARY:
        return eval_binary(ev, n, st, out_dtype, out);
    case NODE_CONTRACT:
        return eval_contract(ev, n, st, out_dtype, out);
    case NODE_CALL:
        return eval_call(ev, n, st, out_dtype, out);
    case NODE_PARAM:
    case NODE_CACHE:
        return eval_marked(ev, n, st, out);
    case NODE_AXES:
        return eval_fail(ev, n->span, "a set of mesh axes is the argument of a block's axis "
                         "parameter (one declared with axes for its default, `tp = {}`)");
    case NODE_DTYPE:
        return eval_fail(ev, n->span, "a dtype alone is no tensor: give it dims, %s[B, D], or "
                         "bind it to a name with `let` or as a block's argument",
                         dtype_name(n->as.tensor.dtype));
    case NODE_NEGATE:
        if (!eval_expr(ev, n->as.operand, st, -1, out))
            return false;
        if (out->tensor) {
            eval_free(out);
            return eval_fail(ev, n->span, "cannot negate a tensor");
        }
        Poly *neg = poly_scale(out->scalar, -1);
        poly_free(out->scalar);
        out->scalar = neg;
        return eval_finite_poly(ev, neg, n->span);
    }
    return false;
}

/* ---- Statements -------------------------------------------------------------- */

void eval_stmt_state_init(Eval *ev, StmtState *st)
{
    memset(st, 0, sizeof *st);
    st->cost.microbatches = 1; /* cost_init's one field not 0: the memset did the rest */
    st->cost.fused = ev->fusion != NULL;
    st->cost.axes_add = ev->world->axes_add;
    st->cost.graph = ev->world->launch_graph;
    LayoutEnv lx = eval_layout(ev);
    layout_inherit(&lx, &st->layout);
    st->opt = (CostOptions){.exact = ev->exact, .out_dtype = -1, .compute_dtype = -1,
                            .mesh = &st->layout.mesh, .lookup = world_lookup,
                            .lookup_ctx = ev->world, .axes_add = ev->world->axes_add,
                            .kernels = ev->world->predicting};
}

bool eval_number(Eval *ev, const Node *n, double *out)
{
    StmtState st;
    eval_stmt_state_init(ev, &st);
    Poly *p = NULL;
    bool ok = eval_scalar(ev, n, &st, &p) && eval_number_now(ev, p, n->span, out);
    poly_free(p);
    cost_free(&st.cost);
    return ok;
}

/* The value of one binding of a let. */
static bool let_value(Eval *ev, const Binding *b, BoundValue *out)
{
    StmtState st;
    DType dtype;
    if (eval_names_dtype(ev, b->value, &dtype)) {
        *out = (BoundValue){.kind = VAL_DTYPE, .dtype = dtype};
        return true;
    }
    if (b->value->kind == NODE_NUMBER && isfinite(b->value->as.number)) {
        /* `let B = 1024`, what eval_expr makes of it, without a statement's state */
        *out = (BoundValue){.kind = VAL_NUMBER, .number = b->value->as.number};
        return true;
    }
    eval_stmt_state_init(ev, &st);
    ExprValue v = {0};
    bool ok = eval_expr(ev, b->value, &st, -1, &v);
    cost_free(&st.cost);
    *out = (BoundValue){.kind = VAL_TENSOR, .tensor = v.tensor};
    if (ok && v.scalar) {
        out->kind = VAL_NUMBER;
        ok = eval_number_now(ev, v.scalar, b->value->span, &out->number);
    }
    poly_free(v.scalar);
    if (!ok)
        tensor_free(v.tensor);
    return ok;
}

/* `let A = .., B = ..`: each binding sees the ones before it. Outside a block it is
 * all or nothing: when one fails, the names get back what they held (the REPL keeps
 * every binding through an error); inside one, the call's frame puts them back. */
bool eval_let(Eval *ev, const Stmt *s)
{
    int n = s->as.let.n, done = 0;
    BoundValue *before = ev->frame ? NULL : calloc((size_t)n + 1, sizeof *before);
    bool ok = ev->frame || before || eval_oom(ev, s->span);
    while (ok && done < n) {
        const Binding *b = &s->as.let.items[done];
        BoundValue v;
        if (!(ok = let_value(ev, b, &v)))
            break;
        if (!before) {
            ok = eval_bind(ev, b->name.name, v) || eval_oom(ev, b->name.span);
        } else if (!world_swap(ev->world, b->name.name, v, &before[done])) {
            tensor_free(v.tensor);
            ok = eval_oom(ev, b->name.span);
        }
        done += ok;
    }
    while (before && done-- > 0) {
        int name = s->as.let.items[done].name.name;
        if (ok && before[done].kind == VAL_TENSOR)
            tensor_free(before[done].tensor);
        else if (!ok)
            world_restore(ev->world, name, before[done]);
    }
    free(before);
    return ok;
}

/* The `->` type: its dtype and sizes, and its shardings when it writes any. */
static bool check_output(Eval *ev, const StmtState *st, const Tensor *want, const Tensor *got,
                         Span span)
{
    const Mesh *m = &st->layout.mesh;
    bool same = want->ndims == got->ndims;
    bool sharded = tensor_axes(want, m) != 0;
    for (int i = 0; same && i < got->ndims; i++)
        same = cost_same_size(want->dims[i].size, got->dims[i].size, world_lookup, ev->world) &&
               (!sharded || tensor_dim_axes(&want->dims[i], m) == tensor_dim_axes(&got->dims[i], m));
    if (!same) {
        char a[512], b[512];
        eval_fail(ev, span, "the result is %s, not %s", shape(ev, got, a, sizeof a),
                  shape(ev, want, b, sizeof b));
    }
    return same;
}

static bool roof_error(Eval *ev, const Stmt *s, const Chip *chip, RoofError e)
{
    const Clauses *c = &s->as.expr.clauses;
    Span at = c->chip.name.name >= 0 ? c->chip.name.span : s->span;
    const char *field = chip_fields[chip_peak_field(e.dtype)].name;
    switch (e.status) {
    case ROOF_NO_PEAK:
        eval_fail(ev, at, "chip %s has no %s peak (field %s)", chip->name, dtype_name(e.dtype),
                  field);
        /* in a block the dtype comes from its parameters (a model's record sets them) */
        diag_note(ev->diag, "give it one, `chip %s : %s { %s = ... }`%s", chip->name,
                  chip->name, field, e.dtype == DT_BF16 ? ""
                  : ev->depth > 0 ? ", or call the block in a dtype the chip has a peak for "
                                    "(wdtype = bf16, adtype = bf16, kvdtype = bf16)"
                  : ", or name the peak to use, e.g. `compute bf16`");
        return false;
    case ROOF_NO_HBM_BW:
        return eval_fail(ev, at, "chip %s has no HBM bandwidth (field hbm_bw)", chip->name);
    case ROOF_NO_NETWORK:
        return eval_fail(ev, at, "chip %s has no network for this collective (%s)", chip->name,
                         e.detail);
    case ROOF_OVERFLOW:
        return eval_fail(ev, s->span, "the cost overflows: a figure is too large for a double");
    case ROOF_BAD_DIM:
        return eval_fail(ev, s->span, "a dim of this statement is zero or negative");
    default:
        return eval_finite_poly(ev, NULL, s->span);
    }
}

static void report_init(Eval *ev, const Stmt *s, Report *r)
{
    int line, col;
    source_position(ev->src, s->span.begin, &line, &col);
    *r = (Report){
        .stmt = ev->src->text + s->span.begin,
        .stmt_len = (size_t)(s->span.end - s->span.begin),
        .line = line,
        .file = ev->src->name,
        .training = ev->world->training, /* every record states the mode it ran in */
        .lookup = world_lookup,
        .lookup_ctx = ev->world,
        .namer = world_namer,
        .values = world_lookup,
        .number = world_number,
        .ctx = ev->world,
        .json = ev->json,
        .out = ev->out,
        .remat = &ev->world->remat,
        .optimizer = &ev->world->optimizer,
        .microbatches = ev->world->microbatches,
        .launch_graph = ev->world->launch_graph,
    };
}

/* A training step ends with the optimizer's update of the params it holds, once per
 * step, whether it calls blocks, is a top-level repeat, or is a statement with a `param`
 * of its own: a row of the block (or repeat) when the statement is just one that runs
 * once, else of the statement. Every way of writing the same step so gets the same
 * update (tests/training/same_step.roof); a statement without params has none. */
static bool add_optimizer_step(Eval *ev, Op *root, const Chip *chip)
{
    if (!ev->world->training)
        return true;
    const Op *only = root->nchildren == 1 ? root->children[0] : NULL;
    Op *step = only && only->runs == 1 && !only->leaf ? root->children[0] : root;
    op_total(root);
    return training_optimizer_step(ev, step, chip);
}

/* Whether a breakdown holds a block call (not only operations written out). */
static bool calls_blocks(const Op *root)
{
    for (int i = 0; i < root->nchildren; i++)
        if (!root->children[i]->leaf)
            return true;
    return false;
}

/* The label of a statement on a chart: its name, or its text cut short, and what its
 * x is when that is not its HBM intensity. */
static char *chart_label(Eval *ev, const Stmt *s, const char *suffix)
{
    char buf[64];
    int len = s->span.end - s->span.begin;
    if (s->kind == STMT_ASSIGN)
        snprintf(buf, sizeof buf, "%s%s", eval_spelling(ev, s->as.expr.target.name), suffix);
    else
        snprintf(buf, sizeof buf, "%.*s%s%s", len > 40 ? 37 : len, ev->src->text + s->span.begin,
                 len > 40 ? "..." : "", suffix);
    return nomem_note(strdup(buf));
}

/* Whether a statement goes on the chart against the network: communication bounds it,
 * and one link prices every collective (link_bw), so that T_comm is at least
 * comm_bytes / link_bw and attained = flops / T_lower lies on or under that link's roof
 * at x = flops / comm_bytes (docs/costmodel.md §2; mesh.h). */
static bool chart_vs_network(const Roofline *r)
{
    return r->bound == BOUND_COMM && r->link_bw > 0 && r->comm_bytes.known &&
           r->comm_bytes.value > 0;
}

/* Keeps a statement whose figures are all known for the roofline chart. */
static void chart_add(Eval *ev, const Stmt *s, const Roofline *r)
{
    World *w = ev->world;
    if (!r->times_known || !r->computes)
        return;
    if (w->nchart == w->chart_cap) {
        int cap = w->chart_cap ? 2 * w->chart_cap : 16;
        ChartPoint *chart = nomem_note(realloc(w->chart, sizeof *chart * (size_t)cap));
        if (!chart)
            return;
        w->chart = chart;
        w->chart_cap = cap;
    }
    bool network = chart_vs_network(r);
    /* Comm-bound with no one link: no roof explains the point, so the label does. */
    const char *suffix = network ? " (vs network)" : r->bound == BOUND_COMM ? " (comm-bound)" : "";
    ChartPoint *p = &w->chart[w->nchart];
    *p = (ChartPoint){chart_label(ev, s, suffix), nomem_note(strdup(r->chip->name)),
                      r->compute, network ? r->flops.value / r->comm_bytes.value : r->intensity,
                      r->attained, r->t_lower, network, r->peak, r->hbm_bw, r->link_bw};
    if (p->label && p->chip)
        w->nchart++;
    else
        world_chart_point_free(p);
}

/* Training: the backward pass, then the step's microbatches (cost.h). */
static bool train_cost(Eval *ev, Cost *c)
{
    double microbatches = ev->world->microbatches;
    return cost_train(c, ev->world->training) &&
           (microbatches == 1 || cost_accumulate(c, microbatches));
}

/* A mesh of several chips whose axes no tensor splits over (nor a pipeline): every
 * chip runs the whole statement, which the figures per chip do not show. */
static void note_unused_mesh(Eval *ev, const Mesh *m)
{
    char list[80] = "", note[WORLD_NOTE_SIZE]; /* the list may lose its end, not the note */
    size_t used = 0;
    for (int i = 0; i < m->n && used < sizeof list; i++)
        if (m->axes[i].size > 1 && !world_axis_used(ev->world, m->axes[i].name))
            used += (size_t)snprintf(list + used, sizeof list - used, "%s%s (%d)", used ? ", " : "",
                                     eval_spelling(ev, m->axes[i].name), m->axes[i].size);
    if (!used)
        return;
    snprintf(note, sizeof note, "no dim is split over %s %s: %s chips repeat the same work "
             "(give a strategy, e.g. dp, fsdp or tp, or shard a dim)", strchr(list, ',') ? "axes"
             : "axis", list, strchr(list, ',') ? "their" : "its");
    world_note(ev->world, note);
}

static bool report_cost(Eval *ev, const Stmt *s, StmtState *st, const Chip *chip,
                        const Tensor *result)
{
    Roofline roof;
    if (ev->world->training && !train_cost(ev, &st->cost))
        return eval_finite_poly(ev, NULL, s->span);
    LayoutEnv lx = eval_layout(ev);
    layout_note_padding(&lx, &st->layout.uses);
    RoofError e = roof_compute(&st->cost, chip, &st->layout.mesh, layout_lookup,
                               &st->layout.uses, &roof);
    bool ok = e.status == ROOF_OK || roof_error(ev, s, chip, e);
    if (ok && nomem_failed()) /* a figure went missing: no report with a hole in it */
        ok = eval_oom(ev, s->span);
    if (ok) {
        Report r;
        report_init(ev, s, &r);
        r.lookup = layout_lookup;
        r.lookup_ctx = &st->layout.uses;
        note_unused_mesh(ev, &st->layout.mesh);
        r.notes = ev->world->under_way.notes;
        r.nnotes = ev->world->under_way.nnotes;
        r.result = result;
        r.roof = &roof;
        r.cost = &st->cost;
        r.mesh = &st->layout.mesh;
        r.training = ev->world->training;
        report_statement(&r);
        chart_add(ev, s, &roof);
        check_remember_statement(ev, s, &roof);
    }
    roof_free(&roof);
    return ok;
}

static void report_plain(Eval *ev, const Stmt *s, const ExprValue *v, const Mesh *mesh)
{
    Report r;
    report_init(ev, s, &r);
    r.result = v->tensor;
    r.mesh = mesh; /* a sharded tensor's report gives the shard a chip holds */
    if (v->scalar)
        report_number(&r, v->scalar);
    else
        report_tensor(&r, s->kind == STMT_ASSIGN ? eval_spelling(ev, s->as.expr.target.name)
                          : s->as.expr.value->kind == NODE_NAME
                              ? eval_spelling(ev, s->as.expr.value->as.name)
                              : NULL);
}

/* The clauses, before the expression: the chip, the mesh and the shardings it implies,
 * the compute dtype, and the `->` type (into want). */
static bool prepare_clauses(Eval *ev, const Clauses *c, StmtState *st, const Chip **chip,
                            ExprValue *want)
{
    LayoutEnv lx = eval_layout(ev);
    if (!stmt_chip(ev, c, chip) ||
        !layout_from_clauses(&lx, c, *chip, st->span, &st->layout))
        return false;
    st->chip = *chip;
    st->opt.mxu = *chip && (*chip)->set[CHIP_MXU_SIZE] ? (int)(*chip)->value[CHIP_MXU_SIZE] : 0;
    st->opt.compute_dtype = c->compute;
    if (c->out_type && !eval_expr(ev, c->out_type, st, -1, want))
        return false;
    st->opt.want = want->tensor;
    return true;
}

static bool collective_error(Eval *ev, const Stmt *s, const StmtState *st, CostError e)
{
    const char *what = coll_name((CollKind)s->as.expr.collective);
    const char *axis = e.index >= 0 ? eval_spelling(ev, st->layout.mesh.axes[e.index].name) : "";
    switch (e.status) {
    case COST_NOT_SHARDED:
        return eval_fail(ev, s->as.expr.value->span, "%s over %s needs a tensor sharded over %s",
                         what, eval_spelling(ev, s->as.expr.over.name), axis);
    case COST_ALREADY_SHARDED:
        return eval_fail(ev, s->as.expr.value->span, "%s sums partial results across %s, but this "
                         "tensor is already sharded over %s", what, axis, axis);
    case COST_NO_TARGET:
        return eval_fail(ev, s->as.expr.value->span, "%s over %s: no dim is left to shard over "
                         "%s; say which with `-> dtype[..._%s, ...]`", what,
                         eval_spelling(ev, s->as.expr.over.name), eval_spelling(ev, s->as.expr.over.name),
                         eval_spelling(ev, s->as.expr.over.name));
    default:
        return eval_finite_poly(ev, NULL, s->span);
    }
}

/* `allgather x over Y`: the tensor, then the collective on it. */
static bool eval_collective(Eval *ev, const Stmt *s, StmtState *st, ExprValue *v)
{
    AxisSet axes;
    LayoutEnv lx = eval_layout(ev);
    if (!eval_expr(ev, s->as.expr.value, st, -1, v) ||
        !layout_axes(&lx, &st->layout, &s->as.expr.over, &axes))
        return false;
    if (!v->tensor)
        return eval_fail(ev, s->as.expr.value->span, "a collective moves a tensor, not a number");
    for (int a = 0; a < st->layout.mesh.n; a++) /* an AllReduce's partial sums lie along them */
        if (axes & 1u << a)
            world_use_axis(ev->world, st->layout.mesh.axes[a].name);
    Tensor *result;
    CostError e = cost_collective(v->tensor, (CollKind)s->as.expr.collective, axes, &st->opt,
                                  &result, &st->cost);
    if (e.status != COST_OK)
        return collective_error(ev, s, st, e);
    tensor_free(v->tensor);
    v->tensor = result;
    return true;
}

static bool eval_value(Eval *ev, const Stmt *s, StmtState *st, const ExprValue *want, ExprValue *v)
{
    if (s->kind == STMT_COLLECTIVE)
        return eval_collective(ev, s, st, v);
    return eval_expr(ev, s->as.expr.value, st, want->tensor ? (int)want->tensor->dtype : -1, v);
}

/* ---- Blocks: operations collected into a breakdown ---------------------------------- */

/* Appends len bytes of text (fewer at a NUL) to the label in buf, cut short as snprintf
 * would cut it and always ended: a search labels every statement of every configuration,
 * and snprintf's parsing of its format was 1.7% of its costing. */
static void label_append(char *buf, size_t size, size_t *used, const char *text, size_t len)
{
    size_t n = strnlen(text, len < size - 1 - *used ? len : size - 1 - *used);
    memcpy(buf + *used, text, n);
    *used += n;
    buf[*used] = '\0';
}

static void label_add(char *buf, size_t size, size_t *used, const char *text)
{
    label_append(buf, size, used, text, size);
}

/* "fused {s, e, p, o}": the names a fused region binds. */
static char *fused_label(Eval *ev, const Stmt *s, char *buf, size_t size)
{
    const AstList *body = s->as.repeat.body;
    size_t used = 0;
    label_add(buf, size, &used, "fused {");
    bool first = true;
    for (int i = 0; body && i < body->n; i++) {
        const Stmt *one = body->items[i];
        if (one->kind != STMT_ASSIGN)
            continue;
        if (!first)
            label_add(buf, size, &used, ", ");
        label_add(buf, size, &used, eval_spelling(ev, one->as.expr.target.name));
        first = false;
    }
    label_add(buf, size, &used, "}");
    return buf;
}

/* A statement's text, and when its tensor's dtype is a name (`alltoall adtype[E, C, D]`),
 * the dtype that name is bound to in its place: the label says what moved. */
static char *text_label(Eval *ev, const Stmt *s, char *buf, size_t size)
{
    const char *text = ev->src->text;
    const Node *v = s->kind == STMT_COLLECTIVE ? s->as.expr.value : NULL;
    const NameRef *as = v && v->kind == NODE_TENSOR ? &v->as.tensor.dtype_as : NULL;
    const BoundValue *bound = as && as->name >= 0 ? world_value(ev->world, as->name) : NULL;
    if (!bound || bound->kind != VAL_DTYPE) {
        size_t used = 0;
        label_append(buf, size, &used, text + s->span.begin, (size_t)(s->span.end - s->span.begin));
        return buf;
    }
    snprintf(buf, size, "%.*s%s%.*s", as->span.begin - s->span.begin, text + s->span.begin,
             dtype_name(bound->dtype), s->span.end - as->span.end, text + as->span.end);
    return buf;
}

static char *stmt_label(Eval *ev, const Stmt *s, char *buf, size_t size)
{
    if (s->kind == STMT_FUSED)
        return fused_label(ev, s, buf, size);
    if (s->kind != STMT_ASSIGN)
        return text_label(ev, s, buf, size);
    size_t used = 0;
    if (ev->block >= 0) { /* as `remat save` names it */
        label_add(buf, size, &used, eval_spelling(ev, ev->block));
        label_add(buf, size, &used, ".");
    }
    label_add(buf, size, &used, eval_spelling(ev, s->as.expr.target.name));
    return buf;
}

/* A kernel's prediction, or none: a leaf whose dims are unbound is not known anyway. */
static void fill_leaf_prediction(Op *op, const Prediction *p)
{
    op->predicted = p->made;
    op->t_predicted = p->known ? p->t : 0;
    op->kernels = p->kernels;
    op->fallbacks = p->fallbacks;
    size_t used = 0;
    label_add(op->fallback, sizeof op->fallback, &used, p->fallbacks ? p->why : "");
}

static void fill_leaf(Op *op, const Roofline *r, const double kept[2])
{
    op->known = r->times_known;
    op->flops = r->flops.value;
    op->bytes = r->bytes.value;
    op->comm_bytes = r->comm_bytes.value;
    op->t_math = r->t_math.value;
    op->t_hbm = r->t_hbm.value;
    op->t_comm = r->t_comm.value;
    op->own[OWN_ACTIVATIONS] = kept[0];
    op->recomputed = kept[1];
    op->t_lower = r->t_lower; /* per pass when training (roof.h) */
    op->t_upper = r->t_upper;
    op->bound = r->bound;
    op->t_derated = r->t_derated;
    op->held = r->memory_known ? r->memory : 0;
    fill_leaf_prediction(op, &r->predict);
    op->compute = r->compute;
    op->vector = r->vector;
    op->link_bw = r->link_bw;
}

/* An operation inside a block: a leaf of the breakdown, not a report. */
/* Each collective's time at its link's bandwidth, added up by kind. */
static void leaf_collectives(const ShardUses *uses, const Cost *c, const Roofline *r, Op *op)
{
    for (int i = 0; i < r->ncomm && i < c->ncolls; i++) {
        double v;
        if (poly_value(c->colls[i].bytes, layout_lookup, (void *)uses, &v) &&
            r->links[i].bandwidth > 0)
            op->t_coll[c->colls[i].kind] += r->links[i].factor * v / r->links[i].bandwidth;
        op->latency_unset |= r->links[i].unset;
    }
}

/* Whether a statement's result is a contraction's (remat selective keeps those). */
static bool is_contraction(const Stmt *s)
{
    const Node *v = s->kind == STMT_RETURN ? s->as.repeat.value
                    : s->kind == STMT_ASSIGN || s->kind == STMT_EXPR ? s->as.expr.value : NULL;
    return v && v->kind == NODE_CONTRACT;
}

/* Training: the backward pass too, and what it keeps of the result (the remat policy:
 * a result not kept is recomputed); a fused region has settled both (fuse.c).
 * kept[0] is the bytes kept, kept[1] those recomputed: the backward pass holds them
 * again while it runs (the working set; 0 when they have no figure). */
static bool train_leaf(Eval *ev, const Stmt *s, StmtState *st, double kept[2])
{
    kept[0] = kept[1] = 0;
    if (!ev->world->training)
        return true;
    if (s->kind == STMT_FUSED) {
        kept[0] = st->kept;
        if (figure_of(st, st->cost.written, &kept[1]))
            kept[1] = kept[1] > st->kept ? kept[1] - st->kept : 0;
    } else if (training_remat_keeps(ev, s->kind == STMT_ASSIGN ? s->as.expr.target.name : -1,
                           is_contraction(s))) {
        if (!figure_of(st, st->cost.written, &kept[0]))
            return false;
    } else if (!cost_recompute_all(&st->cost)) {
        return false;
    } else if (!figure_of(st, st->cost.written, &kept[1])) {
        kept[1] = 0;
    }
    return train_cost(ev, &st->cost);
}

bool eval_collect_leaf(Eval *ev, const Stmt *s, StmtState *st, Op *parent)
{
    char label[96];
    Roofline roof;
    double kept[2];
    if (!train_leaf(ev, s, st, kept))
        return eval_finite_poly(ev, NULL, s->span);
    LayoutEnv lx = eval_layout(ev);
    layout_note_padding(&lx, &st->layout.uses);
    RoofError e = roof_times(&st->cost, st->chip, &st->layout.mesh, layout_lookup,
                             &st->layout.uses, &roof);
    if (e.status != ROOF_OK) {
        bool ok = st->chip ? roof_error(ev, s, st->chip, e) : eval_finite_poly(ev, NULL, s->span);
        roof_free(&roof);
        return ok;
    }
    Op *op = op_new(stmt_label(ev, s, label, sizeof label));
    if (op) {
        op->leaf = true;
        if (st->chip) {
            fill_leaf(op, &roof, kept);
            leaf_collectives(&st->layout.uses, &st->cost, &roof, op);
        } else {
            op->known = false;
        }
    }
    roof_free(&roof);
    if (!op || !op_add(parent, op)) {
        op_free(op);
        return eval_oom(ev, s->span);
    }
    return true;
}

/* Adds a breakdown up; an error when its totals overflow a double. */
static bool add_up(Eval *ev, const Stmt *s, Op *root)
{
    op_total(root);
    return op_finite(root) || eval_fail(ev, s->span, "the cost overflows: the totals are too "
                                        "large for a double");
}

/* The breakdown of a top-level statement that calls blocks, with the statement's own
 * operations as a leaf. */
static bool report_calls(Eval *ev, const Stmt *s, StmtState *st)
{
    if (st->cost.ops > 0 && !eval_collect_leaf(ev, s, st, st->root))
        return false;
    if (calls_blocks(st->root) && !add_optimizer_step(ev, st->root, st->chip))
        return eval_oom(ev, s->span);
    if (!add_up(ev, s, st->root))
        return false;
    Report r;
    report_init(ev, s, &r);
    note_unused_mesh(ev, &st->layout.mesh);
    r.notes = ev->world->under_way.notes;
    r.nnotes = ev->world->under_way.nnotes;
    r.chip = st->chip;
    r.mesh = &st->layout.mesh;
    r.training = ev->world->training;
    Summary summary;
    if (!summary_measure(ev, s, st->root, st->chip, &st->layout.mesh, &summary))
        return false;
    r.summary = &summary;
    report_block(&r, st->root);
    check_remember_block(ev, s, st->root, st->chip, mesh_chips(&st->layout.mesh));
    summary_remember(&ev->world->last, &summary);
    return true;
}

Op *eval_statement_root(Eval *ev, StmtState *st)
{
    char label[96];
    if (!st->root && st->stmt)
        st->root = op_new(stmt_label(ev, st->stmt, label, sizeof label));
    return st->root;
}

/* The built-in functions: elementwise f(x), and reductions f(x, DIM). A block of the
 * same name takes precedence. */
static const char *const UNARY_FUNCTIONS[] = {"exp", "log", "sqrt", "rsqrt", "tanh",
                                              "sigmoid", "relu", "gelu", "silu", NULL};
/* gather(x, DIM) is one too: an AllGather that leaves DIM whole (no FLOPs). */
static const char *const REDUCTIONS[] = {"sum", "mean", "max", "gather", NULL};

static bool listed(const char *const *names, const char *name)
{
    for (int i = 0; names[i]; i++)
        if (strcmp(names[i], name) == 0)
            return true;
    return false;
}

static bool is_function(const Eval *ev, int name)
{
    const char *s = eval_spelling(ev, name);
    return listed(UNARY_FUNCTIONS, s) || listed(REDUCTIONS, s) || strcmp(s, "lookup") == 0 ||
           strcmp(s, "last") == 0 || strcmp(s, "min") == 0 || strcmp(s, "weights") == 0 ||
           strcmp(s, "ceil") == 0;
}

/* The dim of t that `arg` gives: a bare name of one of its dims, or a whole-number
 * index (0 the first dim, -1 the last); or -1 with an error given. */
static int reduced_dim(Eval *ev, const Node *arg, const Tensor *t, const char *fn)
{
    char buf[512];
    if (arg->kind == NODE_NAME)
        for (int i = 0; i < t->ndims; i++)
            if (t->dims[i].name == arg->as.name)
                return i;
    const Node *num = arg->kind == NODE_NEGATE ? arg->as.operand : arg;
    if (num->kind == NODE_NUMBER && num->as.number == floor(num->as.number) &&
        num->as.number <= t->ndims) {
        int index = arg == num ? (int)num->as.number : t->ndims - (int)num->as.number;
        if (index >= 0 && index < t->ndims)
            return index;
    }
    eval_fail(ev, arg->span, "%s(x, DIM) takes a dim of x, named or by index (0 the first, -1 "
              "the last); %s has no dim %.*s", fn, shape(ev, t, buf, sizeof buf),
              (int)(arg->span.end - arg->span.begin), ev->src->text + arg->span.begin);
    return -1;
}

/* gather(x, D): x with D whole, by an AllGather over D's axes; nothing when D is whole
 * on every chip already (no operation, no row). */
static CostError gather_dim(const Tensor *x, int dim, const CostOptions *opt, ExprValue *out,
                            StmtState *st)
{
    AxisSet axes = tensor_dim_axes(&x->dims[dim], opt->mesh);
    if (axes && mesh_span(opt->mesh, axes) > 1)
        return cost_collective(x, COLL_ALLGATHER, axes, opt, &out->tensor, &st->cost);
    out->tensor = tensor_copy(x);
    if (out->tensor)
        tensor_dim_remove_axes(&out->tensor->dims[dim], axes, opt->mesh);
    return (CostError){out->tensor ? COST_OK : COST_TOO_COMPLEX, -1, -1, -1};
}

/* lookup(table, x): an embedding's rows, x's shape from the table (cost.h: cost_lookup). */
SEPARATE static bool eval_lookup(Eval *ev, const Node *n, StmtState *st, ExprValue *out)
{
    if (n->as.call.nargs != 2 || n->as.call.args[0].name.name >= 0 ||
        n->as.call.args[1].name.name >= 0)
        return eval_fail(ev, n->span, "lookup takes a table and the tokens' rows: "
                         "lookup(table, x), x of the result's shape");
    ExprValue table = {0}, x = {0};
    bool ok = eval_expr(ev, n->as.call.args[0].value, st, -1, &table) &&
              eval_expr(ev, n->as.call.args[1].value, st, -1, &x);
    const Node *bad = !ok ? NULL : !table.tensor ? n->as.call.args[0].value
                    : !x.tensor ? n->as.call.args[1].value : NULL;
    if (bad)
        ok = eval_fail(ev, bad->span, "lookup takes tensors, not a number");
    if (ok) {
        CostOptions opt = st->opt;
        opt.want = NULL;
        opt.training = ev->world->training;
        opt.param_a = n->as.call.args[0].value->kind == NODE_PARAM;
        CostError e = cost_lookup(table.tensor, x.tensor, &opt, &out->tensor, &st->cost);
        ok = e.status == COST_OK || eval_finite_poly(ev, NULL, n->span);
    }
    eval_free(&table);
    eval_free(&x);
    return ok;
}

/* Whether a count and a dim's size have one value: both the same formula, or the same
 * number once the names bound now are put in. */
static bool same_size(Eval *ev, const Poly *a, const Poly *b)
{
    double x, y;
    return poly_equal(a, b) || (poly_value(a, world_lookup, ev->world, &x) &&
                                poly_value(b, world_lookup, ev->world, &y) && x == y);
}

/* x with its dim `dim` cut to its last `count` positions: the dim becomes `count`,
 * unnamed. The positions must be on every chip: a dim split over the mesh is refused. */
static bool cut_to_last(Eval *ev, const Node *n, StmtState *st, Tensor *x, int dim,
                        const Poly *count)
{
    Dim *d = &x->dims[dim];
    const Node *where = n->as.call.args[2].value;
    AxisSet axes = tensor_dim_axes(d, &st->layout.mesh);
    if (axes && mesh_span(&st->layout.mesh, axes) > 1)
        return eval_fail(ev, n->as.call.args[1].value->span, "last takes positions a chip "
                         "holds whole, and this dim is split over the mesh: gather it first, "
                         "last(gather(x, DIM), DIM, N)");
    if (!check_dim(ev, count, where->span, "count"))
        return false;
    double c, size;
    Poly *pc = poly_subst(count, world_lookup, ev->world), *ps = poly_subst(d->size, world_lookup,
                                                                           ev->world);
    bool longer = pc && ps && poly_is_const(pc, &c) && poly_is_const(ps, &size) && c > size;
    poly_free(pc);
    poly_free(ps);
    if (longer)
        return eval_fail(ev, where->span, "last takes at most the %.17g positions of the dim, "
                         "not %.17g", size, c);
    Poly *cut = poly_copy(count);
    if (!cut)
        return eval_oom(ev, n->span);
    poly_free(d->size);
    d->size = cut;
    d->name = -1;
    return true;
}

/* last(x, DIM, N): the last N positions of x along DIM (a prefill's last token, whose
 * logits are the next token's). No operation of its own: the one that reads the result
 * reads only those positions. N equal to the dim's size gives x unchanged. */
static bool eval_last(Eval *ev, const Node *n, StmtState *st, ExprValue *out)
{
    if (n->as.call.nargs != 3)
        return eval_fail(ev, n->span, "last takes a tensor, one of its dims and a count: "
                         "last(x, DIM, N)");
    for (int i = 0; i < 3; i++)
        if (n->as.call.args[i].name.name >= 0)
            return eval_fail(ev, n->as.call.args[i].name.span, "last takes no named arguments");
    ExprValue x = {0}, count = {0};
    if (!eval_expr(ev, n->as.call.args[0].value, st, -1, &x))
        return false;
    bool ok = x.tensor || eval_fail(ev, n->as.call.args[0].value->span, "last takes a tensor, "
                                    "not a number");
    int dim = ok ? reduced_dim(ev, n->as.call.args[1].value, x.tensor, "last") : -1;
    ok = dim >= 0 && eval_expr(ev, n->as.call.args[2].value, st, -1, &count);
    if (ok && !count.scalar)
        ok = eval_fail(ev, n->as.call.args[2].value->span, "last's count is a number of "
                       "positions, not a tensor");
    if (ok && !same_size(ev, count.scalar, x.tensor->dims[dim].size))
        ok = cut_to_last(ev, n, st, x.tensor, dim, count.scalar);
    if (ok) {
        out->tensor = x.tensor;
        x.tensor = NULL;
    }
    eval_free(&x);
    eval_free(&count);
    return ok;
}

/* weights(T): T read as weights that a `param` elsewhere holds (moe_step's experts
 * read, rows of the bank it holds): a quantized one's scales count in the bytes read as
 * a param's do (quantize_weight, grouped along what its contraction contracts), and
 * it is not counted as parameters again. */
static bool eval_weights(Eval *ev, const Node *n, StmtState *st, ExprValue *out)
{
    if (n->as.call.nargs != 1 || n->as.call.args[0].name.name >= 0)
        return eval_fail(ev, n->span, "weights takes one tensor: weights(T)");
    const Node *arg = n->as.call.args[0].value;
    if (!eval_expr(ev, arg, st, -1, out))
        return false;
    if (!out->tensor) {
        eval_free(out);
        return eval_fail(ev, arg->span, "weights takes a tensor, not a number");
    }
    quantize_weight(n, st, out->tensor);
    return true;
}

/* ceil(x) of a number, its dims bound: the whole number at or above it (moe's tokens
 * an expert, a dim, when the experts do not divide the token-expert pairs). */
static bool eval_ceil(Eval *ev, const Node *n, StmtState *st, ExprValue *out)
{
    if (n->as.call.nargs != 1 || n->as.call.args[0].name.name >= 0)
        return eval_fail(ev, n->span, "ceil takes one number: ceil(x)");
    const Node *arg = n->as.call.args[0].value;
    ExprValue x = {0};
    double v = 0;
    bool ok = eval_expr(ev, arg, st, -1, &x);
    if (ok && x.tensor)
        ok = eval_fail(ev, arg->span, "ceil takes a number, not a tensor");
    ok = ok && eval_number_now(ev, x.scalar, arg->span, &v);
    if (ok) {
        out->scalar = poly_const(ceil(v));
        ok = out->scalar || eval_oom(ev, n->span);
    }
    eval_free(&x);
    return ok;
}

/* min(a, b) and max(a, b) of two numbers (a the first, evaluated): what a block's
 * default can take of its arguments, as moe's active experts, min(E, B·T·k). */
static bool eval_extremum(Eval *ev, const Node *n, StmtState *st, const char *fn, ExprValue *a,
                          ExprValue *out)
{
    ExprValue b = {0};
    double va = 0, vb = 0;
    const Node *first = n->as.call.args[0].value, *second = n->as.call.args[1].value;
    bool ok = eval_expr(ev, second, st, -1, &b);
    if (ok && (a->tensor || b.tensor))
        ok = eval_fail(ev, (a->tensor ? first : second)->span, "%s(a, b) takes two numbers%s",
                       fn, strcmp(fn, "max") == 0 ? "; max(x, DIM) reduces a tensor" : "");
    ok = ok && eval_number_now(ev, a->scalar, first->span, &va) &&
         eval_number_now(ev, b.scalar, second->span, &vb);
    if (ok) {
        bool keep_a = strcmp(fn, "min") == 0 ? va <= vb : va >= vb;
        out->scalar = poly_const(keep_a ? va : vb);
        ok = out->scalar || eval_oom(ev, n->span);
    }
    eval_free(a);
    eval_free(&b);
    return ok;
}

SEPARATE static bool eval_function(Eval *ev, const Node *n, StmtState *st, int out_dtype, ExprValue *out)
{
    const char *fn = eval_spelling(ev, n->as.call.callee.name);
    if (strcmp(fn, "lookup") == 0)
        return eval_lookup(ev, n, st, out);
    if (strcmp(fn, "last") == 0)
        return eval_last(ev, n, st, out);
    if (strcmp(fn, "weights") == 0)
        return eval_weights(ev, n, st, out);
    if (strcmp(fn, "ceil") == 0)
        return eval_ceil(ev, n, st, out);
    bool unary = listed(UNARY_FUNCTIONS, fn);
    int want = unary ? 1 : 2;
    if (n->as.call.nargs != want)
        return eval_fail(ev, n->span, unary ? "%s takes one tensor: %s(x)"
                                            : "%s takes a tensor and one of its dims: %s(x, DIM)",
                         fn, fn);
    for (int i = 0; i < want; i++)
        if (n->as.call.args[i].name.name >= 0)
            return eval_fail(ev, n->as.call.args[i].name.span, "%s takes no named arguments", fn);
    ExprValue x = {0};
    if (!eval_expr(ev, n->as.call.args[0].value, st, -1, &x))
        return false;
    bool extremum = strcmp(fn, "min") == 0 || strcmp(fn, "max") == 0;
    if (extremum && (!x.tensor || strcmp(fn, "min") == 0))
        return eval_extremum(ev, n, st, fn, &x, out);
    bool ok = x.tensor != NULL;
    if (!ok)
        eval_fail(ev, n->as.call.args[0].value->span, "%s takes a tensor, not a number", fn);
    int dim = ok && !unary ? reduced_dim(ev, n->as.call.args[1].value, x.tensor, fn) : -1;
    if (ok && (unary || dim >= 0)) {
        CostOptions opt = st->opt;
        opt.out_dtype = out_dtype;
        opt.want = NULL;
        CostError e = unary ? cost_unary(x.tensor, &opt, &out->tensor, &st->cost)
                      : strcmp(fn, "gather") == 0 ? gather_dim(x.tensor, dim, &opt, out, st)
                      : cost_reduce(x.tensor, dim, &opt, &out->tensor, &st->cost);
        ok = e.status == COST_OK || eval_finite_poly(ev, NULL, n->span);
    } else {
        ok = false;
    }
    eval_free(&x);
    return ok;
}

/* "unknown block glue", with the block or function its name is closest to. */
static bool unknown_block(Eval *ev, const NameRef *callee)
{
    if (!world_library(ev->world))
        return false;
    const char *name = eval_spelling(ev, callee->name);
    SpellNear near = spell_begin(name);
    for (int i = 0; i < ev->world->nblocks; i++)
        spell_offer(&near, eval_spelling(ev, ev->world->blocks[i].name));
    for (int i = 0; UNARY_FUNCTIONS[i]; i++)
        spell_offer(&near, UNARY_FUNCTIONS[i]);
    for (int i = 0; REDUCTIONS[i]; i++)
        spell_offer(&near, REDUCTIONS[i]);
    spell_offer(&near, "lookup");
    spell_offer(&near, "last");
    spell_offer(&near, "min");
    spell_offer(&near, "weights");
    spell_offer(&near, "ceil");
    eval_fail(ev, callee->span, "unknown block %s; define it with `block %s(...) { ... }`",
              name, name);
    if (near.best)
        diag_note(ev->diag, "did you mean %s?", near.best);
    return false;
}

SEPARATE static bool eval_call(Eval *ev, const Node *n, StmtState *st, int out_dtype, ExprValue *out)
{
    const BlockDef *b = arch_call_target(ev, n);
    if (!b && is_function(ev, n->as.call.callee.name))
        return eval_function(ev, n, st, out_dtype, out);
    if (!b)
        return unknown_block(ev, &n->as.call.callee);
    return call_eval(ev, n, st, b, out);
}

static bool holds_param(const Node *n)
{
    if (!n)
        return false;
    switch (n->kind) {
    case NODE_PARAM:
        return true;
    case NODE_CALL:
        for (int i = 0; i < n->as.call.nargs; i++)
            if (holds_param(n->as.call.args[i].value))
                return true;
        return false;
    case NODE_BINARY:
        return holds_param(n->as.binary.lhs) || holds_param(n->as.binary.rhs);
    case NODE_CONTRACT:
        return holds_param(n->as.contract.lhs) || holds_param(n->as.contract.rhs);
    case NODE_NEGATE:
    case NODE_CACHE:
        return holds_param(n->as.operand);
    default:
        return false;
    }
}

bool eval_is_step(const Eval *ev, const Node *value)
{
    return ev->world->training && ev->world->optimizer.kind != OPT_NONE && holds_param(value);
}

static bool report_step(Eval *ev, const Stmt *s, Op **step, const Chip *chip, const Mesh *mesh);

/* A top-level statement that is a step (eval_is_step), costed as `repeat 1 { s }` is,
 * so that it ends with the update of its params; reported on the statement's own chip
 * and mesh. */
static bool eval_step_stmt(Eval *ev, const Stmt *s)
{
    char label[96];
    const Clauses *c = &s->as.expr.clauses;
    const Chip *chip = NULL;
    Layout layout;
    LayoutEnv lx = eval_layout(ev);
    if (!stmt_chip(ev, c, &chip) || !layout_from_clauses(&lx, c, chip, s->span, &layout))
        return false;
    Op *op = op_new(stmt_label(ev, s, label, sizeof label));
    if (!op)
        return eval_oom(ev, s->span);
    Eval inner = *ev;
    inner.collect = op;
    bool ok = eval_expr_stmt(&inner, s) && report_step(ev, s, &op, chip, &layout.mesh);
    op_free(op);
    return ok;
}

bool eval_expr_stmt(Eval *ev, const Stmt *s)
{
    if (ev->depth == 0 && ev->repeats == 0 && !ev->collect && !ev->fusion &&
        s->kind != STMT_COLLECTIVE && eval_is_step(ev, s->as.expr.value))
        return eval_step_stmt(ev, s);
    const Clauses *c = &s->as.expr.clauses;
    if (ev->depth == 0 && ev->repeats == 0) { /* a new top-level statement: its own notes
                                                * and axes (a top-level repeat's, for all) */
        ev->world->under_way.nnotes = ev->world->under_way.naxes_used = 0;
        ev->world->step_tokens.block = -1;
    }
    StmtState st;
    eval_stmt_state_init(ev, &st);
    LayoutEnv lx = eval_layout(ev);
    const Chip *chip = NULL;
    ExprValue want = {0}, v = {0};
    st.span = s->span;
    st.stmt = s;
    bool ok = prepare_clauses(ev, c, &st, &chip, &want) && eval_value(ev, s, &st, &want, &v) &&
              layout_check_used(&lx, c, &st.layout);
    if (ok && want.tensor && (!v.tensor || st.cost.ops == 0))
        ok = eval_fail(ev, c->out_type->span, "-> gives the type of an operation's result, and "
                       "there is no operation here");
    if (ok && want.tensor)
        ok = check_output(ev, &st, want.tensor, v.tensor, c->out_type->span);
    if (ok && s->kind == STMT_ASSIGN && st.nothing && s->as.expr.value->kind == NODE_CALL)
        ok = eval_fail(ev, s->as.expr.value->span, "%s returns nothing to bind to %s; end the "
                       "block with `return ...`",
                       eval_spelling(ev, s->as.expr.value->as.call.callee.name),
                       eval_spelling(ev, s->as.expr.target.name));
    /* A name is bound to a number or a tensor, never to a formula. */
    BoundValue val = {.kind = v.scalar ? VAL_NUMBER : VAL_TENSOR};
    if (ok && s->kind == STMT_ASSIGN && v.scalar)
        ok = eval_number_now(ev, v.scalar, s->as.expr.value->span, &val.number);
    if (ok && ev->fusion)
        ok = fuse_take(ev, s, &st);
    else if (ok && ev->collect && st.cost.ops > 0)
        ok = eval_collect_leaf(ev, s, &st, ev->collect);
    else if (ok && st.root)
        ok = report_calls(ev, s, &st);
    else if (ok && st.cost.ops > 0)
        ok = report_cost(ev, s, &st, chip, v.tensor);
    else if (ok && !ev->collect)
        report_plain(ev, s, &v, &st.layout.mesh);
    if (ok && s->kind == STMT_ASSIGN) {
        val.tensor = v.tensor;
        v.tensor = NULL;
        ok = eval_bind(ev, s->as.expr.target.name, val);
    }
    op_free(st.root);
    eval_free(&v);
    eval_free(&want);
    cost_free(&st.cost);
    return ok;
}

bool eval_work_quietly(Eval *ev, const Stmt *s, Op *root)
{
    Frame frame = world_frame_begin(ev->world);
    Eval quiet = *ev;
    quiet.collect = root;
    quiet.frame = &frame;
    bool ok = eval_expr_stmt(&quiet, s);
    world_frame_restore(ev->world, &frame);
    return ok;
}

bool eval_quietly(Eval *ev, const Stmt *s, Op *root)
{
    bool ok = eval_work_quietly(ev, s, root);
    if (ok && !add_optimizer_step(ev, root, eval_chip_of(ev, s)))
        ok = eval_oom(ev, s->span);
    return ok;
}

const Chip *eval_chip_of(Eval *ev, const Stmt *s)
{
    const Chip *chip = NULL;
    return stmt_chip(ev, &s->as.expr.clauses, &chip) ? chip : NULL;
}

bool eval_costed(Eval *ev, const Stmt *s, Costed *out)
{
    const Clauses *c = &s->as.expr.clauses;
    StmtState st;
    eval_stmt_state_init(ev, &st);
    LayoutEnv lx = eval_layout(ev);
    memset(out, 0, sizeof *out);
    ExprValue want = {0}, v = {0};
    st.span = s->span;
    st.stmt = s; /* a block call makes a root; it is refused below */
    OpenDims *outer = ev->open;
    ev->open = &out->open;
    bool ok = prepare_clauses(ev, c, &st, &out->chip, &want) && eval_value(ev, s, &st, &want, &v) &&
              layout_check_used(&lx, c, &st.layout);
    ev->open = outer;
    if (st.root) { /* a block was called: its breakdown is not a polynomial to compile */
        op_free(st.root);
        ok = ok && eval_fail(ev, s->as.expr.value->span, "solve and sweep take operations "
                             "written out, not block calls: bind the dim with `let` and call "
                             "the block, once per value");
    }
    if (ok && (!v.tensor || st.cost.ops == 0))
        ok = eval_fail(ev, s->as.expr.value->span, "there is no operation here to cost");
    if (ok && want.tensor)
        ok = check_output(ev, &st, want.tensor, v.tensor, c->out_type->span);
    if (ok && !out->chip)
        ok = eval_fail(ev, s->as.expr.value->span, "this needs a chip: add `on v5e` or `use v5e`");
    if (ok && ev->world->training && !train_cost(ev, &st.cost))
        ok = eval_finite_poly(ev, NULL, s->span);
    RoofError e = {ROOF_OK, DT_BF16, NULL};
    if (ok)
        layout_note_padding(&lx, &st.layout.uses);
    if (ok)
        e = roof_compute(&st.cost, out->chip, &st.layout.mesh, layout_lookup, &st.layout.uses,
                         &out->roof);
    out->uses = st.layout.uses;
    ok = ok && (e.status == ROOF_OK || roof_error(ev, s, out->chip, e));
    out->cost = st.cost;
    out->mesh = st.layout.mesh;
    out->result = v.tensor;
    v.tensor = NULL;
    eval_free(&v);
    eval_free(&want);
    if (!ok)
        eval_costed_free(out);
    return ok;
}

void eval_costed_free(Costed *c)
{
    cost_free(&c->cost);
    roof_free(&c->roof);
    tensor_free(c->result);
    c->result = NULL;
    for (int i = 0; i < c->open.n; i++)
        poly_free(c->open.dims[i].size);
    free(c->open.dims);
    c->open = (OpenDims){0};
}

/* ---- Repeat, mode, return, expect --------------------------------------------------- */

bool eval_return(Eval *ev, const Stmt *s)
{
    if (ev->depth == 0)
        return eval_fail(ev, s->span, "return is for the end of a block");
    StmtState st;
    eval_stmt_state_init(ev, &st);
    st.stmt = s;
    st.span = s->span;
    BoundValue v;
    bool ok = stmt_chip(ev, &(Clauses){.chip.name.name = -1, .compute = -1}, &st.chip) &&
              call_bindable_value(ev, s->as.repeat.value, &st, &v);
    /* `return a *_D b`: the operation is the block's too. */
    if (ok && (ev->fusion ? !fuse_take(ev, s, &st)
                          : st.cost.ops > 0 && !eval_collect_leaf(ev, s, &st, ev->collect))) {
        tensor_free(v.tensor);
        ok = false;
    }
    cost_free(&st.cost);
    if (ok) {
        tensor_free(ev->result.tensor);
        ev->result = v;
        ev->returned = true;
    }
    return ok;
}

/* A top-level repeat in training is a step: its optimizer update runs once, so a repeat
 * that runs more than once goes under a node of the statement's that holds the update
 * beside it (*op becomes that node). */
static bool repeat_step(Eval *ev, const Stmt *s, Op **op, const Chip *chip)
{
    char label[96];
    if (!ev->world->training)
        return true;
    op_total(*op);
    if ((*op)->runs != 1 && (*op)->local_params > 0) {
        Op *step = op_new(stmt_label(ev, s, label, sizeof label));
        if (!step || !op_add(step, *op)) {
            op_free(step);
            return false;
        }
        *op = step;
    }
    return add_optimizer_step(ev, *op, chip);
}

/* A step's breakdown, on the chip and mesh it ran on. */
static bool report_step(Eval *ev, const Stmt *s, Op **step, const Chip *chip, const Mesh *mesh)
{
    if (!repeat_step(ev, s, step, chip))
        return eval_oom(ev, s->span);
    Op *op = *step;
    if (!add_up(ev, s, op))
        return false;
    Report r;
    report_init(ev, s, &r);
    note_unused_mesh(ev, mesh);
    r.notes = ev->world->under_way.notes;
    r.nnotes = ev->world->under_way.nnotes;
    r.chip = chip;
    r.mesh = mesh;
    r.training = ev->world->training;
    report_block(&r, op);
    check_remember_block(ev, s, op, chip, mesh_chips(mesh));
    return true;
}

static bool report_repeat(Eval *ev, const Stmt *s, Op **step)
{
    const Chip *chip = ev->world->use_chip >= 0
                           ? chip_find(&ev->world->chips, eval_spelling(ev, ev->world->use_chip))
                           : NULL;
    return report_step(ev, s, step, chip, &ev->world->mesh);
}

/* `repeat L { ... }`: the body runs once, and counts L times. */
bool eval_repeat(Eval *ev, const Stmt *s)
{
    double n;
    char label[64];
    if (ev->fusion)
        return eval_fail(ev, s->span, "repeat inside a fused region: a region is one kernel, "
                         "run once; put the repeat around the block that holds the region");
    if (!eval_number(ev, s->as.repeat.value, &n))
        return false;
    if (n < 1 || n > LIMIT_REPEAT || n != floor(n))
        return eval_fail(ev, s->as.repeat.value->span, "repeat takes a whole count, 1 to 1e9");
    if (ev->repeats >= LIMIT_REPEAT_DEPTH)
        return eval_fail(ev, s->span, "repeats nested more than %d deep", LIMIT_REPEAT_DEPTH);
    if (stack_low()) /* a stack smaller than the cap assumes (stack.h) */
        return eval_stack_fail(ev, s->span);
    if (ev->depth == 0 && ev->repeats == 0) /* a new top-level statement */
        ev->world->under_way.nnotes = ev->world->under_way.naxes_used = 0;
    Pipeline pipe;
    if (!pipeline_stages(ev, s, n, &pipe))
        return false;
    snprintf(label, sizeof label, "repeat %g", n / pipe.stages);
    Op *op = op_new(label);
    if (!op)
        return eval_oom(ev, s->span);
    op->runs = n / pipe.stages; /* a stage's layers */
    Eval inner = *ev;
    inner.collect = op;
    inner.repeats = ev->repeats + 1;
    inner.stages = ev->stages * pipe.stages;
    bool ok = call_run_body(&inner, s->as.repeat.body);
    ev->returned = inner.returned;
    ev->result = inner.result;
    if (ok && pipe.stages > 1 && !(op = pipeline_node(ev, s, op, &pipe)))
        return false;
    if (ok && !ev->collect)
        ok = report_repeat(ev, s, &op);
    if (ok && ev->collect && op_add(ev->collect, op))
        return true;
    op_free(op);
    return ok && !ev->collect;
}
