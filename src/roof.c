/* roof.c — from FLOPs and bytes to times, intensity, ridge and bound. */
#include "roof.h"

#include <math.h>
#include <string.h>

static bool quantity(Quantity *q, Poly *formula, PolyLookup lookup, void *ctx)
{
    q->formula = formula;
    q->now = formula ? poly_subst(formula, lookup, ctx) : NULL;
    if (!q->now)
        return false;
    q->known = poly_is_const(q->now, &q->value);
    return true;
}

static void quantity_free(Quantity *q)
{
    poly_free(q->formula);
    poly_free(q->now);
}

static RoofError fail(RoofStatus status, DType dtype)
{
    return (RoofError){status, dtype};
}

static bool finite_or_unknown(const Quantity *q)
{
    return !q->known ? !poly_has_nonfinite(q->now) : isfinite(q->value);
}

static RoofError chip_free_part(const Cost *cost, PolyLookup lookup, void *ctx, Roofline *r)
{
    Poly *bytes = cost->read && cost->written ? poly_add(cost->read, cost->written) : NULL;
    if (!quantity(&r->flops, cost_total_flops(cost), lookup, ctx) ||
        !quantity(&r->read, poly_copy(cost->read), lookup, ctx) ||
        !quantity(&r->written, poly_copy(cost->written), lookup, ctx) ||
        !quantity(&r->bytes, bytes, lookup, ctx))
        return fail(ROOF_TOO_COMPLEX, DT_BF16);
    if (!finite_or_unknown(&r->flops) || !finite_or_unknown(&r->bytes))
        return fail(ROOF_OVERFLOW, DT_BF16);
    if ((r->bytes.known && r->bytes.value <= 0) || (r->flops.known && r->flops.value < 0))
        return fail(ROOF_BAD_DIM, DT_BF16);
    if (!poly_ratio(r->flops.formula, r->bytes.formula, &r->intensity_formula) ||
        !poly_ratio(r->flops.now, r->bytes.now, &r->intensity_now))
        return fail(ROOF_TOO_COMPLEX, DT_BF16);
    double num, den;
    r->intensity_known = poly_is_const(r->intensity_now.num, &num) &&
                         poly_is_const(r->intensity_now.den, &den);
    if (r->intensity_known)
        r->intensity = r->flops.known && r->bytes.known ? r->flops.value / r->bytes.value
                                                        : num / den;
    return fail(ROOF_OK, DT_BF16);
}

/* The widest dtype that ran FLOPs sets the ridge. */
static DType ridge_dtype(const Cost *cost)
{
    int best = -1;
    for (int d = 0; d < DT_COUNT; d++)
        if (cost->flops[d] && (best < 0 || dtype_bytes((DType)d) > dtype_bytes((DType)best)))
            best = d;
    return best < 0 ? DT_BF16 : (DType)best;
}

/* T_math = sum over dtypes of FLOPs / peak, as a value now. */
static RoofError math_time(const Cost *cost, const Chip *chip, PolyLookup lookup, void *ctx,
                           Quantity *t)
{
    Poly *sum = poly_const(0);
    for (int d = 0; d < DT_COUNT && sum; d++) {
        if (!cost->flops[d])
            continue;
        ChipField f = chip_peak_field((DType)d);
        if (!chip->set[f]) {
            poly_free(sum);
            return fail(ROOF_NO_PEAK, (DType)d);
        }
        Poly *part = poly_scale(cost->flops[d], 1 / chip->value[f]);
        Poly *next = part ? poly_add(sum, part) : NULL;
        poly_free(part);
        poly_free(sum);
        sum = next;
    }
    if (!sum || !quantity(t, sum, lookup, ctx))
        return fail(ROOF_TOO_COMPLEX, DT_BF16);
    return fail(ROOF_OK, DT_BF16);
}

static Bound pick_bound(double t_math, double t_hbm)
{
    return t_math >= t_hbm ? BOUND_COMPUTE : BOUND_MEMORY;
}

static RoofError chip_part(const Cost *cost, const Chip *chip, PolyLookup lookup, void *ctx,
                           Roofline *r)
{
    r->chip = chip;
    r->compute = ridge_dtype(cost);
    r->mixed = cost_single_dtype(cost) < 0 && cost->ops > 0;
    if (!chip->set[chip_peak_field(r->compute)])
        return fail(ROOF_NO_PEAK, r->compute);
    if (!chip->set[CHIP_HBM_BW])
        return fail(ROOF_NO_HBM_BW, r->compute);
    r->peak = chip->value[chip_peak_field(r->compute)];
    r->hbm_bw = chip->value[CHIP_HBM_BW];
    r->ridge = r->peak / r->hbm_bw;
    RoofError e = math_time(cost, chip, lookup, ctx, &r->t_math);
    if (e.status != ROOF_OK)
        return e;
    if (!quantity(&r->t_hbm, poly_scale(r->bytes.formula, 1 / r->hbm_bw), lookup, ctx))
        return fail(ROOF_TOO_COMPLEX, r->compute);
    r->times_known = r->t_math.known && r->t_hbm.known;
    if (!r->times_known) {
        /* An intensity that no dim changes decides the bound before the times do. */
        if (r->intensity_known && !r->mixed)
            r->bound = r->intensity >= r->ridge ? BOUND_COMPUTE : BOUND_MEMORY;
        return fail(ROOF_OK, r->compute);
    }
    r->t_lower = fmax(r->t_math.value, r->t_hbm.value);
    r->t_upper = r->t_math.value + r->t_hbm.value;
    r->attained = r->t_lower > 0 ? r->flops.value / r->t_lower : 0;
    r->bound = pick_bound(r->t_math.value, r->t_hbm.value);
    if (!isfinite(r->t_upper) || !isfinite(r->attained))
        return fail(ROOF_OVERFLOW, r->compute);
    return fail(ROOF_OK, r->compute);
}

RoofError roof_compute(const Cost *cost, const Chip *chip, PolyLookup lookup, void *ctx,
                       Roofline *out)
{
    memset(out, 0, sizeof *out);
    RoofError e = chip_free_part(cost, lookup, ctx, out);
    if (e.status == ROOF_OK && chip)
        e = chip_part(cost, chip, lookup, ctx, out);
    return e;
}

void roof_free(Roofline *r)
{
    quantity_free(&r->flops);
    quantity_free(&r->bytes);
    quantity_free(&r->read);
    quantity_free(&r->written);
    quantity_free(&r->t_math);
    quantity_free(&r->t_hbm);
    poly_ratio_free(&r->intensity_formula);
    poly_ratio_free(&r->intensity_now);
    memset(r, 0, sizeof *r);
}

const char *roof_bound_name(Bound b)
{
    static const char *const names[] = {"unknown", "compute", "memory", "comm"};
    return names[b];
}
