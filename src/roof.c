/* roof.c — from FLOPs, bytes and collectives to times, intensities, ridges and the
 * bound. */
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
    return (RoofError){status, dtype, NULL};
}

static const RoofError fine = {ROOF_OK, DT_BF16, NULL};

static bool finite_or_unknown(const Quantity *q)
{
    return !q->known ? !poly_has_nonfinite(q->now) : isfinite(q->value);
}

static Poly *copy_or_zero(const Poly *p)
{
    return p ? poly_copy(p) : poly_const(0);
}

/* num / den, formula and now; a ratio is known when no unbound dim is left in it. */
static bool ratio(const Quantity *num, const Quantity *den, PolyRatio *formula,
                  PolyRatio *now, double *value)
{
    if (poly_is_zero(den->formula))
        return false;
    if (!poly_ratio(num->formula, den->formula, formula) || !poly_ratio(num->now, den->now, now))
        return false;
    double n, d;
    bool known = poly_is_const(now->num, &n) && poly_is_const(now->den, &d);
    if (known)
        *value = num->known && den->known ? num->value / den->value : n / d;
    return known;
}

static RoofError chip_free_part(const Cost *cost, PolyLookup lookup, void *ctx, Roofline *r)
{
    Poly *read = copy_or_zero(cost->read), *written = copy_or_zero(cost->written);
    Poly *bytes = read && written ? poly_add(read, written) : NULL;
    if (!quantity(&r->flops, cost_total_flops(cost), lookup, ctx) ||
        !quantity(&r->read, read, lookup, ctx) || !quantity(&r->written, written, lookup, ctx) ||
        !quantity(&r->bytes, bytes, lookup, ctx))
        return fail(ROOF_TOO_COMPLEX, DT_BF16);
    if (!finite_or_unknown(&r->flops) || !finite_or_unknown(&r->bytes))
        return fail(ROOF_OVERFLOW, DT_BF16);
    bool computes = r->computes = cost->read != NULL;
    if ((computes && r->bytes.known && r->bytes.value <= 0) ||
        (r->flops.known && r->flops.value < 0))
        return fail(ROOF_BAD_DIM, DT_BF16);
    r->intensity_known = computes && ratio(&r->flops, &r->bytes, &r->intensity_formula,
                                           &r->intensity_now, &r->intensity);
    Poly *held = cost->held ? poly_subst(cost->held, lookup, ctx) : NULL;
    r->memory_known = held && poly_is_const(held, &r->memory);
    poly_free(held);
    return fine;
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

/* *sum += k · p (p kept); false on failure. */
static bool add_scaled(Poly **sum, const Poly *p, double k)
{
    Poly *part = poly_scale(p, k), *next = part ? poly_add(*sum, part) : NULL;
    poly_free(part);
    if (!next)
        return false;
    poly_free(*sum);
    *sum = next;
    return true;
}

/* T_math = sum over dtypes of FLOPs / peak. */
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
        if (!add_scaled(&sum, cost->flops[d], 1 / chip->value[f]))
            break;
    }
    if (!sum || !quantity(t, sum, lookup, ctx))
        return fail(ROOF_TOO_COMPLEX, DT_BF16);
    return fine;
}

static const char *link_problem(LinkStatus s)
{
    switch (s) {
    case LINK_NO_NETWORK: return "no ici_bw or nvlink_bw";
    case LINK_NO_DCN: return "a dcn axis, and no dcn_bw";
    case LINK_NO_NODE_BW: return "across nodes, and no node_bw";
    case LINK_MIXED: return "it spans DCN and ICI axes at once; do one, then the other";
    default: return "no axis";
    }
}

/* One collective: bytes per link direction and seconds, added to the sums. The
 * seconds with its latency floor go to *floored when its bytes are known; *floor_won
 * says whether the floor was the larger. Trained, a forward collective runs once in
 * each pass: two runs of half its bytes, each with its own floor. */
static RoofError comm_one(const Collective *c, const Chip *chip, const Mesh *m, LinkCost *link,
                          bool trained, Poly **bytes, Poly **time, double *floored,
                          bool *floor_won, PolyLookup lookup, void *ctx)
{
    LinkStatus s = coll_link_cost(c->kind, m, c->axes, chip, link);
    if (s != LINK_OK)
        return (RoofError){ROOF_NO_NETWORK, DT_BF16, link_problem(s)};
    double per_link = link->factor / link->links, seconds = link->factor / link->bandwidth;
    if (!add_scaled(bytes, c->bytes, per_link) || !add_scaled(time, c->bytes, seconds))
        return fail(ROOF_TOO_COMPLEX, DT_BF16);
    Poly *v = poly_subst(c->bytes, lookup, ctx);
    double value;
    if (v && poly_is_const(v, &value)) {
        double runs = trained && !c->backward ? 2 : 1, one = value / runs * seconds;
        *floored += runs * fmax(one, link->floor);
        *floor_won = *floor_won || link->floor > one;
    } else {
        *floored = NAN;
    }
    poly_free(v);
    return fine;
}

/* The one link bandwidth every collective shares, or 0. */
static double shared_link_bw(const Roofline *r)
{
    double bw = 0;
    for (int i = 0; i < r->ncomm; i++) {
        double each = r->links[i].bandwidth / r->links[i].links;
        if (bw && each != bw)
            return 0;
        bw = each;
    }
    return bw;
}

static RoofError comm_part(const Cost *cost, const Chip *chip, const Mesh *m,
                           PolyLookup lookup, void *ctx, Roofline *r)
{
    Poly *bytes = poly_const(0), *time = poly_const(0);
    double floored = 0;
    RoofError e = bytes && time ? fine : fail(ROOF_TOO_COMPLEX, DT_BF16);
    bool floor_won = false;
    for (int i = 0; i < cost->ncolls && e.status == ROOF_OK; i++, r->ncomm++)
        e = comm_one(&cost->colls[i], chip, m, &r->links[i], cost->trained, &bytes, &time,
                     &floored, &floor_won, lookup, ctx);
    bool have = quantity(&r->comm_bytes, bytes, lookup, ctx);
    have = quantity(&r->t_comm, time, lookup, ctx) && have;
    if (e.status != ROOF_OK || !have)
        return e.status != ROOF_OK ? e : fail(ROOF_TOO_COMPLEX, DT_BF16);
    if (r->t_comm.known && !isnan(floored)) {
        r->latency_bound = floor_won;
        r->t_comm.value = floored;
    }
    r->link_bw = shared_link_bw(r);
    r->net_ridge = r->link_bw ? r->peak / r->link_bw : 0;
    if (!isfinite(r->net_ridge))
        return fail(ROOF_OVERFLOW, r->compute);
    r->net_known = r->ncomm && ratio(&r->flops, &r->comm_bytes, &r->net_formula, &r->net_now,
                                     &r->net_intensity);
    return fine;
}

bool roof_has_network_ratio(const Roofline *r)
{
    return r->ncomm && r->link_bw && r->net_formula.num;
}

static double fraction(const Chip *chip, ChipField f)
{
    return chip && chip->set[f] ? chip->value[f] : 1;
}

double roof_derated(const Chip *chip, double t_math, double t_hbm, double t_comm)
{
    return fmax(fmax(t_math / fraction(chip, CHIP_FLOPS_EFF), t_hbm / fraction(chip, CHIP_HBM_EFF)),
                t_comm / fraction(chip, CHIP_NET_EFF));
}

bool roof_has_derating(const Chip *chip)
{
    return chip && (chip->set[CHIP_FLOPS_EFF] || chip->set[CHIP_HBM_EFF] ||
                    chip->set[CHIP_NET_EFF]);
}

/* flops / t_lower; the peak itself when T_math bounds one dtype's FLOPs, where the
 * division could land an ulp above it. */
static inline double attained(const Roofline *r, double flops, double t_math, double t_lower)
{
    if (t_lower <= 0)
        return 0;
    return t_lower == t_math && !r->mixed ? r->peak : flops / t_lower;
}

static Bound largest(double t_math, double t_hbm, double t_comm)
{
    if (t_comm > t_math && t_comm > t_hbm)
        return BOUND_COMM;
    return t_math >= t_hbm ? BOUND_COMPUTE : BOUND_MEMORY;
}

/* Before every dim is bound, intensities that no dim changes may decide the bound. */
static Bound decided_bound(const Roofline *r)
{
    if (!r->computes)
        return BOUND_COMM;
    if (r->mixed || r->ncomm || !r->intensity_known)
        return BOUND_UNKNOWN;
    return r->intensity >= r->ridge ? BOUND_COMPUTE : BOUND_MEMORY;
}

static RoofError totals(Roofline *r)
{
    r->times_known = r->t_math.known && r->t_hbm.known && r->t_comm.known;
    if (!r->times_known) {
        r->bound = decided_bound(r);
        return fine;
    }
    r->t_lower = fmax(fmax(r->t_math.value, r->t_hbm.value), r->t_comm.value);
    r->t_upper = r->t_math.value + r->t_hbm.value + r->t_comm.value;
    r->attained = attained(r, r->flops.value, r->t_math.value, r->t_lower);
    r->bound = largest(r->t_math.value, r->t_hbm.value, r->t_comm.value);
    r->derated = roof_has_derating(r->chip);
    r->t_derated = roof_derated(r->chip, r->t_math.value, r->t_hbm.value, r->t_comm.value);
    if (!isfinite(r->t_upper) || !isfinite(r->attained))
        return fail(ROOF_OVERFLOW, r->compute);
    return fine;
}

static RoofError chip_part(const Cost *cost, const Chip *chip, const Mesh *m,
                           PolyLookup lookup, void *ctx, Roofline *r)
{
    r->chip = chip;
    r->compute = ridge_dtype(cost);
    r->mixed = cost_single_dtype(cost) < 0 && cost->read;
    if (!chip->set[chip_peak_field(r->compute)])
        return fail(ROOF_NO_PEAK, r->compute);
    if (!chip->set[CHIP_HBM_BW])
        return fail(ROOF_NO_HBM_BW, r->compute);
    r->peak = chip->value[chip_peak_field(r->compute)];
    r->hbm_bw = chip->value[CHIP_HBM_BW];
    r->ridge = r->peak / r->hbm_bw;
    if (!isfinite(r->ridge))
        return fail(ROOF_OVERFLOW, r->compute);
    RoofError e = math_time(cost, chip, lookup, ctx, &r->t_math);
    if (e.status != ROOF_OK)
        return e;
    if (!quantity(&r->t_hbm, poly_scale(r->bytes.formula, 1 / r->hbm_bw), lookup, ctx))
        return fail(ROOF_TOO_COMPLEX, r->compute);
    e = comm_part(cost, chip, m, lookup, ctx, r);
    return e.status == ROOF_OK ? totals(r) : e;
}

RoofError roof_compute(const Cost *cost, const Chip *chip, const Mesh *mesh,
                       PolyLookup lookup, void *ctx, Roofline *out)
{
    memset(out, 0, sizeof *out);
    out->chips = mesh_chips(mesh);
    RoofError e = chip_free_part(cost, lookup, ctx, out);
    if (e.status == ROOF_OK && chip)
        e = chip_part(cost, chip, mesh, lookup, ctx, out);
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
    quantity_free(&r->comm_bytes);
    quantity_free(&r->t_comm);
    poly_ratio_free(&r->intensity_formula);
    poly_ratio_free(&r->intensity_now);
    poly_ratio_free(&r->net_formula);
    poly_ratio_free(&r->net_now);
    memset(r, 0, sizeof *r);
}

const char *roof_bound_name(Bound b)
{
    static const char *const names[] = {"unknown", "compute", "memory", "comm"};
    return names[b];
}

/* ---- Along one dim ---------------------------------------------------------------- */

void roof_curve_free(RoofCurve *c)
{
    poly_one_free(c->flops);
    poly_one_free(c->bytes);
    poly_one_free(c->t_math);
    poly_one_free(c->t_hbm);
    for (int i = 0; i < c->ncomm; i++)
        poly_one_free(c->comm[i]);
    memset(c, 0, sizeof *c);
}

bool roof_curve(const Roofline *r, const Cost *cost, int dim, PolyLookup lookup, void *ctx,
                RoofCurve *out)
{
    *out = (RoofCurve){.roof = r};
    out->flops = poly_one(r->flops.now, dim, lookup, ctx);
    out->bytes = poly_one(r->bytes.now, dim, lookup, ctx);
    out->t_math = poly_one(r->t_math.now, dim, lookup, ctx);
    out->t_hbm = poly_one(r->t_hbm.now, dim, lookup, ctx);
    bool ok = out->flops && out->bytes && out->t_math && out->t_hbm;
    for (; ok && out->ncomm < r->ncomm; out->ncomm++) {
        const Collective *coll = &cost->colls[out->ncomm];
        out->runs[out->ncomm] = cost->trained && !coll->backward ? 2 : 1;
        ok = (out->comm[out->ncomm] = poly_one(coll->bytes, dim, lookup, ctx)) != NULL;
    }
    if (!ok)
        roof_curve_free(out);
    return ok;
}

/* fmax without the library call: NaN loses, as there. */
static inline double larger(double a, double b)
{
    return a > b || isnan(b) ? a : b;
}

/* The network figures of a block, collective by collective. */
static inline __attribute__((always_inline)) void block_comm(const RoofCurve *c, RoofBlock *b, int n)
{
    for (int j = 0; j < n; j++)
        b->t_comm[j] = b->comm_bytes[j] = 0;
    for (int i = 0; i < c->ncomm; i++) {
        const LinkCost *link = &c->roof->links[i];
        double runs = c->runs[i], share = 1 / runs; /* exact: 1 or 1/2 */
        poly_one_each(c->comm[i], b->x, b->scratch, n);
        for (int j = 0; j < n; j++) {
            b->comm_bytes[j] += b->scratch[j] * link->factor / link->links;
            b->t_comm[j] += runs * larger(b->scratch[j] * share * link->factor / link->bandwidth,
                                          link->floor);
        }
    }
}

/* Inlined twice, so a whole block's loops have a constant count and become vector code. */
static inline __attribute__((always_inline)) void block_at(const RoofCurve *c, RoofBlock *b,
                                                          int n)
{
    poly_one_each(c->flops, b->x, b->flops, n);
    poly_one_each(c->bytes, b->x, b->bytes, n);
    poly_one_each(c->t_math, b->x, b->t_math, n);
    poly_one_each(c->t_hbm, b->x, b->t_hbm, n);
    block_comm(c, b, n);
    for (int j = 0; j < n; j++) {
        b->t_lower[j] = larger(larger(b->t_math[j], b->t_hbm[j]), b->t_comm[j]);
        b->t_upper[j] = b->t_math[j] + b->t_hbm[j] + b->t_comm[j];
        b->attained[j] = attained(c->roof, b->flops[j], b->t_math[j], b->t_lower[j]);
        b->bound[j] = c->roof->computes ? largest(b->t_math[j], b->t_hbm[j], b->t_comm[j])
                                        : BOUND_COMM;
    }
}

void roof_curve_block(const RoofCurve *c, const double *x, int n, RoofBlock *out)
{
    out->n = n < ROOF_BLOCK ? n : ROOF_BLOCK;
    out->x = x;
    if (out->n == ROOF_BLOCK)
        block_at(c, out, ROOF_BLOCK);
    else
        block_at(c, out, out->n);
}

RoofPoint roof_block_point(const RoofBlock *b, int j)
{
    /* The intensity only here: a chart does not need it, and a division is dear. */
    return (RoofPoint){.flops = b->flops[j], .bytes = b->bytes[j],
                       .intensity = b->bytes[j] > 0 ? b->flops[j] / b->bytes[j] : 0,
                       .t_math = b->t_math[j],
                       .t_hbm = b->t_hbm[j], .t_comm = b->t_comm[j],
                       .comm_bytes = b->comm_bytes[j], .t_lower = b->t_lower[j],
                       .t_upper = b->t_upper[j], .attained = b->attained[j],
                       .bound = b->bound[j]};
}

/* ---- Crossings -------------------------------------------------------------------- */

/* p = k1·X + k0 with X the one symbol of degree 1 (sym -1 while none is seen). */
static bool linear(const Poly *p, int *sym, double *k1, double *k0)
{
    *k1 = *k0 = 0;
    for (int i = 0; i < poly_nterms(p); i++) {
        double coef, one;
        Poly *mono = poly_term(p, i, &coef);
        bool constant = mono && poly_is_const(mono, &one);
        int s = mono && !constant ? poly_single_symbol(mono) : -1;
        poly_free(mono);
        if (constant) {
            *k0 += coef;
        } else if (s >= 0 && (*sym < 0 || *sym == s)) {
            *sym = s;
            *k1 += coef;
        } else {
            return false;
        }
    }
    return true;
}

bool roof_crossing(const PolyRatio *r, double threshold, Crossing *out)
{
    double a1, a0, b1, b0;
    int sym = -1;
    if (!r->num || !linear(r->num, &sym, &a1, &a0) || !linear(r->den, &sym, &b1, &b0) ||
        sym < 0)
        return false;
    /* For X >= 1 (a dim) with a positive denominator: (a1 − t·b1)·X > t·b0 − a0. */
    double k = a1 - threshold * b1, rhs = threshold * b0 - a0;
    out->sym = sym;
    if (k == 0) {
        out->sense = rhs < 0 ? 2 : 0;
        out->value = 0;
    } else {
        out->sense = k > 0 ? 1 : -1;
        out->value = rhs / k;
        if (out->sense == -1 && out->value <= 1)
            out->sense = 0;
        else if (out->sense == 1 && out->value < 1)
            out->sense = 2;
    }
    return true;
}
