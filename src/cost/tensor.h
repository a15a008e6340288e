/* tensor.h — tensor types: a dtype and dims, each dim a size with the name it was
 * written with and the mesh axes it is sharded over (`bf16[B_X, D]`: B over X).
 *
 * Sizes are polynomials in the dims (poly.h), the whole size, not a shard's: a chip
 * holds size / (chips of its axes). Axes are kept by name, so a tensor bound in one
 * statement means the same in another whose mesh orders its axes differently.
 * Ownership: a Tensor owns its dims and their polynomials; the dims share the Tensor's
 * allocation (tensor_new), so they are never freed or grown on their own.
 */
#ifndef ROOFLINE_TENSOR_H
#define ROOFLINE_TENSOR_H

#include <stdbool.h>
#include <stddef.h>

#include "dtype.h"
#include "mesh.h"
#include "poly.h"

enum { DIM_MAX_AXES = 4 };

typedef struct {
    int name;                 /* interned name, or -1 */
    Poly *size;
    int axes[DIM_MAX_AXES];   /* interned axis names, outermost first */
    int naxes;
} Dim;

typedef struct {
    DType dtype;
    int ndims;
    Dim *dims;
    bool on_chip;  /* a fused region's: already in on-chip memory, no HBM read (cost.h) */
    double scale_every; /* quantized weights: elements per bf16 scale, counted in the
                         * bytes (dtype_weight_group); 0 for none */
} Tensor;

Tensor *tensor_new(DType dtype, int ndims);
/* A copy, on_chip and scale_every included. */
Tensor *tensor_copy(const Tensor *t);
/* A tensor of the listed dims, copied, in order. */
Tensor *tensor_from(DType dtype, const Dim *const *dims, int n);
void tensor_free(Tensor *t);

/* The first dim whose name an earlier dim has (bf16[B, D, B]: 2), -1 when none, -2 when
 * out of memory. Linear in the dims. */
int tensor_repeated_dim(const Tensor *t);

/* Elements and bytes of the whole tensor, and of the shard one chip holds; a quantized
 * weight's bytes count its scales, split with it. */
Poly *tensor_elements(const Tensor *t);
Poly *tensor_bytes(const Tensor *t);
/* A dim bound to a number that its chips do not divide: how its value is found now, and
 * a symbol that stands for its padded shard ceil(dim / chips), whose value `lookup`
 * gives while the dim is bound (eval.c: the world's). */
typedef struct ShardPadding {
    PolyLookup lookup;
    void *ctx;
    int (*ceil_symbol)(int dim, double chips, void *ctx); /* -1 when out of memory */
} ShardPadding;

/* A dim of `size` split over `chips`: size / chips, or when size is a number they do not
 * divide, the padded shard ceil(size / chips) that frameworks give every chip; a named
 * dim bound to such a number, the symbol `pad` gives for its padded shard (so a tensor
 * that holds the dim whole beside it keeps the dim's own size). A dim split over more
 * chips than it has (8 KV heads over 16) stays size / chips: frameworks replicate it
 * instead, and search sets such a layout aside (layout.c, oversplit). */
Poly *tensor_dim_shard_size(const Poly *size, double chips, const ShardPadding *pad);
/* Elements per chip: each sharded dim's shard (tensor_dim_shard_size, padded as m says). */
Poly *tensor_local_elements(const Tensor *t, const Mesh *m);
/* poly_value of tensor_local_elements, with the same bits; most tensors without building
 * the poly. False when a symbol is unbound or memory runs out. */
bool tensor_local_elements_value(const Tensor *t, const Mesh *m, PolyLookup lookup, void *ctx,
                                 double *out);
/* The same of tensor_local_bytes. */
bool tensor_local_bytes_value(const Tensor *t, const Mesh *m, PolyLookup lookup, void *ctx,
                              double *out);
Poly *tensor_local_bytes(const Tensor *t, const Mesh *m);

/* The mesh axes a dim, or any dim of a tensor, is sharded over. Axes the mesh does
 * not have are left out (the evaluator checks names first). */
AxisSet tensor_dim_axes(const Dim *d, const Mesh *m);
AxisSet tensor_axes(const Tensor *t, const Mesh *m);
/* Adds or removes axes; false when a dim would hold more than DIM_MAX_AXES. */
bool tensor_dim_add_axes(Dim *d, AxisSet axes, const Mesh *m);
void tensor_dim_remove_axes(Dim *d, AxisSet axes, const Mesh *m);

/* "bf16[B_X,D·F]": the dims as written, shards as _AXES. Returns buf. */
char *tensor_format(const Tensor *t, PolyNamer namer, void *ctx, char *buf, size_t size);

#endif
