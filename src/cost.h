/* cost.h — tensors and the FLOPs and bytes of one operation (COSTMODEL §1).
 *
 * Sizes are polynomials in the dims (poly.h). Dims carry the name they were written
 * with (`bf16[B, D]`: B and D), which is how `*_D` finds them; a dim written as a
 * number or an expression has no name. Nothing here knows about syntax: errors come
 * back as codes with the indices involved, and the caller words and places them.
 *
 * Ownership: a Tensor owns its dims' polynomials; a Cost owns its polynomials.
 */
#ifndef ROOFLINE_COST_H
#define ROOFLINE_COST_H

#include <stdbool.h>
#include <stddef.h>

#include "dtype.h"
#include "poly.h"

typedef struct {
    int name;   /* interned name, or -1 */
    Poly *size;
} Dim;

typedef struct {
    DType dtype;
    int ndims;
    Dim *dims;
} Tensor;

Tensor *tensor_new(DType dtype, int ndims);
Tensor *tensor_copy(const Tensor *t);
void tensor_free(Tensor *t);
Poly *tensor_elements(const Tensor *t);
Poly *tensor_bytes(const Tensor *t);
/* "bf16[B,D·F]": the dims as written. Returns buf. */
char *tensor_format(const Tensor *t, PolyNamer namer, void *ctx, char *buf, size_t size);

/* Running totals of a statement: FLOPs by the dtype whose peak runs them, HBM bytes
 * read and written. Every operation reads its operands from HBM and writes its result
 * (no fusion). */
typedef struct {
    Poly *flops[DT_COUNT]; /* NULL where no op ran at that dtype */
    Poly *read, *written;
    int ops;
} Cost;

void cost_init(Cost *c);
void cost_free(Cost *c);
Poly *cost_total_flops(const Cost *c);
/* The dtype with FLOPs when there is exactly one, else -1. */
int cost_single_dtype(const Cost *c);

typedef enum {
    COST_OK,
    COST_NOT_A_DIM,      /* contracted dim `index` is in neither operand */
    COST_NOT_IN_LHS,     /* contracted dim `index` is missing from the left operand */
    COST_NOT_IN_RHS,     /* ... from the right operand */
    COST_REPEATED,       /* contracted dim `index` is named twice */
    COST_SIZE_MISMATCH,  /* dim lhs_dim of the left and rhs_dim of the right differ */
    COST_RANK_MISMATCH,  /* elementwise: different numbers of dims */
    COST_TOO_COMPLEX     /* a term would hold too many symbols (or memory ran out) */
} CostStatus;

typedef struct {
    CostStatus status;
    int index;           /* which contracted dim */
    int lhs_dim, rhs_dim;
} CostError;

typedef struct {
    bool exact;          /* out·(2K−1) FLOPs instead of 2·out·K */
    int out_dtype;       /* -1: the wider input dtype */
    int compute_dtype;   /* -1: the wider input dtype */
    PolyLookup lookup;   /* bound dims, so D and 8192 agree when D = 8192 */
    void *lookup_ctx;
} CostOptions;

/* a *_{names} b. On success *out is the result and the op's cost is added to acc. */
CostError cost_contract(const Tensor *a, const Tensor *b, const int *names, int nnames,
                        const CostOptions *opt, Tensor **out, Cost *acc);
/* a op b elementwise, on tensors of one shape: one FLOP per element. */
CostError cost_elementwise(const Tensor *a, const Tensor *b, const CostOptions *opt,
                           Tensor **out, Cost *acc);

/* Equal sizes: the same polynomial, or the same number once bound dims are put in. */
bool cost_same_size(const Poly *a, const Poly *b, PolyLookup lookup, void *ctx);

#endif
