/* layout.c — meshes and shardings as the language writes them: slice shapes, `shard`
 * clauses, dims named `B_X`, and the axes of `over XY`. */
#include "layout.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

static int intern(Eval *ev, const char *text, size_t len)
{
    return intern_id(ev->world->names, text, len);
}

/* "the mesh has X (4), Y (2)": for notes. */
static void describe_mesh(Eval *ev, const Mesh *m)
{
    char list[256] = "";
    size_t used = 0;
    for (int i = 0; i < m->n && used < sizeof list; i++)
        used += (size_t)snprintf(list + used, sizeof list - used, "%s%s (%d)", i ? ", " : "",
                                 spelling(ev, m->axes[i].name), m->axes[i].size);
    if (m->n)
        diag_note(ev->diag, "the mesh has %s", list);
    else
        diag_note(ev->diag, "there is no mesh: give one with `mesh X = 4`, `on v5e 4x4` or "
                  "`shard D over 2`");
}

bool layout_shape_mesh(Eval *ev, const char *shape, Span span, Mesh *out)
{
    static const char axis_names[] = "XYZ";
    memset(out, 0, sizeof *out);
    for (const char *p = shape; *p;) {
        char *end;
        long chips = strtol(p, &end, 10);
        if (out->n == 3)
            return eval_fail(ev, span, "a slice has at most 3 axes (X, Y, Z)");
        if (chips < 1 || chips > LIMIT_MESH_CHIPS)
            return eval_fail(ev, span, "a slice axis has 1 to %d chips", LIMIT_MESH_CHIPS);
        mesh_add(out, intern(ev, axis_names + out->n, 1), (int)chips, false);
        p = *end == 'x' ? end + 1 : end;
    }
    return true;
}

bool layout_mesh_from(Eval *ev, const MeshAxisDef *axes, int n, Mesh *out)
{
    memset(out, 0, sizeof *out);
    for (int i = 0; i < n; i++) {
        const MeshAxisDef *a = &axes[i];
        double size;
        if (!eval_number(ev, a->size, &size))
            return false;
        if (size < 1 || size > LIMIT_MESH_CHIPS || size != floor(size))
            return eval_fail(ev, a->size->span, "a mesh axis has a whole number of chips, 1 to "
                             "%d", LIMIT_MESH_CHIPS);
        if (a->tag.name >= 0 && strcmp(spelling(ev, a->tag.name), "dcn") != 0)
            return eval_fail(ev, a->tag.span, "unknown axis tag %s; the one tag is dcn (an axis "
                             "across pods)", spelling(ev, a->tag.name));
        if (mesh_find(out, a->name.name) >= 0)
            return eval_fail(ev, a->name.span, "axis %s appears twice", spelling(ev, a->name.name));
        if (mesh_add(out, a->name.name, (int)size, a->tag.name >= 0) < 0)
            return eval_fail(ev, a->name.span, "a mesh has at most %d axes", MESH_MAX_AXES);
    }
    return true;
}

/* A mesh size from an expression: a whole number of chips, at least 1. */
static bool axis_size(Eval *ev, const Node *n, int *out)
{
    double v;
    if (!eval_number(ev, n, &v))
        return false;
    if (v < 1 || v > LIMIT_MESH_CHIPS || v != (double)(long)v)
        return eval_fail(ev, n->span, "a mesh axis has a whole number of chips, 1 to %d",
                         LIMIT_MESH_CHIPS);
    *out = (int)v;
    return true;
}

static bool add_shard_axis(Eval *ev, const ShardClause *sh, Layout *l)
{
    int size = 0;
    if (!axis_size(ev, sh->count, &size))
        return false;
    if (mesh_find(&l->mesh, sh->dim.name) >= 0)
        return eval_fail(ev, sh->span, "the mesh already has an axis %s; shard each dim once",
                         spelling(ev, sh->dim.name));
    int axis = mesh_add(&l->mesh, sh->dim.name, size, false);
    if (axis < 0)
        return eval_fail(ev, sh->span, "a mesh has at most %d axes", MESH_MAX_AXES);
    l->shard_dim[axis] = sh->dim.name;
    return true;
}

bool layout_check_fit(Eval *ev, const Mesh *m, const Chip *chip, Span where)
{
    double limit;
    int bad = chip ? mesh_misfit(m, chip, &limit) : MESH_FITS;
    if (bad == MESH_FITS)
        return true;
    if (bad == MESH_OVER_POD)
        return eval_fail(ev, where, "the mesh does not fit a %s pod: its ICI axes hold %.0f "
                         "chips, the pod %.0f", chip->name, mesh_ici_chips(m), limit);
    if (limit == 0)
        return eval_fail(ev, where, "%s has a %g-D torus: no torus dimension is left for axis %s",
                         chip->name, chip->value[CHIP_TORUS_DIMS], spelling(ev, m->axes[bad].name));
    return eval_fail(ev, where, "the mesh does not fit a %s pod: axis %s has %d chips, the pod "
                     "%g along it", chip->name, spelling(ev, m->axes[bad].name), m->axes[bad].size,
                     limit);
}

/* Shards of dims bound to numbers their chips do not divide are padded (tensor.h). */
static void pad_shards(World *w, Mesh *m)
{
    w->padding = (ShardPadding){world_lookup, w, world_padded_symbol};
    m->padding = &w->padding;
}

void layout_inherit(World *w, Layout *out)
{
    out->mesh = w->mesh;
    pad_shards(w, &out->mesh);
    out->caller = w->calling;
    for (int i = 0; i < MESH_MAX_AXES; i++) {
        out->shard_dim[i] = w->calling ? w->calling->shard_dim[i] : -1;
        out->used[i] = false;
    }
    out->uses.n = 0;
    out->uses.full = false;
    out->uses.world = w;
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
        double chips = mesh_span(&l->mesh, dim_axes(d, &l->mesh));
        for (int k = 0; k < d->naxes; k++)
            world_use_axis(l->uses.world, d->axes[k]);
        if (d->name >= 0 && poly_single_symbol(d->size) == d->name) /* a number: tensor.h */
            add_use(&l->uses, d->name, chips, chips, false);
    }
}

void layout_merge_uses(ShardUses *into, const ShardUses *from)
{
    into->world = from->world;
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
            return value > u->chips && fmod(value, u->every) != 0 ? u : NULL;
    }
    return NULL;
}

bool layout_lookup(int sym, double *value, void *ctx)
{
    const ShardUses *uses = ctx;
    if (!world_lookup(sym, value, uses->world))
        return false;
    const ShardUse *u = uneven(uses, sym, *value);
    if (u && !u->mixed)
        *value = u->chips * ceil(*value / u->chips);
    return true;
}

void layout_note_padding(Eval *ev, const ShardUses *uses)
{
    for (int i = 0; i < uses->n; i++) {
        double v;
        const ShardUse *u = world_lookup(uses->item[i].dim, &v, uses->world)
                                ? uneven(uses, uses->item[i].dim, v) : NULL;
        if (!u)
            continue;
        const char *name = spelling(ev, u->dim);
        char note[WORLD_NOTE_SIZE];
        double shard = ceil(v / u->chips);
        if (u->mixed)
            snprintf(note, sizeof note, "%s = %.17g over %g chips: a tensor that splits it "
                     "holds %.17g a chip (padded), one that holds it whole (or split otherwise) "
                     "its own", name, v, u->chips, shard);
        else
            snprintf(note, sizeof note, "%s = %.17g over %g chips: %.17g a chip, the last shard "
                     "padded by %.17g; the figures cost the padded shards", name, v, u->chips,
                     shard, shard * u->chips - v);
        world_note(ev->world, note);
    }
}

bool layout_from_clauses(Eval *ev, const Clauses *c, const Chip *chip, Span stmt,
                         Layout *out)
{
    layout_inherit(ev->world, out);
    if (c->chip.shape && c->mesh)
        return eval_fail(ev, c->mesh_span, "the statement has a slice (%s) and a mesh: give one",
                         c->chip.shape);
    if (c->chip.shape || c->mesh)
        for (int i = 0; i < MESH_MAX_AXES; i++)
            out->shard_dim[i] = -1;
    if (c->chip.shape && !layout_shape_mesh(ev, c->chip.shape, c->chip.shape_span, &out->mesh))
        return false;
    if (c->mesh && !layout_mesh_from(ev, c->mesh, c->nmesh, &out->mesh))
        return false;
    Span where = c->chip.shape ? c->chip.shape_span
               : c->mesh ? c->mesh_span
               : c->chip.name.name >= 0 ? c->chip.name.span : stmt;
    for (int i = 0; c->shards && i < c->shards->n; i++) {
        const ShardClause *sh = c->shards->items[i];
        if (!add_shard_axis(ev, sh, out))
            return false;
        where = sh->span;
    }
    pad_shards(ev->world, &out->mesh);
    return layout_check_fit(ev, &out->mesh, chip, where);
}

/* Whether the line of `shard Q` contracts *_Q before it: then Q was contracted by place,
 * over dims written as numbers, and the error says why shard cannot do the same. */
static bool contracted_before(const Eval *ev, const ShardClause *sh)
{
    const char *text = ev->src->text, *dim = spelling(ev, sh->dim.name);
    size_t len = strlen(dim);
    for (int at = sh->span.begin; at >= 2 && text[at - 1] != '\n'; at--)
        if (text[at - 2] == '*' && text[at - 1] == '_' && strncmp(text + at, dim, len) == 0 &&
            !isalnum((unsigned char)text[at + len]) && text[at + len] != '_')
            return true;
    return false;
}

bool layout_check_used(Eval *ev, const Clauses *c, const Layout *l)
{
    for (int i = 0; c->shards && i < c->shards->n; i++) {
        const ShardClause *sh = c->shards->items[i];
        int axis = mesh_find(&l->mesh, sh->dim.name);
        if (axis >= 0 && !l->used[axis]) {
            eval_fail(ev, sh->span, "no operand has a dim %s to shard",
                      spelling(ev, sh->dim.name));
            if (contracted_before(ev, sh))
                diag_note(ev->diag, "shard finds its dim by name, and a dim written as a number "
                          "has none (*_%s pairs unnamed dims by place; shard cannot): name "
                          "it, as `let %s = 16` and bf16[8, %s]", spelling(ev, sh->dim.name),
                          spelling(ev, sh->dim.name), spelling(ev, sh->dim.name));
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
static bool suffix_axes(Eval *ev, const Layout *l, const char *suffix, const char *written,
                        Span span, int *axes, int *naxes)
{
    int whole = mesh_find(&l->mesh, intern(ev, suffix, strlen(suffix)));
    *naxes = 0;
    if (whole >= 0) {
        axes[(*naxes)++] = l->mesh.axes[whole].name;
        return true;
    }
    for (const char *p = suffix; *p; p++) {
        int axis = mesh_find(&l->mesh, intern(ev, p, 1));
        if (axis < 0) {
            if (strcmp(suffix, written) == 0)
                eval_fail(ev, span, "unknown mesh axis %c", *p);
            else
                eval_fail(ev, span, "unknown mesh axis %c in %s", *p, written);
            describe_mesh(ev, &l->mesh);
            return false;
        }
        if (*naxes == DIM_MAX_AXES)
            return eval_fail(ev, span, "a dim is sharded over at most %d axes", DIM_MAX_AXES);
        axes[(*naxes)++] = l->mesh.axes[axis].name;
    }
    return true;
}

bool layout_split_name(Eval *ev, const Layout *l, int name, Span span, int *base, int *axes,
                       int *naxes)
{
    const char *text = spelling(ev, name), *underscore = strrchr(text, '_');
    *base = name;
    *naxes = 0;
    if (!underscore || underscore == text || !capitals(underscore + 1))
        return true;
    *base = intern(ev, text, (size_t)(underscore - text));
    return suffix_axes(ev, l, underscore + 1, text, span, axes, naxes);
}

static bool apply_shard_rules(Layout *l, Tensor *t)
{
    for (int a = 0; a < l->mesh.n; a++)
        for (int i = 0; l->shard_dim[a] >= 0 && i < t->ndims; i++) {
            if (t->dims[i].name != l->shard_dim[a])
                continue;
            if (!dim_add_axes(&t->dims[i], 1u << a, &l->mesh))
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
static void note_oversplit(Eval *ev, const Layout *l, const Dim *d)
{
    double chips = mesh_span(&l->mesh, dim_axes(d, &l->mesh)), size;
    if (chips <= 1)
        return;
    if (d->name >= 0) {
        const Value *v = world_value(ev->world, d->name);
        if (v->kind != VAL_NUMBER)
            return;
        size = v->number;
    } else if (!poly_is_const(d->size, &size)) {
        return;
    }
    if (size >= chips)
        return;
    World *w = ev->world;
    if (w->oversplit.count++ == 0)
        w->oversplit.dim = d->name, w->oversplit.size = size, w->oversplit.chips = chips;
}

bool layout_apply(Eval *ev, Layout *l, Tensor *t, Span span)
{
    if (!apply_shard_rules(l, t))
        return eval_fail(ev, span, "a dim is sharded over at most %d axes", DIM_MAX_AXES);
    for (int i = 0; i < t->ndims; i++)
        if (t->dims[i].naxes)
            note_oversplit(ev, l, &t->dims[i]);
    AxisSet seen = 0;
    for (int i = 0; i < t->ndims; i++)
        for (int k = 0; k < t->dims[i].naxes; k++) {
            int axis = mesh_find(&l->mesh, t->dims[i].axes[k]);
            if (axis < 0) {
                eval_fail(ev, span, "this tensor is sharded over axis %s, which the statement's "
                          "mesh does not have", spelling(ev, t->dims[i].axes[k]));
                describe_mesh(ev, &l->mesh);
                return false;
            }
            if (seen & 1u << axis)
                return eval_fail(ev, span, "axis %s shards two dims of one tensor; a tensor uses "
                                 "each axis once", spelling(ev, t->dims[i].axes[k]));
            seen |= 1u << axis;
        }
    return true;
}

static bool add_axis(Eval *ev, int axis, int *axes, int *naxes, int max, Span span)
{
    for (int i = 0; i < *naxes; i++)
        if (axes[i] == axis)
            return true;
    if (*naxes == max)
        return eval_fail(ev, span, "a dim is sharded over at most %d axes", max);
    axes[(*naxes)++] = axis;
    return true;
}

bool layout_axis_names(Eval *ev, const NameRef *names, int n, int *axes, int *naxes, int max)
{
    *naxes = 0;
    for (int i = 0; i < n; i++) {
        const Value *v = world_value(ev->world, names[i].name);
        if (v->kind != VAL_AXES && !add_axis(ev, names[i].name, axes, naxes, max, names[i].span))
            return false;
        for (int k = 0; v->kind == VAL_AXES && k < v->naxes; k++)
            if (!add_axis(ev, v->axes[k], axes, naxes, max, names[i].span))
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

bool layout_dim_axes(Eval *ev, const Node *d, int *axes, int *naxes)
{
    int with = d->as.axes.n - d->as.axes.nwithout, all[MESH_MAX_AXES], nall;
    int gone[MESH_MAX_AXES], ngone;
    if (!layout_axis_names(ev, d->as.axes.names, with, all, &nall, MESH_MAX_AXES) ||
        !layout_axis_names(ev, d->as.axes.names + with, d->as.axes.nwithout, gone, &ngone,
                           MESH_MAX_AXES))
        return false;
    layout_remove_axes(all, &nall, gone, ngone);
    if (nall > DIM_MAX_AXES)
        return eval_fail(ev, d->span, "a dim is sharded over at most %d axes", DIM_MAX_AXES);
    memcpy(axes, all, sizeof(int) * (size_t)nall);
    *naxes = nall;
    return true;
}

bool layout_check_axes(Eval *ev, const Mesh *m, const int *axes, int n, Span span)
{
    for (int i = 0; i < n; i++)
        if (mesh_find(m, axes[i]) < 0) {
            eval_fail(ev, span, "unknown mesh axis %s", spelling(ev, axes[i]));
            describe_mesh(ev, m);
            return false;
        }
    return true;
}

bool layout_axes(Eval *ev, const Layout *l, const NameRef *over, AxisSet *out)
{
    int axes[MESH_MAX_AXES], n;
    const char *text = spelling(ev, over->name);
    bool bound = world_value(ev->world, over->name)->kind == VAL_AXES;
    if (bound ? !layout_axis_names(ev, over, 1, axes, &n, MESH_MAX_AXES) ||
                    !layout_check_axes(ev, &l->mesh, axes, n, over->span)
              : !suffix_axes(ev, l, text, text, over->span, axes, &n))
        return false;
    *out = 0;
    for (int i = 0; i < n; i++)
        *out |= 1u << mesh_find(&l->mesh, axes[i]);
    return true;
}
