/* shapes.c — binding a block's shaped parameters from the tensors a call passes. */
#include "shapes.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "layout.h"
#include "num.h"

static const char *block_name(const Eval *ev, const Stmt *def)
{
    return eval_spelling(ev, def->as.block.name.name);
}

/* The name of a shape's dim: B, or K of K_{tp}. */
static int dim_name(const Node *d)
{
    return d->kind == NODE_AXES ? d->as.axes.dim : d->as.name;
}

char *shapes_text(const Intern *names, const Binding *p, char *buf, size_t size)
{
    size_t used = (size_t)snprintf(buf, size, "[");
    for (int k = 0; k < p->rank && used < size; k++) {
        const Node *d = p->shape[k];
        used += (size_t)snprintf(buf + used, size - used, "%s%s%s", k ? ", " : "",
                                 intern_name(names, dim_name(d)), d->kind == NODE_AXES ? "_{" : "");
        for (int a = 0; d->kind == NODE_AXES && a < d->as.axes.n && used < size; a++)
            used += (size_t)snprintf(buf + used, size - used, "%s%s%s", a ? ", " : "",
                                     a < d->as.axes.n - d->as.axes.nwithout ? "" : "-",
                                     intern_name(names, d->as.axes.names[a].name));
        if (d->kind == NODE_AXES && used < size)
            used += (size_t)snprintf(buf + used, size - used, "}");
    }
    if (used < size)
        snprintf(buf + used, size - used, "]");
    return buf;
}

static char *pattern(const Eval *ev, const Binding *p, char *buf, size_t size)
{
    return shapes_text(ev->world->names, p, buf, size);
}

static char *tensor_text(const Eval *ev, const Tensor *t, char *buf, size_t size)
{
    return tensor_format(t, world_namer, ev->world, buf, size);
}

static int param_named(const Stmt *def, int name)
{
    for (int i = 0; i < def->as.block.nparams; i++)
        if (def->as.block.params[i].name.name == name)
            return i;
    return -1;
}

/* One shape: each name once, and none a parameter's (`params` holds their names). */
static bool check_shape(Eval *ev, const Stmt *def, const Binding *p, const IdSet *params)
{
    IdSet seen;
    if (!intern_set_init(&seen, p->rank))
        return eval_oom(ev, p->name.span);
    bool ok = true;
    for (int k = 0; ok && k < p->rank; k++) {
        int name = dim_name(p->shape[k]);
        Span at = p->shape[k]->span;
        if (!intern_set_add(&seen, name))
            ok = eval_fail(ev, at, "%s appears twice in the shape of %s; give each dim a name "
                           "of its own", eval_spelling(ev, name), eval_spelling(ev, p->name.name));
        else if (intern_set_has(params, name))
            ok = eval_fail(ev, at, "%s is a parameter of %s, so the shape of %s cannot bind "
                           "it; drop one of the two", eval_spelling(ev, name), block_name(ev, def),
                           eval_spelling(ev, p->name.name));
    }
    intern_set_free(&seen);
    return ok;
}

bool shapes_check_def(Eval *ev, const Stmt *def)
{
    IdSet params;
    if (!intern_set_init(&params, def->as.block.nparams))
        return eval_oom(ev, def->span);
    for (int i = 0; i < def->as.block.nparams; i++)
        intern_set_add(&params, def->as.block.params[i].name.name);
    bool ok = true;
    for (int i = 0; ok && i < def->as.block.nparams; i++)
        if (def->as.block.params[i].shaped)
            ok = check_shape(ev, def, &def->as.block.params[i], &params);
    intern_set_free(&params);
    return ok;
}

bool shapes_bind_name(const Stmt *def, int name)
{
    for (int i = 0; i < def->as.block.nparams; i++)
        for (int k = 0; def->as.block.params[i].shaped && k < def->as.block.params[i].rank; k++)
            if (dim_name(def->as.block.params[i].shape[k]) == name)
                return true;
    return false;
}

/* The slot of `name` in the index, or the empty slot where it would go. */
static size_t slot_of(const ShapeBinds *sb, int name)
{
    size_t i = (size_t)name * 2654435761u & (sb->nslots - 1);
    for (; sb->slots[i] && sb->items[sb->slots[i] - 1].name != name; i = (i + 1) & (sb->nslots - 1))
        intern_name_probes++;
    return i;
}

static ShapeName *find(const ShapeBinds *sb, int name)
{
    if (!sb->nslots)
        return NULL;
    size_t i = slot_of(sb, name);
    return sb->slots[i] ? &sb->items[sb->slots[i] - 1] : NULL;
}

/* The index at most half full, with room for one more name. */
static bool reserve_index(ShapeBinds *sb)
{
    if (2 * ((size_t)sb->n + 1) <= sb->nslots)
        return true;
    size_t n = sb->nslots ? 2 * sb->nslots : 16;
    int *slots = calloc(n, sizeof *slots);
    if (!slots)
        return false;
    free(sb->slots);
    sb->slots = slots;
    sb->nslots = n;
    for (int k = 0; k < sb->n; k++)
        sb->slots[slot_of(sb, sb->items[k].name)] = k + 1;
    return true;
}

/* Adds a name not bound yet. */
static bool add(ShapeBinds *sb, ShapeName s)
{
    if (!reserve_index(sb))
        return false;
    if (sb->n == sb->cap) {
        int cap = sb->cap ? 2 * sb->cap : 8;
        ShapeName *items = realloc(sb->items, sizeof *items * (size_t)cap);
        if (!items)
            return false;
        sb->items = items;
        sb->cap = cap;
    }
    sb->items[sb->n++] = s;
    sb->slots[slot_of(sb, s.name)] = sb->n;
    return true;
}

/* The number a dim of the argument has now; false (reported) when it has none. */
static bool dim_number(Eval *ev, const Stmt *def, const Binding *p, const Tensor *t, int k,
                       Span where, double *out)
{
    if (poly_value(t->dims[k].size, world_lookup, ev->world, out))
        return true;
    Poly *now = poly_subst(t->dims[k].size, world_lookup, ev->world);
    bool made = now != NULL;
    poly_free(now);
    if (!made)
        return eval_oom(ev, where);
    char buf[256], want[128];
    eval_fail(ev, where, "%s binds %s from this tensor's dim %d, which is not a number: %s",
              block_name(ev, def), eval_spelling(ev, dim_name(p->shape[k])), k + 1,
              tensor_text(ev, t, buf, sizeof buf));
    diag_note(ev->diag, "%s: %s; bind the caller's dims first, e.g. `let %s = 256`",
              eval_spelling(ev, p->name.name), pattern(ev, p, want, sizeof want),
              t->dims[k].name >= 0 ? eval_spelling(ev, t->dims[k].name) : "B");
    return false;
}

/* Two arguments give one name two numbers. */
static bool disagree(Eval *ev, const Stmt *def, const BoundValue *vals, int name, int first,
                     double a, int second, double b, Span where)
{
    char ta[256], tb[256], pa[128], pb[128], na[64], nb[64];
    const Binding *p = def->as.block.params;
    const char *dim = eval_spelling(ev, name);
    return eval_fail(ev, where, "the shapes of %s disagree on %s: %s: %s is %s (%s = %s), "
                     "%s: %s is %s (%s = %s)", block_name(ev, def), dim,
                     eval_spelling(ev, p[first].name.name), pattern(ev, &p[first], pa, sizeof pa),
                     tensor_text(ev, vals[first].tensor, ta, sizeof ta), dim,
                     num_format_plain(a, na, sizeof na), eval_spelling(ev, p[second].name.name),
                     pattern(ev, &p[second], pb, sizeof pb),
                     tensor_text(ev, vals[second].tensor, tb, sizeof tb), dim,
                     num_format_plain(b, nb, sizeof nb));
}

/* One shaped parameter's argument: a tensor of the shape's rank, each name one number. */
static bool match(Eval *ev, const Stmt *def, int i, const BoundValue *vals, Span where,
                  ShapeBinds *sb, int *from)
{
    const Binding *p = &def->as.block.params[i];
    const Tensor *t = vals[i].tensor;
    char want[128], got[256];
    if (vals[i].kind != VAL_TENSOR)
        return eval_fail(ev, where, "%s's %s takes a tensor %s, not a number", block_name(ev, def),
                         eval_spelling(ev, p->name.name), pattern(ev, p, want, sizeof want));
    if (t->ndims != p->rank)
        return eval_fail(ev, where, "%s's %s is %s, %d dim%s; this tensor has %d: %s",
                         block_name(ev, def), eval_spelling(ev, p->name.name),
                         pattern(ev, p, want, sizeof want), p->rank, p->rank == 1 ? "" : "s",
                         t->ndims, tensor_text(ev, t, got, sizeof got));
    for (int k = 0; k < p->rank; k++) {
        double v;
        if (!dim_number(ev, def, p, t, k, where, &v))
            return false;
        int name = dim_name(p->shape[k]);
        ShapeName *seen = find(sb, name);
        if (seen && seen->value != v)
            return disagree(ev, def, vals, seen->name, from[seen - sb->items], seen->value, i, v,
                            where);
        if (seen)
            continue;
        Poly *size = poly_copy(t->dims[k].size);
        if (!size || !add(sb, (ShapeName){name, v, t->dims[k].name, size})) {
            poly_free(size);
            return eval_oom(ev, where);
        }
        from[sb->n - 1] = i;
    }
    return true;
}

/* The axes one name in a shape's braces stands for: those of the callee's axis parameter
 * as the call gives them (or its default), or the axis named. */
static bool named_axes(Eval *ev, const Stmt *def, const BoundValue *vals, const NameRef *ref,
                       int *axes, int *n)
{
    int i = param_named(def, ref->name);
    const Node *dflt = i >= 0 ? def->as.block.params[i].value : NULL;
    *n = 0;
    if (i >= 0 && vals[i].kind == VAL_AXES)
        memcpy(axes, vals[i].axes, sizeof(int) * (size_t)(*n = vals[i].naxes));
    else if (dflt && dflt->kind == NODE_AXES)
        for (int k = 0; k < dflt->as.axes.n && *n < MESH_MAX_AXES; k++)
            axes[(*n)++] = dflt->as.axes.names[k].name;
    else if (i >= 0)
        return eval_fail(ev, ref->span, "%s is not an axis parameter of %s",
                         eval_spelling(ev, ref->name), block_name(ev, def));
    else
        axes[(*n)++] = ref->name;
    return true;
}

/* The union of the axes of `count` names, each once. */
static bool union_axes(Eval *ev, const Stmt *def, const BoundValue *vals, const NameRef *refs,
                       int count, int *axes, int *n)
{
    *n = 0;
    for (int a = 0; a < count; a++) {
        int more[MESH_MAX_AXES], nmore;
        if (!named_axes(ev, def, vals, &refs[a], more, &nmore))
            return false;
        for (int k = 0; k < nmore; k++) {
            bool have = false;
            for (int j = 0; j < *n; j++)
                have = have || axes[j] == more[k];
            if (!have && *n == MESH_MAX_AXES)
                return eval_fail(ev, refs[a].span, "a dim is sharded over at most %d axes",
                                 DIM_MAX_AXES);
            if (!have)
                axes[(*n)++] = more[k];
        }
    }
    return true;
}

/* The axes a shape's dim K_{tp} wants; C_{dp, -ep}: those of dp that ep does not name. */
static bool wanted_axes(Eval *ev, const Stmt *def, const BoundValue *vals, const Node *d, int *axes,
                        int *n)
{
    *n = 0;
    if (d->kind != NODE_AXES)
        return true;
    int with = d->as.axes.n - d->as.axes.nwithout, all[MESH_MAX_AXES], nall;
    int gone[MESH_MAX_AXES], ngone;
    if (!union_axes(ev, def, vals, d->as.axes.names, with, all, &nall) ||
        !union_axes(ev, def, vals, d->as.axes.names + with, d->as.axes.nwithout, gone, &ngone))
        return false;
    layout_remove_axes(all, &nall, gone, ngone);
    if (nall > DIM_MAX_AXES)
        return eval_fail(ev, d->span, "a dim is sharded over at most %d axes", DIM_MAX_AXES);
    memcpy(axes, all, sizeof(int) * (size_t)(*n = nall));
    return true;
}

static bool same_axes(const Dim *d, const int *axes, int n)
{
    if (d->naxes != n)
        return false;
    for (int i = 0; i < n; i++) {
        bool found = false;
        for (int j = 0; j < n; j++)
            found = found || d->axes[j] == axes[i];
        if (!found)
            return false;
    }
    return true;
}

/* A dim the block wants over some axes: a whole one is sliced (free: each chip keeps
 * its part); one split some other way is an error. */
static bool lay_out(Eval *ev, const Stmt *def, const BoundValue *vals, int i, int k, Span where)
{
    const Binding *p = &def->as.block.params[i];
    Dim *dim = &vals[i].tensor->dims[k];
    int axes[DIM_MAX_AXES], n;
    if (!wanted_axes(ev, def, vals, p->shape[k], axes, &n))
        return false;
    if (n == 0 || same_axes(dim, axes, n))
        return true;
    if (dim->naxes == 0) {
        memcpy(dim->axes, axes, sizeof(int) * (size_t)n);
        dim->naxes = n;
        return true;
    }
    char want[128], got[256];
    return eval_fail(ev, where, "%s's %s is %s, and this tensor's dim %d is split another way: "
                     "%s; pass it whole or split as the block wants", block_name(ev, def),
                     eval_spelling(ev, p->name.name), pattern(ev, p, want, sizeof want), k + 1,
                     tensor_text(ev, vals[i].tensor, got, sizeof got));
}

/* The argument's dims take the shape's names. */
static bool rename_dims(const Binding *p, Tensor *t)
{
    for (int k = 0; k < p->rank; k++) {
        Poly *size = poly_sym(dim_name(p->shape[k]));
        if (!size)
            return false;
        poly_free(t->dims[k].size);
        t->dims[k].size = size;
        t->dims[k].name = dim_name(p->shape[k]);
    }
    return true;
}

bool shapes_bind(Eval *ev, const Stmt *def, BoundValue *vals, const Span *where, ShapeBinds *out)
{
    int names = 0;
    for (int i = 0; i < def->as.block.nparams; i++)
        names += def->as.block.params[i].shaped ? def->as.block.params[i].rank : 0;
    int *from = malloc(sizeof *from * (size_t)(names + 1)); /* the parameter of each name */
    bool ok = from != NULL || eval_oom(ev, where[0]);
    for (int i = 0; ok && i < def->as.block.nparams; i++)
        if (def->as.block.params[i].shaped)
            ok = match(ev, def, i, vals, where[i], out, from);
    free(from);
    for (int i = 0; ok && i < def->as.block.nparams; i++)
        for (int k = 0; def->as.block.params[i].shaped && ok && k < def->as.block.params[i].rank; k++)
            ok = lay_out(ev, def, vals, i, k, where[i]);
    for (int i = 0; ok && i < def->as.block.nparams; i++)
        if (def->as.block.params[i].shaped && !rename_dims(&def->as.block.params[i], vals[i].tensor))
            ok = eval_oom(ev, where[i]);
    return ok;
}

/* Whether a dim of t other than `skip` is named `name`. */
static bool named_elsewhere(const Tensor *t, int skip, int name)
{
    for (int k = 0; name >= 0 && k < t->ndims; k++)
        if (k != skip && t->dims[k].name == name)
            return true;
    return false;
}

bool shapes_give_back(const ShapeBinds *sb, Tensor *t)
{
    for (int k = 0; t && k < t->ndims; k++) {
        const ShapeName *s = find(sb, t->dims[k].name);
        if (!s)
            continue;
        if (named_elsewhere(t, k, s->caller_name)) {
            t->dims[k].name = -1; /* two shape names from one caller dim: the second a number */
            continue;
        }
        Poly *size = poly_copy(s->caller_size);
        if (!size)
            return false;
        poly_free(t->dims[k].size);
        t->dims[k].size = size;
        t->dims[k].name = s->caller_name;
    }
    return true;
}

void shapes_free(ShapeBinds *sb)
{
    for (int i = 0; i < sb->n; i++)
        poly_free(sb->items[i].caller_size);
    free(sb->items);
    free(sb->slots);
    *sb = (ShapeBinds){0};
}
