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

/* fmax without the library call: NaN loses, as there. */
static inline double larger(double a, double b)
{
    return a > b || isnan(b) ? a : b;
}

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
    bool made = quantity(&r->flops, cost_total_flops(cost), lookup, ctx); /* each takes its */
    made = quantity(&r->read, read, lookup, ctx) && made;                  /* formula, so   */
    made = quantity(&r->written, written, lookup, ctx) && made;            /* none leaks    */
    if (!quantity(&r->bytes, bytes, lookup, ctx) || !made)
        return fail(ROOF_TOO_COMPLEX, DT_BF16);
    if (!finite_or_unknown(&r->flops) || !finite_or_unknown(&r->bytes))
        return fail(ROOF_OVERFLOW, DT_BF16);
    bool computes = r->computes = cost->read != NULL;
    if ((computes && r->bytes.known && r->bytes.value <= 0) ||
        (r->flops.known && r->flops.value < 0))
        return fail(ROOF_BAD_DIM, DT_BF16);
    r->intensity_known = computes && !r->times_only &&
                         ratio(&r->flops, &r->bytes, &r->intensity_formula, &r->intensity_now,
                               &r->intensity);
    r->memory_known = cost->held && poly_value(cost->held, lookup, ctx, &r->memory);
    return fine;
}

/* The slot that sets the ridge: the widest dtype that ran FLOPs, on the matrix unit
 * when any ran there, else on the vector unit. */
static int ridge_slot(const Cost *cost)
{
    int best = -1;
    for (int s = 0; s < COST_SLOTS; s++) {
        if (!cost->flops[s])
            continue;
        if (best < 0 || (cost_slot_vector(best) && !cost_slot_vector(s)) ||
            (cost_slot_vector(best) == cost_slot_vector(s) &&
             dtype_bytes(cost_slot_dtype(s)) > dtype_bytes(cost_slot_dtype(best))))
            best = s;
    }
    return best < 0 ? cost_slot(DT_BF16, false) : best;
}

/* The peak that runs a slot's FLOPs: the vector unit's when the chip gives it and the
 * slot is a vector one, else its dtype's (slot_peak: false when the chip has none). */
static ChipField slot_field(const Chip *chip, int slot)
{
    return cost_slot_vector(slot) && chip->set[CHIP_VPU_FLOPS]
               ? CHIP_VPU_FLOPS
               : chip_peak_field(cost_slot_dtype(slot));
}

static bool slot_peak(const Chip *chip, int slot, double *peak)
{
    ChipField f = slot_field(chip, slot);
    *peak = chip->value[f];
    return chip->set[f];
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

/* FLOPs run at more than one peak (dtypes, or the vector unit's beside the matrix
 * unit's). */
static bool several_peaks(const Cost *cost, const Chip *chip)
{
    double first = 0, peak;
    for (int s = 0; s < COST_SLOTS; s++) {
        if (!cost->flops[s] || !slot_peak(chip, s, &peak))
            continue;
        if (first > 0 && peak != first)
            return true;
        first = peak;
    }
    return false;
}

/* T_math = sum over slots of FLOPs / peak: the FLOPs the book counts. The padding a
 * matrix unit runs (cost.h) is shown beside it, not priced: the book's thresholds
 * (D > 8755 on two v5e chips) hold as it states them. */
static RoofError flops_time(Poly *const *flops, const Chip *chip, PolyLookup lookup,
                            void *ctx, Quantity *t)
{
    Poly *sum = poly_const(0);
    for (int s = 0; s < COST_SLOTS && sum; s++) {
        if (!flops[s])
            continue;
        double peak;
        if (!slot_peak(chip, s, &peak)) {
            poly_free(sum);
            return fail(ROOF_NO_PEAK, cost_slot_dtype(s));
        }
        if (!add_scaled(&sum, flops[s], 1 / peak))
            break;
    }
    if (!sum || !quantity(t, sum, lookup, ctx))
        return fail(ROOF_TOO_COMPLEX, DT_BF16);
    return fine;
}

static RoofError math_time(const Cost *cost, const Chip *chip, PolyLookup lookup, void *ctx,
                           Quantity *t)
{
    return flops_time(cost->flops, chip, lookup, ctx, t);
}

/* A training step's forward pass is one part of `parts` of t_math and of t_hbm: 3 (a
 * third) unless the backward pass recomputes some of the forward (cost.h: recompute),
 * which it runs on top of its two thirds of the rest. */
static RoofError forward_parts(const Cost *cost, const Chip *chip, PolyLookup lookup,
                               void *ctx, Roofline *r)
{
    r->parts_math = r->parts_hbm = 3;
    Quantity m = {0}, h = {0};
    RoofError e = flops_time(cost->recompute, chip, lookup, ctx, &m);
    Poly *bytes = cost->recompute_bytes ? poly_scale(cost->recompute_bytes, 1 / r->hbm_bw)
                                        : poly_const(0);
    bool made = quantity(&h, bytes, lookup, ctx); /* it takes bytes, made or not */
    bool known = e.status == ROOF_OK && m.known && made && h.known;
    if (known && m.value > 0 && r->t_math.value > m.value)
        r->parts_math = 3 * r->t_math.value / (r->t_math.value - m.value);
    if (known && h.value > 0 && r->t_hbm.value > h.value)
        r->parts_hbm = 3 * r->t_hbm.value / (r->t_hbm.value - h.value);
    quantity_free(&m);
    quantity_free(&h);
    return e;
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

/* The network's sums over the collectives: the step's bytes per link direction and
 * seconds as formulas and, once the bytes are known, the seconds with latency floors;
 * in training also each pass's bytes per link and the forward pass's seconds. */
typedef struct {
    Poly *bytes, *time, *fwd_time, *fwd_bytes, *bwd_bytes;
    double floored, fwd_floored; /* NaN when some bytes are not known */
    bool floor_won;              /* some collective's latency floor beat its bandwidth time */
    double lane[MESH_LANES], lane_fwd[MESH_LANES]; /* floored, as above, lane by lane */
} CommSum;

/* One collective added to the sums. Trained, a forward collective runs once in each
 * pass of each of the mb microbatches: 2·mb runs, half of its bytes forward, each run
 * with its own latency floor. */
static RoofError comm_one(const Collective *c, const Chip *chip, const Mesh *m, LinkCost *link,
                          bool trained, double mb, CommSum *sum, PolyLookup lookup, void *ctx)
{
    LinkStatus s = mesh_coll_link_cost(c->kind, m, c->axes, c->array ? tensor_axes(c->array, m) : 0,
                                  chip, link);
    if (s != LINK_OK)
        return (RoofError){ROOF_NO_NETWORK, DT_BF16, link_problem(s)};
    if (c->bucketed) /* sent with other gradients: their collectives pay the latency */
        link->floor = 0;
    double per_link = link->factor / link->links, seconds = link->factor / link->bandwidth;
    bool forward = trained && !c->backward;
    double runs = forward ? 2 * mb : 1, share = forward ? 0.5 : 1;
    if (!add_scaled(&sum->bytes, c->bytes, per_link) ||
        !add_scaled(&sum->time, c->bytes, seconds) ||
        (trained && !add_scaled(&sum->bwd_bytes, c->bytes, per_link * share)) ||
        (forward && (!add_scaled(&sum->fwd_time, c->bytes, seconds * share) ||
                     !add_scaled(&sum->fwd_bytes, c->bytes, per_link * share))))
        return fail(ROOF_TOO_COMPLEX, DT_BF16);
    link->lanes = mesh_coll_lanes(m, c->axes, chip);
    double value;
    if (poly_value(c->bytes, lookup, ctx, &value)) {
        double one = value / runs * seconds, t = fmax(one, link->floor);
        double all = runs * t, fwd = forward ? runs * share * t : 0; /* half the runs */
        sum->floored += all;
        sum->fwd_floored += fwd;
        for (int l = 0; l < MESH_LANES; l++) {
            sum->lane[l] += link->lanes >> l & 1u ? all : 0;
            sum->lane_fwd[l] += link->lanes >> l & 1u ? fwd : 0;
        }
        sum->floor_won = sum->floor_won || link->floor > one;
    } else {
        sum->floored = sum->fwd_floored = NAN;
    }
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

/* Per pass, which pass's collectives fit its FLOPs the worse: the forward pass has a
 * third of the FLOPs for its bytes per link, the backward pass two thirds for its own,
 * so the backward pass when its bytes are at least twice the forward's (its gradients
 * move at least what the forward pass does). 1 backward, 0 forward, -1 when that
 * depends on the dims. */
static int tighter_pass(const CommSum *sum, PolyLookup lookup, void *ctx)
{
    Poly *twice = poly_scale(sum->fwd_bytes, 2);
    Poly *gap = twice ? poly_sub(sum->bwd_bytes, twice) : NULL;
    Poly *now = gap ? poly_subst(gap, lookup, ctx) : NULL;
    bool some_below = false, some_above = false;
    for (int i = 0; now && i < poly_nterms(now); i++) {
        double coef = 0;
        poly_free(poly_term(now, i, &coef)); /* dims are positive: the sign is coef's */
        some_below = some_below || coef < 0;
        some_above = some_above || coef > 0;
    }
    int pass = !now || (some_below && some_above) ? -1 : some_below ? 0 : 1;
    poly_free(twice);
    poly_free(gap);
    poly_free(now);
    return pass;
}

/* FLOPs over bytes per link: the step's, or per pass the tighter pass's (a third or two
 * thirds of the FLOPs; written FLOPs / 3·bytes or 2·FLOPs / 3·bytes, so that no
 * coefficient is rounded to a third). */
static bool net_ratio(Roofline *r, const CommSum *sum, PolyLookup lookup, void *ctx)
{
    if (!r->per_pass)
        return ratio(&r->flops, &r->comm_bytes, &r->net_formula, &r->net_now, &r->net_intensity);
    r->net_pass = tighter_pass(sum, lookup, ctx);
    if (r->net_pass < 0)
        return false;
    Quantity flops = {0}, bytes = {0};
    Poly *pass_flops = poly_scale(r->flops.formula, r->net_pass ? 2 : 1);
    Poly *pass_bytes = poly_scale(r->net_pass ? sum->bwd_bytes : sum->fwd_bytes, 3);
    bool made = quantity(&flops, pass_flops, lookup, ctx); /* each takes its formula */
    made = quantity(&bytes, pass_bytes, lookup, ctx) && made;
    bool known = made && ratio(&flops, &bytes, &r->net_formula, &r->net_now, &r->net_intensity);
    quantity_free(&flops);
    quantity_free(&bytes);
    return known;
}

/* T_comm and its forward pass's from the lanes' times (all: the step's on each lane,
 * fwd: its forward passes'), when the lanes run at once. A pass waits for its busiest
 * lane. Over mb microbatches of per pass overlap, each forward pass and each backward
 * pass but the last waits for max_l f_l (f_l = fwd_l / mb: one forward run on lane l),
 * the last backward pass for max_l (f_l + g_l), g_l = all_l − 2·fwd_l the gradients':
 * the step's T_comm is the sum, (2·mb − 1)·max_l f_l + max_l (f_l + g_l), its forward
 * passes' mb·max_l f_l, so that roof.h's formulas in T_comm and T_comm fwd hold as
 * they do on one lane. Else the step's time on its busiest lane. */
static void lanes_combine(const double *all, const double *fwd, LaneSet used, bool per_pass,
                          double mb, double *c, double *c_fwd)
{
    double most = 0, most_fwd = 0, most_last = 0;
    for (int l = 0; l < MESH_LANES; l++) {
        if (!(used >> l & 1u))
            continue;
        double f = fwd[l] / mb, last = f + all[l] - 2 * fwd[l];
        most = larger(most, all[l]);
        most_fwd = larger(most_fwd, f);
        most_last = larger(most_last, last);
    }
    *c = per_pass ? (2 * mb - 1) * most_fwd + most_last : most;
    *c_fwd = mb * most_fwd;
}

/* Each lane's bandwidth times as formulas, for the report: the collectives on it. */
static bool lane_formulas(const Cost *cost, PolyLookup lookup, void *ctx, Roofline *r)
{
    bool trained = cost->mode != COST_INFERENCE, made = true;
    for (int l = 0; l < MESH_LANES && made; l++) {
        if (!(r->lanes >> l & 1u))
            continue;
        Poly *all = poly_const(0), *fwd = poly_const(0);
        for (int i = 0; i < r->ncomm && all && fwd; i++) {
            const LinkCost *link = &r->links[i];
            double seconds = link->factor / link->bandwidth;
            bool forward = trained && !cost->colls[i].backward;
            if (!(link->lanes >> l & 1u))
                continue;
            if (!add_scaled(&all, cost->colls[i].bytes, seconds) ||
                (forward && !add_scaled(&fwd, cost->colls[i].bytes, seconds / 2)))
                break;
        }
        made = quantity(&r->lane_time[l], all, lookup, ctx); /* each takes its formula */
        made = quantity(&r->lane_fwd[l], fwd, lookup, ctx) && made;
    }
    return made;
}

/* With collectives on several lanes that run at once: T_comm per lanes_combine, and
 * the lanes' own times for the report. */
static bool overlap_lanes(const Cost *cost, const CommSum *sum, PolyLookup lookup, void *ctx,
                          Roofline *r)
{
    LaneSet common = ~0u; /* the lanes every collective keeps busy */
    for (int i = 0; i < r->ncomm; i++) {
        r->lanes |= r->links[i].lanes;
        common &= r->links[i].lanes ? r->links[i].lanes : ~0u; /* one chip: moves nothing */
    }
    /* With a lane that all of them share, the busiest lane's time is their sum. */
    r->overlapped = !cost->axes_add && r->lanes && !(common & r->lanes);
    if (!r->overlapped)
        return true;
    if (!lane_formulas(cost, lookup, ctx, r))
        return false;
    if (r->t_comm.known && !isnan(sum->floored)) {
        memcpy(r->lane_value, sum->lane, sizeof r->lane_value);
        lanes_combine(sum->lane, sum->lane_fwd, r->lanes, r->per_pass, cost->microbatches,
                      &r->t_comm.value, &r->t_comm_fwd.value);
    }
    return true;
}

/* The book's V/W (2V/W for an AllReduce) beside the exact (N−1)/N form, for one
 * collective over a ring, NVLink or the DCN, in inference: see Roofline.t_comm_book. */
static void book_form(const Cost *cost, PolyLookup lookup, void *ctx, Roofline *r)
{
    r->t_comm_book = r->t_comm_exact = NAN;
    const LinkCost *link = &r->links[0];
    if (cost->mode != COST_INFERENCE || r->ncomm != 1 || cost->colls[0].kind == COLL_ALLTOALL)
        return;
    bool ring = strcmp(link->network, "ICI ring") == 0 || strcmp(link->network, "NVLink") == 0 ||
                strcmp(link->network, "DCN") == 0;
    double whole = cost->colls[0].kind == COLL_ALLREDUCE ? 2 : 1, v;
    Poly *bytes = poly_subst(cost->colls[0].bytes, lookup, ctx);
    if (ring && bytes && poly_is_const(bytes, &v) && link->factor != whole) {
        r->t_comm_book = whole * v / link->bandwidth;
        r->t_comm_exact = link->factor * v / link->bandwidth;
    }
    poly_free(bytes);
}

static RoofError comm_sums(const Cost *cost, const Chip *chip, const Mesh *m,
                           PolyLookup lookup, void *ctx, Roofline *r, CommSum *sum)
{
    bool trained = cost->mode != COST_INFERENCE;
    bool made = sum->bytes && sum->time &&
                (!trained || (sum->fwd_time && sum->fwd_bytes && sum->bwd_bytes));
    RoofError e = made ? fine : fail(ROOF_TOO_COMPLEX, DT_BF16);
    for (int i = 0; i < cost->ncolls && e.status == ROOF_OK; i++, r->ncomm++)
        e = comm_one(&cost->colls[i], chip, m, &r->links[i], trained, cost->microbatches, sum,
                     lookup, ctx);
    bool have = quantity(&r->comm_bytes, sum->bytes, lookup, ctx);
    have = quantity(&r->t_comm, sum->time, lookup, ctx) && have;
    if (trained)
        have = quantity(&r->t_comm_fwd, sum->fwd_time, lookup, ctx) && have;
    if (e.status != ROOF_OK || !have)
        return e.status != ROOF_OK ? e : fail(ROOF_TOO_COMPLEX, DT_BF16);
    if (r->t_comm.known && !isnan(sum->floored)) {
        r->latency_bound = sum->floor_won;
        r->t_comm.value = sum->floored;
        r->t_comm_fwd.value = sum->fwd_floored;
    }
    if (!overlap_lanes(cost, sum, lookup, ctx, r))
        return fail(ROOF_TOO_COMPLEX, DT_BF16);
    book_form(cost, lookup, ctx, r);
    /* Lanes at once: no one link's roof or network ratio says when T_comm wins. */
    r->link_bw = r->overlapped ? 0 : shared_link_bw(r);
    r->net_ridge = r->link_bw ? r->peak / r->link_bw : 0;
    if (!isfinite(r->net_ridge))
        return fail(ROOF_OVERFLOW, r->compute);
    /* Per pass over microbatches no one ratio tells: the gradients meet only the last
     * microbatch's FLOPs. */
    bool one_ratio = !r->per_pass || r->microbatches == 1;
    r->net_known = r->ncomm && !r->times_only && one_ratio && !r->overlapped &&
                   net_ratio(r, sum, lookup, ctx);
    return fine;
}

/* The sums' formulas go to the Roofline's quantities, which own them; the passes'
 * bytes only serve the network intensity. */
static RoofError comm_part(const Cost *cost, const Chip *chip, const Mesh *m,
                           PolyLookup lookup, void *ctx, Roofline *r)
{
    CommSum sum = {poly_const(0), poly_const(0), NULL, NULL, NULL, 0, 0, false, {0}, {0}};
    if (cost->mode != COST_INFERENCE) {
        sum.fwd_time = poly_const(0);
        sum.fwd_bytes = poly_const(0);
        sum.bwd_bytes = poly_const(0);
    }
    RoofError e = comm_sums(cost, chip, m, lookup, ctx, r, &sum);
    poly_free(sum.fwd_bytes);
    poly_free(sum.bwd_bytes);
    return e;
}

bool roof_has_network_ratio(const Roofline *r)
{
    return r->ncomm && r->link_bw && r->net_formula.num;
}

static double fraction(const Chip *chip, ChipField f)
{
    return chip && chip->set[f] ? chip->value[f] : 1;
}

static inline Bound largest(double t_math, double t_hbm, double t_comm)
{
    if (t_comm > t_math && t_comm > t_hbm)
        return BOUND_COMM;
    return t_math >= t_hbm ? BOUND_COMPUTE : BOUND_MEMORY;
}

/* How a training step's work splits between its passes and microbatches: the forward
 * pass has one part of `math` parts of t_math and one of `hbm` parts of t_hbm (3 and 3:
 * a third; more when the backward pass recomputes some of the forward), over mb
 * microbatches (1 without gradient accumulation). */
typedef struct {
    double math, hbm, mb;
} Split;

static inline Split thirds(double mb)
{
    return (Split){3, 3, mb};
}

/* A pass's share of a time: the forward pass's one part, or the backward pass's rest
 * (2·t/3 as written, so that thirds round as they always have). */
static inline double forward_of(double t, double parts)
{
    return t / parts;
}

static inline double backward_of(double t, double parts)
{
    return (parts - 1) * t / parts;
}

static inline double forward_work(double m, double h, Split p)
{
    return larger(forward_of(m, p.math), forward_of(h, p.hbm));
}

static inline double backward_work(double m, double h, Split p)
{
    return larger(backward_of(m, p.math), backward_of(h, p.hbm));
}

/* Per pass over mb microbatches, the times being the step's: the forward collectives
 * take c_fwd forward and as much again backward, the gradients' take the rest,
 * c − 2·c_fwd, and overlap only the last microbatch's backward pass. The collectives
 * of that pass, times mb (to compare with the step's work): c − c_fwd when mb = 1. */
static inline double last_backward_comm(double c, double c_fwd, double mb)
{
    return c - c_fwd + (mb - 1) * (c - 2 * c_fwd);
}

/* The backward passes' time, bwork their work: mb − 1 of them with the mirrored forward
 * collectives, the last with the gradients' too; max(bwork, c − c_fwd) when mb = 1. */
static inline double backward_time(double bwork, double c, double c_fwd, double mb)
{
    double last = larger(bwork, last_backward_comm(c, c_fwd, mb));
    return ((mb - 1) * larger(bwork, c_fwd) + last) / mb;
}

/* Per pass, with c_fwd of t_comm in the forward pass: whether some pass's collectives
 * outlast its work (a third of max(t_math, t_hbm) forward, two thirds backward). */
static inline bool waits_on_network(double m, double h, double c, double c_fwd, Split p)
{
    return c_fwd > forward_work(m, h, p) ||
           last_backward_comm(c, c_fwd, p.mb) > backward_work(m, h, p);
}

/* T_lower from the step's times (roof.h): max(t_math, t_hbm, t_comm), or per pass the
 * sum of the passes' maxima, which is max(t_math, t_hbm) itself (taken as is, not as a
 * third plus two thirds) unless a pass waits on its collectives, or the passes split
 * t_math and t_hbm differently (a recomputing backward pass). */
static inline double lower_of(bool per_pass, double m, double h, double c, double c_fwd,
                              Split p)
{
    if (!per_pass)
        return larger(larger(m, h), c);
    if (!waits_on_network(m, h, c, c_fwd, p) && p.math == p.hbm)
        return larger(m, h);
    return larger(forward_work(m, h, p), c_fwd) +
           backward_time(backward_work(m, h, p), c, c_fwd, p.mb);
}

/* comm when the collectives add to T_lower, else compute or memory; per pass, comm when
 * either pass waits on its collectives (roof.h). */
static inline Bound bound_of(bool per_pass, double m, double h, double c, double c_fwd,
                             Split p)
{
    if (!per_pass)
        return largest(m, h, c);
    if (waits_on_network(m, h, c, c_fwd, p))
        return BOUND_COMM;
    return m >= h ? BOUND_COMPUTE : BOUND_MEMORY;
}

/* Differences whose signs decide the bound, so that it can only change where one of
 * them does: t_math − t_hbm, then t_math − t_comm and t_hbm − t_comm, or per pass each
 * pass's work less its collectives. */
static inline void bound_gaps(bool per_pass, double m, double h, double c, double c_fwd,
                              double mb, double out[3])
{
    out[0] = m - h;
    out[1] = per_pass ? forward_work(m, h, thirds(mb)) - c_fwd : m - c;
    out[2] = per_pass ? backward_work(m, h, thirds(mb)) - last_backward_comm(c, c_fwd, mb)
                      : h - c;
}

static RoofPass pass_of(double t_math, double t_hbm, double t_comm)
{
    return (RoofPass){t_math, t_hbm, t_comm, lower_of(false, t_math, t_hbm, t_comm, 0, thirds(1)),
                      largest(t_math, t_hbm, t_comm)};
}

/* T_lower with each time divided by the chip's achievable fraction (flops_eff,
 * hbm_eff, net_eff; 1 when the chip gives none). */
static double derated(const Chip *chip, bool per_pass, double m, double h, double c,
                      double c_fwd, Split p)
{
    double net = fraction(chip, CHIP_NET_EFF);
    return lower_of(per_pass, m / fraction(chip, CHIP_FLOPS_EFF),
                    h / fraction(chip, CHIP_HBM_EFF), c / net, c_fwd / net, p);
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

/* Before every dim is bound, intensities that no dim changes may decide the bound. */
static Bound decided_bound(const Roofline *r)
{
    if (!r->computes)
        return BOUND_COMM;
    if (r->mixed || r->ncomm || !r->intensity_known)
        return BOUND_UNKNOWN;
    return r->intensity >= r->ridge ? BOUND_COMPUTE : BOUND_MEMORY;
}

/* Each pass's times; over several microbatches the backward passes' T_lower follows
 * backward_time, and they wait on the network when the last one does. */
static void passes(Roofline *r, double m, double h, double c, double c_fwd, Split p)
{
    double bm = backward_of(m, p.math), bh = backward_of(h, p.hbm);
    r->pass[0] = pass_of(forward_of(m, p.math), forward_of(h, p.hbm), c_fwd);
    r->pass[1] = pass_of(bm, bh, c - c_fwd);
    if (p.mb == 1)
        return;
    r->pass[1].t_lower = backward_time(larger(bm, bh), c, c_fwd, p.mb);
    r->pass[1].bound = last_backward_comm(c, c_fwd, p.mb) > larger(bm, bh)
                           ? BOUND_COMM : largest(bm, bh, 0);
}

static RoofError totals(Roofline *r)
{
    /* A symbolic time overflows too ("inf·D" when 1 / peak does). */
    if (!finite_or_unknown(&r->t_math) || !finite_or_unknown(&r->t_hbm) ||
        !finite_or_unknown(&r->t_comm))
        return fail(ROOF_OVERFLOW, r->compute);
    r->times_known = r->t_math.known && r->t_hbm.known && r->t_comm.known;
    if (!r->times_known) {
        r->bound = decided_bound(r);
        return fine;
    }
    double m = r->t_math.value, h = r->t_hbm.value, c = r->t_comm.value;
    double c_fwd = r->per_pass ? r->t_comm_fwd.value : 0;
    Split p = {r->parts_math, r->parts_hbm, r->microbatches};
    r->t_lower = lower_of(r->per_pass, m, h, c, c_fwd, p);
    r->t_upper = m + h + c;
    r->attained = attained(r, r->flops.value, m, r->t_lower);
    r->bound = bound_of(r->per_pass, m, h, c, c_fwd, p);
    r->derated = roof_has_derating(r->chip);
    r->t_derated = derated(r->chip, r->per_pass, m, h, c, c_fwd, p);
    if (r->per_pass)
        passes(r, m, h, c, c_fwd, p);
    if (!isfinite(r->t_upper) || !isfinite(r->attained) || !isfinite(r->t_derated))
        return fail(ROOF_OVERFLOW, r->compute);
    return fine;
}

/* The FLOPs run on padding, summed over slots, when there are any. */
static bool padding_part(const Cost *cost, PolyLookup lookup, void *ctx, Roofline *r)
{
    Poly *sum = NULL;
    for (int s = 0; s < COST_SLOTS; s++) {
        if (!cost->padding[s])
            continue;
        Poly *next = sum ? poly_add(sum, cost->padding[s]) : poly_copy(cost->padding[s]);
        poly_free(sum);
        if (!(sum = next))
            return false;
    }
    return !sum || quantity(&r->padding, sum, lookup, ctx);
}

static RoofError chip_part(const Cost *cost, const Chip *chip, const Mesh *m,
                           PolyLookup lookup, void *ctx, Roofline *r)
{
    r->chip = chip;
    int slot = ridge_slot(cost);
    r->compute = cost_slot_dtype(slot);
    r->vector = cost_slot_vector(slot) && chip->set[CHIP_VPU_FLOPS];
    r->mixed = several_peaks(cost, chip) && cost->read;
    if (!slot_peak(chip, slot, &r->peak))
        return fail(ROOF_NO_PEAK, r->compute);
    if (!chip->set[CHIP_HBM_BW])
        return fail(ROOF_NO_HBM_BW, r->compute);
    r->hbm_bw = chip->value[CHIP_HBM_BW];
    chip_ridge(chip, slot_field(chip, slot), &r->ridge);
    if (!isfinite(r->ridge))
        return fail(ROOF_OVERFLOW, r->compute);
    RoofError e = math_time(cost, chip, lookup, ctx, &r->t_math);
    if (e.status != ROOF_OK)
        return e;
    if (!padding_part(cost, lookup, ctx, r))
        return fail(ROOF_TOO_COMPLEX, r->compute);
    if (!quantity(&r->t_hbm, poly_scale(r->bytes.formula, 1 / r->hbm_bw), lookup, ctx))
        return fail(ROOF_TOO_COMPLEX, r->compute);
    e = comm_part(cost, chip, m, lookup, ctx, r);
    if (e.status == ROOF_OK && r->per_pass)
        e = forward_parts(cost, chip, lookup, ctx, r);
    return e.status == ROOF_OK ? totals(r) : e;
}

/* On a calibrated chip: what the measured kernels say the statement takes (predict.h). */
static void predict_part(const Cost *cost, Roofline *r)
{
    r->predict = predict_cost(cost, r->chip, r->flops.known ? r->flops.value : NAN,
                              r->bytes.known ? r->bytes.value : NAN, r->t_comm.value,
                              r->t_derated);
    if (r->predict.known && !isfinite(r->predict.t))
        r->predict.known = false;
}

/* The dims one computation has looked up: its figures substitute the same few dims
 * over and over, and a lookup (layout_lookup: the dim, then its padding) costs far
 * more than a search of these. Nothing binds a dim while a Roofline is computed, so a
 * dim's answer, bound or not, is the same each time. */
enum { SEEN_MAX = 16 };
typedef struct {
    PolyLookup lookup;
    void *ctx;
    int n;
    int sym[SEEN_MAX];
    bool bound[SEEN_MAX];
    double value[SEEN_MAX];
} Seen;

static bool seen_lookup(int sym, double *value, void *ctx)
{
    Seen *s = ctx;
    for (int i = 0; i < s->n; i++)
        if (s->sym[i] == sym) {
            *value = s->value[i];
            return s->bound[i];
        }
    double v = 0;
    bool bound = s->lookup(sym, &v, s->ctx);
    if (s->n < SEEN_MAX) {
        s->sym[s->n] = sym;
        s->bound[s->n] = bound;
        s->value[s->n++] = v;
    }
    if (bound)
        *value = v;
    return bound;
}

static RoofError compute(const Cost *cost, const Chip *chip, const Mesh *mesh,
                         PolyLookup outer, void *outer_ctx, bool times_only, Roofline *out)
{
    Seen seen = {.lookup = outer, .ctx = outer_ctx, .n = 0};
    PolyLookup lookup = seen_lookup;
    void *ctx = &seen;
    memset(out, 0, sizeof *out);
    out->times_only = times_only;
    out->chips = mesh_chips(mesh);
    out->per_pass = cost->mode == COST_TRAIN_PASS;
    out->microbatches = cost->microbatches;
    RoofError e = chip_free_part(cost, lookup, ctx, out);
    if (e.status == ROOF_OK && chip)
        e = chip_part(cost, chip, mesh, lookup, ctx, out);
    if (e.status == ROOF_OK && chip && out->times_known)
        predict_part(cost, out);
    return e;
}

RoofError roof_compute(const Cost *cost, const Chip *chip, const Mesh *mesh,
                       PolyLookup lookup, void *ctx, Roofline *out)
{
    return compute(cost, chip, mesh, lookup, ctx, false, out);
}

RoofError roof_times(const Cost *cost, const Chip *chip, const Mesh *mesh,
                     PolyLookup lookup, void *ctx, Roofline *out)
{
    return compute(cost, chip, mesh, lookup, ctx, true, out);
}

void roof_free(Roofline *r)
{
    quantity_free(&r->flops);
    quantity_free(&r->bytes);
    quantity_free(&r->read);
    quantity_free(&r->written);
    quantity_free(&r->padding);
    quantity_free(&r->t_math);
    quantity_free(&r->t_hbm);
    quantity_free(&r->comm_bytes);
    quantity_free(&r->t_comm);
    quantity_free(&r->t_comm_fwd);
    for (int l = 0; l < MESH_LANES; l++) {
        quantity_free(&r->lane_time[l]);
        quantity_free(&r->lane_fwd[l]);
    }
    poly_ratio_free(&r->intensity_formula);
    poly_ratio_free(&r->intensity_now);
    poly_ratio_free(&r->net_formula);
    poly_ratio_free(&r->net_now);
    memset(r, 0, sizeof *r);
}

const char *roof_lane_name(const Mesh *m, int lane, PolyNamer namer, void *ctx)
{
    switch (lane) {
    case LANE_DCN: return "DCN";
    case LANE_NVLINK: return "NVLink";
    case LANE_NODE: return "node";
    default: return lane < m->n ? namer(m->axes[lane].name, ctx) : "?";
    }
}

const char *roof_net_pass(const Roofline *r)
{
    if (!r->per_pass)
        return "";
    return r->net_pass ? " (the backward pass's)" : " (the forward pass's)";
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
        out->runs[out->ncomm] =
            cost->mode != COST_INFERENCE && !coll->backward ? 2 * cost->microbatches : 1;
        ok = (out->comm[out->ncomm] = poly_one(coll->bytes, dim, lookup, ctx)) != NULL;
    }
    if (!ok) {
        roof_curve_free(out);
        return false;
    }
    const PolyOne *figures[4] = {out->flops, out->bytes, out->t_math, out->t_hbm};
    out->linear = r->ncomm == 0 && !r->per_pass && !r->overlapped;
    for (int i = 0; out->linear && i < 4; i++)
        out->linear = poly_one_linear(figures[i], out->lin_k[i], out->lin_x[i]);
    return true;
}

/* Collective i's figures added to a block's; with fwd (per pass), its forward pass's
 * time too. */
static inline __attribute__((always_inline)) void block_coll(const RoofCurve *c, RoofBlock *b,
                                                            int n, int i, bool fwd)
{
    const LinkCost *link = &c->roof->links[i];
    double runs = c->runs[i], share = 1 / runs, fwd_runs = runs > 1 ? runs / 2 : 0;
    poly_one_each(c->comm[i], b->x, b->scratch, n);
    for (int j = 0; j < n; j++) {
        double one = larger(b->scratch[j] * share * link->factor / link->bandwidth, link->floor);
        b->comm_bytes[j] += b->scratch[j] * link->factor / link->links;
        b->t_comm[j] += runs * one;
        if (fwd)
            b->t_comm_fwd[j] += fwd_runs * one; /* half a forward collective's runs */
    }
}

/* Overlapped lanes: each collective's time goes to its lanes, which lanes_combine
 * makes T_comm, as comm_one and overlap_lanes do. */
static void block_lanes(const RoofCurve *c, RoofBlock *b, int n)
{
    const Roofline *r = c->roof;
    for (int l = 0; l < MESH_LANES; l++)
        for (int j = 0; r->lanes >> l & 1u && j < n; j++)
            b->lane[l][j] = b->lane_fwd[l][j] = 0;
    for (int i = 0; i < c->ncomm; i++) {
        const LinkCost *link = &r->links[i];
        double runs = c->runs[i], fwd_runs = runs > 1 ? runs / 2 : 0;
        poly_one_each(c->comm[i], b->x, b->scratch, n);
        for (int j = 0; j < n; j++) {
            double one = larger(b->scratch[j] / runs * link->factor / link->bandwidth,
                                link->floor);
            b->comm_bytes[j] += b->scratch[j] * link->factor / link->links;
            for (int l = 0; l < MESH_LANES; l++) {
                if (!(link->lanes >> l & 1u))
                    continue;
                b->lane[l][j] += runs * one;
                b->lane_fwd[l][j] += fwd_runs * one;
            }
        }
    }
    for (int j = 0; j < n; j++) {
        double all[MESH_LANES], fwd[MESH_LANES];
        for (int l = 0; l < MESH_LANES; l++) {
            all[l] = b->lane[l][j];
            fwd[l] = b->lane_fwd[l][j];
        }
        lanes_combine(all, fwd, r->lanes, r->per_pass, r->microbatches, &b->t_comm[j],
                      &b->t_comm_fwd[j]);
    }
}

/* The network figures of a block, collective by collective, counted as comm_one does;
 * the forward pass's time only per pass, where it is used. */
static inline __attribute__((always_inline)) void block_comm(const RoofCurve *c, RoofBlock *b, int n)
{
    bool per_pass = c->roof->per_pass;
    if (c->roof->overlapped) {
        for (int j = 0; j < n; j++)
            b->comm_bytes[j] = 0;
        block_lanes(c, b, n);
        return;
    }
    for (int j = 0; j < n; j++)
        b->t_comm[j] = b->comm_bytes[j] = 0;
    for (int j = 0; per_pass && j < n; j++)
        b->t_comm_fwd[j] = 0;
    for (int i = 0; i < c->ncomm; i++) {
        if (per_pass)
            block_coll(c, b, n, i, true);
        else
            block_coll(c, b, n, i, false);
    }
}

/* Inlined with per_pass a constant, so that the loop has no branch on it. */
static inline __attribute__((always_inline)) void block_times(const RoofCurve *c, RoofBlock *b,
                                                             int n, bool per_pass)
{
    for (int j = 0; j < n; j++) {
        double m = b->t_math[j], h = b->t_hbm[j], t = b->t_comm[j];
        double t_fwd = per_pass ? b->t_comm_fwd[j] : 0;
        b->t_lower[j] = lower_of(per_pass, m, h, t, t_fwd, thirds(c->roof->microbatches));
        b->t_upper[j] = m + h + t;
        b->attained[j] = attained(c->roof, b->flops[j], m, b->t_lower[j]);
    }
}

/* block_times without passes, as loops with no branch that the compiler makes vector
 * code: each select is lower_of's and attained's written with & and | (both sides
 * computed: a division by 0 or by a negative time gives a value not taken). */
static inline __attribute__((always_inline)) void block_times_whole(const RoofCurve *c,
                                                                   RoofBlock *b, int n)
{
    const Roofline *r = c->roof;
    double peak = r->peak;
    bool mixed = r->mixed;
    for (int j = 0; j < n; j++) {
        double m = b->t_math[j], h = b->t_hbm[j], t = b->t_comm[j];
        double mh = ((m > h) | (h != h)) ? m : h; /* larger(m, h) */
        double lower = ((mh > t) | (t != t)) ? mh : t;
        b->t_lower[j] = lower;
        b->t_upper[j] = m + h + t;
        b->attained[j] = b->flops[j] / lower;
    }
    for (int j = 0; j < n; j++) { /* apart, or the division would be made conditional */
        double lower = b->t_lower[j], rate = b->attained[j];
        rate = ((lower == b->t_math[j]) & !mixed) ? peak : rate;
        b->attained[j] = lower <= 0 ? 0 : rate;
    }
}

/* A linear curve's terms (RoofCurve.linear) at a block: each term's coefficient, and
 * the block's x or, for a constant term, ones (k · 1 is k to the bit). In the order of
 * lin_k: flops, bytes, t_math, t_hbm, two terms each. */
typedef struct {
    double k[8];
    const double *u[8];
} LinearTerms;

static inline LinearTerms linear_terms(const RoofCurve *c, const double *x)
{
#define ONES_4 1, 1, 1, 1
#define ONES_16 ONES_4, ONES_4, ONES_4, ONES_4
#define ONES_64 ONES_16, ONES_16, ONES_16, ONES_16
    static const double ones[ROOF_BLOCK] = {ONES_64, ONES_64, ONES_64, ONES_64};
    _Static_assert(ROOF_BLOCK == 256, "ones[] is written out for a block of 256");
    LinearTerms t = {0};
    for (int i = 0; i < 8; i++) {
        t.k[i] = c->lin_k[i / 2][i % 2];
        t.u[i] = c->lin_x[i / 2][i % 2] ? x : ones;
    }
    return t;
}

/* Figure f of a linear curve at point j, as poly_one_linear writes it. */
static inline __attribute__((always_inline)) double linear_at(const LinearTerms *t, int f, int j)
{
    return (0 + t->k[2 * f] * t->u[2 * f][j]) + t->k[2 * f + 1] * t->u[2 * f + 1][j];
}

/* The larger of t_math and t_hbm, then of that and a T_comm of 0: block_times_whole's
 * selects. */
static inline double linear_lower(double m, double h)
{
    double mh = ((m > h) | (h != h)) ? m : h, t = 0;
    return ((mh > t) | (t != t)) ? mh : t;
}

/* A linear curve's figures at x[0 .. n) in one pass, with the same bits as block_at's
 * passes: each figure as poly_one_linear writes it, with T_comm 0 as block_comm leaves
 * it, then block_times_whole's operations. Each array its own parameter, restrict: so
 * the compiler knows they do not overlap, and makes the loop vector code. */
static inline __attribute__((always_inline)) void linear_figures(
    const RoofCurve *c, const double *restrict x, int n, double *restrict flops,
    double *restrict bytes, double *restrict t_math, double *restrict t_hbm,
    double *restrict t_lower, double *restrict t_upper, double *restrict attained)
{
    LinearTerms t = linear_terms(c, x);
    double peak = c->roof->peak;
    bool mixed = c->roof->mixed;
    for (int j = 0; j < n; j++) {
        double f = linear_at(&t, 0, j), m = linear_at(&t, 2, j), h = linear_at(&t, 3, j);
        double lower = linear_lower(m, h);
        flops[j] = f;
        bytes[j] = linear_at(&t, 1, j);
        t_math[j] = m;
        t_hbm[j] = h;
        t_lower[j] = lower;
        t_upper[j] = m + h + 0;
        attained[j] = f / lower;
    }
    for (int j = 0; j < n; j++) { /* apart, or the division would be made conditional */
        double lower = t_lower[j], rate = attained[j];
        rate = ((lower == t_math[j]) & !mixed) ? peak : rate;
        attained[j] = lower <= 0 ? 0 : rate;
    }
}

/* linear_figures' attained FLOP/s alone, for a chart, in one loop of vector code. Its
 * selects (0 where T_lower is 0, the peak where T_math bounds it, else FLOPs / T_lower)
 * are products with 0 and 1, as a select after the division would make the division a
 * branch: for finite FLOPs and T_lower (roof_curve_finite), x · 1 is x, x · 0 ± 0 is +0,
 * ±0 + peak is peak and x / 1 is x, all to the bit. */
static inline __attribute__((always_inline)) void linear_attained(const RoofCurve *c,
                                                                 const double *restrict x,
                                                                 int n,
                                                                 double *restrict attained)
{
    LinearTerms t = linear_terms(c, x);
    double peak = c->roof->peak;
    bool mixed = c->roof->mixed;
    for (int j = 0; j < n; j++) {
        double f = linear_at(&t, 0, j), m = linear_at(&t, 2, j), h = linear_at(&t, 3, j);
        double lower = linear_lower(m, h); /* >= 0 */
        double live = lower > 0 ? 1.0 : 0.0, top = ((lower == m) & !mixed) ? 1.0 : 0.0;
        double divide = live * (1 - top); /* 1 where the answer is FLOPs / T_lower */
        attained[j] = (divide * f + live * top * peak) / (divide * lower + (1 - divide));
    }
}

static inline __attribute__((always_inline)) void block_linear(const RoofCurve *c,
                                                              RoofBlock *b, int n)
{
    for (int j = 0; j < n; j++)
        b->t_comm[j] = b->comm_bytes[j] = 0;
    linear_figures(c, b->x, n, b->flops, b->bytes, b->t_math, b->t_hbm, b->t_lower,
                   b->t_upper, b->attained);
}

/* Inlined twice, so a whole block's loops have a constant count and become vector code. */
static inline __attribute__((always_inline)) void block_at(const RoofCurve *c, RoofBlock *b,
                                                          int n)
{
    if (c->linear) {
        block_linear(c, b, n);
        return;
    }
    poly_one_each(c->flops, b->x, b->flops, n);
    poly_one_each(c->bytes, b->x, b->bytes, n);
    poly_one_each(c->t_math, b->x, b->t_math, n);
    poly_one_each(c->t_hbm, b->x, b->t_hbm, n);
    block_comm(c, b, n);
    if (c->roof->per_pass)
        block_times(c, b, n, true);
    else
        block_times_whole(c, b, n);
}

void roof_curve_block(const RoofCurve *c, const double *x, int n, RoofBlock *out)
{
    out->n = n < ROOF_BLOCK ? n : ROOF_BLOCK;
    out->x = x;
    out->curve = c;
    if (out->n == ROOF_BLOCK)
        block_at(c, out, ROOF_BLOCK);
    else
        block_at(c, out, out->n);
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
/* A whole block's linear_attained in 256-bit vector code, where the machine has AVX2
 * (asked once): the same IEEE operations four points at a time, so the same bits (AVX2
 * brings no fused multiply-add, so nothing is contracted); twice the points an
 * instruction of the baseline's 128-bit code. */
static __attribute__((target("avx2"))) void block_attained_avx2(const RoofCurve *c,
                                                               const double *x,
                                                               double *attained)
{
    linear_attained(c, x, ROOF_BLOCK, attained);
}

static bool wide_vectors(void)
{
    static int known = -1;
    if (known < 0)
        known = __builtin_cpu_supports("avx2") != 0;
    return known;
}
#else
static void block_attained_avx2(const RoofCurve *c, const double *x, double *attained)
{
    linear_attained(c, x, ROOF_BLOCK, attained);
}

static bool wide_vectors(void)
{
    return false;
}
#endif

void roof_curve_attained(const RoofCurve *c, const double *x, int n, RoofBlock *out)
{
    if (!c->linear) {
        roof_curve_block(c, x, n, out);
        return;
    }
    out->n = n < ROOF_BLOCK ? n : ROOF_BLOCK;
    out->x = x;
    out->curve = c;
    if (out->n == ROOF_BLOCK && wide_vectors())
        block_attained_avx2(c, x, out->attained);
    else if (out->n == ROOF_BLOCK)
        linear_attained(c, x, ROOF_BLOCK, out->attained);
    else
        linear_attained(c, x, out->n, out->attained);
}

bool roof_curve_finite(const RoofCurve *c, double most)
{
    if (!c->linear)
        return false;
    double big = most > 1 ? most : 1, total = 0;
    for (int f = 0; f < 4; f++)
        for (int i = 0; i < 2; i++)
            total += fabs(c->lin_k[f][i]) * (c->lin_x[f][i] ? big : 1);
    /* each figure, and any sum of them, is at most total (to a few roundings): far
     * from DBL_MAX = 2^1024 (nan fails) */
    return total < 0x1p1000;
}

RoofPoint roof_block_point(const RoofBlock *b, int j)
{
    /* The intensity and t_derated only here: a chart does not need them, and a
     * division is dear. */
    const Roofline *r = b->curve->roof;
    double m = b->t_math[j], h = b->t_hbm[j], c = b->t_comm[j];
    double c_fwd = r->per_pass ? b->t_comm_fwd[j] : 0;
    RoofPoint p = {.flops = b->flops[j], .bytes = b->bytes[j],
                   .intensity = b->bytes[j] > 0 ? b->flops[j] / b->bytes[j] : 0,
                   .t_math = m, .t_hbm = h, .t_comm = c,
                   .comm_bytes = b->comm_bytes[j], .t_lower = b->t_lower[j],
                   .t_upper = b->t_upper[j], .attained = b->attained[j],
                   .t_derated = derated(r->chip, r->per_pass, m, h, c, c_fwd, thirds(r->microbatches)),
                   .bound = r->computes ? bound_of(r->per_pass, m, h, c, c_fwd,
                                                   thirds(r->microbatches))
                                        : BOUND_COMM};
    bound_gaps(r->per_pass, m, h, c, c_fwd, r->microbatches, p.gaps);
    return p;
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
