/* tensor.c — tensor types: building, copying, sizes whole and per chip, printing. */
#include "tensor.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "intern.h"
#include "nomem.h"
#include "num.h"

/* The dims live in the same block, right after the Tensor (one allocation, not two:
 * a search makes and frees tensors by the hundred thousand); a Tensor's size is a
 * multiple of its alignment, which a Dim's does not exceed. */
Tensor *tensor_new(DType dtype, int ndims)
{
    if (ndims < 0 || (size_t)ndims > (SIZE_MAX - sizeof(Tensor)) / sizeof(Dim))
        return NULL;
    /* malloc and memset, not calloc: glibc's calloc skips the thread's cache of freed
     * blocks, and a search makes and frees tensors of a few dims by the hundred thousand */
    size_t size = sizeof(Tensor) + (size_t)ndims * sizeof(Dim);
    Tensor *t = nomem_note(malloc(size));
    if (!t)
        return NULL;
    memset(t, 0, size);
    t->dtype = dtype;
    t->ndims = ndims;
    t->dims = ndims ? (Dim *)(t + 1) : NULL;
    return t;
}

void tensor_free(Tensor *t)
{
    if (!t)
        return;
    for (int i = 0; i < t->ndims; i++)
        poly_free(t->dims[i].size);
    free(t);
}

Tensor *tensor_from(DType dtype, const Dim *const *dims, int n)
{
    Tensor *t = tensor_new(dtype, n);
    if (!t)
        return NULL;
    for (int i = 0; i < n; i++) {
        t->dims[i] = *dims[i];
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
    Tensor *copy = tensor_new(t->dtype, t->ndims);
    for (int i = 0; copy && i < t->ndims; i++) {
        copy->dims[i] = t->dims[i];
        copy->dims[i].size = poly_copy(t->dims[i].size);
        if (!copy->dims[i].size) {
            tensor_free(copy);
            copy = NULL;
        }
    }
    if (copy) {
        copy->on_chip = t->on_chip;
        copy->scale_every = t->scale_every;
    }
    return copy;
}

int tensor_repeated_dim(const Tensor *t)
{
    IdSet seen;
    if (!intern_set_init(&seen, t->ndims))
        return -2;
    int twice = -1;
    for (int i = 0; i < t->ndims && twice < 0; i++)
        if (t->dims[i].name >= 0 && !intern_set_add(&seen, t->dims[i].name))
            twice = i;
    intern_set_free(&seen);
    return twice;
}

/* Scales and frees p; NULL on failure. */
Poly *tensor_elements(const Tensor *t)
{
    Poly *n = poly_const(1);
    for (int i = 0; i < t->ndims; i++)
        n = poly_mul_into(n, t->dims[i].size);
    return n;
}

/* Bytes per element: the dtype's, and a quantized weight's share of a scale. */
static double element_bytes(const Tensor *t)
{
    return dtype_bytes(t->dtype) + (t->scale_every > 0 ? DTYPE_SCALE_BYTES / t->scale_every : 0);
}

Poly *tensor_bytes(const Tensor *t)
{
    return poly_scale_into(tensor_elements(t), element_bytes(t));
}

static bool uneven(double n, double chips)
{
    return chips > 1 && n > chips && !num_divisible(n, chips);
}

/* The dim a size is, when it is one name alone (1·D), bound now to a number its chips
 * do not divide; else -1. */
static int uneven_name(const Poly *size, double chips, const ShardPadding *pad)
{
    int dim = pad && chips > 1 ? poly_bare_symbol(size) : -1;
    double n;
    return dim >= 0 && pad->lookup(dim, &n, pad->ctx) && uneven(n, chips) ? dim : -1;
}

Poly *tensor_dim_shard_size(const Poly *size, double chips, const ShardPadding *pad)
{
    double n;
    if (poly_is_const(size, &n) && uneven(n, chips))
        return poly_const(ceil(n / chips));
    int dim = uneven_name(size, chips, pad);
    if (dim < 0)
        return poly_scale(size, 1 / chips);
    int padded = pad->ceil_symbol(dim, chips, pad->ctx);
    return padded >= 0 ? poly_sym(padded) : NULL; /* memory ran out */
}

/* A dim whose shard is padded: of known size, or bound now, its chips not dividing it. */
static inline __attribute__((always_inline)) bool uneven_dim(const Dim *d, AxisSet axes,
                                                             const Mesh *m)
{
    double n, chips = mesh_span(m, axes);
    return (poly_is_const(d->size, &n) && uneven(n, chips)) ||
           uneven_name(d->size, chips, m->padding) >= 0;
}

/* Whether a dim of t has a padded shard; *all gets tensor_axes, found on the way.
 * Inlined, as it was when tensor_local_elements alone ran it. */
static inline __attribute__((always_inline)) bool any_uneven_dim(const Tensor *t, const Mesh *m,
                                                                 AxisSet *all)
{
    bool uneven = false;
    *all = 0;
    for (int i = 0; i < t->ndims; i++) {
        AxisSet axes = tensor_dim_axes(&t->dims[i], m);
        *all |= axes;
        uneven = uneven || uneven_dim(&t->dims[i], axes, m);
    }
    return uneven;
}

Poly *tensor_local_elements(const Tensor *t, const Mesh *m)
{
    AxisSet all;
    if (!any_uneven_dim(t, m, &all))
        return poly_scale_into(tensor_elements(t), 1 / mesh_span(m, all));
    Poly *n = poly_const(1);
    for (int i = 0; i < t->ndims && n; i++) {
        Poly *part = tensor_dim_shard_size(t->dims[i].size, mesh_span(m, tensor_dim_axes(&t->dims[i], m)),
                                    m->padding);
        n = poly_mul_into(n, part);
        poly_free(part);
    }
    return n;
}

/* The dims a tensor's elements are counted from without building them (more go the
 * polys' way). */
#define TENSOR_VALUE_DIMS 8

/* poly_value of tensor_local_elements scaled by `per` (1 for elements), as the polys give
 * it; most tensors without building them. */
static bool local_value(const Tensor *t, const Mesh *m, double per, PolyLookup lookup,
                        void *ctx, double *out)
{
    AxisSet all;
    if (t->ndims <= TENSOR_VALUE_DIMS && !any_uneven_dim(t, m, &all)) {
        const Poly *sizes[TENSOR_VALUE_DIMS];
        for (int i = 0; i < t->ndims; i++)
            sizes[i] = t->dims[i].size;
        if (poly_product_value(sizes, t->ndims, 1 / mesh_span(m, all), per, lookup, ctx, out))
            return true;
    }
    Poly *local = poly_scale_into(tensor_local_elements(t, m), per);
    bool known = local && poly_value(local, lookup, ctx, out);
    poly_free(local);
    return known;
}

bool tensor_local_elements_value(const Tensor *t, const Mesh *m, PolyLookup lookup, void *ctx,
                                 double *out)
{
    return local_value(t, m, 1, lookup, ctx, out);
}

bool tensor_local_bytes_value(const Tensor *t, const Mesh *m, PolyLookup lookup, void *ctx,
                              double *out)
{
    return local_value(t, m, element_bytes(t), lookup, ctx, out);
}

Poly *tensor_local_bytes(const Tensor *t, const Mesh *m)
{
    return poly_scale_into(tensor_local_elements(t, m), element_bytes(t));
}

AxisSet tensor_dim_axes(const Dim *d, const Mesh *m)
{
    AxisSet set = 0;
    for (int i = 0; i < d->naxes; i++) {
        int a = m ? mesh_find(m, d->axes[i]) : -1;
        if (a >= 0)
            set |= 1u << a;
    }
    return set;
}

AxisSet tensor_axes(const Tensor *t, const Mesh *m)
{
    AxisSet set = 0;
    for (int i = 0; i < t->ndims; i++)
        set |= tensor_dim_axes(&t->dims[i], m);
    return set;
}

bool tensor_dim_add_axes(Dim *d, AxisSet axes, const Mesh *m)
{
    for (int a = 0; a < m->n; a++) {
        if (!(axes & 1u << a) || (tensor_dim_axes(d, m) & 1u << a))
            continue;
        if (d->naxes == DIM_MAX_AXES)
            return false;
        d->axes[d->naxes++] = m->axes[a].name;
    }
    return true;
}

void tensor_dim_remove_axes(Dim *d, AxisSet axes, const Mesh *m)
{
    int kept = 0;
    for (int i = 0; i < d->naxes; i++) {
        int a = mesh_find(m, d->axes[i]);
        if (a < 0 || !(axes & 1u << a))
            d->axes[kept++] = d->axes[i];
    }
    d->naxes = kept;
}

/* One dim: its size as written, then _AXES when sharded. */
static size_t format_dim(const Dim *d, PolyNamer namer, void *ctx, char *buf, size_t size)
{
    char text[256];
    poly_format(d->size, POLY_STYLE_TEXT, namer, ctx, text, sizeof text);
    size_t used = (size_t)snprintf(buf, size, d->naxes && d->name < 0 ? "(%s)" : "%s", text);
    for (int i = 0; i < d->naxes && used < size; i++)
        used += (size_t)snprintf(buf + used, size - used, "%s%s", i ? "" : "_",
                                 namer(d->axes[i], ctx));
    return used;
}

char *tensor_format(const Tensor *t, PolyNamer namer, void *ctx, char *buf, size_t size)
{
    size_t used = (size_t)snprintf(buf, size, "%s[", dtype_name(t->dtype));
    for (int i = 0; i < t->ndims && used < size; i++) {
        if (i)
            used += (size_t)snprintf(buf + used, size - used, ",");
        if (used < size)
            used += format_dim(&t->dims[i], namer, ctx, buf + used, size - used);
    }
    if (used < size)
        snprintf(buf + used, size - used, "]");
    return buf;
}
