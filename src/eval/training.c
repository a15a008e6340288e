/* training.c — what a training step keeps and holds beyond its operations: the remat
 * policy (`remat`: which results the backward pass keeps, the rest recomputed), the
 * optimizer convention (`optimizer`: moments, master weights, gradients, ZeRO), each
 * parameter's share of that state on a chip, and the optimizer step's own row.
 *
 * Memory per chip, in training (eval.h: Optimizer):
 *   params       as declared (bf16 in the stdlib), sharded as their types say
 *   gradients    grad_bytes a parameter (none by default), over ZeRO-2's shards
 *   master       master_bytes a parameter (none by default), over ZeRO-1's shards
 *   optimizer    Adam 2 moments, momentum 1, SGD none, Adafactor a factored second
 *                moment (a vector along a param's first dim and one along the rest, its
 *                other dims flattened); moment_bytes each (fp32), over ZeRO-1's shards
 *   activations  the results the remat policy keeps
 * ZeRO shards a state over the chips that hold copies of its parameter's shard, so a
 * chip keeps all / chips of it: every parameter's state spread over every chip (of its
 * pipeline stage: the stages hold different layers).
 * ZeRO-3 is the `fsdp` strategy, whose weights are sharded in their types.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "evalparts.h"

/* ---- remat ------------------------------------------------------------------------ */

void remat_free(Remat *r)
{
    for (int i = 0; i < r->npaths; i++)
        free(r->paths[i].names);
    free(r->paths);
    *r = (Remat){REMAT_NONE, NULL, 0};
}

/* The names a block's body binds, its regions' and repeats' too. */
static bool body_binds(const AstList *body, int name)
{
    for (int i = 0; body && i < body->n; i++) {
        const Stmt *s = body->items[i];
        if (s->kind == STMT_ASSIGN && s->as.expr.target.name == name)
            return true;
        if ((s->kind == STMT_REPEAT || s->kind == STMT_FUSED) &&
            body_binds(s->as.repeat.body, name))
            return true;
    }
    return false;
}

/* A path names blocks, then a name the last of them binds: `layer.x`, `model.layer.x`. */
static bool check_path(Eval *ev, const AstList *path)
{
    const NameRef *last = path->items[path->n - 1];
    if (path->n < 2)
        return eval_fail(ev, last->span, "remat save takes paths of a block and a name it "
                         "binds, `layer.x`: x as block layer binds it");
    for (int i = 0; i < path->n - 1; i++) {
        const NameRef *b = path->items[i];
        if (!world_block(ev->world, b->name))
            return eval_fail(ev, b->span, "remat save: there is no block %s",
                             eval_spelling(ev, b->name));
    }
    const NameRef *owner = path->items[path->n - 2];
    const BlockDef *b = world_block(ev->world, owner->name);
    if (!body_binds(b->def->as.block.body, last->name))
        return eval_fail(ev, last->span, "remat save: block %s binds no %s (see `help %s`)",
                         eval_spelling(ev, owner->name), eval_spelling(ev, last->name),
                         eval_spelling(ev, owner->name));
    return true;
}

static bool copy_paths(Eval *ev, const AstList *list, Remat *r)
{
    r->paths = calloc((size_t)list->n, sizeof *r->paths);
    if (!r->paths)
        return false;
    for (int i = 0; i < list->n; i++) {
        const AstList *path = list->items[i];
        RematPath *p = &r->paths[r->npaths++];
        p->names = malloc(sizeof *p->names * (size_t)path->n);
        if (!p->names)
            return false;
        for (int k = 0; k < path->n; k++)
            p->names[k] = ((const NameRef *)path->items[k])->name;
        p->n = path->n;
    }
    (void)ev;
    return true;
}

bool training_remat(Eval *ev, const Stmt *s)
{
    static const char *const policies[] = {"none", "full", "selective", "save", NULL};
    const char *word = eval_spelling(ev, s->as.setting.name.name);
    int policy = 0;
    while (policies[policy] && strcmp(policies[policy], word) != 0)
        policy++;
    const AstList *paths = s->as.setting.list;
    if (!policies[policy])
        return eval_fail(ev, s->as.setting.name.span, "remat is none, full, selective, or "
                         "save followed by paths (`remat save layer.x, layer.y`)");
    if ((policy == REMAT_SAVE) != (paths != NULL))
        return eval_fail(ev, s->span, policy == REMAT_SAVE
                         ? "remat save names what to keep: `remat save layer.x, layer.y`"
                         : "only remat save takes paths");
    for (int i = 0; paths && i < paths->n; i++)
        if (!check_path(ev, paths->items[i]))
            return false;
    Remat r = {(RematPolicy)policy, NULL, 0};
    if (paths && !copy_paths(ev, paths, &r)) {
        remat_free(&r);
        return eval_oom(ev, s->span);
    }
    remat_free(&ev->world->remat);
    ev->world->remat = r;
    return true;
}

/* Whether the path ends at `name` bound in the block ev runs, called from the blocks
 * before it in the path. */
static bool path_matches(const Eval *ev, const RematPath *p, int name)
{
    if (p->names[p->n - 1] != name)
        return false;
    const Eval *at = ev;
    for (int k = p->n - 2; k >= 0; k--, at = at->caller)
        if (!at || at->block != p->names[k])
            return false;
    return true;
}

bool training_remat_keeps(const Eval *ev, int name, bool contraction)
{
    const Remat *r = &ev->world->remat;
    switch (r->policy) {
    case REMAT_NONE: return true;
    case REMAT_FULL: return ev->depth <= 1;
    case REMAT_SELECTIVE: return contraction;
    case REMAT_SAVE:
        for (int i = 0; name >= 0 && i < r->npaths; i++)
            if (path_matches(ev, &r->paths[i], name))
                return true;
        return false;
    }
    return true;
}

bool training_remat_keeps_call(const Eval *ev)
{
    return ev->world->remat.policy == REMAT_FULL && ev->depth == 1;
}

/* ---- optimizer ---------------------------------------------------------------------- */

static bool word_bytes(Eval *ev, const Word *w, bool none_ok, double *bytes)
{
    if (w->dtype >= 0) {
        *bytes = dtype_bytes((DType)w->dtype);
        return true;
    }
    if (none_ok && w->name.name >= 0 && strcmp(eval_spelling(ev, w->name.name), "none") == 0) {
        *bytes = 0;
        return true;
    }
    return eval_fail(ev, w->span, "this takes a dtype (fp32, bf16, ...)%s",
                     none_ok ? " or none" : "");
}

static bool set_option(Eval *ev, const Word *key, const Word *value, Optimizer *o)
{
    const char *k = key->name.name >= 0 ? eval_spelling(ev, key->name.name) : "";
    if (strcmp(k, "moments") == 0)
        return word_bytes(ev, value, false, &o->moment_bytes);
    if (strcmp(k, "master") == 0)
        return word_bytes(ev, value, true, &o->master_bytes);
    if (strcmp(k, "gradients") == 0)
        return word_bytes(ev, value, true, &o->grad_bytes);
    if (strcmp(k, "zero") != 0)
        return eval_fail(ev, key->span, "the optimizer's options are moments DTYPE, master "
                         "DTYPE|none, gradients DTYPE|none and zero 0|1|2");
    if (value->name.name >= 0 || value->dtype >= 0 ||
        (value->number != 0 && value->number != 1 && value->number != 2))
        return value->number == 3
            ? eval_fail(ev, value->span, "zero 3 is the fsdp strategy: shard the weights in "
                        "their types (`model(..., fsdp = X)`); zero takes 0, 1 or 2 here")
            : eval_fail(ev, value->span, "zero takes 0, 1 (moments and master weights "
                        "sharded) or 2 (gradients too)");
    o->zero = (int)value->number;
    return true;
}

bool training_optimizer(Eval *ev, const Stmt *s)
{
    const char *name = eval_spelling(ev, s->as.setting.name.name);
    int kind = 0;
    while (kind <= OPT_NONE && strcmp(optimizer_name((OptKind)kind), name) != 0)
        kind++;
    if (kind > OPT_NONE)
        return eval_fail(ev, s->as.setting.name.span, "the optimizers are adam, momentum, "
                         "sgd, adafactor and none");
    Optimizer o = {(OptKind)kind, 4, 0, 0, 0};
    const AstList *words = s->as.setting.list;
    int n = words ? words->n : 0;
    if (n % 2)
        return eval_fail(ev, ((const Word *)words->items[n - 1])->span, "this option needs a "
                         "value");
    for (int i = 0; i < n; i += 2)
        if (!set_option(ev, words->items[i], words->items[i + 1], &o))
            return false;
    ev->world->optimizer = o;
    return true;
}

/* The optimizer's state elements for one param tensor on a chip (before ZeRO). */
static double state_elements(const Optimizer *o, const Tensor *t, const Mesh *m,
                             double count, Eval *ev)
{
    static const double moments[] = {2, 1, 0, 0, 0};
    if (o->kind != OPT_ADAFACTOR)
        return moments[o->kind] * count;
    double first = 0, rest = 1;
    for (int i = 0; i < t->ndims; i++) {
        double n;
        Poly *p = poly_subst(t->dims[i].size, world_lookup, ev->world);
        bool known = p && poly_is_const(p, &n);
        poly_free(p);
        if (!known)
            return NAN;
        n /= mesh_span(m, tensor_dim_axes(&t->dims[i], m));
        if (i == 0)
            first = n;
        else
            rest *= n;
    }
    return t->ndims > 1 ? first + rest : first;
}

bool training_param_state(Eval *ev, const Tensor *t, const Mesh *m, double all, double count,
                       Op *op)
{
    const Optimizer *o = &ev->world->optimizer;
    /* The chips holding this shard: of the chips of its pipeline stage, one in
     * all / count holds each shard. */
    double chips = mesh_chips(m) / ev->stages;
    double replicas = count > 0 ? chips * count / all : 1;
    double state = state_elements(o, t, m, count, ev);
    if (isnan(state))
        return false;
    op->own[OWN_OPTIMIZER] += o->moment_bytes * state / (o->zero >= 1 ? replicas : 1);
    op->own[OWN_MASTER] += o->master_bytes * count / (o->zero >= 1 ? replicas : 1);
    op->own[OWN_GRADIENTS] += o->grad_bytes * count / (o->zero >= 2 ? replicas : 1);
    return true;
}

/* ---- the optimizer step ------------------------------------------------------------- */

/* FLOPs a parameter for the update, counted as the tool counts elementwise ops (one
 * an operation an element): Adam 14 (m: 3, v: 4, the two bias corrections 2, m/(√v +
 * ε) 3, the step 2), momentum 4, SGD 2, Adafactor 10 (the squared gradient, the row
 * and column sums 2, their update 4, the rsqrt scale 1, the step 2). */
static double update_flops(OptKind k)
{
    static const double flops[] = {14, 4, 2, 10, 0};
    return flops[k];
}

bool training_optimizer_step(Eval *ev, Op *root, const Chip *chip)
{
    const Optimizer *o = &ev->world->optimizer;
    if (o->kind == OPT_NONE || !chip || root->local_params <= 0 ||
        !chip->set[CHIP_FLOPS_BF16] || !chip->set[CHIP_HBM_BW])
        return true;
    Op *op = op_new("optimizer");
    if (!op || !op_add(root, op)) {
        op_free(op);
        return false;
    }
    double grads = root->grad_bytes > 0 ? root->grad_bytes : root->param_bytes;
    op->leaf = true;
    op->flops = update_flops(o->kind) * root->local_params;
    op->bytes = 2 * root->param_bytes + grads + 2 * root->optim_bytes + 2 * root->master_bytes;
    op->t_math = op->flops / chip->value[CHIP_FLOPS_BF16];
    op->t_hbm = op->bytes / chip->value[CHIP_HBM_BW];
    op->t_lower = op->t_math > op->t_hbm ? op->t_math : op->t_hbm;
    op->t_upper = op->t_math + op->t_hbm;
    op->t_derated = op->t_lower;
    op->bound = op->t_math > op->t_hbm ? BOUND_COMPUTE : BOUND_MEMORY;
    return true;
}
