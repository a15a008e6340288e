/* cost.c — shapes, FLOPs and HBM bytes of contractions and elementwise ops. */
#include "cost.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

Tensor *tensor_new(DType dtype, int ndims)
{
    Tensor *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    t->dtype = dtype;
    t->ndims = ndims;
    t->dims = ndims ? calloc((size_t)ndims, sizeof *t->dims) : NULL;
    if (ndims && !t->dims) {
        free(t);
        return NULL;
    }
    return t;
}

void tensor_free(Tensor *t)
{
    if (!t)
        return;
    for (int i = 0; i < t->ndims; i++)
        poly_free(t->dims[i].size);
    free(t->dims);
    free(t);
}

/* A tensor whose dims are copies of the listed dims of a and b, in order. */
static Tensor *tensor_from(DType dtype, const Dim **dims, int n)
{
    Tensor *t = tensor_new(dtype, n);
    if (!t)
        return NULL;
    for (int i = 0; i < n; i++) {
        t->dims[i].name = dims[i]->name;
        t->dims[i].size = poly_copy(dims[i]->size);
        if (!t->dims[i].size) {
            tensor_free(t);
            return NULL;
        }
    }
    return t;
}

Tensor *tensor_copy(const Tensor *t)
{
    const Dim **dims = malloc(sizeof *dims * (size_t)(t->ndims + 1));
    if (!dims)
        return NULL;
    for (int i = 0; i < t->ndims; i++)
        dims[i] = &t->dims[i];
    Tensor *copy = tensor_from(t->dtype, dims, t->ndims);
    free(dims);
    return copy;
}

/* Multiplies `into` by p, freeing the old product; NULL on failure. */
static Poly *times(Poly *into, const Poly *p)
{
    Poly *r = into && p ? poly_mul(into, p) : NULL;
    poly_free(into);
    return r;
}

Poly *tensor_elements(const Tensor *t)
{
    Poly *n = poly_const(1);
    for (int i = 0; i < t->ndims; i++)
        n = times(n, t->dims[i].size);
    return n;
}

Poly *tensor_bytes(const Tensor *t)
{
    Poly *n = tensor_elements(t);
    Poly *bytes = n ? poly_scale(n, dtype_bytes(t->dtype)) : NULL;
    poly_free(n);
    return bytes;
}

char *tensor_format(const Tensor *t, PolyNamer namer, void *ctx, char *buf, size_t size)
{
    size_t used = (size_t)snprintf(buf, size, "%s[", dtype_name(t->dtype));
    for (int i = 0; i < t->ndims && used < size; i++) {
        char dim[256];
        poly_format(t->dims[i].size, POLY_STYLE_TEXT, namer, ctx, dim, sizeof dim);
        used += (size_t)snprintf(buf + used, size - used, "%s%s", i ? "," : "", dim);
    }
    if (used < size)
        snprintf(buf + used, size - used, "]");
    return buf;
}

void cost_init(Cost *c)
{
    memset(c, 0, sizeof *c);
}

void cost_free(Cost *c)
{
    for (int d = 0; d < DT_COUNT; d++)
        poly_free(c->flops[d]);
    poly_free(c->read);
    poly_free(c->written);
    cost_init(c);
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
    for (int d = 0; d < DT_COUNT && total; d++)
        if (c->flops[d] && !accumulate(&total, poly_copy(c->flops[d]))) {
            poly_free(total);
            return NULL;
        }
    return total;
}

int cost_single_dtype(const Cost *c)
{
    int found = -1;
    for (int d = 0; d < DT_COUNT; d++)
        if (c->flops[d]) {
            if (found >= 0)
                return -1;
            found = d;
        }
    return found;
}

/* Adds one op: its FLOPs at `compute`, its operands read, its result written. */
static bool cost_add(Cost *acc, DType compute, Poly *flops, const Tensor *a,
                     const Tensor *b, const Tensor *out)
{
    bool ok = accumulate(&acc->flops[compute], flops);
    ok = accumulate(&acc->read, tensor_bytes(a)) && ok;
    ok = accumulate(&acc->read, tensor_bytes(b)) && ok;
    ok = accumulate(&acc->written, tensor_bytes(out)) && ok;
    acc->ops++;
    return ok;
}

bool cost_same_size(const Poly *a, const Poly *b, PolyLookup lookup, void *ctx)
{
    if (poly_equal(a, b))
        return true;
    if (!lookup)
        return false;
    Poly *sa = poly_subst(a, lookup, ctx), *sb = poly_subst(b, lookup, ctx);
    double va, vb;
    bool same = sa && sb && poly_is_const(sa, &va) && poly_is_const(sb, &vb) && va == vb;
    poly_free(sa);
    poly_free(sb);
    return same;
}

static int find_dim(const Tensor *t, int name, const bool *skip)
{
    for (int i = 0; i < t->ndims; i++)
        if (t->dims[i].name == name && name >= 0 && !(skip && skip[i]))
            return i;
    return -1;
}

/* For a dim named in neither operand: as in a matmul, the last unnamed dim of the
 * left meets the first unnamed dim of the right. */
static bool positional_pair(const Tensor *a, const Tensor *b, const bool *used_a,
                            const bool *used_b, int *ia, int *ib)
{
    *ia = *ib = -1;
    for (int i = a->ndims - 1; i >= 0 && *ia < 0; i--)
        if (a->dims[i].name < 0 && !used_a[i])
            *ia = i;
    for (int i = 0; i < b->ndims && *ib < 0; i++)
        if (b->dims[i].name < 0 && !used_b[i])
            *ib = i;
    return *ia >= 0 && *ib >= 0;
}

static CostError error(CostStatus status, int index, int lhs, int rhs)
{
    return (CostError){status, index, lhs, rhs};
}

/* Marks the contracted dims in used_a / used_b; K gets their product. */
static CostError match_contracted(const Tensor *a, const Tensor *b, const int *names,
                                  int n, const CostOptions *opt, bool *used_a,
                                  bool *used_b, Poly **k)
{
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < i; j++)
            if (names[j] == names[i])
                return error(COST_REPEATED, i, -1, -1);
        int ia = find_dim(a, names[i], NULL), ib = find_dim(b, names[i], NULL);
        if (ia < 0 && ib < 0 && !positional_pair(a, b, used_a, used_b, &ia, &ib))
            return error(COST_NOT_A_DIM, i, -1, -1);
        if (ia < 0 || ib < 0)
            return error(ia < 0 ? COST_NOT_IN_LHS : COST_NOT_IN_RHS, i, ia, ib);
        if (!cost_same_size(a->dims[ia].size, b->dims[ib].size, opt->lookup, opt->lookup_ctx))
            return error(COST_SIZE_MISMATCH, i, ia, ib);
        used_a[ia] = used_b[ib] = true;
        if (!(*k = times(*k, a->dims[ia].size)))
            return error(COST_TOO_COMPLEX, i, -1, -1);
    }
    return error(COST_OK, -1, -1, -1);
}

/* Output dims: the left's kept dims, then the right's that are not batch dims. A
 * named dim of the right that the left also keeps is a batch dim (kept once). */
static CostError output_dims(const Tensor *a, const Tensor *b, const bool *used_a,
                             const bool *used_b, const CostOptions *opt, const Dim **dims,
                             int *n)
{
    *n = 0;
    for (int i = 0; i < a->ndims; i++)
        if (!used_a[i])
            dims[(*n)++] = &a->dims[i];
    for (int j = 0; j < b->ndims; j++) {
        if (used_b[j])
            continue;
        int i = find_dim(a, b->dims[j].name, used_a);
        if (i < 0)
            dims[(*n)++] = &b->dims[j];
        else if (!cost_same_size(a->dims[i].size, b->dims[j].size, opt->lookup,
                                 opt->lookup_ctx))
            return error(COST_SIZE_MISMATCH, -1, i, j);
    }
    return error(COST_OK, -1, -1, -1);
}

/* 2·out·K, or out·(2K − 1) when exact. */
static Poly *contraction_flops(const Poly *out, const Poly *k, bool exact)
{
    Poly *two_k = poly_scale(k, 2), *factor = two_k;
    if (exact && two_k) {
        Poly *one = poly_const(1);
        factor = one ? poly_sub(two_k, one) : NULL;
        poly_free(one);
        poly_free(two_k);
    }
    Poly *flops = factor ? poly_mul(out, factor) : NULL;
    poly_free(factor);
    return flops;
}

static DType pick(int chosen, const Tensor *a, const Tensor *b)
{
    return chosen >= 0 ? (DType)chosen : dtype_wider(a->dtype, b->dtype);
}

/* Records a computed op, or frees its pieces when something failed. A polynomial
 * operation fails only when a term would hold too many symbols (or memory ran out). */
static CostError finish(CostError e, Tensor *result, Poly *flops, const Tensor *a,
                        const Tensor *b, const CostOptions *opt, Tensor **out, Cost *acc)
{
    if (e.status == COST_OK && (!result || !flops))
        e = error(COST_TOO_COMPLEX, -1, -1, -1);
    if (e.status == COST_OK &&
        !cost_add(acc, pick(opt->compute_dtype, a, b), flops, a, b, result))
        e = error(COST_TOO_COMPLEX, -1, -1, -1);
    else if (e.status != COST_OK)
        poly_free(flops);
    if (e.status != COST_OK) {
        tensor_free(result);
        result = NULL;
    }
    *out = result;
    return e;
}

CostError cost_contract(const Tensor *a, const Tensor *b, const int *names, int nnames,
                        const CostOptions *opt, Tensor **out, Cost *acc)
{
    size_t na = (size_t)a->ndims + 1, nb = (size_t)b->ndims + 1;
    bool *used_a = calloc(na, 1), *used_b = calloc(nb, 1);
    const Dim **dims = malloc(sizeof *dims * (na + nb));
    Poly *k = poly_const(1), *elems = NULL, *flops = NULL;
    Tensor *result = NULL;
    int n = 0;
    CostError e = error(COST_TOO_COMPLEX, -1, -1, -1);
    if (used_a && used_b && dims && k)
        e = match_contracted(a, b, names, nnames, opt, used_a, used_b, &k);
    if (e.status == COST_OK)
        e = output_dims(a, b, used_a, used_b, opt, dims, &n);
    if (e.status == COST_OK) {
        result = tensor_from(pick(opt->out_dtype, a, b), dims, n);
        elems = result ? tensor_elements(result) : NULL;
        flops = elems ? contraction_flops(elems, k, opt->exact) : NULL;
    }
    free(used_a);
    free(used_b);
    free(dims);
    poly_free(k);
    poly_free(elems);
    return finish(e, result, flops, a, b, opt, out, acc);
}

CostError cost_elementwise(const Tensor *a, const Tensor *b, const CostOptions *opt,
                           Tensor **out, Cost *acc)
{
    if (a->ndims != b->ndims)
        return error(COST_RANK_MISMATCH, -1, -1, -1);
    for (int i = 0; i < a->ndims; i++)
        if (!cost_same_size(a->dims[i].size, b->dims[i].size, opt->lookup, opt->lookup_ctx))
            return error(COST_SIZE_MISMATCH, -1, i, i);
    Tensor *result = tensor_copy(a);
    if (result)
        result->dtype = pick(opt->out_dtype, a, b);
    Poly *flops = result ? tensor_elements(result) : NULL;
    return finish(error(COST_OK, -1, -1, -1), result, flops, a, b, opt, out, acc);
}
