/* roof.h — a statement's cost put on a chip's roofline (COSTMODEL §2):
 *
 *   T_math = FLOPs / peak      T_hbm = bytes / HBM bandwidth      T_comm = 0 (one chip)
 *   T_lower = max(...)         T_upper = sum      intensity = FLOPs / bytes
 *   ridge = peak / HBM bandwidth                  bound = the largest term
 *
 * Each figure has a formula in the dims as written (names kept, so the report shows
 * the derivation) and its value now: a number once every dim it uses is bound, else
 * a polynomial in the dims still unbound.
 * Ownership: a Roofline owns its polynomials; roof_free releases them.
 */
#ifndef ROOFLINE_ROOF_H
#define ROOFLINE_ROOF_H

#include <stdbool.h>

#include "chip.h"
#include "cost.h"
#include "poly.h"

typedef struct {
    Poly *formula; /* names kept */
    Poly *now;     /* bound dims put in */
    bool known;    /* now is a number */
    double value;
} Quantity;

typedef enum { BOUND_UNKNOWN, BOUND_COMPUTE, BOUND_MEMORY, BOUND_COMM } Bound;

typedef struct {
    Quantity flops, bytes, read, written;
    PolyRatio intensity_formula, intensity_now;
    bool intensity_known;
    double intensity;

    const Chip *chip;  /* NULL: only the chip-independent part is filled */
    DType compute;     /* the dtype whose peak sets the ridge */
    bool mixed;        /* FLOPs at several dtypes' peaks */
    double peak, hbm_bw, ridge;
    Quantity t_math, t_hbm; /* formula NULL: the report writes "flops / peak" */
    bool times_known;
    double t_lower, t_upper, attained;
    Bound bound;
} Roofline;

typedef enum {
    ROOF_OK,
    ROOF_NO_PEAK,     /* the chip has no peak for dtype `dtype` */
    ROOF_NO_HBM_BW,   /* the chip has no HBM bandwidth */
    ROOF_OVERFLOW,    /* a figure is too large for a double */
    ROOF_BAD_DIM,     /* a bound dim makes a size zero or negative */
    ROOF_TOO_COMPLEX  /* a polynomial could not be formed */
} RoofStatus;

typedef struct {
    RoofStatus status;
    DType dtype;
} RoofError;

RoofError roof_compute(const Cost *cost, const Chip *chip, PolyLookup lookup, void *ctx,
                       Roofline *out);
void roof_free(Roofline *r);
const char *roof_bound_name(Bound b);

#endif
