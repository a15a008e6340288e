/* call.c — blocks and their calls: definitions, the arguments a call passes (numbers,
 * tensors, mesh axes, shapes), the frame of the callee's names, running its body, and
 * the value it returns in the caller's terms. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "evalparts.h"
#include "nomem.h"
#include "shapes.h"
#include "spell.h"
#include "stack.h"

enum { CALL_NOTES = 3 }; /* notes naming the calls an error happened in */

static int by_name(const void *a, const void *b)
{
    const ParamName *x = a, *y = b;
    return x->name != y->name ? (x->name > y->name) - (x->name < y->name) : x->at - y->at;
}

/* The block's parameters sorted by name, or NULL when memory ran out. */
static ParamName *sorted_params(const Stmt *s)
{
    int n = s->as.block.nparams;
    ParamName *p = malloc(sizeof *p * (size_t)(n + 1));
    for (int i = 0; p && i < n; i++)
        p[i] = (ParamName){s->as.block.params[i].name.name, i};
    if (p)
        qsort(p, (size_t)n, sizeof *p, by_name);
    return p;
}

/* The first parameter, in order, named like an earlier one; -1 when none is. */
static int repeated_param(const ParamName *p, int n)
{
    int first = -1;
    for (int i = 1; i < n; i++)
        if (p[i].name == p[i - 1].name && (first < 0 || p[i].at < first))
            first = p[i].at;
    return first;
}

int call_block_param_index(const BlockDef *b, int name)
{
    int lo = 0, hi = b->def->as.block.nparams;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (b->params[mid].name < name)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < b->def->as.block.nparams && b->params[lo].name == name ? b->params[lo].at : -1;
}

/* Room in block_of for the name. */
static bool block_of_grow(World *w, int name)
{
    if (name < w->nblock_of)
        return true;
    int n = intern_count(w->names) > name ? intern_count(w->names) : name + 1;
    int *grown = realloc(w->block_of, sizeof *grown * (size_t)n);
    if (!grown)
        return false;
    memset(grown + w->nblock_of, 0, sizeof *grown * (size_t)(n - w->nblock_of));
    w->block_of = grown;
    w->nblock_of = n;
    return true;
}

static bool add_block(World *w, BlockDef def)
{
    if (!block_of_grow(w, def.name))
        return false;
    int k = w->block_of[def.name];
    if (k > 0) { /* a later definition replaces an earlier one */
        free(w->blocks[k - 1].params);
        w->blocks[k - 1] = def;
        return true;
    }
    if (w->nblocks == w->blocks_cap) {
        int cap = w->blocks_cap ? 2 * w->blocks_cap : 16;
        BlockDef *blocks = realloc(w->blocks, sizeof *blocks * (size_t)cap);
        if (!blocks)
            return false;
        w->blocks = blocks;
        w->blocks_cap = cap;
    }
    w->blocks[w->nblocks++] = def;
    w->block_of[def.name] = w->nblocks;
    return true;
}

bool call_define(Eval *ev, const Stmt *s)
{
    if (!world_library(ev->world))
        return false;
    BlockDef def = {s->as.block.name.name, s, ev->src, sorted_params(s)};
    if (!def.params)
        return eval_oom(ev, s->span);
    int twice = repeated_param(def.params, s->as.block.nparams);
    if (twice < 0 && !shapes_check_def(ev, s)) {
        free(def.params);
        return false;
    }
    if (twice >= 0) {
        free(def.params);
        return eval_fail(ev, s->as.block.params[twice].name.span, "parameter %s appears twice",
                         eval_spelling(ev, s->as.block.params[twice].name.name));
    }
    if (!add_block(ev->world, def)) {
        free(def.params);
        return eval_oom(ev, s->span);
    }
    *ev->keep = true;
    return true;
}

bool call_block_axis_param(const Binding *param)
{
    return param->value && param->value->kind == NODE_AXES && param->value->as.axes.dim < 0;
}

/* An axis parameter's argument: a name (`Y`, or a name bound to axes) or a set
 * (`{X, Y}`, `{}`), each axis one of the statement's mesh. */
static bool axes_value(Eval *ev, const Binding *param, const Node *n, StmtState *st, BoundValue *v)
{
    NameRef one = {n->kind == NODE_NAME ? n->as.name : -1, n->span};
    const NameRef *names = n->kind == NODE_AXES ? n->as.axes.names : &one;
    int count = n->kind == NODE_AXES ? n->as.axes.n : 1;
    if (n->kind != NODE_AXES && n->kind != NODE_NAME)
        return eval_fail(ev, n->span, "%s takes mesh axes: an axis (Y), a set of them ({X, Y}), "
                         "or {} for none", eval_spelling(ev, param->name.name));
    LayoutEnv lx = eval_layout(ev);
    if (!layout_axis_names(&lx, names, count, v->axes, &v->naxes, MESH_MAX_AXES) ||
        !layout_check_axes(&lx, &st->layout.mesh, v->axes, v->naxes, n->span))
        return false;
    v->kind = VAL_AXES;
    return true;
}

/* A value to bind: a number (its dims bound), a tensor, or a dtype (int8, or a name
 * bound to one). */
bool call_bindable_value(Eval *ev, const Node *n, StmtState *st, BoundValue *v)
{
    ExprValue e = {0};
    *v = (BoundValue){.kind = VAL_UNBOUND};
    if (eval_names_dtype(ev, n, &v->dtype)) {
        v->kind = VAL_DTYPE;
        return true;
    }
    if (!eval_expr(ev, n, st, -1, &e))
        return false;
    if (e.tensor) {
        *v = (BoundValue){.kind = VAL_TENSOR, .tensor = e.tensor};
        return true;
    }
    bool ok = eval_number_now(ev, e.scalar, n->span, &v->number);
    v->kind = ok ? VAL_NUMBER : VAL_UNBOUND;
    poly_free(e.scalar);
    return ok;
}

/* A dtype parameter's argument (one whose default is a dtype, `wdtype = bf16`): a dtype,
 * or a name bound to one. */
static bool dtype_value(Eval *ev, const Binding *param, const Node *n, BoundValue *v)
{
    if (eval_names_dtype(ev, n, &v->dtype)) {
        v->kind = VAL_DTYPE;
        return true;
    }
    eval_fail(ev, n->span, "%s takes a dtype (bf16, fp8, int8, int4, ...), or a name bound to "
              "one", eval_spelling(ev, param->name.name));
    if (n->kind == NODE_NAME) {
        SpellNear near = spell_begin(eval_spelling(ev, n->as.name));
        for (int i = 0; dtype_spellings[i]; i++)
            spell_offer(&near, dtype_spellings[i]);
        if (near.best)
            diag_note(ev->diag, "did you mean %s?", near.best);
    }
    return false;
}

/* An argument for `param`: mesh axes for an axis parameter, a dtype for a dtype
 * parameter, else a bindable value. */
static bool arg_value(Eval *ev, const Binding *param, const Node *n, StmtState *st, BoundValue *v)
{
    *v = (BoundValue){.kind = VAL_UNBOUND};
    if (param->value && param->value->kind == NODE_DTYPE)
        return dtype_value(ev, param, n, v);
    return call_block_axis_param(param) ? axes_value(ev, param, n, st, v) : call_bindable_value(ev, n, st, v);
}

/* Appends text to buf at *used, as far as it fits. */
static void put(char *buf, size_t size, size_t *used, const char *text, int len)
{
    if (*used < size)
        *used += (size_t)snprintf(buf + *used, size - *used, "%.*s", len, text);
}

void call_block_signature(const World *w, const BlockDef *b, char *buf, size_t size)
{
    const Stmt *def = b->def;
    size_t used = 0;
    buf[0] = '\0';
    put(buf, size, &used, intern_name(w->names, b->name), -1);
    put(buf, size, &used, "(", 1);
    for (int i = 0; i < def->as.block.nparams; i++) {
        const Binding *p = &def->as.block.params[i];
        put(buf, size, &used, i ? ", " : "", -1);
        put(buf, size, &used, intern_name(w->names, p->name.name), -1);
        char shape[256];
        if (p->shaped) {
            put(buf, size, &used, ": ", -1);
            put(buf, size, &used, shapes_text(w->names, p, shape, sizeof shape), -1);
        } else if (p->value) { /* the default as written */
            put(buf, size, &used, " = ", -1);
            put(buf, size, &used, b->src->text + p->value->span.begin,
                p->value->span.end - p->value->span.begin);
        }
    }
    put(buf, size, &used, ")", 1);
}

/* "model has no parameter Kv", with the parameter its name is closest to. */
static bool no_such_param(Eval *ev, const BlockDef *b, const NameRef *name)
{
    const Stmt *def = b->def;
    SpellNear near = spell_begin(eval_spelling(ev, name->name));
    for (int i = 0; i < def->as.block.nparams; i++)
        spell_offer(&near, eval_spelling(ev, def->as.block.params[i].name.name));
    eval_fail(ev, name->span, "%s has no parameter %s", eval_spelling(ev, def->as.block.name.name),
              eval_spelling(ev, name->name));
    if (near.best)
        diag_note(ev->diag, "did you mean %s?", near.best);
    char sig[512];
    call_block_signature(ev->world, b, sig, sizeof sig);
    diag_note(ev->diag, "%s", sig);
    return false;
}

/* The number a parameter was given, or NAN. */
static double given_number(const BlockDef *b, const BoundValue *vals, const char *name, Intern *names)
{
    int k = call_block_param_index(b, intern_find(names, name));
    return k >= 0 && vals[k].kind == VAL_NUMBER ? vals[k].number : NAN;
}

/* The swaps the stdlib's dims make easy (N with K, D with F): N query heads share K
 * key/value heads in groups of G = N/K, so N is a multiple of K; the heads' widths
 * H·N are the model width D or near it (LLaMA's 32·128 = 4096; Gemma 7B's 16·256 =
 * 4096 for D = 3072), so a factor of 2 away says D and F were swapped. Checked where
 * the call gives them, so the error is at the call, not inside the block. */
static bool check_heads(Eval *ev, const BlockDef *b, const BoundValue *vals, const Span *where)
{
    Intern *names = ev->world->names;
    double n = given_number(b, vals, "N", names), k = given_number(b, vals, "K", names);
    double h = given_number(b, vals, "H", names), d = given_number(b, vals, "D", names);
    if (n == n && k == k && fmod(n, k) != 0) {
        eval_fail(ev, where[call_block_param_index(b, intern_find(names, "K"))], "K = %g key/value "
                  "heads do not divide N = %g query heads: a group of G = N/K query heads "
                  "shares each key/value head", k, n);
        if (fmod(k, n) == 0)
            diag_note(ev->diag, "were N and K swapped? %s takes N before K",
                      eval_spelling(ev, b->name));
        return false;
    }
    bool far = h * n > 2 * d || 2 * h * n < d; /* false when one is not given (nan) */
    char note[WORLD_NOTE_SIZE];
    if (far && ev->depth == 0) {
        snprintf(note, sizeof note, "the heads' width H·N = %g·%g = %g is far from D = %g: "
                 "were D and F, or H and N, swapped?", h, n, h * n, d);
        world_note(ev->world, note);
    }
    return true;
}

int call_arg_param(const BlockDef *b, const Binding *arg, int *next)
{
    return arg->name.name < 0 ? (*next)++ : call_block_param_index(b, arg->name.name);
}

/* The call's arguments by parameter: positional ones first, then named ones, then a
 * model's dims (a model passed first: its name takes no position). */
static bool call_args(Eval *ev, const Node *n, StmtState *st, const BlockDef *b, BoundValue *vals,
                      Span *where)
{
    const Stmt *def = b->def;
    const Arch *arch = arch_of_arg(ev, n);
    int next = 0;
    for (int i = arch ? 1 : 0; i < n->as.call.nargs; i++) {
        const Binding *a = &n->as.call.args[i];
        int at = call_arg_param(b, a, &next);
        if (a->name.name < 0 && at >= def->as.block.nparams)
            return eval_fail(ev, a->value->span, "%s takes %d argument%s",
                             eval_spelling(ev, def->as.block.name.name), def->as.block.nparams,
                             def->as.block.nparams == 1 ? "" : "s");
        if (at < 0)
            return no_such_param(ev, b, &a->name);
        if (vals[at].kind != VAL_UNBOUND)
            return eval_fail(ev, a->value->span, "%s is given twice",
                             eval_spelling(ev, def->as.block.params[at].name.name));
        if (!arg_value(ev, &def->as.block.params[at], a->value, st, &vals[at]))
            return false;
        where[at] = a->value->span;
    }
    if (arch && !arch_fill(ev, b, arch, n->as.call.args[0].value->span, vals, where))
        return false;
    for (int i = 0; i < def->as.block.nparams; i++) {
        if (vals[i].kind != VAL_UNBOUND || def->as.block.params[i].value ||
            def->as.block.params[i].shaped)
            continue;
        char sig[512];
        call_block_signature(ev->world, b, sig, sizeof sig);
        eval_fail(ev, n->span, "%s needs a value for %s", eval_spelling(ev, def->as.block.name.name),
                  eval_spelling(ev, def->as.block.params[i].name.name));
        diag_note(ev->diag, "%s", sig);
        return false;
    }
    return check_heads(ev, b, vals, where);
}

/* Binds the names of the shapes in the callee, then each parameter: its argument,
 * else its default (which may use the shapes' names and the parameters before it).
 * Takes the values. */
static bool bind_params(Eval *inner, const Stmt *def, BoundValue *vals, const ShapeBinds *sb,
                        Span call)
{
    for (int i = 0; i < sb->n; i++)
        if (!eval_bind(inner, sb->items[i].name, (BoundValue){.kind = VAL_NUMBER, .number = sb->items[i].value}))
            return eval_oom(inner, call);
    for (int i = 0; i < def->as.block.nparams; i++) {
        const Binding *p = &def->as.block.params[i];
        if (vals[i].kind == VAL_UNBOUND) {
            StmtState st;
            eval_stmt_state_init(inner, &st);
            bool ok = arg_value(inner, p, p->value, &st, &vals[i]);
            cost_free(&st.cost);
            if (!ok)
                return false;
        }
        BoundValue v = vals[i];
        vals[i].tensor = NULL;
        if (!eval_bind(inner, p->name.name, v))
            return eval_oom(inner, call);
    }
    return true;
}

static bool frame_lookup(int sym, double *value, void *ctx)
{
    const Eval *inner = ctx;
    return world_is_local(inner->world, inner->frame, sym) && world_lookup(sym, value, inner->world);
}

/* The returned tensor's dims with the call's own numbers put in, so that it means the
 * same outside the call. */
static bool settle(Eval *inner, BoundValue *v)
{
    for (int i = 0; v->kind == VAL_TENSOR && i < v->tensor->ndims; i++) {
        Poly *p = poly_subst(v->tensor->dims[i].size, frame_lookup, inner);
        if (!p)
            return false;
        poly_free(v->tensor->dims[i].size);
        v->tensor->dims[i].size = p;
    }
    return true;
}

bool call_run_body(Eval *inner, const AstList *body)
{
    inner->body = body;
    for (int i = 0; body && i < body->n && !inner->returned; i++)
        if (!stmt_run(inner, body->items[i]))
            return false;
    return true;
}

/* The calling statement's chip, mesh and `shard` rules apply inside the call; what the
 * body sets with `use`, `mesh` or `mode` ends with it. */
typedef struct {
    int use_chip;
    Mesh mesh;
    struct Layout *calling;
    CostMode training;
    Remat remat;
    double microbatches;
    Schedule schedule;
    bool axes_add;
    bool launch_graph;
    double run_tokens;
    bool sends_overlap;
} Outside;

static Outside enter(Eval *ev, StmtState *st)
{
    World *w = ev->world;
    Outside was = {w->use_chip, w->mesh, w->calling, w->training, w->remat, w->microbatches,
                   w->schedule, w->axes_add, w->launch_graph, w->run_tokens, w->sends_overlap};
    if (st->chip)
        w->use_chip = intern_id(w->names, st->chip->name, strlen(st->chip->name));
    w->mesh = st->layout.mesh;
    w->calling = &st->layout;
    return was;
}

static void leave(Eval *ev, const Outside *was)
{
    ev->world->use_chip = was->use_chip;
    ev->world->mesh = was->mesh;
    ev->world->calling = was->calling;
    ev->world->training = was->training;
    if (ev->world->remat.paths != was->remat.paths) /* the body set its own */
        remat_free(&ev->world->remat);
    ev->world->remat = was->remat;
    ev->world->microbatches = was->microbatches;
    ev->world->schedule = was->schedule;
    ev->world->axes_add = was->axes_add;
    ev->world->launch_graph = was->launch_graph;
    ev->world->run_tokens = was->run_tokens;
    ev->world->sends_overlap = was->sends_overlap;
}

/* A top-level call of a block with parameters B and T notes their numbers: its step's
 * tokens (summary.h). */
static void note_step_tokens(Eval *inner, const BlockDef *b)
{
    World *w = inner->world;
    int batch = intern_find(w->names, "B"), seq = intern_find(w->names, "T");
    const BoundValue *vb = world_value(w, batch), *vt = world_value(w, seq);
    if (batch < 0 || seq < 0 || call_block_param_index(b, batch) < 0 || call_block_param_index(b, seq) < 0 ||
        vb->kind != VAL_NUMBER || vt->kind != VAL_NUMBER)
        return;
    w->step_tokens = (StepTokens){b->name, vb->number, vt->number};
}

typedef struct {
    const Eval *ev;
    const BlockDef *block;
} Caller;

static bool caller_lookup(int sym, double *value, void *ctx)
{
    const Caller *c = ctx;
    return (call_block_param_index(c->block, sym) >= 0 || shapes_bind_name(c->block->def, sym)) &&
           world_lookup(sym, value, c->ev->world);
}

/* A tensor argument's dims named like what the callee binds (its parameters, its
 * shapes' names) take the caller's numbers: `D` in the caller's tensor is the
 * caller's D, not the callee's. */
static bool pin_args(Eval *ev, const BlockDef *b, BoundValue *vals)
{
    const Stmt *def = b->def;
    Caller c = {ev, b};
    for (int i = 0; i < def->as.block.nparams; i++)
        for (int k = 0; vals[i].kind == VAL_TENSOR && k < vals[i].tensor->ndims; k++) {
            Dim *d = &vals[i].tensor->dims[k];
            Poly *p = poly_subst(d->size, caller_lookup, &c);
            if (!p)
                return false;
            poly_free(d->size);
            d->size = p;
        }
    return true;
}

static bool call_block(Eval *ev, const Node *n, StmtState *st, const BlockDef *b, Op *op,
                       BoundValue *result, bool *ran)
{
    int nparams = b->def->as.block.nparams;
    BoundValue *vals = nomem_note(calloc((size_t)nparams + 1, sizeof *vals));
    Span *where = nomem_note(calloc((size_t)nparams + 1, sizeof *where));
    ShapeBinds shapes = {0};
    Frame frame = world_frame_begin(ev->world);
    Eval inner = *ev;
    inner.src = b->src;
    inner.collect = op;
    inner.frame = &frame;
    inner.depth = ev->depth + 1;
    inner.block = b->name;
    inner.caller = ev;
    inner.call = n->span;
    inner.returned = false;
    inner.result = (BoundValue){.kind = VAL_UNBOUND};
    bool ok = vals && where && call_args(ev, n, st, b, vals, where) && pin_args(ev, b, vals) &&
              shapes_bind(ev, b->def, vals, where, &shapes);
    *ran = ok;
    Outside was = enter(ev, st);
    ok = ok && bind_params(&inner, b->def, vals, &shapes, n->span);
    if (ok && ev->depth == 0)
        note_step_tokens(&inner, b);
    ok = ok && call_run_body(&inner, b->def->as.block.body) && settle(&inner, &inner.result);
    world_frame_restore(ev->world, &frame);
    leave(ev, &was);
    if (ok && !shapes_give_back(&shapes, inner.result.tensor))
        ok = eval_oom(ev, n->span);
    for (int i = 0; vals && i < nparams; i++)
        tensor_free(vals[i].tensor);
    free(vals);
    free(where);
    shapes_free(&shapes);
    *result = inner.result;
    return ok;
}


/* remat full: the backward pass keeps what a call in the outermost block returns (a
 * layer's output) and recomputes the call's insides from it. */
static bool keep_result(StmtState *st, const Tensor *t, Op *op)
{
    double bytes;
    Poly *p = tensor_local_bytes(t, &st->layout.mesh);
    bool known = p && poly_value(p, layout_lookup, &st->layout.uses, &bytes);
    poly_free(p);
    if (known)
        op->own[OWN_ACTIVATIONS] += bytes;
    op->known = op->known && known;
    return true;
}

bool call_eval(Eval *ev, const Node *n, StmtState *st, const BlockDef *b, ExprValue *out)
{
    if (ev->depth >= LIMIT_CALL_DEPTH)
        return eval_fail(ev, n->span, "blocks call blocks more than %d deep (a block that calls "
                         "itself never ends)", LIMIT_CALL_DEPTH);
    if (stack_low()) /* a stack smaller than the cap assumes (stack.h) */
        return eval_stack_fail(ev, n->span);
    Op *op = op_new(eval_spelling(ev, b->name));
    BoundValue result = {.kind = VAL_UNBOUND};
    bool ran = false;
    bool ok = op && call_block(ev, n, st, b, op, &result, &ran);
    if (!ok && ran && ev->world->call_notes++ < CALL_NOTES) {
        int line, col;
        source_position(ev->src, n->span.begin, &line, &col);
        diag_note(ev->diag, "in block %s, called at %s:%d", eval_spelling(ev, b->name),
                  ev->src->name, line);
    }
    if (!ok && ev->depth == 0 && ev->world->call_notes > CALL_NOTES)
        diag_note(ev->diag, "... and %d calls more", ev->world->call_notes - CALL_NOTES);
    if (ev->depth == 0)
        ev->world->call_notes = 0;
    st->nothing = ok && result.kind == VAL_UNBOUND;
    Op *parent = ev->collect ? ev->collect : eval_statement_root(ev, st);
    if (ok && ev->world->training && result.kind == VAL_TENSOR && training_remat_keeps_call(ev))
        ok = keep_result(st, result.tensor, op);
    if (ok && ev->fusion) { /* its operations joined the region; its params go with them */
        fuse_adopt(ev, op);
        op = NULL;
    } else if (ok && !parent && !st->stmt) { /* a let's value: a let reports no costs */
        op_free(op);
    } else if (!ok || !parent || !op_add(parent, op)) {
        op_free(op);
        tensor_free(result.tensor);
        return ok ? eval_oom(ev, n->span) : false;
    }
    out->tensor = result.tensor;
    if (result.kind != VAL_TENSOR)
        out->scalar = poly_const(result.kind == VAL_NUMBER ? result.number : 0);
    return true;
}
