/* layout.c — meshes and shardings as the language writes them: slice shapes, `shard`
 * clauses, dims named `B_X`, and the axes of `over XY`. */
#include "layout.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "num.h"

static int intern(const LayoutEnv *lx, const char *text, size_t len)
{
    return intern_id(lx->names, text, len);
}

static const char *spelling(const LayoutEnv *lx, int name)
{
    return intern_name(lx->names, name);
}

static bool fail(const LayoutEnv *lx, Span span, const char *fmt, ...) DIAG_PRINTF(3, 4);
static bool fail(const LayoutEnv *lx, Span span, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    diag_frame_verror(lx->diag, &lx->frame, span, fmt, ap);
    va_end(ap);
    return false;
}

/* "the mesh has X (4), Y (2)": for notes. */
static void describe_mesh(const LayoutEnv *lx, const Mesh *m)
{
    char list[256] = "";
    size_t used = 0;
    for (int i = 0; i < m->n && used < sizeof list; i++)
        used += (size_t)snprintf(list + used, sizeof list - used, "%s%s (%d)", i ? ", " : "",
                                 spelling(lx, m->axes[i].name), m->axes[i].size);
    if (m->n)
        diag_note(lx->diag, "the mesh has %s", list);
    else
        diag_note(lx->diag, "there is no mesh: give one with `mesh X = 4`, `on v5e 4x4` or "
                  "`shard D over 2`");
}

bool layout_shape_mesh(const LayoutEnv *lx, const char *shape, Span span, Mesh *out)
{
    static const char axis_names[] = "XYZ";
    memset(out, 0, sizeof *out);
    for (const char *p = shape; *p;) {
        char *end;
        long chips = strtol(p, &end, 10);
        if (out->n == 3)
            return fail(lx, span, "a slice has at most 3 axes (X, Y, Z)");
        if (chips < 1 || chips > LIMIT_MESH_CHIPS)
            return fail(lx, span, "a slice axis has 1 to %d chips", LIMIT_MESH_CHIPS);
        mesh_add(out, intern(lx, axis_names + out->n, 1), (int)chips, false);
        p = *end == 'x' ? end + 1 : end;
    }
    return true;
}

bool layout_mesh_from(const LayoutEnv *lx, const MeshAxisDef *axes, int n, Mesh *out)
{
    memset(out, 0, sizeof *out);
    for (int i = 0; i < n; i++) {
        const MeshAxisDef *a = &axes[i];
        double size;
        if (!lx->number(lx->ctx, a->size, &size))
            return false;
        if (size < 1 || size > LIMIT_MESH_CHIPS || size != floor(size))
            return fail(lx, a->size->span, "a mesh axis has a whole number of chips, 1 to "
                             "%d", LIMIT_MESH_CHIPS);
        if (a->tag.name >= 0 && strcmp(spelling(lx, a->tag.name), "dcn") != 0)
            return fail(lx, a->tag.span, "unknown axis tag %s; the one tag is dcn (an axis "
                             "across pods)", spelling(lx, a->tag.name));
        if (mesh_find(out, a->name.name) >= 0)
            return fail(lx, a->name.span, "axis %s appears twice", spelling(lx, a->name.name));
        if (mesh_add(out, a->name.name, (int)size, a->tag.name >= 0) < 0)
            return fail(lx, a->name.span, "a mesh has at most %d axes", MESH_MAX_AXES);
    }
    return true;
}

/* A mesh size from an expression: a whole number of chips, at least 1. */
static bool axis_size(const LayoutEnv *lx, const Node *n, int *out)
{
    double v;
    if (!lx->number(lx->ctx, n, &v))
        return false;
    if (v < 1 || v > LIMIT_MESH_CHIPS || v != (double)(long)v)
        return fail(lx, n->span, "a mesh axis has a whole number of chips, 1 to %d",
                         LIMIT_MESH_CHIPS);
    *out = (int)v;
    return true;
}

static bool add_shard_axis(const LayoutEnv *lx, const ShardClause *sh, Layout *l)
{
    int size = 0;
    if (!axis_size(lx, sh->count, &size))
        return false;
    if (mesh_find(&l->mesh, sh->dim.name) >= 0)
        return fail(lx, sh->span, "the mesh already has an axis %s; shard each dim once",
                         spelling(lx, sh->dim.name));
    int axis = mesh_add(&l->mesh, sh->dim.name, size, false);
    if (axis < 0)
        return fail(lx, sh->span, "a mesh has at most %d axes", MESH_MAX_AXES);
    l->shard_dim[axis] = sh->dim.name;
    return true;
}

bool layout_check_fit(const LayoutEnv *lx, const Mesh *m, const Chip *chip, Span where)
{
    double limit;
    int bad = chip ? mesh_misfit(m, chip, &limit) : MESH_FITS;
    if (bad == MESH_FITS)
        return true;
    if (bad == MESH_OVER_POD)
        return fail(lx, where, "the mesh does not fit a %s pod: its ICI axes hold %.0f "
                         "chips, the pod %.0f", chip->name, mesh_ici_chips(m), limit);
    if (limit == 0)
        return fail(lx, where, "%s has a %g-D torus: no torus dimension is left for axis %s",
                         chip->name, chip->value[CHIP_TORUS_DIMS], spelling(lx, m->axes[bad].name));
    return fail(lx, where, "the mesh does not fit a %s pod: axis %s has %d chips, the pod "
                     "%g along it", chip->name, spelling(lx, m->axes[bad].name), m->axes[bad].size,
                     limit);
}

void layout_inherit(const LayoutEnv *lx, Layout *out)
{
    out->mesh = *lx->mesh;
    out->mesh.padding = lx->padding; /* shards that do not divide are padded (tensor.h) */
    out->caller = lx->calling;
    for (int i = 0; i < MESH_MAX_AXES; i++) {
        out->shard_dim[i] = lx->calling ? lx->calling->shard_dim[i] : -1;
        out->used[i] = false;
    }
    out->uses.n = 0;
    out->uses.full = false;
    out->uses.values = lx->padding;
}

/* ---- Shards that do not divide ------------------------------------------------- */

static double gcd(double a, double b)
{
    while (b > 0) {
        double r = fmod(a, b);
        a = b;
        b = r;
    }
    return a;
}

static void add_use(ShardUses *u, int dim, double chips, double every, bool mixed)
{
    for (int i = 0; i < u->n; i++) {
        ShardUse *x = &u->item[i];
        if (x->dim != dim)
            continue;
        x->mixed |= mixed || x->chips != chips;
        x->chips = fmax(x->chips, chips);
        x->every = x->every / gcd(x->every, every) * every;
        return;
    }
    if (u->n == LAYOUT_MAX_USES)
        u->full = true;
    else
        u->item[u->n++] = (ShardUse){dim, chips, every, mixed};
}

void layout_note_tensor(Layout *l, const Tensor *t)
{
    for (int i = 0; i < t->ndims; i++) {
        const Dim *d = &t->dims[i];
        double chips = mesh_span(&l->mesh, tensor_dim_axes(d, &l->mesh));
        if (d->name >= 0 && poly_single_symbol(d->size) == d->name) /* a number: tensor.h */
            add_use(&l->uses, d->name, chips, chips, false);
    }
}

void layout_merge_uses(ShardUses *into, const ShardUses *from)
{
    into->values = from->values;
    into->full |= from->full;
    for (int i = 0; i < from->n; i++)
        add_use(into, from->item[i].dim, from->item[i].chips, from->item[i].every,
                from->item[i].mixed);
}

/* The use of dim `sym`, bound to `value`, when its chips do not divide it; else NULL. */
static const ShardUse *uneven(const ShardUses *uses, int sym, double value)
{
    for (int i = 0; !uses->full && i < uses->n; i++) {
        const ShardUse *u = &uses->item[i];
        if (u->dim == sym)
            return value > u->chips && !num_divisible(value, u->every) ? u : NULL;
    }
    return NULL;
}

bool layout_lookup(int sym, double *value, void *ctx)
{
    const ShardUses *uses = ctx;
    if (!uses->values->lookup(sym, value, uses->values->ctx))
        return false;
    const ShardUse *u = uneven(uses, sym, *value);
    if (u && !u->mixed)
        *value = u->chips * ceil(*value / u->chips);
    return true;
}

void layout_note_padding(const LayoutEnv *lx, const ShardUses *uses)
{
    for (int i = 0; i < uses->n; i++) {
        double v;
        const ShardUse *u = uses->values->lookup(uses->item[i].dim, &v, uses->values->ctx)
                                ? uneven(uses, uses->item[i].dim, v) : NULL;
        if (!u)
            continue;
        const char *name = spelling(lx, u->dim);
        char note[LAYOUT_NOTE_SIZE];
        double shard = ceil(v / u->chips);
        if (u->mixed)
            snprintf(note, sizeof note, "%s = %.17g over %g chips: a tensor that splits it "
                     "holds %.17g a chip (padded), one that holds it whole (or split otherwise) "
                     "its own", name, v, u->chips, shard);
        else
            snprintf(note, sizeof note, "%s = %.17g over %g chips: %.17g a chip, the last shard "
                     "padded by %.17g; the figures cost the padded shards", name, v, u->chips,
                     shard, shard * u->chips - v);
        lx->note(lx->ctx, note);
    }
}

bool layout_from_clauses(const LayoutEnv *lx, const Clauses *c, const Chip *chip, Span stmt,
                         Layout *out)
{
    layout_inherit(lx, out);
    if (c->chip.shape && c->mesh)
        return fail(lx, c->mesh_span, "the statement has a slice (%s) and a mesh: give one",
                         c->chip.shape);
    if (c->chip.shape || c->mesh)
        for (int i = 0; i < MESH_MAX_AXES; i++)
            out->shard_dim[i] = -1;
    if (c->chip.shape && !layout_shape_mesh(lx, c->chip.shape, c->chip.shape_span, &out->mesh))
        return false;
    if (c->mesh && !layout_mesh_from(lx, c->mesh, c->nmesh, &out->mesh))
        return false;
    Span where = c->chip.shape ? c->chip.shape_span
               : c->mesh ? c->mesh_span
               : c->chip.name.name >= 0 ? c->chip.name.span : stmt;
    for (int i = 0; c->shards && i < c->shards->n; i++) {
        const ShardClause *sh = c->shards->items[i];
        if (!add_shard_axis(lx, sh, out))
            return false;
        where = sh->span;
    }
    out->mesh.padding = lx->padding;
    return layout_check_fit(lx, &out->mesh, chip, where);
}

/* Whether the line of `shard Q` contracts *_Q before it: then Q was contracted by place,
 * over dims written as numbers, and the error says why shard cannot do the same. */
static bool contracted_before(const LayoutEnv *lx, const ShardClause *sh)
{
    const char *text = lx->src->text, *dim = spelling(lx, sh->dim.name);
    size_t len = strlen(dim);
    for (int at = sh->span.begin; at >= 2 && text[at - 1] != '\n'; at--)
        if (text[at - 2] == '*' && text[at - 1] == '_' && strncmp(text + at, dim, len) == 0 &&
            !isalnum((unsigned char)text[at + len]) && text[at + len] != '_')
            return true;
    return false;
}

bool layout_check_used(const LayoutEnv *lx, const Clauses *c, const Layout *l)
{
    for (int i = 0; c->shards && i < c->shards->n; i++) {
        const ShardClause *sh = c->shards->items[i];
        int axis = mesh_find(&l->mesh, sh->dim.name);
        if (axis >= 0 && !l->used[axis]) {
            fail(lx, sh->span, "no operand has a dim %s to shard",
                      spelling(lx, sh->dim.name));
            if (contracted_before(lx, sh))
                diag_note(lx->diag, "shard finds its dim by name, and a dim written as a number "
                          "has none (*_%s pairs unnamed dims by place; shard cannot): name "
                          "it, as `let %s = 16` and bf16[8, %s]", spelling(lx, sh->dim.name),
                          spelling(lx, sh->dim.name), spelling(lx, sh->dim.name));
            return false;
        }
    }
    return true;
}

static bool capitals(const char *s)
{
    return *s && strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZ") == strlen(s);
}

/* The axes a suffix names: one axis of that name, or one axis per letter. */
static bool suffix_axes(const LayoutEnv *lx, const Layout *l, const char *suffix,
                        const char *written, Span span, int *axes, int *naxes)
{
    int whole = mesh_find(&l->mesh, intern(lx, suffix, strlen(suffix)));
    *naxes = 0;
    if (whole >= 0) {
        axes[(*naxes)++] = l->mesh.axes[whole].name;
        return true;
    }
    for (const char *p = suffix; *p; p++) {
        int axis = mesh_find(&l->mesh, intern(lx, p, 1));
        if (axis < 0) {
            if (strcmp(suffix, written) == 0)
                fail(lx, span, "unknown mesh axis %c", *p);
            else
                fail(lx, span, "unknown mesh axis %c in %s", *p, written);
            describe_mesh(lx, &l->mesh);
            return false;
        }
        if (*naxes == DIM_MAX_AXES)
            return fail(lx, span, "a dim is sharded over at most %d axes", DIM_MAX_AXES);
        axes[(*naxes)++] = l->mesh.axes[axis].name;
    }
    return true;
}

bool layout_split_name(const LayoutEnv *lx, const Layout *l, int name, Span span, int *base,
                       int *axes, int *naxes)
{
    const char *text = spelling(lx, name), *underscore = strrchr(text, '_');
    *base = name;
    *naxes = 0;
    if (!underscore || underscore == text || !capitals(underscore + 1))
        return true;
    *base = intern(lx, text, (size_t)(underscore - text));
    return suffix_axes(lx, l, underscore + 1, text, span, axes, naxes);
}

static bool apply_shard_rules(Layout *l, Tensor *t)
{
    for (int a = 0; a < l->mesh.n; a++)
        for (int i = 0; l->shard_dim[a] >= 0 && i < t->ndims; i++) {
            if (t->dims[i].name != l->shard_dim[a])
                continue;
            if (!tensor_dim_add_axes(&t->dims[i], 1u << a, &l->mesh))
                return false;
            l->used[a] = true;
            for (Layout *o = l->caller; o && a < o->mesh.n && o->shard_dim[a] == l->shard_dim[a];
                 o = o->caller)
                o->used[a] = true;
        }
    return true;
}

/* A dim split over more chips than it has elements (8 KV heads over 64 chips): kept in
 * the world for search, which sets such a layout aside. */
static void note_oversplit(const LayoutEnv *lx, const Layout *l, const Dim *d)
{
    double chips = mesh_span(&l->mesh, tensor_dim_axes(d, &l->mesh)), size;
    if (chips <= 1)
        return;
    if (d->name >= 0) {
        const BoundValue *v = lx->value(lx->ctx, d->name);
        if (v->kind != VAL_NUMBER)
            return;
        size = v->number;
    } else if (!poly_is_const(d->size, &size)) {
        return;
    }
    if (size >= chips)
        return;
    Oversplit *o = lx->oversplit;
    if (o->count++ == 0)
        o->dim = d->name, o->size = size, o->chips = chips;
}

bool layout_apply(const LayoutEnv *lx, Layout *l, Tensor *t, Span span)
{
    if (!apply_shard_rules(l, t))
        return fail(lx, span, "a dim is sharded over at most %d axes", DIM_MAX_AXES);
    for (int i = 0; i < t->ndims; i++)
        if (t->dims[i].naxes)
            note_oversplit(lx, l, &t->dims[i]);
    AxisSet seen = 0;
    for (int i = 0; i < t->ndims; i++)
        for (int k = 0; k < t->dims[i].naxes; k++) {
            int axis = mesh_find(&l->mesh, t->dims[i].axes[k]);
            if (axis < 0) {
                fail(lx, span, "this tensor is sharded over axis %s, which the statement's "
                          "mesh does not have", spelling(lx, t->dims[i].axes[k]));
                describe_mesh(lx, &l->mesh);
                return false;
            }
            if (seen & 1u << axis)
                return fail(lx, span, "axis %s shards two dims of one tensor; a tensor uses "
                                 "each axis once", spelling(lx, t->dims[i].axes[k]));
            seen |= 1u << axis;
        }
    return true;
}

static bool add_axis(const LayoutEnv *lx, int axis, int *axes, int *naxes, int max, Span span)
{
    for (int i = 0; i < *naxes; i++)
        if (axes[i] == axis)
            return true;
    if (*naxes == max)
        return fail(lx, span, "a dim is sharded over at most %d axes", max);
    axes[(*naxes)++] = axis;
    return true;
}

bool layout_axis_names(const LayoutEnv *lx, const NameRef *names, int n, int *axes, int *naxes,
                       int max)
{
    *naxes = 0;
    for (int i = 0; i < n; i++) {
        const BoundValue *v = lx->value(lx->ctx, names[i].name);
        if (v->kind != VAL_AXES && !add_axis(lx, names[i].name, axes, naxes, max, names[i].span))
            return false;
        for (int k = 0; v->kind == VAL_AXES && k < v->naxes; k++)
            if (!add_axis(lx, v->axes[k], axes, naxes, max, names[i].span))
                return false;
    }
    return true;
}

void layout_remove_axes(int *axes, int *naxes, const int *gone, int ngone)
{
    int kept = 0;
    for (int i = 0; i < *naxes; i++) {
        bool drop = false;
        for (int k = 0; k < ngone; k++)
            drop = drop || axes[i] == gone[k];
        if (!drop)
            axes[kept++] = axes[i];
    }
    *naxes = kept;
}

bool layout_dim_axes(const LayoutEnv *lx, const Node *d, int *axes, int *naxes)
{
    int with = d->as.axes.n - d->as.axes.nwithout, all[MESH_MAX_AXES], nall;
    int gone[MESH_MAX_AXES], ngone;
    if (!layout_axis_names(lx, d->as.axes.names, with, all, &nall, MESH_MAX_AXES) ||
        !layout_axis_names(lx, d->as.axes.names + with, d->as.axes.nwithout, gone, &ngone,
                           MESH_MAX_AXES))
        return false;
    layout_remove_axes(all, &nall, gone, ngone);
    if (nall > DIM_MAX_AXES)
        return fail(lx, d->span, "a dim is sharded over at most %d axes", DIM_MAX_AXES);
    memcpy(axes, all, sizeof(int) * (size_t)nall);
    *naxes = nall;
    return true;
}

bool layout_check_axes(const LayoutEnv *lx, const Mesh *m, const int *axes, int n, Span span)
{
    for (int i = 0; i < n; i++)
        if (mesh_find(m, axes[i]) < 0) {
            fail(lx, span, "unknown mesh axis %s", spelling(lx, axes[i]));
            describe_mesh(lx, m);
            return false;
        }
    return true;
}

bool layout_axes(const LayoutEnv *lx, const Layout *l, const NameRef *over, AxisSet *out)
{
    int axes[MESH_MAX_AXES], n;
    const char *text = spelling(lx, over->name);
    bool bound = lx->value(lx->ctx, over->name)->kind == VAL_AXES;
    if (bound ? !layout_axis_names(lx, over, 1, axes, &n, MESH_MAX_AXES) ||
                    !layout_check_axes(lx, &l->mesh, axes, n, over->span)
              : !suffix_axes(lx, l, text, text, over->span, axes, &n))
        return false;
    *out = 0;
    for (int i = 0; i < n; i++)
        *out |= 1u << mesh_find(&l->mesh, axes[i]);
    return true;
}
