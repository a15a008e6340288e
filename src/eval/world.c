/* world.c — the world's names and their values, the frames a block call's names live
 * in, padded shards' names, the notes and axes of the statement under way, the
 * sources kept for their blocks. */
#include "world.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "nomem.h"
#include "num.h"

/* Symbols print in id order inside a monomial; interning the book's dim letters
 * first, in its order, makes 2·B·D·F and 4·B·T·S·N·H read as the book writes them
 * whatever order a script binds them in. */
static const char *const book_dims[] = {"B", "T", "S", "L", "E", "D", "F", "N", "I",
                                        "J", "K", "G", "H", "V", "M", "P", "X", "Y", "Z"};

bool world_init(World *w)
{
    memset(w, 0, sizeof *w);
    w->use_chip = -1;
    w->optimizer = (Optimizer){OPT_ADAM, 4, 0, 0, 0};
    w->microbatches = 1;
    w->step_tokens.block = -1;
    w->padding = (ShardPadding){world_lookup, w, world_padded_symbol};
    w->names = intern_new();
    for (size_t i = 0; w->names && i < sizeof book_dims / sizeof book_dims[0]; i++)
        if (intern_id(w->names, book_dims[i], strlen(book_dims[i])) < 0)
            return false;
    return w->names != NULL;
}

void world_chart_point_free(ChartPoint *p)
{
    free(p->label);
    free(p->chip);
}

static void value_clear(BoundValue *v)
{
    tensor_free(v->tensor);
    memset(v, 0, sizeof *v);
}

void world_free(World *w)
{
    for (int i = 0; i < w->nchart; i++)
        world_chart_point_free(&w->chart[i]);
    free(w->chart);
    for (int i = 0; i < w->nvalues; i++)
        value_clear(&w->values[i]);
    free(w->values);
    free(w->local_in);
    for (int i = 0; i < w->nblocks; i++)
        free(w->blocks[i].params);
    free(w->blocks);
    free(w->block_of);
    for (int i = 0; i < w->nkept; i++) {
        arena_free(&w->kept[i].arena);
        source_free(w->kept[i].src);
    }
    free(w->kept);
    free(w->padded);
    chip_table_free(&w->chips);
    arch_table_free(&w->archs);
    remat_free(&w->remat);
    intern_free(w->names);
    memset(w, 0, sizeof *w);
}

bool world_keep_room(World *w)
{
    int need = w->nkept + w->kept_reserved + 1;
    if (need > w->kept_cap) {
        int cap = w->kept_cap ? 2 * w->kept_cap : 8;
        void *kept = realloc(w->kept, sizeof *w->kept * (size_t)(cap < need ? need : cap));
        if (!kept)
            return false;
        w->kept = kept;
        w->kept_cap = cap < need ? need : cap;
    }
    w->kept_reserved++;
    return true;
}

void world_keep(World *w, Source *src, Arena *arena)
{
    w->kept_reserved--;
    w->kept[w->nkept].src = src;
    w->kept[w->nkept].arena = *arena;
    w->nkept++;
}

void world_keep_unneeded(World *w)
{
    w->kept_reserved--;
}

const BoundValue *world_value(const World *w, int name)
{
    static const BoundValue unbound = {.kind = VAL_UNBOUND};
    return name >= 0 && name < w->nvalues ? &w->values[name] : &unbound;
}

/* Room in the values for every interned name. */
static bool world_grow(World *w, int name)
{
    if (name < w->nvalues)
        return true;
    int n = intern_count(w->names) > name ? intern_count(w->names) : name + 1;
    BoundValue *values = nomem_note(realloc(w->values, sizeof *values * (size_t)n));
    if (values)
        w->values = values;
    unsigned *local_in = values ? nomem_note(realloc(w->local_in, sizeof *local_in * (size_t)n))
                                : NULL;
    if (!local_in)
        return false;
    w->local_in = local_in;
    memset(values + w->nvalues, 0, sizeof *values * (size_t)(n - w->nvalues));
    memset(local_in + w->nvalues, 0, sizeof *local_in * (size_t)(n - w->nvalues));
    w->nvalues = n;
    return true;
}

/* Replaces a name's value; takes ownership of v's tensor. */
static bool world_set(World *w, int name, BoundValue v)
{
    if (!world_grow(w, name)) {
        tensor_free(v.tensor);
        return false;
    }
    value_clear(&w->values[name]);
    w->values[name] = v;
    return true;
}

bool world_swap(World *w, int name, BoundValue v, BoundValue *old)
{
    if (!world_grow(w, name))
        return false;
    *old = w->values[name];
    w->values[name] = v;
    return true;
}

void world_restore(World *w, int name, BoundValue old)
{
    world_set(w, name, old);
}

/* A frame for a block call's names. */
Frame world_frame_begin(World *w)
{
    if (++w->frames == 0) /* 0 marks no frame */
        ++w->frames;
    return (Frame){.id = w->frames};
}

bool world_is_local(const World *w, const Frame *f, int name)
{
    return name >= 0 && name < w->nvalues && w->local_in[name] == f->id;
}

static bool frame_room(Frame *f)
{
    if (f->n < f->cap)
        return true;
    int cap = f->cap ? 2 * f->cap : 16;
    int *names = nomem_note(realloc(f->names, sizeof *names * (size_t)cap));
    if (names)
        f->names = names;
    BoundValue *saved = names ? nomem_note(realloc(f->saved, sizeof *saved * (size_t)cap)) : NULL;
    if (saved)
        f->saved = saved;
    unsigned *marks = saved ? nomem_note(realloc(f->marks, sizeof *marks * (size_t)cap)) : NULL;
    if (!marks)
        return false;
    f->marks = marks;
    f->cap = cap;
    return true;
}

/* Inside a block a name bound for the first time is local: what it held is kept in
 * the frame and put back when the call ends. */
bool world_bind(World *w, Frame *f, int name, BoundValue v)
{
    if (!f || world_is_local(w, f, name))
        return world_set(w, name, v);
    if (!frame_room(f) || !world_swap(w, name, v, &f->saved[f->n])) {
        tensor_free(v.tensor);
        return false;
    }
    f->marks[f->n] = w->local_in[name];
    w->local_in[name] = f->id;
    f->names[f->n++] = name;
    return true;
}

/* Puts back what a call's names held, last bound first. */
void world_frame_restore(World *w, Frame *f)
{
    while (f->n > 0) {
        f->n--;
        world_restore(w, f->names[f->n], f->saved[f->n]);
        w->local_in[f->names[f->n]] = f->marks[f->n];
    }
    free(f->names);
    free(f->saved);
    free(f->marks);
}

/* A padded shard's value: ceil(D / chips) while D is bound. */
static bool padded_value(const World *w, int sym, double *value)
{
    if (sym < 0 || sym >= w->npadded || w->padded[sym].dim == 0 ||
        !world_lookup(w->padded[sym].dim - 1, value, (void *)w))
        return false;
    *value = ceil(*value / w->padded[sym].chips);
    return true;
}

bool world_lookup(int sym, double *value, void *world)
{
    const BoundValue *v = world_value(world, sym);
    if (v->kind == VAL_UNBOUND)
        return padded_value(world, sym, value);
    if (v->kind != VAL_NUMBER)
        return false;
    *value = v->number;
    return true;
}

/* A padded name made before for this dim and chips, or -1. */
static int padded_recent(const World *w, int dim, double chips)
{
    enum { RECENT = sizeof w->padded_recent / sizeof w->padded_recent[0] };
    for (int i = 0; i < w->npadded_recent && i < RECENT; i++) {
        int sym = w->padded_recent[i];
        if (sym < w->npadded && w->padded[sym].dim == dim + 1 && w->padded[sym].chips == chips)
            return sym;
    }
    return -1;
}

static void note_padded_recent(World *w, int sym)
{
    enum { RECENT = sizeof w->padded_recent / sizeof w->padded_recent[0] };
    w->padded_recent[w->npadded_recent++ % RECENT] = sym;
    if (w->npadded_recent == 2 * RECENT)
        w->npadded_recent = RECENT; /* full: keeps counting round without overflowing */
}

int world_padded_symbol(int dim, double chips, void *world)
{
    World *w = world;
    int known = padded_recent(w, dim, chips);
    if (known >= 0)
        return known;
    const char *base = intern_name(w->names, dim);
    int len = snprintf(NULL, 0, "ceil(%s/%.17g)", base, chips);
    char *name = nomem_note(malloc((size_t)len + 1));
    if (!name)
        return -1;
    snprintf(name, (size_t)len + 1, "ceil(%s/%.17g)", base, chips);
    int sym = intern_id(w->names, name, (size_t)len);
    free(name);
    if (sym >= w->npadded && sym >= 0) {
        int n = intern_count(w->names);
        void *more = nomem_note(realloc(w->padded, sizeof *w->padded * (size_t)n));
        if (!more)
            return -1;
        w->padded = more;
        memset(w->padded + w->npadded, 0, sizeof *w->padded * (size_t)(n - w->npadded));
        w->npadded = n;
    }
    if (sym >= 0) {
        w->padded[sym].dim = dim + 1, w->padded[sym].chips = chips;
        note_padded_recent(w, sym);
    }
    return sym;
}

void world_padded_truncate(World *w, int names)
{
    if (names < w->npadded)
        memset(w->padded + names, 0, sizeof *w->padded * (size_t)(w->npadded - names));
}

void world_note(World *w, const char *text)
{
    UnderWay *u = &w->under_way;
    for (int i = 0; i < u->nnotes; i++)
        if (strcmp(u->notes[i], text) == 0)
            return;
    if (u->nnotes < WORLD_MAX_NOTES)
        snprintf(u->notes[u->nnotes++], WORLD_NOTE_SIZE, "%s", text);
}

void world_use_axis(World *w, int axis_name)
{
    UnderWay *u = &w->under_way;
    if (!world_axis_used(w, axis_name) && u->naxes_used < MESH_MAX_AXES)
        u->axes_used[u->naxes_used++] = axis_name;
}

bool world_axis_used(const World *w, int axis_name)
{
    for (int i = 0; i < w->under_way.naxes_used; i++)
        if (w->under_way.axes_used[i] == axis_name)
            return true;
    return false;
}

void world_pipeline_layers(World *w, int over, double layers)
{
    UnderWay *u = &w->under_way;
    bool whole = layers >= 1 && layers <= 0x1p53 && layers == floor(layers);
    if (u->pipeline_over == -1) {
        u->pipeline_over = over;
        u->pipeline_layers = whole ? layers : 0;
        return;
    }
    if (u->pipeline_over != over)
        u->pipeline_over = -2;
    u->pipeline_layers = whole && u->pipeline_layers > 0
                             ? num_gcd(u->pipeline_layers, layers) : 0;
}

const char *world_namer(int sym, void *world)
{
    return intern_name(((World *)world)->names, sym);
}

bool world_number(const char *name, double *value, int *id, void *world)
{
    const World *w = world;
    *id = intern_find(w->names, name);
    const BoundValue *v = *id >= 0 ? world_value(w, *id) : NULL;
    if (!v || v->kind != VAL_NUMBER)
        return false;
    *value = v->number;
    return true;
}

/* ---- Values of expressions --------------------------------------------------- */

const BlockDef *world_block(const World *w, int name)
{
    int k = name >= 0 && name < w->nblock_of ? w->block_of[name] : 0;
    return k > 0 ? &w->blocks[k - 1] : NULL;
}

bool world_library(World *w)
{
    return !w->library_pending || w->define_library(w->library_ctx);
}

