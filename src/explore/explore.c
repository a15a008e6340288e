/* explore.c — one dim at a time: `solve` finds where a statement's bound changes as
 * a dim grows; `sweep` evaluates statements at many values of a dim, as a table, CSV,
 * JSON lines or a chart.
 *
 * Both cost each statement once with the dim left free, so every figure is a
 * polynomial in it, compile those polynomials once (roof_curve), then evaluate them at
 * as many values as they need: no statement is re-parsed or re-costed per point.
 */
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "eval.h"
#include "interrupt.h"
#include "json.h"
#include "layout.h"
#include "nomem.h"
#include "num.h"
#include "outfile.h"
#include "plot.h"
#include "records.h"
#include "report.h"
#include "scan.h"

enum {
    SCAN_STEPS = 4 * 64,       /* the solve scan: X = 2^(k/4), up to 2^64 */
    BISECTIONS = 200,
    MAX_SEGMENTS = 8
};

/* Frees the dim for a while: it stays a symbol while the statement is costed. */
static bool free_dim(Eval *ev, int dim, Span span, BoundValue *saved)
{
    if (world_value(ev->world, dim)->kind == VAL_TENSOR)
        return eval_fail(ev, span, "%s is a tensor, not a dim", eval_spelling(ev, dim));
    if (!world_swap(ev->world, dim, (BoundValue){.kind = VAL_UNBOUND}, saved))
        return eval_oom(ev, span);
    return true;
}

/* A statement's figures along one dim. When a contraction of it may either gather an
 * operand or make partial sums (case 2), which is faster can change along the dim, so
 * both plans are compiled and each point takes the faster, as the statement alone
 * would at that value. */
typedef struct {
    RoofCurve plan[2];
    Costed forced[2]; /* the plans' costs, which the curves borrow */
    int n;            /* 1, or 2: [0] gathers, [1] makes partial sums */
    PolyOne **open;   /* the sizes of the dims that depend on the swept one */
    const OpenDim **open_at; /* their formulas and spans (the Costed's) */
    int nopen;
    const OpenDim *itself; /* a dim that is the swept one itself, or NULL: its values are
                            * the points, checked without evaluating anything */
} Along;

/* Compiles the statement's open dims (eval.h) along dim. */
static bool along_open(const Costed *c, int dim, Along *out)
{
    Poly *itself = poly_sym(dim);
    out->open = calloc((size_t)c->open.n + 1, sizeof *out->open);
    out->open_at = calloc((size_t)c->open.n + 1, sizeof *out->open_at);
    bool ok = itself && out->open && out->open_at;
    for (int i = 0; ok && i < c->open.n; i++) {
        const OpenDim *d = &c->open.dims[i];
        if (poly_equal(d->size, itself)) {
            out->itself = d;
            continue;
        }
        out->open_at[out->nopen] = d;
        ok = (out->open[out->nopen] = poly_one(d->size, dim, layout_lookup,
                                                (void *)&c->uses)) != NULL;
        out->nopen += ok;
    }
    poly_free(itself);
    return ok;
}

/* Compiles c's figures along dim, and with a case-2 choice both plans' (costing s again,
 * each way). */
static bool along_build(Eval *ev, const Stmt *s, const Costed *c, int dim, Along *out)
{
    memset(out, 0, sizeof *out);
    if (!along_open(c, dim, out))
        return eval_oom(ev, s->span);
    if (c->cost.choices > 1)
        return eval_fail(ev, s->span, "%d contractions here may each gather an operand or "
                         "make partial sums, and which is faster changes with %s: sweep or "
                         "solve them one statement each", c->cost.choices, eval_spelling(ev, dim));
    if (c->cost.choices == 0) {
        out->n = 1;
        return roof_curve(&c->roof, &c->cost, dim, layout_lookup, (void *)&c->uses,
                          &out->plan[0]) ||
               eval_oom(ev, s->span);
    }
    static const CostPlan plans[2] = {COST_PLAN_GATHER, COST_PLAN_REDUCE};
    bool ok = true;
    for (int k = 0; ok && k < 2; k++) {
        ev->plan = plans[k];
        ok = eval_costed(ev, s, &out->forced[k]);
        ev->plan = COST_PLAN_BEST;
        if (!ok)
            break;
        out->n = k + 1;
        ok = roof_curve(&out->forced[k].roof, &out->forced[k].cost, dim, layout_lookup,
                        &out->forced[k].uses, &out->plan[k]) ||
             eval_oom(ev, s->span);
    }
    return ok;
}

static void along_free(Along *a)
{
    for (int k = 0; k < a->n; k++) {
        roof_curve_free(&a->plan[k]);
        if (a->forced[k].chip)
            eval_costed_free(&a->forced[k]);
    }
    a->n = 0;
    for (int i = 0; i < a->nopen; i++)
        poly_one_free(a->open[i]);
    free(a->open);
    free(a->open_at);
    a->open = NULL;
    a->open_at = NULL;
    a->nopen = 0;
}

/* Whether a size is below 1 or, with `whole`, has a fraction or is above 2^53, where a
 * double skips whole numbers (eval.h: eval_dim_rule). */
static inline int not_a_dim(double v, bool whole)
{
    /* below 2^52, adding and taking away 2^52 rounds v to a whole number; from 2^52 up
     * every double is whole (and the sum only rounds to itself) */
    double rounded = v < 0x1p52 ? (v + 0x1p52) - 0x1p52 : v;
    int small = !(v >= 1), fraction = whole && (rounded != v || v > 0x1p53);
    return small | fraction;
}

/* The first of x[0 .. n) where an open dim is not a whole number of at least 1 (or,
 * with `whole` false, is below 1), or -1; *which says which dim and *size its value. */
static int first_bad_dim(const Along *a, const double *x, int n, bool whole, int *which,
                         double *size)
{
    double v[POLY_ONE_BLOCK];
    int first = -1;
    for (int i = 0; i < a->nopen; i++) {
        poly_one_each(a->open[i], x, v, n);
        int bad = 0; /* counted first, without branches, so the common case is quick */
        for (int j = 0; j < n; j++)
            bad += not_a_dim(v[j], whole);
        for (int j = 0; bad && j < (first < 0 ? n : first); j++)
            if (not_a_dim(v[j], whole)) {
                first = j;
                *which = i;
                *size = v[j];
                break;
            }
    }
    return first;
}

static bool valid_at(const Along *a, double x)
{
    int which;
    double size;
    return first_bad_dim(a, &x, 1, false, &which, &size) < 0;
}

/* Point j of `from` into `to`. */
static void take_point(RoofBlock *to, const RoofBlock *from, int j)
{
    to->flops[j] = from->flops[j];
    to->bytes[j] = from->bytes[j];
    to->t_math[j] = from->t_math[j];
    to->t_hbm[j] = from->t_hbm[j];
    to->t_comm[j] = from->t_comm[j];
    to->t_comm_fwd[j] = from->t_comm_fwd[j];
    to->comm_bytes[j] = from->comm_bytes[j];
    to->t_lower[j] = from->t_lower[j];
    to->t_upper[j] = from->t_upper[j];
    to->attained[j] = from->attained[j];
}

/* The figures at x[0 .. n): with two plans, each point the faster one's (on a tie, the
 * one that moves fewer bytes, as cost.c decides). */
static void along_block(const Along *a, const double *x, int n, RoofBlock *out)
{
    roof_curve_block(&a->plan[0], x, n, out);
    if (a->n < 2)
        return;
    RoofBlock partial;
    roof_curve_block(&a->plan[1], x, n, &partial);
    for (int j = 0; j < out->n; j++)
        if (partial.t_lower[j] < out->t_lower[j] ||
            (partial.t_lower[j] == out->t_lower[j] && partial.comm_bytes[j] < out->comm_bytes[j]))
            take_point(out, &partial, j);
}

/* The figures at one value of the dim. */
static RoofPoint at(const Along *c, double x)
{
    RoofBlock b;
    along_block(c, &x, 1, &b);
    return roof_block_point(&b, 0);
}

/* The dims a statement's figures still depend on. */
static int free_symbols(const Costed *c, int *syms, int max)
{
    int n = poly_symbols(c->roof.flops.now, syms, max);
    int more[16];
    const Poly *others[] = {c->roof.bytes.now, c->roof.comm_bytes.now};
    for (size_t k = 0; k < sizeof others / sizeof others[0]; k++) {
        if (!others[k])
            continue;
        int m = poly_symbols(others[k], more, 16);
        for (int i = 0; i < m; i++) {
            int j = 0;
            while (j < n && syms[j] != more[i])
                j++;
            if (j == n && n < max)
                syms[n++] = more[i];
        }
    }
    return n;
}

static bool only_dim(Eval *ev, const Stmt *s, const Costed *c, int dim)
{
    int syms[16], n = free_symbols(c, syms, 16);
    for (int i = 0; i < n; i++)
        if (syms[i] != dim)
            return eval_fail(ev, s->as.expr.value->span, "%s is not bound; bind every dim but %s "
                             "(`let %s = ...`)", eval_spelling(ev, syms[i]), eval_spelling(ev, dim),
                             eval_spelling(ev, syms[i]));
    if (n == 0)
        return eval_fail(ev, s->as.expr.value->span, "the figures do not depend on %s",
                         eval_spelling(ev, dim));
    return true;
}

/* ---- solve ----------------------------------------------------------------------- */

typedef struct {
    double from;   /* the bound holds for X in (from, to); to = INFINITY at the end */
    double to;
    Bound bound;
} Segment;

/* One of the differences of times whose signs decide the bound at x (t_math - t_hbm,
 * t_math - t_comm, t_hbm - t_comm, or per pass each pass's work less its collectives):
 * the bound can only change where one of them changes sign. */
enum { TIME_PAIRS = 3 };
static double time_gap(const Along *c, int pair, double x)
{
    return at(c, x).gaps[pair];
}

/* Where a pair's gap changes sign between a and b (positive at a, or not): bisection on
 * the exact figures. */
static double crossing(const Along *c, int pair, double a, double b, bool positive)
{
    for (int i = 0; i < BISECTIONS && b - a > 1e-15 * b; i++) {
        double mid = a + (b - a) / 2;
        if ((time_gap(c, pair, mid) > 0) == positive)
            a = mid;
        else
            b = mid;
    }
    return a + (b - a) / 2;
}

/* The points in (a, b) where two of the times cross, ascending, then b; at_a and at_b
 * are the figures at a and b. */
static int cuts_between(const Along *c, double a, const RoofPoint *at_a, double b,
                        const RoofPoint *at_b, double *cuts)
{
    int n = 0;
    for (int pair = 0; pair < TIME_PAIRS; pair++) {
        bool positive = at_a->gaps[pair] > 0;
        if (positive != (at_b->gaps[pair] > 0))
            cuts[n++] = crossing(c, pair, a, b, positive);
    }
    for (int i = 1; i < n; i++)  /* at most three: insertion sort */
        for (int j = i; j > 0 && cuts[j - 1] > cuts[j]; j--) {
            double t = cuts[j];
            cuts[j] = cuts[j - 1];
            cuts[j - 1] = t;
        }
    cuts[n++] = b;
    return n;
}

/* Where validity changes between a and b (bisection): the point on the valid side. */
static double domain_edge(const Along *c, double a, double b)
{
    bool valid_a = valid_at(c, a);
    for (int i = 0; i < BISECTIONS && b - a > 1e-15 * b; i++) {
        double mid = a + (b - a) / 2;
        if (valid_at(c, mid) == valid_a)
            a = mid;
        else
            b = mid;
    }
    return valid_a ? a : b;
}

/* Appends the segments of [x, to], found at the crossings of the times between; at_x
 * and at_to are the figures at x and to. */
static int cut_step(const Along *c, double x, const RoofPoint *at_x, double to,
                    const RoofPoint *at_to, Segment *out, int n)
{
    double cuts[TIME_PAIRS + 1];
    int m = cuts_between(c, x, at_x, to, at_to, cuts);
    for (int i = 0; i < m && n < MAX_SEGMENTS; i++) {
        double lo = i ? cuts[i - 1] : x;
        Bound b = at(c, lo + (cuts[i] - lo) / 2).bound;
        if (b != out[n - 1].bound) {
            out[n - 1].to = lo;
            out[n++] = (Segment){lo, INFINITY, b};
        }
    }
    return n;
}

/* The bound over the values X >= 1 that give every dim a size of at least 1 (from the
 * first such value up to the first that does not), as segments; 0 when there is none.
 * Scans X = 2^(k/4); in each step, every point where two times cross is found, and the
 * bound between two such points is that of their middle, so a regime narrower than a
 * step is not skipped. */
static int segments(const Along *c, Segment *out)
{
    double x = 1;
    int k = 1;
    if (!valid_at(c, x)) {
        while (k <= SCAN_STEPS && !valid_at(c, pow(2, k / 4.0)))
            x = pow(2, k++ / 4.0);
        if (k > SCAN_STEPS)
            return 0;
        x = domain_edge(c, x, pow(2, k / 4.0));
    }
    int n = 0;
    RoofPoint at_x = at(c, x); /* each scanned point's figures are found once */
    out[n++] = (Segment){x, INFINITY, at_x.bound};
    for (; k <= SCAN_STEPS && n < MAX_SEGMENTS; k++) {
        double next = pow(2, k / 4.0);
        if (next <= x)
            continue;
        if (!valid_at(c, next)) {
            double end = domain_edge(c, x, next);
            RoofPoint at_end = at(c, end);
            n = cut_step(c, x, &at_x, end, &at_end, out, n);
            out[n - 1].to = end;
            break;
        }
        RoofPoint at_next = at(c, next);
        if (!isfinite(at_next.t_lower))
            break;
        n = cut_step(c, x, &at_x, next, &at_next, out, n);
        x = next;
        at_x = at_next;
    }
    return n;
}

/* The limit of a ratio as `dim` grows, the other dims bound: the ratio of the
 * leading terms. False when it grows without bound. */
static bool limit_of(const PolyRatio *r, int dim, double *out)
{
    int dn = poly_degree_in(r->num, dim), dd = poly_degree_in(r->den, dim);
    if (dn > dd)
        return false;
    double lead[2] = {0, 0};
    const Poly *parts[2] = {r->num, r->den};
    for (int k = 0; k < 2; k++)
        for (int i = 0; i < poly_nterms(parts[k]); i++) {
            double coef;
            Poly *mono = poly_term(parts[k], i, &coef);
            if (mono && poly_degree_in(mono, dim) == dd)
                lead[k] += coef;
            poly_free(mono);
        }
    *out = dn < dd || lead[1] == 0 ? 0 : lead[0] / lead[1];
    return true;
}

/* The terms of p of highest degree in the dims other than `dim`. */
static Poly *leading(const Poly *p, int dim)
{
    int top = 0;
    for (int i = 0; i < poly_nterms(p); i++)
        if (poly_term_degree(p, i, dim) > top)
            top = poly_term_degree(p, i, dim);
    Poly *sum = poly_const(0);
    for (int i = 0; i < poly_nterms(p) && sum; i++) {
        if (poly_term_degree(p, i, dim) != top)
            continue;
        double coef;
        Poly *mono = poly_term(p, i, &coef), *term = mono ? poly_scale(mono, coef) : NULL;
        Poly *next = term ? poly_add(sum, term) : NULL;
        poly_free(mono);
        poly_free(term);
        poly_free(sum);
        sum = next;
    }
    return sum;
}

/* The book's reading: as the other dims grow, the intensity tends to the ratio of
 * the leading terms (BDF / DF = B for a matmul). */
static bool asymptote(const PolyRatio *formula, int dim, PolyRatio *out)
{
    Poly *num = leading(formula->num, dim), *den = leading(formula->den, dim);
    bool ok = num && den && poly_ratio(num, den, out);
    poly_free(num);
    poly_free(den);
    return ok;
}

static bool has_symbol(const Poly *p, int sym)
{
    return p && poly_degree_in(p, sym) != 0;
}

/* "D, F": the dims of a formula other than `dim` and those the lead keeps (k and E
 * of bf16[E, B*k/E, D], whose values it then takes: they do not grow). */
static void other_dims(Eval *ev, const Poly *p, int dim, const PolyRatio *lead, char *buf,
                       size_t size)
{
    int syms[16], n = poly_symbols(p, syms, 16);
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < n && used < size; i++)
        if (syms[i] != dim && !has_symbol(lead->num, syms[i]) && !has_symbol(lead->den, syms[i]))
            used += (size_t)snprintf(buf + used, size - used, "%s%s", used ? ", " : "",
                                     eval_spelling(ev, syms[i]));
}

/* The lead with the values of its bound names put in, when it holds dim and other names
 * (B·k/E with k = 1, E = 8: B/8), so its threshold is a number; false otherwise. */
static bool lead_now(Eval *ev, const PolyRatio *lead, int dim, PolyRatio *out)
{
    int syms[16], n = poly_symbols(lead->num, syms, 16);
    n += poly_symbols(lead->den, syms + n, 16 - n);
    bool others = false;
    for (int i = 0; i < n; i++)
        others |= syms[i] != dim;
    if (!others || (!has_symbol(lead->num, dim) && !has_symbol(lead->den, dim)))
        return false;
    Poly *num = poly_subst(lead->num, world_lookup, ev->world),
         *den = poly_subst(lead->den, world_lookup, ev->world);
    bool ok = num && den && poly_ratio(num, den, out);
    poly_free(num);
    poly_free(den);
    return ok;
}

static char *ratio_text(Eval *ev, const PolyRatio *r, PolyStyle style, char *buf, size_t size)
{
    return poly_ratio_format(r, style, world_namer, ev->world, buf, size);
}

/* A ratio for people: 4 significant digits when it is a number. */
static char *ratio_short(Eval *ev, const PolyRatio *r, char *buf, size_t size)
{
    double num, den;
    if (poly_is_const(r->num, &num) && poly_is_const(r->den, &den) && den != 0) {
        snprintf(buf, size, "%.5g", num / den); /* 1.9995, not a rounded 2 */
        return buf;
    }
    return ratio_text(ev, r, POLY_STYLE_TEXT, buf, size);
}

/* The book's reading, when the other dims grow: "as D, F grow, the intensity → 2·B:
 * compute-bound when B > 120.12", for the HBM and for the network. False when there is
 * none. Its texts are in buf: the dims that grow, then the lead. */
static bool asymptote_of(Eval *ev, const PolyRatio *formula, double ridge, const char *what,
                         int dim, char (*buf)[512], SolveAsymptote *out)
{
    PolyRatio lead = {0}, valued = {0};
    Crossing cross;
    double num, den;
    char *others = buf[0], *text = buf[1];
    if (!asymptote(formula, dim, &lead))
        return false;
    other_dims(ev, formula->num, dim, &lead, others, 128);
    /* With no other dim the HBM reading would repeat the intensity row. */
    if (!others[0] && strcmp(what, "asymptote (network)") != 0) {
        poly_ratio_free(&lead);
        return false;
    }
    ratio_short(ev, &lead, text, 512);
    if (lead_now(ev, &lead, dim, &valued)) {
        size_t used = strlen(text);
        snprintf(text + used, 512 - used, " = ");
        used = strlen(text);
        ratio_short(ev, &valued, text + used, 512 - used);
        poly_ratio_free(&lead);
        lead = valued;
    }
    /* A formula without dim whose lead still holds other dims (the network's D/2 when
     * solving for B) is no limit: it is what the intensity is, whatever dim is. */
    int syms[16];
    bool has_dim = poly_degree_in(formula->num, dim) > 0 || poly_degree_in(formula->den, dim) > 0;
    bool lead_has_dims = poly_symbols(lead.num, syms, 16) + poly_symbols(lead.den, syms, 16) > 0;
    *out = (SolveAsymptote){
        .label = what, .lead = text, .others = others, .dim = eval_spelling(ev, dim),
        .whatever_dim = !has_dim && lead_has_dims, .sense = SOLVE_NO_VERDICT, .ridge = NAN,
    };
    /* The lead may not hold dim (the network's D/2 when solving for B): name its own. */
    if (roof_crossing(&lead, ridge, &cross)) {
        out->sense = cross.sense;
        out->at = cross.value;
        if (cross.sense == 1 || cross.sense == -1)
            out->cross_dim = eval_spelling(ev, cross.sym);
    } else if (poly_is_const(lead.num, &num) && poly_is_const(lead.den, &den) && den != 0) {
        out->sense = num / den > ridge ? 2 : 0;
        out->ridge = ridge;
    }
    poly_ratio_free(&lead);
    return true;
}

/* A ratio's value, null while it still depends on a dim (the solved one). */
static double ratio_value(const PolyRatio *r)
{
    double num, den;
    return poly_is_const(r->num, &num) && poly_is_const(r->den, &den) && den != 0 ? num / den
                                                                                  : NAN;
}

/* A formula as a statement's record holds it: in its dims, the bound ones put in; the
 * symbolic one when it is a number. */
static char *ratio_json(Eval *ev, const PolyRatio *formula, const PolyRatio *now, char *buf,
                        size_t size)
{
    const PolyRatio *shown = isnan(ratio_value(now)) ? now : formula;
    return ratio_text(ev, shown, POLY_STYLE_ASCII, buf, size);
}

/* The texts a solve's record points to. */
typedef struct {
    char intensity[512], intensity_now[512], intensity_json[512];
    char net[512], net_json[512];
    char asymptote[2][2][512];
    SolveAsymptote asymptotes[2];
} SolveTexts;

static void solve_ratios(Eval *ev, const Roofline *r, int dim, SolveTexts *t, SolveRecord *out)
{
    out->intensity = ratio_text(ev, &r->intensity_formula, POLY_STYLE_TEXT, t->intensity,
                                sizeof t->intensity);
    out->intensity_now = ratio_short(ev, &r->intensity_now, t->intensity_now,
                                     sizeof t->intensity_now);
    out->intensity_json = ratio_json(ev, &r->intensity_formula, &r->intensity_now,
                                     t->intensity_json, sizeof t->intensity_json);
    out->intensity_value = ratio_value(&r->intensity_now);
    out->ridge = r->ridge;
    out->compute = dtype_name(r->compute);
    out->network = roof_has_network_ratio(r);
    if (out->network) {
        out->net_intensity = ratio_text(ev, &r->net_now, POLY_STYLE_TEXT, t->net, sizeof t->net);
        out->net_pass = roof_net_pass(r);
        out->net_json = ratio_json(ev, &r->net_formula, &r->net_now, t->net_json,
                                   sizeof t->net_json);
        out->net_intensity_value = ratio_value(&r->net_now);
        out->net_ridge = r->net_ridge;
    }
    int n = 0;
    n += asymptote_of(ev, &r->intensity_formula, r->ridge,
                      r->ncomm ? "asymptote (HBM)" : "asymptote", dim, t->asymptote[n],
                      &t->asymptotes[n]);
    if (out->network)
        n += asymptote_of(ev, &r->net_formula, r->net_ridge, "asymptote (network)", dim,
                          t->asymptote[n], &t->asymptotes[n]);
    out->asymptotes = t->asymptotes;
    out->nasymptotes = n;
}

/* The solve's record: the segments, and the formulas that decide them. */
static void report_segments(Eval *ev, const Stmt *s, const Costed *c, int dim,
                            const Segment *seg, int n, int plans)
{
    SolveSegment rows[MAX_SEGMENTS];
    SolveTexts texts;
    for (int i = 0; i < n; i++)
        rows[i] = (SolveSegment){seg[i].from, seg[i].to, seg[i].bound};
    double limit; /* as the dim grows: none when the dims' sizes bound it */
    bool finite = c->roof.computes && !isfinite(seg[n - 1].to) &&
                  limit_of(&c->roof.intensity_now, dim, &limit);
    SolveRecord r = {
        .stmt = records_stmt(ev->src, s->span), .mode = ev->world->training,
        .microbatches = ev->world->microbatches, .dim = eval_spelling(ev, dim),
        .chip = c->chip->name, .computes = c->roof.computes, .seg = rows, .n = n,
        .plans = plans, .limit = finite ? limit : NAN,
    };
    if (r.computes)
        solve_ratios(ev, &c->roof, dim, &texts, &r);
    records_solve(ev->out, &r, ev->json);
}

/* Whether a tensor splits dim over chips while another holds it whole or splits it
 * otherwise. Bound to a number the chips do not divide, the first costs its padded shard,
 * ceil(dim / chips), the second dim itself (tensor.h): one formula in dim cannot say
 * both, so each point is costed with dim bound (scan.h). */
static bool split_mixed(const ShardUses *uses, int dim)
{
    for (int i = 0; i < uses->n; i++)
        if (uses->item[i].dim == dim && uses->item[i].chips > 1 && uses->item[i].mixed)
            return true;
    return uses->full;
}

static bool report_solve(Eval *ev, const Stmt *s, const Costed *c, int dim)
{
    Segment seg[MAX_SEGMENTS];
    Along curve;
    if (!along_build(ev, s, c, dim, &curve)) {
        along_free(&curve);
        return false;
    }
    int n = segments(&curve, seg), plans = curve.n;
    along_free(&curve);
    if (n == 0)
        return eval_fail(ev, s->span, "no value of %s from 1 up gives every dim of this a size "
                         "of at least 1", eval_spelling(ev, dim));
    report_segments(ev, s, c, dim, seg, n, plans);
    return true;
}

static bool pick_dim(Eval *ev, const Stmt *s, const Costed *c, int *dim)
{
    int syms[16], n = free_symbols(c, syms, 16);
    if (*dim >= 0)
        return only_dim(ev, s, c, *dim);
    if (n == 1) {
        *dim = syms[0];
        return true;
    }
    return eval_fail(ev, s->as.expr.value->span, n == 0 ? "every dim is bound: name the one to "
                     "solve for, `solve B: ...`" : "more than one dim is unbound: name the one to "
                     "solve for, `solve B: ...`, and bind the others");
}

bool explore_solve(Eval *ev, const Stmt *s)
{
    int dim = s->as.expr.target.name;
    BoundValue saved = {.kind = VAL_UNBOUND};
    bool swapped = false;
    if (dim >= 0 && !(swapped = free_dim(ev, dim, s->as.expr.target.span, &saved)))
        return false;
    Costed c;
    bool ok = scan_wanted(ev, s) ? scan_solve(ev, s, dim) : eval_costed(ev, s, &c);
    if (ok && !scan_wanted(ev, s)) {
        ok = pick_dim(ev, s, &c, &dim) &&
             (!nomem_failed() || eval_oom(ev, s->span));
        bool mixed = ok && split_mixed(&c.uses, dim);
        ok = ok && (mixed ? scan_solve(ev, s, dim) : report_solve(ev, s, &c, dim));
        eval_costed_free(&c);
    }
    if (swapped)
        world_restore(ev->world, dim, saved);
    return ok;
}

/* ---- sweep ----------------------------------------------------------------------- */

/* A sweep's points: a list's and a log range's are held; a step range's are made a
 * block at a time (a million points need no 8 MB array). */
typedef struct {
    double *values; /* NULL for a step range */
    double from, step;
    int n;
    bool log;
    bool ascending; /* a range's are; a list's may not be */
    bool whole;     /* every point is a whole number of at least 1 */
} Points;

static double point_at(const Points *p, int i)
{
    return p->values ? p->values[i] : p->from + i * p->step;
}

/* A step range's points at .. at + n, as point_at makes them; inlined with n a constant,
 * a loop the compiler makes vector code. */
static inline __attribute__((always_inline)) void step_points(const Points *p, int at, int n,
                                                             double *restrict buf)
{
    double from = p->from, step = p->step; /* read once: buf could be p, for all gcc knows */
    for (int i = 0; i < n; i++)
        buf[i] = from + (at + i) * step;
}

/* Points at .. at + n (n <= ROOF_BLOCK): held ones in place, a step range's into buf. */
static const double *points_block(const Points *p, int at, int n, double *buf)
{
    if (p->values)
        return p->values + at;
    if (n == ROOF_BLOCK)
        step_points(p, at, ROOF_BLOCK, buf);
    else
        step_points(p, at, n, buf);
    return buf;
}

static bool range_number(Eval *ev, const Node *n, double *v, const char *what)
{
    if (!eval_number(ev, n, v))
        return false;
    return *v > 0 || eval_fail(ev, n->span, "%s must be positive", what);
}

static bool points_list(Eval *ev, const RangeSpec *r, Points *p)
{
    p->values = malloc(sizeof *p->values * (size_t)(r->list->n + 1));
    if (!p->values)
        return eval_oom(ev, r->span);
    for (p->n = 0; p->n < r->list->n; p->n++)
        if (!range_number(ev, r->list->items[p->n], &p->values[p->n], "a dim's value"))
            return false;
    return true;
}

/* `from .. to`, `from .. to step s` or `from .. to log n` (n points, log-spaced). */
static bool points_range(Eval *ev, const RangeSpec *r, Points *p)
{
    double from, to, how = 1;
    const char *kind = r->how.name >= 0 ? eval_spelling(ev, r->how.name) : "step";
    if (!range_number(ev, r->from, &from, "a dim's value") ||
        !range_number(ev, r->to, &to, "a dim's value") ||
        (r->how.name >= 0 && !range_number(ev, r->how_value, &how, strcmp(kind, "log") == 0
                                                                       ? "the count of points"
                                                                       : "a step")))
        return false;
    p->log = strcmp(kind, "log") == 0;
    if (!p->log && strcmp(kind, "step") != 0)
        return eval_fail(ev, r->how.span, "a range goes `from .. to step S` or `from .. to log N`");
    double count = p->log ? floor(how) : floor((to - from) / how + 1e-9) + 1;
    if (to < from)
        return eval_fail(ev, r->span, "a range goes from low to high: %g .. %g is empty", from, to);
    if (p->log && count < 2)
        return eval_fail(ev, r->how_value->span, "a log range needs at least 2 points");
    if (count > LIMIT_SWEEP_POINTS) /* whole, and 1e+300 rather than 17 digits of it */
        return eval_fail(ev, r->span, count < 1e15 ? "a sweep takes at most %d points, not %.0f"
                                                   : "a sweep takes at most %d points, not %.3g",
                         LIMIT_SWEEP_POINTS, count);
    p->n = (int)count;
    p->from = from;
    p->step = how;
    if (!p->log)
        return true;
    if (!(p->values = malloc(sizeof *p->values * (size_t)p->n)))
        return eval_oom(ev, r->span);
    int kept = 0;
    for (int i = 0; i < p->n; i++) {
        /* Dims are whole: log-spaced points round to integers, each taken once. */
        double v = round(from * pow(to / from, (double)i / (p->n - 1)));
        if (kept == 0 || v > p->values[kept - 1])
            p->values[kept++] = v;
    }
    p->n = kept;
    return true;
}

static bool sweep_points(Eval *ev, const RangeSpec *r, Points *p)
{
    *p = (Points){.ascending = true};
    if (!(r->list ? points_list(ev, r, p) : points_range(ev, r, p)))
        return false;
    for (int i = 1; r->list && i < p->n && p->ascending; i++)
        p->ascending = p->values[i] >= p->values[i - 1];
    /* a step range's points are whole when its start and step are */
    p->whole = p->values || (!not_a_dim(p->from, true) && !not_a_dim(p->step + 1, true));
    for (int i = 0; p->values && i < p->n && p->whole; i++)
        p->whole = !not_a_dim(p->values[i], true);
    return true;
}

/* One body statement, costed with the dim free, and its label. */
typedef struct {
    const Stmt *stmt;
    Costed costed;
    Along along;      /* its figures as functions of the swept dim */
    char label[128];
    PlotThin chart;   /* its attained FLOP/s, thinned for the chart */
} Curve;

static void curve_label(Eval *ev, const Stmt *s, char *buf, size_t size)
{
    if (s->kind == STMT_ASSIGN)
        snprintf(buf, size, "%s", eval_spelling(ev, s->as.expr.target.name));
    else
        snprintf(buf, size, "%.*s", s->span.end - s->span.begin, ev->src->text + s->span.begin);
}

static bool cost_curve(Eval *ev, const Stmt *s, int dim, Curve *c)
{
    c->stmt = s;
    if (s->kind != STMT_EXPR && s->kind != STMT_ASSIGN && s->kind != STMT_COLLECTIVE)
        return eval_fail(ev, s->span, "a sweep's body holds expression statements, one per curve");
    if (!eval_costed(ev, s, &c->costed))
        return false;
    curve_label(ev, s, c->label, sizeof c->label);
    bool ok = only_dim(ev, s, &c->costed, dim) && along_build(ev, s, &c->costed, dim, &c->along);
    if (!ok) {
        along_free(&c->along);
        eval_costed_free(&c->costed);
    }
    return ok;
}

/* One point of a sweep as a JSON line: the statement's keys that a point has, with
 * `at` the swept dim's value. */
static void row_json(Eval *ev, const Curve *c, int dim, double x, const RoofPoint *p)
{
    const Roofline *r = &c->costed.roof;
    int line, col;
    source_position(ev->src, c->stmt->span.begin, &line, &col);
    char buf[40];
    if (x == floor(x) && fabs(x) < 1e15) /* a dim's value in full: 1000000, not 1e6 */
        snprintf(buf, sizeof buf, "%.0f", x);
    else
        num_format_json(x, buf, sizeof buf);
    SweepPoint point = {
        .stmt = c->label, .dim = eval_spelling(ev, dim), .at = buf, .line = line,
        .file = ev->src->name, .chip = c->costed.chip->name, .mode = ev->world->training,
        .roof = true, .chips = r->chips, .flops = p->flops, .bytes = p->bytes,
        .intensity = p->intensity, .ridge = r->ridge, .t_math = p->t_math, .t_hbm = p->t_hbm,
        .t_comm = p->t_comm, .comm_bytes = p->comm_bytes, .t_lower = p->t_lower,
        .t_upper = p->t_upper, .t_derated = p->t_derated, .bound = p->bound,
        .attained = p->attained,
    };
    records_sweep_point(ev->out, &point);
}

/* Every point of one curve, in the chosen format; the attained FLOP/s kept for a chart
 * (false: out of memory). */
/* The first point of a block whose figures overflow a double, or -1. */
/* fabs(x) <= DBL_MAX is false for inf and nan, and compiles to vector compares. */
static inline int not_finite(double x)
{
    return !(fabs(x) <= DBL_MAX);
}

/* The figures are never negative, so their sum is finite exactly when each is (and
 * attained = flops / t_lower with t_lower >= flops / peak is then finite too). */
static inline int overflows(const RoofBlock *b, int i)
{
    return not_finite(b->flops[i] + b->bytes[i] + b->comm_bytes[i] + b->t_upper[i]);
}

/* Whether the sums overflows takes are finite at every point: s - s is +0 for a finite
 * s and NaN for inf or nan, a loop the compiler makes vector code (inlined with n a
 * constant), then one comparison of the block with zeros. */
static inline __attribute__((always_inline)) bool all_finite(const RoofBlock *b, int n)
{
    static const double zeros[ROOF_BLOCK];
    double off[ROOF_BLOCK];
    for (int i = 0; i < n; i++) {
        double sum = b->flops[i] + b->bytes[i] + b->comm_bytes[i] + b->t_upper[i];
        off[i] = sum - sum;
    }
    return memcmp(off, zeros, sizeof *off * (size_t)n) == 0;
}

static int first_overflow(const RoofBlock *b)
{
    if (b->n == ROOF_BLOCK ? all_finite(b, ROOF_BLOCK) : all_finite(b, b->n))
        return -1;
    for (int i = 0; i < b->n; i++)
        if (overflows(b, i))
            return i;
    return -1;
}

/* An error at the statement, not inf or nan, when a point of the block overflows. */
static bool finite_block(Eval *ev, const Curve *c, int dim, const RoofBlock *b)
{
    int bad = first_overflow(b);
    if (bad < 0)
        return true;
    char at[32];
    return eval_fail(ev, c->stmt->span, "at %s = %s the cost overflows: a figure is too "
                     "large for a double", eval_spelling(ev, dim),
                     num_format_plain(b->x[bad], at, sizeof at));
}

static bool dim_error(Eval *ev, const OpenDim *d, int dim, double x, double size)
{
    char at[32], value[32], formula[256];
    poly_format(d->size, POLY_STYLE_TEXT, world_namer, ev->world, formula, sizeof formula);
    return eval_fail(ev, d->span, "at %s = %s the dim %s is %s; %s", eval_spelling(ev, dim),
                     num_format_plain(x, at, sizeof at), formula,
                     num_format_plain(size, value, sizeof value), eval_dim_rule(size));
}

/* An error at the dim that is not a whole number of at least 1 at some x[0 .. n), as
 * `let` would give with the swept dim bound there. */
static bool dims_whole(Eval *ev, const Curve *c, int dim, const double *x, int n)
{
    int which;
    double size;
    int bad = first_bad_dim(&c->along, x, n, true, &which, &size);
    if (bad < 0)
        return true;
    return dim_error(ev, c->along.open_at[which], dim, x[bad], size);
}

/* Before anything is printed: the dims at every point (the first bad one is the
 * error), and the figures at both ends (where a range overflows). */
static bool check_points(Eval *ev, const Curve *c, int dim, const Points *pts)
{
    for (int i = 0; c->along.itself && !pts->whole && i < pts->n; i++)
        if (not_a_dim(point_at(pts, i), true))
            return dim_error(ev, c->along.itself, dim, point_at(pts, i), point_at(pts, i));
    double made[ROOF_BLOCK];
    for (int at = 0; c->along.nopen && at < pts->n; at += ROOF_BLOCK) {
        int n = pts->n - at < ROOF_BLOCK ? pts->n - at : ROOF_BLOCK;
        if (!dims_whole(ev, c, dim, points_block(pts, at, n, made), n))
            return false;
    }
    double ends[2] = {point_at(pts, 0), point_at(pts, pts->n - 1)};
    RoofBlock b;
    along_block(&c->along, ends, 2, &b);
    return finite_block(ev, c, dim, &b);
}

/* The swept dim's values as the statement alone would take them: where its tensors split
 * it alike over chips that do not divide it, padded to chips · ceil(x / chips)
 * (layout.h); x itself when nothing is padded, else into buf. */
static const double *padded_points(const ShardUses *uses, int dim, const double *x, int n,
                                   double *buf)
{
    const ShardUse *u = NULL;
    for (int i = 0; !uses->full && i < uses->n; i++)
        if (uses->item[i].dim == dim && uses->item[i].chips > 1 && !uses->item[i].mixed)
            u = &uses->item[i];
    if (!u)
        return x;
    for (int j = 0; j < n; j++)
        buf[j] = x[j] > u->chips ? u->chips * ceil(x[j] / u->chips) : x[j];
    return buf;
}

/* The largest of the points, padded as the statement takes it. */
static double largest_point(const Curve *c, int dim, const Points *pts)
{
    double first = point_at(pts, 0), last = point_at(pts, pts->n - 1), padded;
    double most = first > last ? first : last;
    for (int i = 0; pts->values && i < pts->n; i++)
        most = pts->values[i] > most ? pts->values[i] : most;
    return *padded_points(&c->costed.uses, dim, &most, 1, &padded);
}

/* Whether the figures need only feed a chart, and no point can overflow: then a block
 * needs its attained FLOP/s alone, and no check (roof.h: roof_curve_finite). */
static bool chart_only(const Eval *ev, const Curve *c, int dim, const Points *pts,
                       bool chart)
{
    return chart && !ev->json && c->along.n == 1 &&
           roof_curve_finite(&c->along.plan[0], largest_point(c, dim, pts));
}

static bool run_curve(Eval *ev, Curve *c, int dim, const Points *pts, bool chart,
                      Progress *progress)
{
    /* With a chart, text mode draws instead of printing a table. */
    bool table = !ev->json && !chart, attained_only = chart_only(ev, c, dim, pts, chart);
    plot_thin_init(&c->chart, point_at(pts, 0), point_at(pts, pts->n - 1), pts->log, false,
                   !pts->ascending);
    c->chart.rising = pts->ascending; /* checked once for a list; a range's always are */
    c->chart.expect = pts->n;
    if (table)
        records_sweep_header(ev->out, c->label, ev->world->training, ev->world->microbatches,
                             eval_spelling(ev, dim), c->costed.roof.ncomm > 0);
    RoofBlock b;
    double made[ROOF_BLOCK], padded[ROOF_BLOCK];
    for (int at = 0; at < pts->n; at += ROOF_BLOCK) {
        int n = pts->n - at < ROOF_BLOCK ? pts->n - at : ROOF_BLOCK;
        if (interrupt_pending()) /* Ctrl-C in the REPL: the session goes on */
            return eval_interrupted(ev);
        const double *x = points_block(pts, at, n, made);
        const double *at_x = padded_points(&c->costed.uses, dim, x, n, padded);
        if (attained_only)
            roof_curve_attained(&c->along.plan[0], at_x, n, &b);
        else
            along_block(&c->along, at_x, n, &b);
        b.x = x; /* the rows show the values swept, the figures their padded shards */
        if (!attained_only && !finite_block(ev, c, dim, &b))
            return false;
        if (chart && !plot_thin_add(&c->chart, b.x, b.attained, b.n))
            return eval_oom(ev, c->stmt->span);
        if (ev->json || table)
            progress_before_row(progress);
        for (int i = 0; (ev->json || table) && i < b.n; i++) {
            RoofPoint p = roof_block_point(&b, i);
            if (!isfinite(p.t_derated))
                return eval_fail(ev, c->stmt->span, "at %s = %.17g the derated time overflows: "
                                 "a figure is too large for a double", eval_spelling(ev, dim), b.x[i]);
            if (ev->json) /* --csv too: session.c turns the records into rows */
                row_json(ev, c, dim, b.x[i], &p);
            else
                records_sweep_row(ev->out, b.x[i], &p, c->costed.roof.ncomm > 0);
        }
        if (ev->json && !eval_rows_written(ev)) /* --csv: the rows as they are made */
            return false;
        progress_advance(progress, b.n);
    }
    if (table)
        fputc('\n', ev->out);
    return !chart || plot_thin_end(&c->chart) || eval_oom(ev, c->stmt->span);
}

/* The terminal's size, or 80 × 24 off a terminal. */
static void terminal_size(int *columns, int *rows)
{
    struct winsize ws;
    *columns = 80;
    *rows = 24;
    if (isatty(STDOUT_FILENO) && ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 20) {
        *columns = ws.ws_col;
        *rows = ws.ws_row > 10 ? ws.ws_row - 2 : 10;
    }
}

/* Colour for a chart on a terminal, unless NO_COLOR (no-color.org) is set; never in a
 * pipe or a file, where escapes would be noise. */
static bool terminal_colour(const Eval *ev)
{
    const char *no_color = getenv("NO_COLOR");
    return ev->out == stdout && isatty(STDOUT_FILENO) && !(no_color && no_color[0]);
}

/* `x 1 .. 1024`: a range for one axis, lo < hi, both positive on a log axis. */
static bool option_range(Eval *ev, const PlotOption *o, bool logscale, double range[2])
{
    if (!eval_number(ev, o->from, &range[0]) || !eval_number(ev, o->to, &range[1]))
        return false;
    if (!(range[1] > range[0]))
        return eval_fail(ev, o->span, "an axis's range runs from low to high: %g .. %g does "
                         "not", range[0], range[1]);
    if (logscale && !(range[0] > 0))
        return eval_fail(ev, o->from->span, "a log axis starts above 0; `%s linear` "
                         "draws from %g", eval_spelling(ev, o->what.name), range[0]);
    return true;
}

/* `x log` or `y linear`: true, with *logscale set; or false (reported). */
static bool option_scale(Eval *ev, const PlotOption *o, bool *logscale)
{
    const char *word = o->scale->kind == NODE_NAME ? eval_spelling(ev, o->scale->as.name) : "";
    if (strcmp(word, "log") != 0 && strcmp(word, "linear") != 0)
        return eval_fail(ev, o->scale->span, "an axis is `log` or `linear`, or takes a range "
                         "`LOW .. HIGH`");
    *logscale = strcmp(word, "log") == 0;
    return true;
}

/* What an option sets: a title, an axis's scale or its range. */
static const char *option_sets(const PlotOption *o)
{
    return o->text ? "text" : o->scale ? "scale" : "range";
}

/* An option given twice (`x log ... x linear`) would have the last one win unseen:
 * refused, at the second. */
static bool options_once(Eval *ev, const AstList *options)
{
    for (int i = 0; options && i < options->n; i++)
        for (int j = 0; j < i; j++) {
            const PlotOption *a = options->items[j], *b = options->items[i];
            if (a->what.name == b->what.name && strcmp(option_sets(a), option_sets(b)) == 0)
                return eval_fail(ev, b->span, "`%s` already has its %s in this chart's "
                                 "options; give it once", eval_spelling(ev, b->what.name),
                                 option_sets(b));
        }
    return true;
}

/* The options after `plot`, applied to the chart in order: `title "..."`, `x log`,
 * `y linear`, `x 1 .. 1024`, each once. A range is checked against the scale. */
static bool apply_options(Eval *ev, const AstList *options, Plot *p)
{
    if (!options_once(ev, options))
        return false;
    for (int i = 0; options && i < options->n; i++) {
        const PlotOption *o = options->items[i];
        const char *what = eval_spelling(ev, o->what.name);
        bool is_x = strcmp(what, "x") == 0, is_y = strcmp(what, "y") == 0;
        if (strcmp(what, "title") == 0 && o->text)
            p->title = o->text;
        else if (!is_x && !is_y)
            return eval_fail(ev, o->span, "a chart's options are `title \"...\"`, `x` or `y` "
                             "with `log`, `linear` or a range `LOW .. HIGH`");
        else if (o->text)
            return eval_fail(ev, o->span, "`%s` takes `log`, `linear` or `LOW .. HIGH`; a "
                             "string is for `title`", what);
        else if (o->scale && !option_scale(ev, o, is_x ? &p->logx : &p->logy))
            return false;
    }
    for (int i = 0; options && i < options->n; i++) { /* ranges after the scales */
        const PlotOption *o = options->items[i];
        bool is_x = strcmp(eval_spelling(ev, o->what.name), "x") == 0;
        if (o->from && !option_range(ev, o, is_x ? p->logx : p->logy,
                                     is_x ? p->xrange : p->yrange))
            return false;
        if (o->from)
            *(is_x ? &p->xset : &p->yset) = true;
    }
    return true;
}

/* A chart in the terminal, or into an SVG file. */
static bool draw(Eval *ev, const Plot *p, const char *path, Span span)
{
    if (!path) {
        int columns, rows;
        terminal_size(&columns, &rows);
        bool ok = plot_text(ev->out, p, columns, rows, 0, terminal_colour(ev)); /* false: out
                                                                                 * of memory */
        fputc('\n', ev->out);
        return ok || eval_oom(ev, span);
    }
    OutFile file; /* the old chart stays whole unless the new one is */
    if (!outfile_open(&file, path) || !outfile_close(&file, plot_svg(file.f, p, 900, 560)))
        return eval_fail(ev, span, "cannot write %s: %s", path, strerror(errno));
    if (!ev->json)
        records_chart_written(ev->out, path, p->title);
    return true;
}

enum { SWEEP_MAX_SERIES = 64 };

bool explore_sweep_chart_begin(Eval *ev, const Stmt *sweep, bool logx, SweepChart *c)
{
    const char *dim = eval_spelling(ev, sweep->as.sweep.dim.name);
    snprintf(c->title, sizeof c->title, "attained FLOP/s against %s", dim);
    c->plot = (Plot){.title = c->title, .xlabel = dim, .ylabel = "attained FLOP/s",
                     .logx = logx};
    return apply_options(ev, sweep->as.sweep.plot_options, &c->plot);
}

bool explore_sweep_chart_draw(Eval *ev, const Stmt *sweep, SweepChart *c, const PlotSeries *series,
                      int n)
{
    /* With --json or --csv stdout stays data: a chart goes only to a file. */
    if (ev->json && !sweep->as.sweep.plot_path)
        return true;
    c->plot.series = series;
    c->plot.nseries = n < SWEEP_MAX_SERIES ? n : SWEEP_MAX_SERIES;
    return draw(ev, &c->plot, sweep->as.sweep.plot_path, sweep->as.sweep.plot_span);
}

/* Attained FLOP/s against the dim: one series per curve. */
static bool draw_chart(Eval *ev, const Stmt *s, SweepChart *chart, const Curve *curves, int n)
{
    PlotSeries series[SWEEP_MAX_SERIES];
    for (int i = 0; i < n && i < SWEEP_MAX_SERIES; i++)
        series[i] = (PlotSeries){.label = curves[i].label, .n = curves[i].chart.n,
                                 .thin = &curves[i].chart};
    return explore_sweep_chart_draw(ev, s, chart, series, n);
}

static void free_curves(Curve *curves, int n)
{
    for (int i = 0; i < n; i++) {
        eval_costed_free(&curves[i].costed);
        along_free(&curves[i].along);
        plot_thin_free(&curves[i].chart);
    }
    free(curves);
}

static bool scan_points(Eval *ev, const Stmt *s, int dim, const Points *pts);

static bool run_sweep(Eval *ev, const Stmt *s, int dim, const Points *pts)
{
    const AstList *body = s->as.sweep.body;
    int n = 0, total = body ? body->n : 0;
    Curve *curves = calloc((size_t)total + 1, sizeof *curves);
    bool ok = curves != NULL || eval_oom(ev, s->span);
    if (ok && total == 0)
        ok = eval_fail(ev, s->span, "a sweep needs at least one statement in its { }");
    long long rows = (long long)pts->n * total;
    if (ok && (ev->json || !s->as.sweep.plot) && rows > LIMIT_SWEEP_ROWS)
        ok = eval_fail(ev, s->as.sweep.range.span, "a sweep prints at most %d rows (points × "
                       "statements), not %lld; with `plot` and no --csv or --json it draws "
                       "up to %d points", LIMIT_SWEEP_ROWS, rows, LIMIT_SWEEP_POINTS);
    for (; ok && n < total; n++)
        ok = cost_curve(ev, body->items[n], dim, &curves[n]);
    if (!ok)
        n--;
    bool mixed = false;
    for (int i = 0; ok && i < n; i++)
        mixed = mixed || split_mixed(&curves[i].costed.uses, dim);
    if (mixed) {
        free_curves(curves, n);
        return scan_points(ev, s, dim, pts);
    }
    SweepChart chart;
    if (ok && s->as.sweep.plot)
        ok = explore_sweep_chart_begin(ev, s, pts->log, &chart);
    for (int i = 0; ok && i < n; i++)
        ok = check_points(ev, &curves[i], dim, pts);
    Progress progress;
    eval_progress_begin(ev, &progress, "sweep", "points", (double)pts->n * n);
    for (int i = 0; ok && i < n; i++)
        ok = run_curve(ev, &curves[i], dim, pts, s->as.sweep.plot, &progress);
    eval_progress_end(ev, &progress);
    if (ok && s->as.sweep.plot)
        ok = draw_chart(ev, s, &chart, curves, n);
    if (curves)
        free_curves(curves, n > 0 ? n : 0);
    return ok;
}

/* Whether a statement of the sweep needs each point costed whole (scan.h). */
static bool sweep_scans(Eval *ev, const Stmt *s)
{
    for (int i = 0; s->as.sweep.body && i < s->as.sweep.body->n; i++)
        if (scan_wanted(ev, s->as.sweep.body->items[i]))
            return true;
    return false;
}

/* The sweep costed whole at each point: its points as one array. */
static bool scan_points(Eval *ev, const Stmt *s, int dim, const Points *pts)
{
    long long rows = (long long)pts->n * s->as.sweep.body->n;
    if (rows > LIMIT_SWEEP_ROWS)
        return eval_fail(ev, s->as.sweep.range.span, "a sweep prints at most %d rows (points × "
                         "statements), not %lld", LIMIT_SWEEP_ROWS, rows);
    BoundValue *x = malloc(sizeof *x * (size_t)(pts->n + 1));
    if (!x)
        return eval_oom(ev, s->span);
    for (int i = 0; i < pts->n; i++)
        x[i] = (BoundValue){.kind = VAL_NUMBER, .number = point_at(pts, i)};
    bool ok = scan_sweep(ev, s, dim, x, pts->n, pts->log);
    free(x);
    return ok;
}

/* A sweep over chips, `sweep c in [v5e, v5p, H100] { ... on c }`: a list of chip
 * names. The points as chips, or *n = 0 when the list is not one. */
static bool chip_points(Eval *ev, const RangeSpec *r, BoundValue **out, int *n)
{
    *n = 0;
    const AstList *list = r->list;
    int chips = 0, other = -1;
    for (int i = 0; list && i < list->n; i++) {
        const Node *item = list->items[i];
        if (item->kind == NODE_NAME && chip_find(&ev->world->chips, eval_spelling(ev, item->as.name)))
            chips++;
        else if (other < 0)
            other = i;
    }
    if (chips && other >= 0)
        return eval_fail(ev, ((const Node *)list->items[other])->span, "a sweep's list holds "
                         "numbers or chips, not both: this is not a chip");
    if (!chips)
        return true;
    if (!list || !(*out = malloc(sizeof **out * (size_t)list->n)))
        return !list || eval_oom(ev, r->span);
    for (int i = 0; i < list->n; i++) {
        const Node *item = list->items[i];
        (*out)[i] = (BoundValue){.kind = VAL_CHIP,
                            .chip = chip_find(&ev->world->chips, eval_spelling(ev, item->as.name))};
    }
    *n = list->n;
    return true;
}

/* Each chip of the list costed whole: the statements name it with `on` and the sweep's
 * name. */
static bool sweep_chips(Eval *ev, const Stmt *s, int dim, const BoundValue *chips, int n)
{
    BoundValue saved;
    if (!free_dim(ev, dim, s->as.sweep.dim.span, &saved))
        return false;
    bool ok = scan_sweep(ev, s, dim, chips, n, false);
    world_restore(ev->world, dim, saved);
    return ok;
}

bool explore_sweep(Eval *ev, const Stmt *s)
{
    int dim = s->as.sweep.dim.name;
    Points pts;
    BoundValue saved, *chips = NULL;
    int nchips;
    if (!chip_points(ev, &s->as.sweep.range, &chips, &nchips))
        return false;
    if (nchips) {
        bool done = sweep_chips(ev, s, dim, chips, nchips);
        free(chips);
        return done;
    }
    bool ok = sweep_points(ev, &s->as.sweep.range, &pts);
    if (ok && (ok = free_dim(ev, dim, s->as.sweep.dim.span, &saved))) {
        ok = sweep_scans(ev, s) ? scan_points(ev, s, dim, &pts) : run_sweep(ev, s, dim, &pts);
        world_restore(ev->world, dim, saved);
    }
    free(pts.values);
    return ok;
}

/* ---- plot: the roofline chart of the statements costed so far ---------------------- */

enum { CHART_MAX_ROOFS = 48, LABEL_MAX = 160 };

typedef struct {
    PlotRoof roofs[CHART_MAX_ROOFS];
    char labels[CHART_MAX_ROOFS][LABEL_MAX];
    int n, groups;
    const char *group_chip[CHART_MAX_ROOFS]; /* the chart points' names */
} Roofs;

static bool has_roof(const Roofs *r, int group, double peak, double bandwidth)
{
    for (int i = 0; i < r->n; i++)
        if (r->roofs[i].group == group && r->roofs[i].peak == peak &&
            r->roofs[i].bandwidth == bandwidth)
            return true;
    return false;
}

static void add_roof(Roofs *r, int group, const char *chip, const char *what, double peak,
                     double bandwidth)
{
    char value[32];
    if (r->n == CHART_MAX_ROOFS || has_roof(r, group, peak, bandwidth))
        return;
    num_format_unit(peak ? peak : bandwidth, peak ? UNIT_RATE : UNIT_BW, 0, value, sizeof value);
    snprintf(r->labels[r->n], LABEL_MAX, "%s %s %s", chip, what, value);
    r->roofs[r->n] = (PlotRoof){r->labels[r->n], peak, bandwidth, group};
    r->n++;
}

/* One group per chip: a roof per dtype peak used, the HBM and the network slopes. */
static int chip_group(Roofs *r, const char *chip)
{
    for (int g = 0; g < r->groups; g++)
        if (strcmp(r->group_chip[g], chip) == 0)
            return g;
    r->group_chip[r->groups] = chip;
    return r->groups < CHART_MAX_ROOFS - 1 ? r->groups++ : r->groups;
}

static void chart_roofs(const World *w, Roofs *r)
{
    r->n = r->groups = 0;
    for (int i = 0; i < w->nchart; i++) {
        const ChartPoint *p = &w->chart[i];
        int g = chip_group(r, p->chip);
        char peak[32];
        snprintf(peak, sizeof peak, "%s peak", dtype_name(p->compute));
        add_roof(r, g, p->chip, peak, p->peak, 0);
        add_roof(r, g, p->chip, "HBM", 0, p->hbm_bw);
        if (p->link_bw)
            add_roof(r, g, p->chip, "network link", 0, p->link_bw);
    }
}

bool explore_plot(Eval *ev, const Stmt *s)
{
    const World *w = ev->world;
    if (w->nchart == 0)
        return eval_fail(ev, s->span, "nothing to plot yet: a statement costed on a chip, with its "
                         "dims bound, puts a point on the chart");
    /* A chart in the terminal is text: with --json or --csv only a file gets one. */
    if (ev->json && !s->as.sweep.plot_path)
        return true;
    PlotPoint *points = malloc(sizeof *points * (size_t)w->nchart);
    Roofs *roofs = malloc(sizeof *roofs);
    if (!points || !roofs) {
        free(points);
        free(roofs);
        return eval_oom(ev, s->span);
    }
    double total = 0;
    bool vs_network = false;
    for (int i = 0; i < w->nchart; i++) {
        total += w->chart[i].t_lower;
        vs_network = vs_network || w->chart[i].vs_network;
    }
    for (int i = 0; i < w->nchart; i++)
        points[i] = (PlotPoint){.label = w->chart[i].label, .x = w->chart[i].x,
                                .y = w->chart[i].attained,
                                .weight = total > 0 ? w->chart[i].t_lower / total : 0};
    chart_roofs(w, roofs);
    Plot p = {.title = "roofline: attained FLOP/s against intensity",
              .xlabel = vs_network ? "arithmetic intensity (FLOP/byte of HBM, of network when "
                                     "comm-bound)"
                                   : "arithmetic intensity (FLOP/byte)",
              .ylabel = "attained FLOP/s",
              .logx = true, .logy = true, .roofs = roofs->roofs, .nroofs = roofs->n,
              .points = points, .npoints = w->nchart};
    bool ok = apply_options(ev, s->as.sweep.plot_options, &p) &&
              draw(ev, &p, s->as.sweep.plot_path, s->as.sweep.plot_span);
    free(points);
    free(roofs);
    return ok;
}

/* ---- fit: the largest value of a dim whose memory fits the chip's HBM ------------- */

/* The largest value fit tries (2^41): memory that fits there "fits for every B up to"
 * it, or does not grow. */
static const double FIT_LIMIT = 0x1p41;

/* What a chip holds for the statement with the dim at x: 1, or 0 when that is not a
 * number (reported here), or -1 after an error (reported). */
static int memory_of(Eval *ev, const Stmt *s, int dim, double x, double *memory)
{
    Op *root = op_new("fit");
    ev->world->values[dim] = (BoundValue){.kind = VAL_NUMBER, .number = x};
    int result = root && eval_quietly(ev, s, root) ? 1 : -1;
    ev->world->values[dim] = (BoundValue){.kind = VAL_UNBOUND};
    if (result == 1) {
        op_total(root);
        /* A statement alone needs what its report's memory row counts, its operands
         * and result; a call or a repeat, what a block holds (params, cache, ...). */
        bool alone = root->nchildren == 1 && root->children[0]->leaf;
        *memory = alone ? root->children[0]->held : op_block_memory(root, ev->world->training);
        if (!root->known)
            result = eval_fail(ev, s->span, "its memory is not a number with %s set (every other "
                               "dim must be bound)", eval_spelling(ev, dim)) ? 1 : 0;
    }
    op_free(root);
    return result;
}

/* What a chip holds for all n statements together (a model and its draft). */
static int memory_at(Eval *ev, const Stmt *const *s, int n, int dim, double x, double *memory)
{
    *memory = 0;
    for (int i = 0; i < n; i++) {
        double m;
        int result = memory_of(ev, s[i], dim, x, &m);
        if (result != 1)
            return result;
        *memory += m;
    }
    return 1;
}

static void fit_report(Eval *ev, const Stmt *s, int dim, double best, double m_best,
                       double m_next, double hbm)
{
    FitRecord r = {
        .stmt = records_stmt(ev->src, s->span), .dim = eval_spelling(ev, dim),
        .mode = ev->world->training, .largest = best, .memory = m_best, .hbm = hbm,
        .next_memory = m_next,
    };
    records_fit(ev->out, &r, ev->json);
}

/* No value up to x fits too much: the memory does not grow with the dim, or the HBM is
 * larger than anything the dim reaches. */
static bool fits_always(Eval *ev, const Stmt *const *stmts, int n, int dim, double x,
                        double m_x, double m_1, double hbm)
{
    char held[32], cap[32], at[32];
    const Stmt *s = stmts[0];
    /* Equal figures are not enough: growth below a double's precision rounds away
     * (2·B·(K + F) beside 2·K·F = 2e59), so the statements must not name the dim. */
    bool named = false;
    for (int i = 0; i < n; i++)
        named = named || ast_expr_mentions_dim(stmts[i]->as.expr.value, dim);
    if (m_x <= m_1 && !named)
        return eval_fail(ev, s->span, "it fits for every %s: its memory does not grow with %s",
                         eval_spelling(ev, dim), eval_spelling(ev, dim));
    return eval_fail(ev, s->span, "it fits for every %s up to %s, where a chip holds %s of %s",
                     eval_spelling(ev, dim), num_format_plain(x, at, sizeof at),
                     num_format_unit(m_x, UNIT_BYTES, 0, held, sizeof held),
                     num_format_unit(hbm, UNIT_BYTES, 0, cap, sizeof cap));
}

/* The value of the dim fit tries after x fitted, on its `tries`th fit: memory most often
 * grows by the same bytes per step (weights, plus caches and activations per sequence),
 * so after x = 2 the line through 1 and 2 predicts the answer; after the prediction, one
 * past it; when that fits as well (memory grew slower than the line), doubling. */
static double fit_next(double x, int tries, double predicted)
{
    if (tries == 1 && predicted > x)
        return predicted;
    if (tries <= 2)
        return x + 1;
    return fmin(2 * x, FIT_LIMIT);
}

/* The largest x at which m_1 + (x - 1) · (m_2 - m_1) fits hbm; FIT_LIMIT when the memory
 * does not grow. */
static double fit_predicted(double m_1, double m_2, double hbm)
{
    double step = m_2 - m_1;
    if (!(step > 0))
        return FIT_LIMIT;
    return fmin(1 + floor((hbm - m_1) / step), FIT_LIMIT);
}

/* Tries values until one does not fit (fit_next: an affine memory takes four costings),
 * then bisection on whole numbers between the last that fitted and it. Memory is taken
 * to grow with the dim; one that still fits at FIT_LIMIT fits always. */
bool explore_fit_largest(Eval *ev, const Stmt *const *stmts, int n, int dim, double hbm, FitResult *out)
{
    const Stmt *s = stmts[0];
    double lo = 1, hi = 2, m_lo, m_hi = 0, m, predicted = FIT_LIMIT;
    if (memory_at(ev, stmts, n, dim, lo, &m_lo) != 1)
        return false;
    double first = m_lo;
    if (m_lo > hbm)
        return eval_fail(ev, s->span, "even %s = 1 does not fit: %.4g GB of %.4g GB per chip",
                         eval_spelling(ev, dim), m_lo / 1e9, hbm / 1e9);
    int got;
    for (int tries = 1; (got = memory_at(ev, stmts, n, dim, hi, &m_hi)) == 1 && m_hi <= hbm;
         tries++) {
        if (hi >= FIT_LIMIT)
            return fits_always(ev, stmts, n, dim, hi, m_hi, first, hbm);
        if (tries == 1)
            predicted = fit_predicted(m_lo, m_hi, hbm);
        lo = hi;
        m_lo = m_hi;
        hi = fit_next(lo, tries, predicted);
    }
    if (got != 1)
        return false;
    while (hi - lo > 1) {
        double mid = floor(lo + (hi - lo) / 2);
        if (memory_at(ev, stmts, n, dim, mid, &m) != 1)
            return false;
        if (m <= hbm)
            lo = mid, m_lo = m;
        else
            hi = mid, m_hi = m;
    }
    *out = (FitResult){lo, m_lo, m_hi};
    return true;
}

bool explore_fit(Eval *ev, const Stmt *s)
{
    int dim = s->as.expr.target.name;
    const Chip *chip = eval_chip_of(ev, s);
    if (!chip || !chip->set[CHIP_HBM_BYTES])
        return eval_fail(ev, s->span, "fit needs a chip with an HBM capacity (hbm_bytes): add `on "
                         "v5e` or `use v5e`");
    BoundValue saved;
    if (!free_dim(ev, dim, s->as.expr.target.span, &saved))
        return false;
    FitResult fit;
    const Stmt *one[1] = {s};
    bool ok = explore_fit_largest(ev, one, 1, dim, chip->value[CHIP_HBM_BYTES], &fit);
    if (ok)
        fit_report(ev, s, dim, fit.largest, fit.memory, fit.next_memory,
                   chip->value[CHIP_HBM_BYTES]);
    world_restore(ev->world, dim, saved);
    return ok;
}
