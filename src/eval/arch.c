/* arch.c — models by name: the `arch` statement (a record written out, derived from
 * another, or read from a config.json), and what a call takes from a record: the
 * block that costs the model, and its fields as named arguments. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "evalparts.h"
#include "json.h"
#include "spell.h"

const Arch *arch_find(const ArchTable *t, int name)
{
    int k = name >= 0 && name < t->nof ? t->of[name] : 0;
    return k > 0 ? &t->items[k - 1] : NULL;
}

const ArchField *arch_field(const Arch *a, int name)
{
    for (int i = 0; i < a->n; i++)
        if (a->fields[i].name == name)
            return &a->fields[i];
    return NULL;
}

static void arch_free(Arch *a)
{
    free(a->fields);
    free(a->doc);
    free(a->origin);
}

/* Room in the index for the name (and for the names interned before it). */
static bool index_grow(ArchTable *t, int name)
{
    if (name < t->nof)
        return true;
    int n = name + 1 > 2 * t->nof ? name + 1 : 2 * t->nof;
    int *of = realloc(t->of, sizeof *of * (size_t)n);
    if (!of)
        return false;
    memset(of + t->nof, 0, sizeof *of * (size_t)(n - t->nof));
    t->of = of;
    t->nof = n;
    return true;
}

static bool items_grow(ArchTable *t)
{
    if (t->n < t->cap)
        return true;
    int cap = t->cap ? 2 * t->cap : 16;
    Arch *items = realloc(t->items, sizeof *items * (size_t)cap);
    if (!items)
        return false;
    t->items = items;
    t->cap = cap;
    return true;
}

bool arch_add(ArchTable *t, Arch a)
{
    Arch *old = (Arch *)arch_find(t, a.name);
    if (old) { /* a later definition replaces an earlier one, as blocks do */
        arch_free(old);
        *old = a;
        return true;
    }
    if (!index_grow(t, a.name) || !items_grow(t)) {
        arch_free(&a);
        return false;
    }
    t->items[t->n++] = a;
    t->of[a.name] = t->n;
    return true;
}

void arch_table_free(ArchTable *t)
{
    for (int i = 0; i < t->n; i++)
        arch_free(&t->items[i]);
    free(t->items);
    free(t->of);
    memset(t, 0, sizeof *t);
}

/* ---- building a record ----------------------------------------------------------- */

/* Sets a field, replacing one of the same name (a derived record's). */
static bool set_field(Arch *a, ArchField f)
{
    ArchField *old = (ArchField *)arch_field(a, f.name);
    if (old) {
        *old = f;
        return true;
    }
    ArchField *grown = realloc(a->fields, sizeof *grown * (size_t)(a->n + 1));
    if (!grown)
        return false;
    a->fields = grown;
    a->fields[a->n++] = f;
    return true;
}

static bool copy_parent(Eval *ev, const NameRef *parent, Arch *a)
{
    const Arch *p = arch_find(&ev->world->archs, parent->name);
    if (!p) {
        eval_fail(ev, parent->span, "unknown model %s", eval_spelling(ev, parent->name));
        SpellNear near = spell_begin(eval_spelling(ev, parent->name));
        for (int i = 0; i < ev->world->archs.n; i++)
            spell_offer(&near, eval_spelling(ev, ev->world->archs.items[i].name));
        if (near.best)
            diag_note(ev->diag, "did you mean %s?", near.best);
        return false;
    }
    a->fields = malloc(sizeof *a->fields * (size_t)(p->n + 1));
    if (!a->fields)
        return eval_oom(ev, parent->span);
    memcpy(a->fields, p->fields, sizeof *a->fields * (size_t)p->n);
    a->n = p->n;
    a->dtype = p->dtype;
    return true;
}

/* One field as written: `dtype = bf16`, a route (`model = moe_model`: a block's
 * name), or a dim (a whole number of at least 1, as `let` checks a dim). */
static bool written_field(Eval *ev, const Binding *b, Arch *a)
{
    const Node *v = b->value;
    int name = b->name.name;
    double x;
    if (v->kind == NODE_DTYPE) {
        if (strcmp(eval_spelling(ev, name), "dtype") != 0)
            return eval_fail(ev, v->span, "a dtype is the value of the field dtype only");
        a->dtype = (int)v->as.tensor.dtype;
        return true;
    }
    if (v->kind == NODE_NAME && world_block(ev->world, v->as.name))
        return set_field(a, (ArchField){name, 0, v->as.name}) ||
               eval_oom(ev, v->span);
    if (world_block(ev->world, name))
        return eval_fail(ev, v->span, "%s is a block: this field names the block that costs "
                         "the model in its place, as %s = moe_model", eval_spelling(ev, name),
                         eval_spelling(ev, name));
    if (!eval_number(ev, v, &x))
        return false;
    if (!(x >= 1 && x <= 1e15 && x == floor(x)))
        return eval_fail(ev, v->span, "%s = %g: a model's dim is a whole number of at least 1",
                         eval_spelling(ev, name), x);
    return set_field(a, (ArchField){name, x, -1}) || eval_oom(ev, v->span);
}

/* The comment lines above the statement (the record's sources), copied. */
static char *doc_above(const Source *src, int at)
{
    int start = source_doc_comment(src->text, at);
    char *doc = malloc((size_t)(at - start) + 1);
    if (doc) {
        memcpy(doc, src->text + start, (size_t)(at - start));
        doc[at - start] = '\0';
    }
    return doc;
}

static char *origin_of(const Source *src, int at)
{
    int line, col;
    source_position(src, at, &line, &col);
    const char *slash = strrchr(src->name, '/');
    const char *name = slash ? slash + 1 : src->name;
    size_t size = strlen(name) + 16;
    char *text = malloc(size);
    if (text)
        snprintf(text, size, "%s:%d", name, line);
    return text;
}

bool arch_define(Eval *ev, const Stmt *s)
{
    if (!world_library(ev->world))
        return false;
    Arch a = {s->as.arch.name.name, NULL, 0, -1, NULL, NULL};
    bool ok = true;
    if (s->as.arch.path)
        ok = hfconfig_arch(ev, s, &a);
    else if (s->as.arch.parent.name >= 0)
        ok = copy_parent(ev, &s->as.arch.parent, &a);
    for (int i = 0; ok && i < s->as.arch.nfields; i++)
        ok = written_field(ev, &s->as.arch.fields[i], &a);
    if (ok && !s->as.arch.path) {
        a.doc = doc_above(ev->src, s->span.begin);
        a.origin = origin_of(ev->src, s->span.begin);
        ok = (a.doc && a.origin) || eval_oom(ev, s->span);
    }
    if (!ok) {
        free(a.fields);
        free(a.doc);
        free(a.origin);
        return false;
    }
    return arch_add(&ev->world->archs, a) || eval_oom(ev, s->span);
}

/* ---- calls ----------------------------------------------------------------------- */

const Arch *arch_of_arg(const Eval *ev, const Node *call)
{
    if (call->kind != NODE_CALL || call->as.call.nargs == 0)
        return NULL;
    const Binding *first = &call->as.call.args[0];
    if (first->name.name >= 0 || first->value->kind != NODE_NAME ||
        world_value(ev->world, first->value->as.name)->kind != VAL_UNBOUND)
        return NULL;
    return arch_find(&ev->world->archs, first->value->as.name);
}

const BlockDef *arch_call_target(const Eval *ev, const Node *call)
{
    if (call->kind != NODE_CALL)
        return NULL;
    const Arch *a = arch_of_arg(ev, call);
    const ArchField *route = a ? arch_field(a, call->as.call.callee.name) : NULL;
    if (route && route->block >= 0)
        return world_block(ev->world, route->block);
    return world_block(ev->world, call->as.call.callee.name);
}

/* The index of the block's dtype parameter of that name (one whose default is a
 * dtype, `wdtype = bf16`), or -1. */
static int dtype_param(const Eval *ev, const BlockDef *b, const char *name)
{
    int k = call_block_param_index(b, intern_find(ev->world->names, name));
    const Node *dflt = k >= 0 ? b->def->as.block.params[k].value : NULL;
    return dflt && dflt->kind == NODE_DTYPE ? k : -1;
}

/* The record's dtype for the block's weights, activations and KV cache (a model runs
 * in the dtype it was released in), where the call does not give them. A block that
 * cannot take it for its weights or activations is an error unless it is bf16, what
 * such a block costs: never an f16 or int8 model silently costed in bf16. */
static bool fill_dtype(Eval *ev, const BlockDef *b, const Arch *a, Span at, BoundValue *vals,
                       Span *where)
{
    static const char *const params[] = {"wdtype", "adtype", "kvdtype"};
    for (int i = 0; a->dtype >= 0 && i < 3; i++) {
        int k = dtype_param(ev, b, params[i]);
        if (k < 0 && i < 2 && a->dtype != DT_BF16) {
            const char *dtype = dtype_name((DType)a->dtype);
            eval_fail(ev, at, "%s cannot cost %s in %s: it has no parameter %s (dtype = %s)",
                      eval_spelling(ev, b->name), eval_spelling(ev, a->name), dtype, params[i], dtype);
            diag_note(ev->diag, "give the block wdtype and adtype parameters, as model has, or "
                      "derive the model in bf16: arch m : %s { dtype = bf16 }",
                      eval_spelling(ev, a->name));
            return false;
        }
        if (k >= 0 && vals[k].kind == VAL_UNBOUND) { /* the call's own arguments win */
            vals[k] = (BoundValue){.kind = VAL_DTYPE, .dtype = (DType)a->dtype};
            where[k] = at;
        }
    }
    return true;
}

/* The record's dims for the parameters of the same names not given in the call, and
 * its dtype for the dtype parameters (fill_dtype). A dim the block has no parameter
 * for is an error: the block cannot cost that model (model without E would cost a
 * mixture of experts as a dense model). */
bool arch_fill(Eval *ev, const BlockDef *b, const Arch *a, Span at, BoundValue *vals, Span *where)
{
    const Stmt *def = b->def;
    for (int i = 0; i < a->n; i++) {
        const ArchField *f = &a->fields[i];
        if (f->block >= 0)
            continue;
        int k = call_block_param_index(b, f->name);
        if (k < 0 || call_block_axis_param(&def->as.block.params[k]) || def->as.block.params[k].shaped) {
            eval_fail(ev, at, "%s cannot cost %s: it has no parameter %s (%s = %g)",
                      eval_spelling(ev, b->name), eval_spelling(ev, a->name), eval_spelling(ev, f->name),
                      eval_spelling(ev, f->name), f->number);
            for (int j = 0; j < a->n; j++)
                if (a->fields[j].block >= 0)
                    diag_note(ev->diag, "%s costs it with %s", eval_spelling(ev, a->fields[j].name),
                              eval_spelling(ev, a->fields[j].block));
            return false;
        }
        if (vals[k].kind == VAL_UNBOUND) { /* the call's own arguments win */
            vals[k] = (BoundValue){.kind = VAL_NUMBER, .number = f->number};
            where[k] = at;
        }
    }
    return fill_dtype(ev, b, a, at, vals, where);
}
