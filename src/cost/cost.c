/* cost.c — per-chip FLOPs, HBM bytes and collectives of contractions, elementwise ops
 * and collectives on their own.
 *
 * A sharded contraction follows the four cases of the book's chapter 3: a contracted
 * dim sharded alike in both operands gives local partial sums, combined by an
 * AllReduce (or a ReduceScatter when the `->` type keeps the result sharded); sharded
 * in one operand only, either that operand is gathered first or, when the other
 * operand is free of those axes, partial sums are made and reduced, whichever the
 * caller's plan_time finds faster on its chip, else whichever moves fewer bytes. A
 * dim sharded over different axes in the two operands (the book's FSDP × TP) is both
 * at once: partial sums over the axes they share, case 2 on each side for the rest.
 * Result dims that would share an axis are an error (case 4).
 */
#include "cost.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "nomem.h"

/* ---- Totals -------------------------------------------------------------------- */

/* A field that does not start at 0 is set here and in eval_stmt_state_init (eval.c),
 * which clears a statement's Cost with the rest of its state. */
void cost_init(Cost *c)
{
    memset(c, 0, sizeof *c);
    c->microbatches = 1;
}

/* poly_free of a slot, without the call when it is empty: a Cost has 3 × COST_SLOTS of
 * them, nearly all empty, and a search frees some 87,000 Costs. */
static inline void free_slot(Poly *p)
{
    if (p)
        poly_free(p);
}

void cost_free(Cost *c)
{
    for (int d = 0; d < COST_SLOTS; d++) {
        free_slot(c->flops[d]);
        free_slot(c->padding[d]);
        free_slot(c->recompute[d]);
    }
    poly_free(c->read);
    poly_free(c->written);
    poly_free(c->held);
    poly_free(c->recompute_bytes);
    free(c->kernels);
    for (int i = 0; i < c->ncolls; i++) {
        poly_free(c->colls[i].bytes);
        tensor_free(c->colls[i].array);
    }
    cost_init(c);
}

static bool accumulate(Poly **sum, Poly *p);

bool cost_add_kernel(Cost *c, const CostKernel *k)
{
    if (c->nkernels == c->kernels_cap) {
        int cap = c->kernels_cap ? 2 * c->kernels_cap : 8;
        CostKernel *more = nomem_note(realloc(c->kernels, sizeof *more * (size_t)cap));
        if (!more)
            return false;
        c->kernels = more;
        c->kernels_cap = cap;
    }
    c->kernels[c->nkernels++] = *k;
    return true;
}

bool cost_absorb(Cost *into, Cost *from)
{
    bool good = into->ncolls + from->ncolls <= COST_MAX_COLLECTIVES;
    for (int d = 0; d < COST_SLOTS; d++) {
        if (from->flops[d])
            good = accumulate(&into->flops[d], poly_copy(from->flops[d])) && good;
        if (from->padding[d])
            good = accumulate(&into->padding[d], poly_copy(from->padding[d])) && good;
        if (from->recompute[d])
            good = accumulate(&into->recompute[d], poly_copy(from->recompute[d])) && good;
    }
    Poly **sums[] = {&into->read, &into->written, &into->held, &into->recompute_bytes};
    const Poly *parts[] = {from->read, from->written, from->held, from->recompute_bytes};
    for (int i = 0; i < 4; i++)
        if (parts[i])
            good = accumulate(sums[i], poly_copy(parts[i])) && good;
    for (int i = 0; good && i < from->ncolls; i++) {
        into->colls[into->ncolls++] = from->colls[i];
        from->colls[i] = (Collective){0};
    }
    for (int i = 0; i < from->nkernels; i++)
        good = cost_add_kernel(into, &from->kernels[i]) && good;
    into->ops += from->ops;
    into->choices += from->choices;
    into->tile += from->tile;
    cost_free(from);
    return good;
}

/* *sum += p, where a NULL *sum is zero; consumes p. */
static bool accumulate(Poly **sum, Poly *p)
{
    if (!p)
        return false;
    if (!*sum) {
        *sum = p;
        return true;
    }
    Poly *r = poly_add(*sum, p);
    poly_free(p);
    if (!r)
        return false;
    poly_free(*sum);
    *sum = r;
    return true;
}

Poly *cost_total_flops(const Cost *c)
{
    Poly *total = poly_const(0);
    for (int d = 0; d < COST_SLOTS && total; d++)
        if (c->flops[d] && !accumulate(&total, poly_copy(c->flops[d]))) {
            poly_free(total);
            return NULL;
        }
    return total;
}

/* *p *= k, where p may be NULL. */
static bool scale_in_place(Poly **p, double k)
{
    if (!*p)
        return true;
    Poly *r = poly_scale(*p, k);
    if (!r)
        return false;
    poly_free(*p);
    *p = r;
    return true;
}

bool cost_recompute_all(Cost *c)
{
    bool good = true;
    for (int d = 0; d < COST_SLOTS; d++)
        if (c->flops[d])
            good = accumulate(&c->recompute[d], poly_copy(c->flops[d])) && good;
    if (c->read)
        good = accumulate(&c->recompute_bytes, poly_copy(c->read)) && good;
    if (c->written)
        good = accumulate(&c->recompute_bytes, poly_copy(c->written)) && good;
    return good;
}

bool cost_train(Cost *c, CostMode mode)
{
    c->mode = mode;
    bool good = scale_in_place(&c->read, 3) && scale_in_place(&c->written, 3);
    if (c->recompute_bytes)
        good = accumulate(&c->read, poly_copy(c->recompute_bytes)) && good;
    for (int d = 0; d < COST_SLOTS; d++) {
        good = scale_in_place(&c->flops[d], 3) && scale_in_place(&c->padding[d], 3) && good;
        if (c->recompute[d])
            good = accumulate(&c->flops[d], poly_copy(c->recompute[d])) && good;
    }
    for (int i = 0; i < c->ncolls; i++)
        if (!c->colls[i].backward)
            good = scale_in_place(&c->colls[i].bytes, 2) && good;
    return good;
}

bool cost_accumulate(Cost *c, double microbatches)
{
    c->microbatches = microbatches;
    bool good = scale_in_place(&c->read, microbatches) &&
                scale_in_place(&c->written, microbatches) &&
                scale_in_place(&c->recompute_bytes, microbatches);
    for (int d = 0; d < COST_SLOTS; d++)
        good = scale_in_place(&c->flops[d], microbatches) &&
               scale_in_place(&c->padding[d], microbatches) &&
               scale_in_place(&c->recompute[d], microbatches) && good;
    for (int i = 0; i < c->ncolls; i++)
        if (!c->colls[i].backward)
            good = scale_in_place(&c->colls[i].bytes, microbatches) && good;
    return good;
}


static CostError error(CostStatus status, int index, int lhs, int rhs)
{
    return (CostError){status, index, lhs, rhs};
}

static const CostError ok = {COST_OK, -1, -1, -1};

/* Records a collective of `array` (copied) over `axes`, moving V bytes (consumed). */
static CostError add_collective(Cost *acc, CollKind kind, AxisSet axes, Poly *bytes,
                                const Tensor *array, const char *why)
{
    if (acc->ncolls == COST_MAX_COLLECTIVES) {
        poly_free(bytes);
        return error(COST_TOO_MANY, -1, -1, -1);
    }
    Tensor *copy = tensor_copy(array);
    if (!bytes || !copy) {
        poly_free(bytes);
        tensor_free(copy);
        return error(COST_TOO_COMPLEX, -1, -1, -1);
    }
    acc->colls[acc->ncolls++] = (Collective){kind, axes, bytes, copy, why, false, false};
    return ok;
}

/* ---- Sizes --------------------------------------------------------------------- */

bool cost_same_size(const Poly *a, const Poly *b, PolyLookup lookup, void *ctx)
{
    if (poly_equal(a, b))
        return true;
    if (!lookup)
        return false;
    double va, vb;
    return poly_value(a, lookup, ctx, &va) && poly_value(b, lookup, ctx, &vb) && va == vb;
}

/* The value of p once bound dims are put in, when that is a number. */
static bool value_now(const Poly *p, const CostOptions *opt, double *v)
{
    return p && opt->lookup && poly_value(p, opt->lookup, opt->lookup_ctx, v);
}

/* The bytes of the whole of t within one group of chips along `axes`: t's shard
 * times the chips of the axes t is sharded over among them. */
static Poly *group_bytes(const Tensor *t, AxisSet axes, const Mesh *m)
{
    Poly *local = tensor_local_bytes(t, m);
    Poly *whole = local ? poly_scale(local, mesh_span(m, tensor_axes(t, m) & axes)) : NULL;
    poly_free(local);
    return whole;
}

/* A copy of t without `axes` on any dim: t as it is after it is gathered over them. */
static Tensor *gathered(const Tensor *t, AxisSet axes, const Mesh *m)
{
    Tensor *g = tensor_copy(t);
    for (int i = 0; g && i < g->ndims; i++)
        tensor_dim_remove_axes(&g->dims[i], axes, m);
    return g;
}

static DType pick(int chosen, const Tensor *a, const Tensor *b)
{
    return chosen >= 0 ? (DType)chosen : dtype_wider(a->dtype, b->dtype);
}

/* The bytes of one tile of t on a chip: COST_TILE × COST_TILE elements of its shard,
 * or the whole shard when smaller; NaN when its size is not a number. */
static double tile_bytes(const Tensor *t, const CostOptions *opt)
{
    double n;
    if (!tensor_local_elements_value(t, opt->mesh, opt->lookup, opt->lookup_ctx, &n))
        return NAN;
    return dtype_bytes(t->dtype) * (n < COST_TILE * COST_TILE ? n : COST_TILE * COST_TILE);
}

/* An operand's HBM read: none when it is already on chip (a fused region's). */
static bool add_read(Cost *acc, const Tensor *t, const Mesh *m)
{
    return !t || t->on_chip || accumulate(&acc->read, tensor_local_bytes(t, m));
}

static bool known_number(const Poly *p, const CostOptions *opt, double *v);

/* A tensor's HBM bytes on a chip as a number (0 for none or one on chip), NaN when a dim
 * is not a number yet. */
static double bytes_now(const Tensor *t, const CostOptions *opt)
{
    if (!t || t->on_chip)
        return 0;
    double v;
    Poly *p = tensor_local_bytes(t, opt->mesh);
    bool known = known_number(p, opt, &v);
    poly_free(p);
    return known ? v : NAN;
}

/* The op as a kernel of its own (Cost.kernels): its FLOPs and the bytes it moves. A
 * contraction adds its shape after (note_matrix_shape). */
static bool record_kernel(Cost *acc, int slot, const Poly *flops, const Tensor *a,
                          const Tensor *b, const Tensor *result, const CostOptions *opt)
{
    CostKernel k = {.matrix = false, .dtype = cost_slot_dtype(slot), .rows = NAN,
                    .cols = NAN, .depth = NAN, .batch = NAN};
    if (!known_number(flops, opt, &k.flops))
        k.flops = NAN;
    k.bytes = bytes_now(a, opt) + bytes_now(b, opt) + (acc->fused ? 0 : bytes_now(result, opt));
    return cost_add_kernel(acc, &k);
}

/* Adds one op's FLOPs in `slot` (cost.h) and its HBM traffic: reads of its operands as the
 * chip uses them (a and b; b NULL for one operand), the write of its result (none in a
 * fused region: the result stays on chip); and what the chip holds (ha, hb: the
 * operands as stored, which may be more than it reads). Consumes flops. */
static CostError add_op(Cost *acc, int slot, Poly *flops, const Tensor *a,
                        const Tensor *b, const Tensor *ha, const Tensor *hb,
                        Tensor *result, const CostOptions *opt)
{
    const Mesh *m = opt->mesh;
    bool good = !opt->kernels || record_kernel(acc, slot, flops, a, b, result, opt);
    good = accumulate(&acc->flops[slot], flops) && good;
    good = add_read(acc, a, m) && add_read(acc, b, m) && good;
    result->on_chip = acc->fused;
    Poly *result_bytes = tensor_local_bytes(result, m); /* written and held: made once */
    good = (acc->fused || (result_bytes && accumulate(&acc->written, poly_copy(result_bytes)))) &&
           good;
    good = accumulate(&acc->held, tensor_local_bytes(ha, m)) && good;
    good = (!hb || accumulate(&acc->held, tensor_local_bytes(hb, m))) && good;
    good = accumulate(&acc->held, result_bytes) && good;
    if (acc->fused)
        acc->tile += tile_bytes(a, opt) + (b ? tile_bytes(b, opt) : 0) + tile_bytes(result, opt);
    acc->ops++;
    return good ? ok : error(COST_TOO_COMPLEX, -1, -1, -1);
}

/* ---- Contraction: which dims meet ------------------------------------------------ */

/* Case 2 (a contracted dim sharded in one operand only): by the bytes each way moves,
 * or, once the plans are priced on the chip, gathering or partial sums as the faster. */
typedef enum { CASE2_BY_BYTES, CASE2_GATHER_FASTER, CASE2_REDUCE_FASTER } CaseTwo;

typedef struct {
    int a, b;          /* the contracted dim in each operand */
    AxisSet sharded;   /* axes it stays sharded over while each chip computes */
} Pair;

typedef struct {
    const Tensor *a, *b;
    const CostOptions *opt;
    const Mesh *mesh;
    Pair *pairs;
    int npairs;
    bool *used_a, *used_b;
    AxisSet gather_a, gather_b, reduce;
    const char *why_gather_a, *why_gather_b, *why_reduce;
    Tensor *result;    /* the partial result, before any ReduceScatter */
    CaseTwo how;       /* how case 2 is decided */
    bool could_reduce; /* case 2 arose, with partial sums possible */
} Plan;

static int find_dim(const Tensor *t, int name, const bool *skip)
{
    for (int i = 0; i < t->ndims; i++)
        if (t->dims[i].name == name && name >= 0 && !(skip && skip[i]))
            return i;
    return -1;
}

static bool named_in(int name, const int *names, int n)
{
    for (int i = 0; i < n && name >= 0; i++)
        if (names[i] == name)
            return true;
    return false;
}

/* t's last dim (or first) that no earlier pairing used and no name in *_{...} takes. */
static int edge_dim(const Tensor *t, const bool *used, const int *names, int n, bool last)
{
    for (int k = 0; k < t->ndims; k++) {
        int i = last ? t->ndims - 1 - k : k;
        if (!used[i] && !named_in(t->dims[i].name, names, n))
            return i;
    }
    return -1;
}

/* For a dim named in neither operand: as in a matmul, the last unnamed dim of the
 * left meets the first unnamed dim of the right (bf16[B,8,16] *_K bf16[B,16,4] pairs
 * the 16s, B a batch dim). Not where a matmul's place holds a dim both operands name:
 * bf16[4,D] *_Q bf16[D,4] would contract the 4s and keep D, when *_D was meant. */
static bool positional_pair(const Plan *p, const int *names, int n, int *ia, int *ib)
{
    int ea = edge_dim(p->a, p->used_a, names, n, true);
    int eb = edge_dim(p->b, p->used_b, names, n, false);
    *ia = *ib = -1;
    if (ea >= 0 && eb >= 0 && p->a->dims[ea].name >= 0 &&
        p->a->dims[ea].name == p->b->dims[eb].name)
        return false;
    for (int i = p->a->ndims - 1; i >= 0 && *ia < 0; i--)
        if (p->a->dims[i].name < 0 && !p->used_a[i])
            *ia = i;
    for (int i = 0; i < p->b->ndims && *ib < 0; i++)
        if (p->b->dims[i].name < 0 && !p->used_b[i])
            *ib = i;
    return *ia >= 0 && *ib >= 0;
}

static CostError match_contracted(Plan *p, const int *names, int n)
{
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < i; j++)
            if (names[j] == names[i])
                return error(COST_REPEATED, i, -1, -1);
        int ia = find_dim(p->a, names[i], NULL), ib = find_dim(p->b, names[i], NULL);
        if (ia < 0 && ib < 0 && !positional_pair(p, names, n, &ia, &ib))
            return error(COST_NOT_A_DIM, i, -1, -1);
        if (ia < 0 || ib < 0)
            return error(ia < 0 ? COST_NOT_IN_LHS : COST_NOT_IN_RHS, i, ia, ib);
        if (!cost_same_size(p->a->dims[ia].size, p->b->dims[ib].size, p->opt->lookup,
                            p->opt->lookup_ctx))
            return error(COST_SIZE_MISMATCH, i, ia, ib);
        p->used_a[ia] = p->used_b[ib] = true;
        p->pairs[p->npairs++] = (Pair){ia, ib, 0};
    }
    return ok;
}

/* The result: the left's kept dims, then the right's that are not batch dims. A named
 * dim of the right that the left also keeps is a batch dim, kept once: its size and
 * sharding must agree. */
static CostError result_dims(Plan *p, const Dim **dims, int *n)
{
    *n = 0;
    for (int i = 0; i < p->a->ndims; i++)
        if (!p->used_a[i])
            dims[(*n)++] = &p->a->dims[i];
    for (int j = 0; j < p->b->ndims; j++) {
        if (p->used_b[j])
            continue;
        int i = find_dim(p->a, p->b->dims[j].name, p->used_a);
        if (i < 0)
            dims[(*n)++] = &p->b->dims[j];
        else if (!cost_same_size(p->a->dims[i].size, p->b->dims[j].size, p->opt->lookup,
                                 p->opt->lookup_ctx))
            return error(COST_SIZE_MISMATCH, -1, i, j);
        else if (tensor_dim_axes(&p->a->dims[i], p->mesh) != tensor_dim_axes(&p->b->dims[j], p->mesh))
            return error(COST_SHARD_MISMATCH, -1, i, j);
    }
    return ok;
}

/* Case 4: two dims of the result would be sharded over one axis. */
static CostError check_clash(const Tensor *r, const Mesh *m)
{
    for (int i = 0; i < r->ndims; i++)
        for (int j = i + 1; j < r->ndims; j++) {
            AxisSet both = tensor_dim_axes(&r->dims[i], m) & tensor_dim_axes(&r->dims[j], m);
            for (int a = 0; both && a < m->n; a++)
                if (both & 1u << a)
                    return error(COST_AXIS_CLASH, a, i, j);
        }
    return ok;
}

/* The axes that shard the result's dims from..to (its dims from one operand). */
static AxisSet part_axes(const Tensor *r, int from, int to, const Mesh *m)
{
    AxisSet axes = 0;
    for (int i = from; i < to; i++)
        axes |= tensor_dim_axes(&r->dims[i], m);
    return axes;
}

static const char why_weight_clash[] =
    "a kept dim of the weight and one of the other operand are sharded over these axes "
    "(FSDP: W[F, D_X] against In[B_X, F]): the weight is gathered over them before use";

/* Case 4 with a weight (`param`) on one side: a dim the weight keeps and one the
 * activation keeps share axes, as FSDP's W_out[F_Y, D_X] against In[B_X, F_Y]. The
 * weight is gathered over them, as FSDP gathers its weights, and the result's dims
 * from the weight lose them. Without exactly one weight, case 4 stays an error. The
 * result holds the left's kept dims (batch dims among them), then the right's. */
static void gather_weight_clash(Plan *p)
{
    if (p->opt->param_a == p->opt->param_b)
        return;
    bool left = p->opt->param_a;
    int na = 0, n = p->result->ndims;
    for (int i = 0; i < p->a->ndims; i++)
        na += !p->used_a[i];
    AxisSet clash = part_axes(p->result, 0, na, p->mesh) & part_axes(p->result, na, n, p->mesh);
    if (!clash)
        return;
    *(left ? &p->gather_a : &p->gather_b) |= clash;
    *(left ? &p->why_gather_a : &p->why_gather_b) = why_weight_clash;
    for (int i = left ? 0 : na; i < (left ? na : n); i++)
        tensor_dim_remove_axes(&p->result->dims[i], clash, p->mesh);
}

/* ---- Contraction: how the shards meet -------------------------------------------- */

static const char why_partial[] =
    "the contracted dim is sharded alike in both operands: each chip sums its part";
static const char why_partial_shared[] =
    "the contracted dim is sharded over these axes in both operands (and over others in "
    "one): each chip sums its part";

/* Why axes that shard a contracted dim in one operand only are gathered, or summed as
 * partial sums: [0] when the other operand's dim is not sharded (the book's case 2),
 * [1] when it is sharded over other axes (FSDP × TP: In[B_X, D_Y] · W[D_X, F_Y]). */
typedef enum {
    WHY_GATHER_ONLY, WHY_GATHER_CHEAPER, WHY_GATHER_UNKNOWN, WHY_GATHER_FASTER,
    WHY_REDUCE_CHEAPER, WHY_REDUCE_FASTER, WHY_COUNT
} WhyCaseTwo;

static const char *const why_case2[2][WHY_COUNT] = {
    {
        "the contracted dim is sharded in one operand only, and the other uses the same "
        "axes: that operand is gathered",
        "the contracted dim is sharded in one operand only: gathering that operand moves "
        "fewer bytes than reducing partial sums",
        "the contracted dim is sharded in one operand only: that operand is gathered "
        "(partial sums and an allreduce are the other way; which is cheaper depends on "
        "dims not bound yet)",
        "the contracted dim is sharded in one operand only: gathering that operand is "
        "faster on this chip than partial sums and an allreduce",
        "the contracted dim is sharded in one operand only: partial sums and an allreduce "
        "move fewer bytes than gathering that operand",
        "the contracted dim is sharded in one operand only: partial sums and an allreduce "
        "are faster on this chip than gathering that operand (each chip then does its "
        "share of the FLOPs, not all of them)",
    },
    {
        "the contracted dim is sharded differently in the two operands, and the other "
        "operand uses the axes only this one shards it over: this one is gathered over "
        "them",
        "the contracted dim is sharded differently in the two operands: gathering this one "
        "over the axes that only it shards the dim over moves fewer bytes than reducing "
        "partial sums",
        "the contracted dim is sharded differently in the two operands: this one is "
        "gathered over the axes that only it shards the dim over (partial sums and an "
        "allreduce are the other way; which is cheaper depends on dims not bound yet)",
        "the contracted dim is sharded differently in the two operands: gathering this one "
        "over the axes that only it shards the dim over is faster on this chip than "
        "partial sums and an allreduce",
        "the contracted dim is sharded differently in the two operands: partial sums over "
        "all the axes of both and an allreduce move fewer bytes than gathering the operand "
        "that alone shards the dim over some of them",
        "the contracted dim is sharded differently in the two operands: partial sums over "
        "all the axes of both and an allreduce are faster on this chip than gathering the "
        "operand that alone shards the dim over some of them (each chip then does its "
        "share of the FLOPs, not all of them)",
    },
};

/* Case 2 by bytes: partial sums when their allreduce (2V of the result) moves fewer
 * bytes than gathering x (V of x); *known is false while the sizes are not numbers. */
static bool reduce_moves_less(const Plan *p, const Tensor *x, AxisSet s, bool *known)
{
    double gather_bytes = 0, reduce_bytes = 0;
    Poly *gv = group_bytes(x, s, p->mesh), *rv = tensor_local_bytes(p->result, p->mesh);
    *known = value_now(gv, p->opt, &gather_bytes) && value_now(rv, p->opt, &reduce_bytes);
    poly_free(gv);
    poly_free(rv);
    return *known && 2 * reduce_bytes < gather_bytes;
}

/* Case 2: gather operand x over s, the axes that shard the contracted dim in x only,
 * or make partial sums over s (possible when the other operand y is free of s), as
 * p->how decides. `differently`: y's dim is sharded too, over other axes. */
static void choose_case2(Plan *p, Pair *pair, bool left, AxisSet s, bool differently)
{
    const Tensor *x = left ? p->a : p->b, *y = left ? p->b : p->a;
    const char *const *why = why_case2[differently];
    bool partial_ok = !(tensor_axes(y, p->mesh) & s), known = false;
    p->could_reduce |= partial_ok;
    bool reduce = partial_ok && (p->how == CASE2_BY_BYTES ? reduce_moves_less(p, x, s, &known)
                                                          : p->how == CASE2_REDUCE_FASTER);
    if (reduce) {
        pair->sharded |= s;
        p->reduce |= s;
        p->why_reduce = why[p->how == CASE2_BY_BYTES ? WHY_REDUCE_CHEAPER : WHY_REDUCE_FASTER];
        return;
    }
    *(left ? &p->gather_a : &p->gather_b) |= s;
    *(left ? &p->why_gather_a : &p->why_gather_b) =
        why[!partial_ok                ? WHY_GATHER_ONLY
            : p->how != CASE2_BY_BYTES ? WHY_GATHER_FASTER
            : known                    ? WHY_GATHER_CHEAPER
                                       : WHY_GATHER_UNKNOWN];
}

/* Each contracted dim: the axes both operands shard it over stay as partial sums
 * (case 3); those that only one operand shards it over go through case 2, on each
 * side. So In[B_X, D_Y] · W[D_X, F_Y] gathers In over Y and W over X (the book's
 * FSDP × TP), and A[I, J_X] · B[J_XY, K] sums over X and gathers B over Y or sums
 * over Y too. */
static void shard_pairs(Plan *p)
{
    for (int i = 0; i < p->npairs; i++) {
        Pair *pair = &p->pairs[i];
        AxisSet sa = tensor_dim_axes(&p->a->dims[pair->a], p->mesh);
        AxisSet sb = tensor_dim_axes(&p->b->dims[pair->b], p->mesh);
        bool differently = sa && sb && sa != sb;
        pair->sharded = sa & sb;
        p->reduce |= sa & sb;
        if (sa & sb)
            p->why_reduce = differently ? why_partial_shared : why_partial;
        if (sa & ~sb)
            choose_case2(p, pair, true, sa & ~sb, differently);
        if (sb & ~sa)
            choose_case2(p, pair, false, sb & ~sa, differently);
    }
}

/* The reduced axes the `->` type shards the result over (on top of the shardings it
 * has): a ReduceScatter over them, an AllReduce over the rest; those axes then go on
 * the dims `want` names. 0 when the `->` type asks for none, or for more than that. */
static AxisSet scatter_as_wanted(Tensor *r, const Tensor *want, AxisSet reduce, const Mesh *m)
{
    if (!want || !reduce || want->ndims != r->ndims)
        return 0;
    AxisSet added = 0;
    for (int i = 0; i < r->ndims; i++) {
        AxisSet have = tensor_dim_axes(&r->dims[i], m), wanted = tensor_dim_axes(&want->dims[i], m);
        if ((have & ~wanted) || (wanted & ~have & ~reduce))
            return 0;
        added |= wanted & ~have;
    }
    if (!added)
        return 0;
    for (int i = 0; i < r->ndims; i++)
        if (!tensor_dim_add_axes(&r->dims[i], tensor_dim_axes(&want->dims[i], m), m))
            return 0;
    return added;
}

/* Per chip: 2 · (its part of the result) · (its part of the contracted dims), or with
 * exact counting out · (2K − 1). */
static Poly *contracted_elements(const Plan *p);

static Poly *contraction_flops(const Plan *p)
{
    Poly *out = tensor_local_elements(p->result, p->mesh), *k = contracted_elements(p);
    Poly *two_k = k ? poly_scale(k, 2) : NULL, *factor = two_k;
    if (p->opt->exact && two_k) {
        Poly *one = poly_const(1);
        factor = one ? poly_sub(two_k, one) : NULL;
        poly_free(one);
        poly_free(two_k);
    }
    Poly *flops = factor && out ? poly_mul(out, factor) : NULL;
    poly_free(factor);
    poly_free(out);
    poly_free(k);
    return flops;
}

/* An operand as each chip uses it: gathered over `gather`, and where partial sums run
 * over axes it is not sharded on, only the slice of the contracted dims it needs. */
static Tensor *as_used(const Plan *p, const Tensor *t, AxisSet gather, bool left)
{
    Tensor *u = gathered(t, gather, p->mesh);
    for (int i = 0; u && i < p->npairs; i++) {
        Dim *d = &u->dims[left ? p->pairs[i].a : p->pairs[i].b];
        AxisSet missing = p->pairs[i].sharded & ~tensor_dim_axes(d, p->mesh);
        if (missing && !tensor_dim_add_axes(d, missing, p->mesh)) {
            tensor_free(u);
            return NULL;
        }
    }
    return u;
}

/* Whether dim i of an operand is contracted. */
static bool contracted(const Plan *p, int i, bool left)
{
    for (int k = 0; k < p->npairs; k++)
        if ((left ? p->pairs[k].a : p->pairs[k].b) == i)
            return true;
    return false;
}

/* The product of an operand's free dims as each chip holds them (not contracted, not a
 * batch dim the other operand shares), with *any set when it has one. */
static Poly *free_elements(const Plan *p, bool left, bool *any)
{
    const Tensor *t = left ? p->a : p->b, *other = left ? p->b : p->a;
    Poly *n = poly_const(1);
    *any = false;
    for (int i = 0; i < t->ndims && n; i++) {
        if (contracted(p, i, left) || (t->dims[i].name >= 0 && find_dim(other, t->dims[i].name,
                                                                        NULL) >= 0))
            continue;
        *any = true;
        Poly *part = tensor_dim_shard_size(t->dims[i].size, mesh_span(p->mesh, tensor_dim_axes(&t->dims[i],
                                                                                 p->mesh)),
                                    p->mesh->padding);
        n = poly_mul_into(n, part);
        poly_free(part);
    }
    return n;
}

/* The contracted elements per chip: K. */
static Poly *contracted_elements(const Plan *p)
{
    Poly *k = poly_const(1);
    for (int i = 0; i < p->npairs && k; i++) {
        Poly *part = tensor_dim_shard_size(p->a->dims[p->pairs[i].a].size,
                                    mesh_span(p->mesh, p->pairs[i].sharded), p->mesh->padding);
        k = poly_mul_into(k, part);
        poly_free(part);
    }
    return k;
}

/* A number: p with bound dims put in, when that is a constant. */
static bool known_number(const Poly *p, const CostOptions *opt, double *v)
{
    return p && poly_value(p, opt->lookup, opt->lookup_ctx, v);
}

static double round_up(double n, double side)
{
    return ceil(n / side) * side;
}

/* The matrix unit holds the weight (the operand marked param, else the right) and
 * streams the other through it: the weight's contracted dims (K) and free dims (N)
 * pad to multiples of its side. The FLOPs run on padding, 2 · (its flops / (K·N)) ·
 * (K'·N' − K·N), added to acc->padding[slot]; none while K or N is not a number. */
static bool add_padding(const Plan *p, int slot, const Poly *flops, Cost *acc)
{
    double side = p->opt->mxu, k, n;
    bool any, left = p->opt->param_a && !p->opt->param_b;
    Poly *kp = contracted_elements(p), *np = free_elements(p, left, &any);
    bool known = known_number(kp, p->opt, &k) && known_number(np, p->opt, &n) && k > 0 && n > 0;
    poly_free(kp);
    poly_free(np);
    if (!known || side <= 0)
        return true;
    double waste = round_up(k, side) * round_up(n, side) / (k * n) - 1;
    if (waste <= 0)
        return true;
    Poly *extra = poly_scale(flops, waste);
    return extra && accumulate(&acc->padding[slot], extra);
}

/* Where a contraction runs: on the matrix unit when each operand has a free dim (a
 * matrix on either side), else on the vector unit (a dot product, a weighted sum).
 * -1 when memory ran out. */
static int contraction_slot(const Plan *p)
{
    bool free_a, free_b;
    Poly *na = free_elements(p, true, &free_a), *nb = free_elements(p, false, &free_b);
    bool known = na && nb;
    poly_free(na);
    poly_free(nb);
    return known ? cost_slot(pick(p->opt->compute_dtype, p->a, p->b), !(free_a && free_b)) : -1;
}

/* The last kernel recorded is this contraction's: its output tile grid and depth. */
static void note_matrix_shape(const Plan *p, Cost *acc)
{
    CostKernel *k = &acc->kernels[acc->nkernels - 1];
    bool any;
    Poly *rows = free_elements(p, true, &any), *cols = free_elements(p, false, &any);
    Poly *depth = contracted_elements(p);
    if (!known_number(rows, p->opt, &k->rows) || !known_number(cols, p->opt, &k->cols) ||
        !known_number(depth, p->opt, &k->depth))
        k->rows = k->cols = k->depth = NAN;
    poly_free(rows);
    poly_free(cols);
    poly_free(depth);
    k->matrix = true;
    /* exact counting (2K − 1) or not, the batch is a whole number */
    k->batch = round(k->flops / (2 * k->rows * k->cols * k->depth));
}

/* The op itself: operands as each chip uses them, after any gather. */
static CostError add_contraction(Plan *p, Cost *acc)
{
    Tensor *ua = as_used(p, p->a, p->gather_a, true), *ub = as_used(p, p->b, p->gather_b, false);
    Tensor *ha = gathered(p->a, p->gather_a, p->mesh), *hb = gathered(p->b, p->gather_b, p->mesh);
    CostError e = error(COST_TOO_COMPLEX, -1, -1, -1);
    int slot = contraction_slot(p);
    Poly *flops = slot >= 0 ? contraction_flops(p) : NULL;
    if (flops && !cost_slot_vector(slot) && !add_padding(p, slot, flops, acc)) {
        poly_free(flops);
        flops = NULL;
    }
    if (ua && ub && ha && hb && flops) {
        e = add_op(acc, slot, flops, ua, ub, ha, hb, p->result, p->opt);
        if (e.status == COST_OK && !cost_slot_vector(slot) && p->opt->kernels)
            note_matrix_shape(p, acc);
    } else {
        poly_free(flops);
    }
    tensor_free(ua);
    tensor_free(ub);
    tensor_free(ha);
    tensor_free(hb);
    return e;
}

/* A collective among the chips of `axes`: none when they are a single chip. */
static bool spans_chips(const Mesh *m, AxisSet axes)
{
    return axes && mesh_span(m, axes) > 1;
}

/* The axes that shard the free (not contracted) dims of `act`, the activation, and
 * not the weight: chips along them see different data with the same weight shard. */
static AxisSet data_axes(const Plan *p, const Tensor *act, const Tensor *weight, bool is_a)
{
    AxisSet axes = 0;
    for (int i = 0; i < act->ndims; i++) {
        bool contracted = false;
        for (int k = 0; k < p->npairs; k++)
            contracted = contracted || (is_a ? p->pairs[k].a : p->pairs[k].b) == i;
        if (!contracted)
            axes |= tensor_dim_axes(&act->dims[i], p->mesh);
    }
    return axes & ~tensor_axes(weight, p->mesh);
}

/* A collective that only the backward pass has: training counts it once. */
static CostError add_backward(Cost *acc, CollKind kind, AxisSet axes, Poly *bytes,
                              const Tensor *array, const char *why)
{
    CostError e = add_collective(acc, kind, axes, bytes, array, why);
    if (e.status == COST_OK)
        acc->colls[acc->ncolls - 1].backward = true;
    return e;
}

/* Training, a weight operand: its gradient is summed over the chips that share its
 * shard (an AllReduce over the data axes) and, when the forward pass gathered it,
 * reduce-scattered back to its shards. */
static CostError add_weight_gradient(Plan *p, Cost *acc, const Tensor *w, AxisSet gathered,
                                     const Tensor *act, bool w_is_a)
{
    CostError e = ok;
    AxisSet data = data_axes(p, act, w, !w_is_a);
    if (spans_chips(p->mesh, data))
        e = add_backward(acc, COLL_ALLREDUCE, data, tensor_local_bytes(w, p->mesh), w,
                         "training: the weight's gradient is summed over the data axes");
    if (e.status == COST_OK && spans_chips(p->mesh, gathered))
        e = add_backward(acc, COLL_REDUCESCATTER, gathered, group_bytes(w, gathered, p->mesh),
                         w, "training: the gathered weight's gradient goes back to its shards");
    return e;
}

/* The collectives: gathers before, the reduction of partial sums after. */
/* The partial sums: reduce-scattered over the axes `scatter` (the `->` type's), then
 * all-reduced, scattered, over the rest of the reduced axes. */
static CostError add_reduction(Plan *p, Cost *acc, AxisSet scatter, const Tensor *scattered)
{
    CostError e = ok;
    AxisSet rest = p->reduce & ~scatter;
    if (spans_chips(p->mesh, scatter))
        e = add_collective(acc, COLL_REDUCESCATTER, scatter,
                           tensor_local_bytes(p->result, p->mesh), p->result, p->why_reduce);
    if (e.status == COST_OK && spans_chips(p->mesh, rest))
        e = add_collective(acc, COLL_ALLREDUCE, rest,
                           tensor_local_bytes(scatter ? scattered : p->result, p->mesh),
                           scatter ? scattered : p->result, p->why_reduce);
    return e;
}

static CostError add_plan_collectives(Plan *p, Cost *acc, AxisSet scatter,
                                      const Tensor *scattered)
{
    CostError e = ok;
    if (spans_chips(p->mesh, p->gather_a))
        e = add_collective(acc, COLL_ALLGATHER, p->gather_a,
                           group_bytes(p->a, p->gather_a, p->mesh), p->a, p->why_gather_a);
    if (e.status == COST_OK && spans_chips(p->mesh, p->gather_b))
        e = add_collective(acc, COLL_ALLGATHER, p->gather_b,
                           group_bytes(p->b, p->gather_b, p->mesh), p->b, p->why_gather_b);
    if (e.status == COST_OK)
        e = add_reduction(p, acc, scatter, scattered);
    if (e.status == COST_OK && p->opt->training && p->opt->param_b && !p->opt->param_a)
        e = add_weight_gradient(p, acc, p->b, p->gather_b, p->a, false);
    if (e.status == COST_OK && p->opt->training && p->opt->param_a && !p->opt->param_b)
        e = add_weight_gradient(p, acc, p->a, p->gather_a, p->b, true);
    return e;
}

/* Which dims meet, the result's dims and how the shards meet: everything of a plan but
 * its costs. */
static CostError plan_shards(Plan *p, const int *names, int nnames)
{
    const Dim **dims = nomem_note(malloc(sizeof *dims * (size_t)(p->a->ndims + p->b->ndims + 1)));
    int n = 0;
    CostError e = dims ? match_contracted(p, names, nnames) : error(COST_TOO_COMPLEX, -1, -1, -1);
    if (e.status == COST_OK)
        e = result_dims(p, dims, &n);
    if (e.status == COST_OK && !(p->result = tensor_from(pick(p->opt->out_dtype, p->a, p->b),
                                                         dims, n)))
        e = error(COST_TOO_COMPLEX, -1, -1, -1);
    free(dims);
    if (e.status == COST_OK) {
        shard_pairs(p);
        gather_weight_clash(p);
        e = check_clash(p->result, p->mesh);
    }
    return e;
}

/* The costs of a plan whose shards are laid (plan_shards), into acc, and its result. */
static CostError plan_costs(Plan *p, Cost *acc, Tensor **out)
{
    CostError e = add_contraction(p, acc);
    if (e.status != COST_OK)
        return e;
    *out = tensor_copy(p->result);
    AxisSet scatter = *out ? scatter_as_wanted(*out, p->opt->want, p->reduce, p->mesh) : 0;
    return *out ? add_plan_collectives(p, acc, scatter, *out)
                : error(COST_TOO_COMPLEX, -1, -1, -1);
}

/* A plan of a *_{names} b with its shards laid, case 2 decided as `how` says (Plan's
 * could_reduce then says whether case 2 arose with partial sums possible); plan_free
 * frees it, whatever this returns. */
static CostError plan_start(Plan *p, const Tensor *a, const Tensor *b, const int *names,
                            int nnames, const CostOptions *opt, CaseTwo how)
{
    *p = (Plan){.a = a, .b = b, .opt = opt, .mesh = opt->mesh, .how = how};
    p->pairs = nomem_note(malloc(sizeof *p->pairs * (size_t)(nnames + 1)));
    p->used_a = nomem_note(calloc((size_t)a->ndims + 1, 1));
    p->used_b = nomem_note(calloc((size_t)b->ndims + 1, 1));
    if (!p->pairs || !p->used_a || !p->used_b)
        return error(COST_TOO_COMPLEX, -1, -1, -1);
    return plan_shards(p, names, nnames);
}

static void plan_free(Plan *p)
{
    free(p->pairs);
    free(p->used_a);
    free(p->used_b);
    tensor_free(p->result);
}

/* A started plan (`e`: how its start went) finished: its costs into acc and its result in
 * *out, or the error and no result. */
static CostError plan_finish(Plan *p, CostError e, Cost *acc, Tensor **out)
{
    *out = NULL;
    if (e.status == COST_OK)
        e = plan_costs(p, acc, out);
    if (e.status != COST_OK) {
        tensor_free(*out);
        *out = NULL;
    }
    return e;
}

/* One plan of a *_{names} b, case 2 decided as `how` says; could_reduce, when given,
 * says whether case 2 arose with partial sums possible. */
static CostError contract_as(const Tensor *a, const Tensor *b, const int *names, int nnames,
                             const CostOptions *opt, CaseTwo how, Tensor **out, Cost *acc,
                             bool *could_reduce)
{
    Plan p;
    CostError e = plan_finish(&p, plan_start(&p, a, b, names, nnames, opt, how), acc, out);
    if (could_reduce)
        *could_reduce = p.could_reduce;
    plan_free(&p);
    return e;
}

/* A plan's time as opt->plan_time prices it, trained as the statement will be; NaN
 * when it cannot be built or priced. */
static double plan_time(const Tensor *a, const Tensor *b, const int *names, int nnames,
                        const CostOptions *opt, CaseTwo how)
{
    Cost trial;
    Tensor *result = NULL;
    cost_init(&trial);
    trial.axes_add = opt->axes_add;
    double t = NAN;
    if (contract_as(a, b, names, nnames, opt, how, &result, &trial, NULL).status ==
            COST_OK &&
        (!opt->training || cost_train(&trial, opt->training)))
        t = opt->plan_time(&trial, opt);
    tensor_free(result);
    cost_free(&trial);
    return t;
}

/* Case 2, once the shards say partial sums are possible: by time when the chip prices
 * both plans and one is faster, else by bytes. */
static CaseTwo faster_case2(const Tensor *a, const Tensor *b, const int *names, int nnames,
                            const CostOptions *opt)
{
    double gather = plan_time(a, b, names, nnames, opt, CASE2_GATHER_FASTER);
    if (isnan(gather))
        return CASE2_BY_BYTES;
    double reduce = plan_time(a, b, names, nnames, opt, CASE2_REDUCE_FASTER);
    if (isnan(reduce) || reduce == gather) /* a tie (latency floors): fewer bytes */
        return CASE2_BY_BYTES;
    return reduce < gather ? CASE2_REDUCE_FASTER : CASE2_GATHER_FASTER;
}

CostError cost_contract(const Tensor *a, const Tensor *b, const int *names, int nnames,
                        const CostOptions *opt, Tensor **out, Cost *acc)
{
    bool chosen = opt->plan == COST_PLAN_GATHER || opt->plan == COST_PLAN_REDUCE;
    /* nothing sharded: no case 2, nothing to price */
    bool priced = opt->plan_time && (tensor_axes(a, opt->mesh) | tensor_axes(b, opt->mesh));
    if (!chosen && priced) {
        /* Whether case 2 can make partial sums is known from the shards alone
         * (shard_pairs, whatever `how` says). When it cannot, `how` changes nothing
         * and there is nothing to price: the plan laid here is costed as it is. */
        Plan probe;
        CostError e = plan_start(&probe, a, b, names, nnames, opt, CASE2_GATHER_FASTER);
        bool choice = probe.could_reduce;
        if (!choice)
            e = plan_finish(&probe, e, acc, out);
        plan_free(&probe);
        if (!choice)
            return e;
    }
    CaseTwo how = opt->plan == COST_PLAN_GATHER   ? CASE2_GATHER_FASTER
                  : opt->plan == COST_PLAN_REDUCE ? CASE2_REDUCE_FASTER
                  : priced                        ? faster_case2(a, b, names, nnames, opt)
                                                  : CASE2_BY_BYTES;
    bool could_reduce = false;
    CostError e = contract_as(a, b, names, nnames, opt, how, out, acc, &could_reduce);
    acc->choices += could_reduce;
    return e;
}

/* ---- Elementwise ------------------------------------------------------------------ */

/* Whether every dim of `small` is a dim of `big` with the same name, size and
 * sharding, in the same order: then `small` is broadcast over big's other dims. */
static bool broadcasts_into(const Tensor *small, const Tensor *big, const CostOptions *opt)
{
    int next = 0;
    for (int i = 0; i < small->ndims; i++) {
        const Dim *d = &small->dims[i];
        while (next < big->ndims && (d->name < 0 || big->dims[next].name != d->name))
            next++;
        if (next == big->ndims ||
            !cost_same_size(d->size, big->dims[next].size, opt->lookup, opt->lookup_ctx) ||
            tensor_dim_axes(d, opt->mesh) != tensor_dim_axes(&big->dims[next], opt->mesh))
            return false;
        next++;
    }
    return true;
}

/* Same ranks: dim by dim. Different ranks: the smaller broadcast by dim names. */
static CostError elementwise_shapes(const Tensor *a, const Tensor *b, const CostOptions *opt)
{
    if (a->ndims != b->ndims) {
        bool fits = a->ndims < b->ndims ? broadcasts_into(a, b, opt) : broadcasts_into(b, a, opt);
        return fits ? ok : error(COST_RANK_MISMATCH, -1, -1, -1);
    }
    for (int i = 0; i < a->ndims; i++) {
        if (!cost_same_size(a->dims[i].size, b->dims[i].size, opt->lookup, opt->lookup_ctx))
            return error(COST_SIZE_MISMATCH, -1, i, i);
        if (tensor_dim_axes(&a->dims[i], opt->mesh) != tensor_dim_axes(&b->dims[i], opt->mesh))
            return error(COST_SHARD_MISMATCH, -1, i, i);
    }
    return ok;
}

/* Records an op whose FLOPs are one per element of `result` (consumed on failure). */
static CostError elementwise_op(Cost *acc, const Tensor *a, const Tensor *b, Tensor *result,
                                const CostOptions *opt, Tensor **out)
{
    CostError e = add_op(acc, cost_slot(pick(opt->compute_dtype, a, b ? b : a), true),
                         tensor_local_elements(result, opt->mesh), a, b, a, b, result, opt);
    if (e.status == COST_OK)
        *out = result;
    else
        tensor_free(result);
    return e;
}

/* Training, a weight in an elementwise op (a norm's gain, x · g): its gradient, the sum
 * over the elements it was broadcast to, is summed over the chips that split the
 * activation but hold the same weight (an AllReduce over those axes). Such gradients
 * are a few kB: frameworks (DDP's buckets, FSDP's flat parameters) send them with the
 * layer's weight gradients, so this one pays no latency floor of its own (bucketed). */
static CostError add_broadcast_gradient(Cost *acc, const Tensor *w, const Tensor *act,
                                        const CostOptions *opt)
{
    AxisSet data = tensor_axes(act, opt->mesh) & ~tensor_axes(w, opt->mesh);
    if (!spans_chips(opt->mesh, data))
        return ok;
    CostError e = add_backward(acc, COLL_ALLREDUCE, data, tensor_local_bytes(w, opt->mesh), w,
                               "training: the weight's gradient is summed over the data axes "
                               "(in the layer's bucket: no latency of its own)");
    if (e.status == COST_OK)
        acc->colls[acc->ncolls - 1].bucketed = true;
    return e;
}

CostError cost_elementwise(const Tensor *a, const Tensor *b, const CostOptions *opt,
                           Tensor **out, Cost *acc)
{
    *out = NULL;
    CostError e = elementwise_shapes(a, b, opt);
    if (e.status != COST_OK)
        return e;
    Tensor *result = tensor_copy(a->ndims >= b->ndims ? a : b);
    if (!result)
        return error(COST_TOO_COMPLEX, -1, -1, -1);
    result->dtype = pick(opt->out_dtype, a, b);
    if (opt->training && opt->param_a != opt->param_b)
        e = add_broadcast_gradient(acc, opt->param_a ? a : b, opt->param_a ? b : a, opt);
    if (e.status != COST_OK) {
        tensor_free(result);
        return e;
    }
    return elementwise_op(acc, a, b, result, opt, out);
}

CostError cost_unary(const Tensor *a, const CostOptions *opt, Tensor **out, Cost *acc)
{
    *out = NULL;
    Tensor *result = tensor_copy(a);
    if (!result)
        return error(COST_TOO_COMPLEX, -1, -1, -1);
    result->dtype = opt->out_dtype >= 0 ? (DType)opt->out_dtype : a->dtype;
    return elementwise_op(acc, a, NULL, result, opt, out);
}

CostError cost_reduce(const Tensor *a, int dim, const CostOptions *opt, Tensor **out,
                      Cost *acc)
{
    *out = NULL;
    const Dim **kept = nomem_note(malloc(sizeof *kept * (size_t)(a->ndims + 1)));
    if (!kept)
        return error(COST_TOO_COMPLEX, -1, -1, -1);
    int n = 0;
    for (int i = 0; i < a->ndims; i++)
        if (i != dim)
            kept[n++] = &a->dims[i];
    Tensor *result = tensor_from(opt->out_dtype >= 0 ? (DType)opt->out_dtype : a->dtype,
                                 (const Dim *const *)kept, n);
    free(kept);
    if (!result)
        return error(COST_TOO_COMPLEX, -1, -1, -1);
    CostError e = add_op(acc, cost_slot(pick(opt->compute_dtype, a, a), true),
                         tensor_local_elements(a, opt->mesh), a, NULL, a, NULL, result, opt);
    AxisSet axes = tensor_dim_axes(&a->dims[dim], opt->mesh);
    if (e.status == COST_OK && spans_chips(opt->mesh, axes))
        e = add_collective(acc, COLL_ALLREDUCE, axes, tensor_local_bytes(result, opt->mesh),
                           result, "the reduced dim is sharded: each chip reduces its part");
    if (e.status == COST_OK)
        *out = result;
    else
        tensor_free(result);
    return e;
}

/* ---- Embeddings ------------------------------------------------------------------- */

/* The forward collectives of a lookup (cost.h): the table gathered, or the rows; the
 * rows summed over the vocabulary's axes. `result` is the rows as the chip ends with
 * them. */
static CostError lookup_collectives(const Tensor *table, const Tensor *result,
                                    AxisSet gather, const CostOptions *opt, Cost *acc)
{
    const Mesh *m = opt->mesh;
    AxisSet x_axes = tensor_axes(result, m), vocab = tensor_dim_axes(&table->dims[0], m);
    CostError e = ok;
    if (spans_chips(m, gather & x_axes))
        e = add_collective(acc, COLL_ALLGATHER, gather & x_axes,
                           group_bytes(table, gather & x_axes, m), table,
                           "the table is split along a dim the tokens need whole: gathered "
                           "before the lookup");
    if (e.status == COST_OK && spans_chips(m, gather & ~x_axes))
        e = add_collective(acc, COLL_ALLGATHER, gather & ~x_axes,
                           tensor_local_bytes(result, m), result,
                           "each chip looks up its slice of every row: the rows are gathered");
    if (e.status == COST_OK && spans_chips(m, vocab & ~x_axes))
        e = add_collective(acc, COLL_ALLREDUCE, vocab & ~x_axes,
                           tensor_local_bytes(result, m), result, "the vocabulary is split: "
                           "each chip has the rows it holds, zeros for the rest, summed");
    if (e.status == COST_OK && spans_chips(m, vocab & x_axes))
        e = add_collective(acc, COLL_REDUCESCATTER, vocab & x_axes,
                           group_bytes(result, vocab & x_axes, m), result,
                           "the vocabulary is split: each chip has the rows it holds, zeros "
                           "for the rest, summed and scattered");
    return e;
}

/* Training: the table's gradient (cost.h: cost_lookup). */
static CostError lookup_gradient(const Tensor *table, const Tensor *result, AxisSet gathered,
                                 const CostOptions *opt, Cost *acc)
{
    const Mesh *m = opt->mesh;
    AxisSet data = tensor_axes(result, m) & ~tensor_axes(table, m);
    CostError e = ok;
    if (spans_chips(m, data))
        e = add_backward(acc, COLL_ALLREDUCE, data, tensor_local_bytes(table, m), table,
                         "training: the table's gradient is summed over the data axes");
    if (e.status == COST_OK && spans_chips(m, gathered))
        e = add_backward(acc, COLL_REDUCESCATTER, gathered, group_bytes(table, gathered, m),
                         table, "training: the gathered table's gradient goes back to its "
                         "shards");
    return e;
}

/* The rows a chip reads from the table: the result's, whole along the axes of the
 * vocabulary that split the tokens (each chip looks up every token of its group), and
 * only its slice of each row along the axes of the table's other dims that leave the
 * tokens whole. */
static Tensor *rows_read(const Tensor *table, const Tensor *result, AxisSet gather,
                         const Mesh *m)
{
    Tensor *rows = tensor_copy(result);
    AxisSet x_axes = tensor_axes(result, m), vocab = tensor_dim_axes(&table->dims[0], m);
    for (int i = 0; rows && i < rows->ndims; i++) {
        tensor_dim_remove_axes(&rows->dims[i], vocab & x_axes, m);
        for (int j = 1; j < table->ndims; j++)
            if (rows->dims[i].name >= 0 && rows->dims[i].name == table->dims[j].name &&
                !tensor_dim_add_axes(&rows->dims[i], tensor_dim_axes(&table->dims[j], m) & gather & ~x_axes,
                              m)) {
                tensor_free(rows);
                return NULL;
            }
    }
    return rows;
}

CostError cost_lookup(const Tensor *table, const Tensor *x, const CostOptions *opt,
                      Tensor **out, Cost *acc)
{
    *out = NULL;
    const Mesh *m = opt->mesh;
    AxisSet gather = tensor_axes(table, m) & ~tensor_dim_axes(&table->dims[0], m);
    Tensor *result = tensor_copy(x);
    if (result)
        result->dtype = table->dtype;
    Tensor *rows = result ? rows_read(table, result, gather, m) : NULL;
    if (result) /* the rows are read in the table's dtype (a quantized table's too) and
                 * written in the activations' */
        result->dtype = x->dtype;
    CostError e = rows ? lookup_collectives(table, result, gather, opt, acc)
                       : error(COST_TOO_COMPLEX, -1, -1, -1);
    if (e.status == COST_OK && opt->training && opt->param_a)
        e = lookup_gradient(table, result, gather & tensor_axes(result, m), opt, acc);
    if (e.status == COST_OK)
        e = add_op(acc, cost_slot(x->dtype, true), poly_const(0), rows, NULL, table, NULL,
                   result, opt);
    tensor_free(rows);
    if (e.status == COST_OK)
        *out = result;
    else
        tensor_free(result);
    return e;
}

/* ---- Collectives on their own ------------------------------------------------------ */

/* The first axis of `axes` that t does (or does not) use, or -1. */
static int axis_missing(const Tensor *t, AxisSet axes, const Mesh *m, bool want_used)
{
    AxisSet used = tensor_axes(t, m);
    for (int a = 0; a < m->n; a++)
        if ((axes & 1u << a) && ((used & 1u << a) != 0) != want_used)
            return a;
    return -1;
}

/* Puts `axes` on the dim that `want` shards over them, or the first dim (other than
 * `skip`) that has no axis yet. */
static bool place_axes(Tensor *r, const Tensor *want, AxisSet axes, int skip, const Mesh *m)
{
    if (want)
        return scatter_as_wanted(r, want, axes, m);
    for (int i = 0; i < r->ndims; i++)
        if (i != skip && r->dims[i].naxes == 0)
            return tensor_dim_add_axes(&r->dims[i], axes, m);
    return false;
}

/* The dim that holds `axes`, or -1. */
static int dim_holding(const Tensor *t, AxisSet axes, const Mesh *m)
{
    for (int i = 0; i < t->ndims; i++)
        if ((tensor_dim_axes(&t->dims[i], m) & axes) == axes)
            return i;
    return -1;
}

/* The result's layout, and whether `t` can go through the collective at all. */
static CostError collective_result(const Tensor *t, CollKind kind, AxisSet axes,
                                   const CostOptions *opt, Tensor *r)
{
    const Mesh *m = opt->mesh;
    int from;
    switch (kind) {
    case COLL_ALLGATHER:
        from = axis_missing(t, axes, m, true);
        if (from >= 0)
            return error(COST_NOT_SHARDED, from, -1, -1);
        for (int i = 0; i < r->ndims; i++)
            tensor_dim_remove_axes(&r->dims[i], axes, m);
        return ok;
    case COLL_ALLREDUCE:
    case COLL_REDUCESCATTER:
        from = axis_missing(t, axes, m, false);
        if (from >= 0)
            return error(COST_ALREADY_SHARDED, from, -1, -1);
        if (kind == COLL_REDUCESCATTER && !place_axes(r, opt->want, axes, -1, m))
            return error(COST_NO_TARGET, -1, -1, -1);
        return ok;
    case COLL_ALLTOALL:
        from = dim_holding(t, axes, m);
        if (from < 0)
            return error(COST_NOT_SHARDED, axis_missing(t, axes, m, true), -1, -1);
        tensor_dim_remove_axes(&r->dims[from], axes, m);
        return place_axes(r, opt->want, axes, from, m) ? ok
                                                       : error(COST_NO_TARGET, -1, -1, -1);
    }
    return ok;
}

/* V: a gather or an all-to-all moves the whole array of a group; a reduction, the
 * partial sums each chip holds. */
static Poly *collective_bytes(const Tensor *t, CollKind kind, AxisSet axes, const Mesh *m)
{
    if (kind == COLL_ALLGATHER || kind == COLL_ALLTOALL)
        return group_bytes(t, axes, m);
    return tensor_local_bytes(t, m);
}

CostError cost_collective(const Tensor *t, CollKind kind, AxisSet axes,
                          const CostOptions *opt, Tensor **out, Cost *acc)
{
    Tensor *r = tensor_copy(t);
    CostError e = !r ? error(COST_TOO_COMPLEX, -1, -1, -1)
                  : axes ? collective_result(t, kind, axes, opt, r) : ok;
    if (e.status == COST_OK && spans_chips(opt->mesh, axes))
        e = add_collective(acc, kind, axes, collective_bytes(t, kind, axes, opt->mesh), t,
                           NULL);
    if (e.status != COST_OK) {
        tensor_free(r);
        r = NULL;
    } else {
        acc->ops++;
    }
    *out = r;
    return e;
}
