/* fuse.c — fused regions: `fused { ... }` in a block's body runs its operations as one
 * kernel, as flash attention runs a softmax between two matmuls.
 *
 * The region's intermediates stay in on-chip memory (VMEM on a TPU, the SMs' shared
 * memory on a GPU): each operation's result is marked on_chip and never written to
 * HBM, an operand on chip is not read (cost.c), and a tensor from outside the region
 * is read from HBM once however often the region uses it. What leaves the region — a
 * name it binds that a statement of the block outside it mentions — is written once.
 * The FLOPs are unchanged. The region is streamed in tiles, as flash attention streams
 * its keys and values, so its intermediates never exist whole: the chip's on-chip
 * memory (vmem_bytes) must hold one tile of every operand and result, COST_TILE ×
 * COST_TILE elements of each (all of a smaller one); a region whose tiles do not fit
 * is refused. In training the
 * backward pass recomputes the intermediates it did not keep (flash attention
 * recomputes its scores): the FLOPs of the statements whose results stay on chip, or
 * leave it but are not kept (remat), run once more.
 *
 * A block called inside a region runs inside the kernel: its operations join the
 * region (as internal results, but for what it returns), its params go to the
 * region's row; a region inside a region (a fused rms_norm called from one) is part of
 * it. So `fused { x = x + a; n = rms_norm(x) }` is a fused residual-add and norm.
 *
 * The region is one row of the block's breakdown, "fused {s, e, p, o}".
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "evalparts.h"

/* A statement of the region: the name it binds (-1 for none) and its FLOPs. */
typedef struct {
    int name;
    bool contraction;      /* its result is a contraction's (remat selective) */
    Poly *flops[COST_SLOTS];
} FusedStmt;

struct Fusion {
    Cost cost;             /* the region's statements, added up */
    double kept;           /* the bytes of the results the backward pass keeps */
    int depth;             /* the calls under way where the region is written */
    double own[OWN_COUNT]; /* the params and cache of the blocks called inside (Op.own) */
    FusedStmt *stmts;
    int nstmts, cap;
    int *read;             /* names from outside the region it has read: on chip since */
    int nread, read_cap;
    ShardUses uses;        /* the dims of the region's statements (layout.h) */
};

static bool listed(const int *names, int n, int name)
{
    for (int i = 0; i < n; i++)
        if (names[i] == name)
            return true;
    return false;
}

static bool bound_here(const Fusion *f, int name)
{
    for (int i = 0; i < f->nstmts; i++)
        if (f->stmts[i].name == name)
            return true;
    return false;
}

bool fuse_read(Eval *ev, int name, Tensor *t)
{
    Fusion *f = ev->fusion;
    if (ev->depth != f->depth) /* a called block's names: its arguments carry on_chip */
        return true;
    if (bound_here(f, name) || listed(f->read, f->nread, name)) {
        t->on_chip = true;
        return true;
    }
    if (f->nread == f->read_cap) {
        int cap = f->read_cap ? 2 * f->read_cap : 8;
        int *read = realloc(f->read, sizeof *read * (size_t)cap);
        if (!read)
            return false;
        f->read = read;
        f->read_cap = cap;
    }
    f->read[f->nread++] = name;
    return true;
}

bool fuse_take(Eval *ev, const Stmt *s, StmtState *st)
{
    Fusion *f = ev->fusion;
    if (f->nstmts == f->cap) {
        int cap = f->cap ? 2 * f->cap : 8;
        FusedStmt *stmts = realloc(f->stmts, sizeof *stmts * (size_t)cap);
        if (!stmts)
            return eval_oom(ev, s->span);
        f->stmts = stmts;
        f->cap = cap;
    }
    FusedStmt *one = &f->stmts[f->nstmts++];
    bool here = ev->depth == f->depth && s->kind == STMT_ASSIGN;
    *one = (FusedStmt){.name = here ? s->as.expr.target.name : -1,
                       .contraction = here && s->as.expr.value->kind == NODE_CONTRACT};
    bool good = true;
    for (int d = 0; d < COST_SLOTS; d++)
        if (st->cost.flops[d])
            good = (one->flops[d] = poly_copy(st->cost.flops[d])) != NULL && good;
    layout_merge_uses(&f->uses, &st->layout.uses);
    bool too_many = f->cost.ncolls + st->cost.ncolls > COST_MAX_COLLECTIVES;
    if (good && cost_absorb(&f->cost, &st->cost))
        return true;
    if (!too_many)
        return eval_oom(ev, s->span);
    return eval_fail(ev, s->span, "more than %d collectives in one fused region; split it",
                     COST_MAX_COLLECTIVES);
}

void fuse_adopt(Eval *ev, Op *op)
{
    for (int i = 0; i < OWN_COUNT; i++)
        ev->fusion->own[i] += op->own[i];
    op_free(op);
}

static void fusion_free(Fusion *f)
{
    for (int i = 0; i < f->nstmts; i++)
        for (int d = 0; d < COST_SLOTS; d++)
            poly_free(f->stmts[i].flops[d]);
    free(f->stmts);
    free(f->read);
    cost_free(&f->cost);
}

/* Whether a statement of the enclosing body, other than the region, mentions name. */
static bool escapes(const AstList *body, const Stmt *region, int name)
{
    for (int i = 0; body && i < body->n; i++)
        if (body->items[i] != region && ast_mentions(body->items[i], name))
            return true;
    return false;
}

/* A tensor that leaves the region: written to HBM once, and off chip from here on; in
 * training *kept says whether the backward pass keeps it (remat), and f->kept counts it. */
static bool write_out(Eval *ev, Fusion *f, const FusedStmt *one, const Mesh *mesh, bool *kept)
{
    const BoundValue *v = world_value(ev->world, one->name);
    *kept = !ev->world->training || training_remat_keeps(ev, one->name, one->contraction);
    if (v->kind != VAL_TENSOR)
        return true;
    v->tensor->on_chip = false;
    Poly *bytes = tensor_local_bytes(v->tensor, mesh);
    if (!bytes)
        return false;
    double now;
    if (*kept && poly_value(bytes, layout_lookup, &f->uses, &now))
        f->kept += now;
    Poly *sum = f->cost.written ? poly_add(f->cost.written, bytes) : poly_copy(bytes);
    poly_free(bytes);
    if (!sum)
        return false;
    poly_free(f->cost.written);
    f->cost.written = sum;
    return true;
}

/* The writes of what leaves, and the FLOPs of what stays on chip into `recompute`. */
static bool settle_outputs(Eval *ev, Fusion *f, const Stmt *region, const Mesh *mesh)
{
    for (int i = 0; i < f->nstmts; i++) {
        FusedStmt *one = &f->stmts[i];
        bool later = false; /* bound again by a later statement of the region */
        for (int k = i + 1; k < f->nstmts; k++)
            later = later || f->stmts[k].name == one->name;
        bool kept = false;
        /* A name the region read from outside and binds again (`x = x + a`) is the
         * block's state, updated: it leaves too, whether or not a statement mentions it. */
        bool updated = listed(f->read, f->nread, one->name);
        if (one->name >= 0 && !later && (updated || escapes(ev->body, region, one->name)) &&
            !write_out(ev, f, one, mesh, &kept))
            return false;
        if (kept) /* what the backward pass keeps is not recomputed */
            continue;
        for (int d = 0; d < COST_SLOTS; d++) {
            if (!one->flops[d])
                continue;
            Poly *sum = f->cost.recompute[d] ? poly_add(f->cost.recompute[d], one->flops[d])
                                             : poly_copy(one->flops[d]);
            if (!sum)
                return false;
            poly_free(f->cost.recompute[d]);
            f->cost.recompute[d] = sum;
        }
    }
    return true;
}

/* Refuses a region whose tile does not fit the chip's on-chip memory. */
static bool tile_fits(Eval *ev, const Stmt *s, const Fusion *f, const Chip *chip)
{
    if (!chip || !chip->set[CHIP_VMEM_BYTES] || isnan(f->cost.tile) ||
        f->cost.tile <= chip->value[CHIP_VMEM_BYTES])
        return true;
    char need[32], have[32];
    num_format_unit(f->cost.tile, UNIT_BYTES, 0, need, sizeof need);
    num_format_unit(chip->value[CHIP_VMEM_BYTES], UNIT_BYTES, 0, have, sizeof have);
    eval_fail(ev, s->span, "this fused region needs %s of on-chip memory for one tile, and %s "
              "holds %s (vmem_bytes)", need, chip->name, have);
    diag_note(ev->diag, "a tile is %d x %d elements of each operand and result of its "
              "operations; split the region into smaller ones", COST_TILE, COST_TILE);
    return false;
}

/* Only operations and collectives (and `let`) run as one kernel. */
static bool only_operations(Eval *ev, const Stmt *region)
{
    const AstList *body = region->as.repeat.body;
    for (int i = 0; body && i < body->n; i++) {
        const Stmt *s = body->items[i];
        if (s->kind != STMT_ASSIGN && s->kind != STMT_EXPR && s->kind != STMT_COLLECTIVE &&
            s->kind != STMT_LET)
            return eval_fail(ev, s->span, "a fused region holds operations (`y = ...`) and "
                             "collectives; this one comes before or after it");
    }
    return true;
}

static bool fusion_begin(Eval *ev, const Stmt *s)
{
    if (!ev->collect || ev->depth == 0)
        return eval_fail(ev, s->span, "fused is for a block's body: `block attn(...) { fused "
                         "{ ... } }`, whose breakdown shows the region as one row");
    return only_operations(ev, s);
}

/* The region as one leaf of the block's breakdown, priced on the statement's chip. */
static bool fusion_leaf(Eval *ev, const Stmt *s, Fusion *f)
{
    StmtState st;
    eval_stmt_state_init(ev, &st);
    st.stmt = s;
    st.span = s->span;
    bool ok = stmt_chip(ev, &(Clauses){.chip.name.name = -1, .compute = -1}, &st.chip) &&
              tile_fits(ev, s, f, st.chip);
    ok = ok && (settle_outputs(ev, f, s, &st.layout.mesh) || eval_oom(ev, s->span));
    ok = ok && (cost_absorb(&st.cost, &f->cost) || eval_oom(ev, s->span));
    st.cost.region = true;
    st.kept = f->kept;
    layout_merge_uses(&st.layout.uses, &f->uses);
    int before = ev->collect->nchildren;
    ok = ok && (st.cost.ops == 0 || eval_collect_leaf(ev, s, &st, ev->collect));
    if (ok && ev->collect->nchildren > before) /* the region's row holds what it called */
        for (int i = 0; i < OWN_COUNT; i++)
            if (i != OWN_ACTIVATIONS) /* the region's own: what it keeps */
                ev->collect->children[before]->own[i] += f->own[i];
    cost_free(&st.cost);
    return ok;
}

/* `fused off`: each statement of a region is a row of its own again, reading its
 * operands from HBM and writing its result (what flash attention saves, for teaching). */
bool fuse_switch(Eval *ev, const Stmt *s)
{
    bool on = s->as.mode.name.name < 0;
    if (!on && strcmp(eval_spelling(ev, s->as.mode.name.name), "off") != 0)
        return eval_fail(ev, s->as.mode.name.span, "fused takes a region, `fused { ... }`, or "
                         "`fused off` / `fused on` to run the regions as their operations or "
                         "as kernels");
    ev->world->unfused = !on;
    return true;
}

bool fuse_run(Eval *ev, const Stmt *s)
{
    if (!fusion_begin(ev, s))
        return false;
    if (ev->fusion || ev->world->unfused) { /* part of the region under way; or `fused off` */
        Eval inner = *ev;
        return call_run_body(&inner, s->as.repeat.body);
    }
    Fusion f = {.depth = ev->depth, .uses.values = &ev->world->padding};
    cost_init(&f.cost);
    Eval inner = *ev;
    inner.fusion = &f;
    bool ok = call_run_body(&inner, s->as.repeat.body) && fusion_leaf(ev, s, &f);
    for (int i = 0; i < f.nstmts; i++) { /* nothing stays marked past the region */
        const BoundValue *v = f.stmts[i].name >= 0 ? world_value(ev->world, f.stmts[i].name) : NULL;
        if (v && v->kind == VAL_TENSOR)
            v->tensor->on_chip = false;
    }
    fusion_free(&f);
    return ok;
}
