/* poly.c — symbolic costs: the algebra of polynomials in the dims, substitution of
 * bound dims, ratios in lowest terms, and printing them the way the book writes them.
 *
 * A term holds at most POLY_MAX_VARS symbols and int exponents. A result that would
 * need more is not representable: the operation returns NULL (poly_ratio returns
 * false), exactly as when memory runs out, and callers report it as an error; an
 * allocation that failed is noted in nomem.h, which tells the two apart.
 */
#include "poly.h"

#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "nomem.h"
#include "num.h"

typedef struct {
    int sym;
    int exp; /* never 0: a symbol raised to 0 is removed */
} Factor;

typedef struct {
    double coef;
    int nvars;
    Factor vars[POLY_MAX_VARS]; /* sorted by sym */
} Term;

/* Terms have distinct monomials, in the order each first appeared; none has a
 * coefficient of 0 once an operation returns. The first terms live in the same block
 * as the Poly (one allocation, not two: polynomials are made and freed by the
 * million in a search); terms points there until they outgrow it. */
struct Poly {
    Term *terms;
    size_t n, cap;
    Term first[];
};

/* ---- Building ------------------------------------------------------------- */

/* Freed one-term polynomials, kept for the next (most are one term: a dim, a product
 * of dims): a search makes and frees millions, and malloc's free of a block this size
 * is slow. At most SPARE_MAX; the rest go back to free. Single-threaded, as all of
 * roofline is. `make faults` builds with none, so a leak is blamed on its own
 * allocation, not on the one that first made the block. */
#ifndef POLY_SPARE_MAX
#define POLY_SPARE_MAX 4096
#endif
enum { SPARE_MAX = POLY_SPARE_MAX };
static Poly *spare[SPARE_MAX > 0 ? SPARE_MAX : 1];
static int nspare;

static Poly *poly_alloc(size_t cap)
{
    cap = cap > 0 ? cap : 1;
    if (cap > (SIZE_MAX - sizeof(Poly)) / sizeof(Term))
        return NULL;
    Poly *p = cap == 1 && nspare > 0 ? spare[--nspare]
                                     : nomem_note(malloc(sizeof *p + cap * sizeof(Term)));
    if (!p)
        return NULL;
    p->n = 0;
    p->cap = cap;
    p->terms = p->first;
    return p;
}

static bool append(Poly *p, const Term *t)
{
    if (p->n == p->cap) {
        if (p->cap > SIZE_MAX / 2 / sizeof *p->terms)
            return false;
        bool inside = p->terms == p->first;
        Term *grown = nomem_note(inside ? malloc(2 * p->cap * sizeof *grown)
                                        : realloc(p->terms, 2 * p->cap * sizeof *grown));
        if (!grown)
            return false;
        if (inside)
            memcpy(grown, p->first, p->n * sizeof *grown);
        p->terms = grown;
        p->cap *= 2;
    }
    p->terms[p->n++] = *t;
    return true;
}

static bool same_monomial(const Term *a, const Term *b)
{
    if (a->nvars != b->nvars)
        return false;
    for (int i = 0; i < a->nvars; i++)
        if (a->vars[i].sym != b->vars[i].sym || a->vars[i].exp != b->vars[i].exp)
            return false;
    return true;
}

/* Adds t into p, merging like terms. A sum that cancels stays until finish(), so a
 * monomial that cancels and comes back keeps the place where it first appeared. */
static bool push(Poly *p, const Term *t)
{
    for (size_t i = 0; i < p->n; i++)
        if (same_monomial(&p->terms[i], t)) {
            p->terms[i].coef += t->coef;
            return true;
        }
    return append(p, t);
}

/* Every builder ends here: on failure (or a NULL p) it frees p and returns NULL,
 * otherwise it drops the terms whose coefficient is exactly 0. */
static Poly *finish(Poly *p, bool ok)
{
    if (!p || !ok) {
        poly_free(p);
        return NULL;
    }
    size_t kept = 0;
    for (size_t i = 0; i < p->n; i++)
        if (p->terms[i].coef != 0 && kept++ != i)
            p->terms[kept - 1] = p->terms[i];
    p->n = kept;
    return p;
}

/* coef, times `factor` when given: one term written in place, not a whole Term built and
 * copied (one-term polynomials are made by the million in a search, and a Term is mostly
 * room for factors). A coefficient of 0 leaves no term, as finish() would. */
static Poly *single(double coef, const Factor *factor)
{
    Poly *p = poly_alloc(1);
    if (!p)
        return NULL;
    Term *t = &p->terms[0];
    t->coef = coef;
    t->nvars = factor != NULL;
    if (factor)
        t->vars[0] = *factor;
    p->n = coef != 0;
    return p;
}

Poly *poly_const(double c) { return single(c, NULL); }

Poly *poly_sym(int sym) { return single(1, &(Factor){sym, 1}); }

Poly *poly_copy(const Poly *p)
{
    Poly *r = poly_alloc(p->n);
    if (!r)
        return NULL;
    memcpy(r->terms, p->terms, p->n * sizeof *p->terms);
    r->n = p->n;
    return r;
}

void poly_free(Poly *p)
{
    if (!p)
        return;
    if (p->terms != p->first)
        free(p->terms);
    else if (p->cap == 1 && nspare < SPARE_MAX) {
        spare[nspare++] = p;
        return;
    }
    free(p);
}

/* ---- Monomials ------------------------------------------------------------ */

typedef enum { EXP_ADD, EXP_SUB, EXP_MIN } ExpOp;

static long long exp_apply(ExpOp op, long long a, long long b)
{
    switch (op) {
    case EXP_ADD: return a + b;
    case EXP_SUB: return a - b;
    case EXP_MIN: return a < b ? a : b;
    }
    return 0;
}

static bool put_factor(Term *t, int sym, long long exp)
{
    if (exp == 0)
        return true;
    if (exp < INT_MIN || exp > INT_MAX || t->nvars == POLY_MAX_VARS)
        return false;
    t->vars[t->nvars++] = (Factor){sym, (int)exp};
    return true;
}

/* out's monomial is a op b symbol by symbol, a missing symbol counting as exponent 0:
 * ADD multiplies, SUB divides, MIN gives the common factor. out must not alias a or b.
 * False when the result does not fit a Term. Inlined, so each caller's op is a
 * constant and the merge a tight loop (a search multiplies dims by the million). */
static inline __attribute__((always_inline)) bool merge_exps(const Term *a, const Term *b,
                                                            ExpOp op, Term *out)
{
    int i = 0, j = 0;
    out->nvars = 0;
    while (i < a->nvars || j < b->nvars) {
        long long ea = 0, eb = 0;
        int sym;
        if (j == b->nvars || (i < a->nvars && a->vars[i].sym < b->vars[j].sym)) {
            sym = a->vars[i].sym;
            ea = a->vars[i++].exp;
        } else if (i == a->nvars || b->vars[j].sym < a->vars[i].sym) {
            sym = b->vars[j].sym;
            eb = b->vars[j++].exp;
        } else {
            sym = a->vars[i].sym;
            ea = a->vars[i++].exp;
            eb = b->vars[j++].exp;
        }
        if (!put_factor(out, sym, exp_apply(op, ea, eb)))
            return false;
    }
    return true;
}

/* ---- Algebra -------------------------------------------------------------- */

static Poly *add_scaled(const Poly *a, const Poly *b, double k)
{
    Poly *r = poly_copy(a);
    bool ok = r != NULL;
    for (size_t i = 0; ok && i < b->n; i++) {
        Term t = b->terms[i];
        t.coef *= k;
        ok = push(r, &t);
    }
    return finish(r, ok);
}

Poly *poly_add(const Poly *a, const Poly *b) { return add_scaled(a, b, 1); }

Poly *poly_sub(const Poly *a, const Poly *b) { return add_scaled(a, b, -1); }

Poly *poly_mul(const Poly *a, const Poly *b)
{
    Poly *r = poly_alloc(a->n);
    bool ok = r != NULL;
    for (size_t i = 0; ok && i < a->n; i++)
        for (size_t j = 0; ok && j < b->n; j++) {
            Term t;
            t.coef = a->terms[i].coef * b->terms[j].coef;
            ok = merge_exps(&a->terms[i], &b->terms[j], EXP_ADD, &t) && push(r, &t);
        }
    return finish(r, ok);
}

/* into × p by a monomial p, in place: it maps distinct monomials to distinct ones,
 * so nothing merges (a running product of dims allocates nothing). */
static Poly *mul_term_into(Poly *into, const Term *d)
{
    for (size_t i = 0; i < into->n; i++) {
        Term *x = &into->terms[i], t;
        const Term *factors = x->nvars == 0 ? d : x; /* merging with none copies the other */
        if (x->nvars > 0 && d->nvars > 0) {
            if (!merge_exps(x, d, EXP_ADD, &t)) {
                poly_free(into);
                return NULL;
            }
            factors = &t;
        }
        if (factors != x) {
            memcpy(x->vars, factors->vars, sizeof *x->vars * (size_t)factors->nvars);
            x->nvars = factors->nvars;
        }
        x->coef *= d->coef;
    }
    return finish(into, true);
}

Poly *poly_mul_into(Poly *into, const Poly *p)
{
    if (into && p && p->n == 1)
        return mul_term_into(into, &p->terms[0]);
    Poly *r = into && p ? poly_mul(into, p) : NULL;
    poly_free(into);
    return r;
}

Poly *poly_scale_into(Poly *p, double k)
{
    for (size_t i = 0; p && i < p->n; i++)
        p->terms[i].coef *= k;
    return finish(p, p != NULL);
}

Poly *poly_scale(const Poly *a, double k)
{
    Poly *r = poly_copy(a);
    for (size_t i = 0; r && i < r->n; i++)
        r->terms[i].coef *= k;
    return finish(r, true);
}

/* Dividing by a monomial maps distinct monomials to distinct ones: nothing to merge. */
static Poly *div_by_term(const Poly *a, const Term *d)
{
    Poly *r = poly_alloc(a->n);
    bool ok = r != NULL;
    for (size_t i = 0; ok && i < a->n; i++) {
        Term q;
        q.coef = a->terms[i].coef / d->coef;
        ok = merge_exps(&a->terms[i], d, EXP_SUB, &q) && append(r, &q);
    }
    return finish(r, ok);
}

Poly *poly_div(const Poly *a, const Poly *b)
{
    return b->n == 1 ? div_by_term(a, &b->terms[0]) : NULL;
}

/* The bound symbols of t folded into its coefficient; fewer symbols always fit. */
/* v^e, exactly as pow() gives it: the common exponents without the call (a single
 * correctly rounded operation each, so the same bits). */
static double power(double v, int e)
{
    switch (e) {
    case 1:
        return v;
    case 2:
        return v * v;
    case -1:
        return 1 / v;
    default:
        return pow(v, e);
    }
}

static Term subst_term(const Term *t, PolyLookup lookup, void *ctx)
{
    Term r; /* only the first nvars factors are ever read: no need to clear the rest */
    r.coef = t->coef;
    r.nvars = 0;
    for (int i = 0; i < t->nvars; i++) {
        double v;
        if (lookup(t->vars[i].sym, &v, ctx))
            r.coef *= power(v, t->vars[i].exp);
        else
            r.vars[r.nvars++] = t->vars[i];
    }
    return r;
}

/* t with every symbol put in, multiplied as subst_term multiplies them; false when a
 * symbol is unbound. Inlined: a search's every figure comes through here. */
static inline __attribute__((always_inline)) bool term_value(const Term *t, PolyLookup lookup,
                                                             void *ctx, double *out)
{
    double coef = t->coef;
    for (int i = 0; i < t->nvars; i++) {
        double v;
        if (!lookup(t->vars[i].sym, &v, ctx))
            return false;
        coef *= power(v, t->vars[i].exp);
    }
    *out = coef;
    return true;
}

/* p's value when every symbol is bound. poly_subst's terms then all have the empty
 * monomial, so push() adds each coefficient into the first in order and finish() drops
 * the sum when it is exactly 0: the same additions give the same bits, and a sum of
 * ±0 reads as the empty sum's +0. */
static bool all_bound_value(const Poly *p, PolyLookup lookup, void *ctx, double *out)
{
    double sum = 0;
    for (size_t i = 0; i < p->n; i++) {
        double coef;
        if (!term_value(&p->terms[i], lookup, ctx, &coef))
            return false;
        sum = i == 0 ? coef : sum + coef;
    }
    *out = sum == 0 ? 0 : sum;
    return true;
}

/* Term by term: the algebra, for when some symbol is unbound. */
static Poly *subst_terms(const Poly *p, PolyLookup lookup, void *ctx)
{
    Poly *r = poly_alloc(p->n);
    bool ok = r != NULL;
    for (size_t i = 0; ok && i < p->n; i++) {
        Term t = subst_term(&p->terms[i], lookup, ctx);
        ok = push(r, &t);
    }
    return finish(r, ok);
}

Poly *poly_subst(const Poly *p, PolyLookup lookup, void *ctx)
{
    double value;
    if (all_bound_value(p, lookup, ctx, &value))
        return poly_const(value); /* the one term subst_terms leaves, or none */
    return subst_terms(p, lookup, ctx);
}

bool poly_value(const Poly *p, PolyLookup lookup, void *ctx, double *out)
{
    if (all_bound_value(p, lookup, ctx, out))
        return true;
    /* Unbound symbols can still cancel (B·x - D·x with B = D): ask the algebra. */
    Poly *now = subst_terms(p, lookup, ctx);
    bool known = now && poly_is_const(now, out);
    poly_free(now);
    return known;
}

/* The running product of poly_mul_into from poly_const(1), each factor one term, as
 * mul_term_into leaves it, in one of the two terms of `room`: NULL when a factor is not
 * one term, the product has no room, or its coefficient comes to exactly 0 (finish()
 * would drop the term). */
static Term *product_term(const Poly *const *factors, int n, Term room[2])
{
    Term *into = &room[0];
    into->coef = 1;
    into->nvars = 0;
    for (int i = 0; i < n; i++) {
        if (factors[i]->n != 1)
            return NULL;
        const Term *d = &factors[i]->terms[0];
        if (into->nvars == 0) {
            memcpy(into->vars, d->vars, sizeof *d->vars * (size_t)d->nvars);
            into->nvars = d->nvars;
        } else if (d->nvars > 0) {
            Term *next = into == &room[0] ? &room[1] : &room[0];
            if (!merge_exps(into, d, EXP_ADD, next))
                return NULL;
            next->coef = into->coef;
            into = next;
        }
        into->coef *= d->coef;
        if (into->coef == 0)
            return NULL;
    }
    return into;
}

bool poly_product_value(const Poly *const *factors, int n, double k, double then,
                        PolyLookup lookup, void *ctx, double *out)
{
    Term room[2];
    Term *product = product_term(factors, n, room);
    if (!product)
        return false;
    product->coef *= k; /* poly_scale_into, twice */
    product->coef *= then;
    double value;
    if (product->coef == 0 || !term_value(product, lookup, ctx, &value))
        return false;
    *out = value == 0 ? 0 : value; /* as all_bound_value ends */
    return true;
}

/* ---- One symbol free: compiled for sweeps ---------------------------------------- */

/* A term of p with every symbol but one put in. poly_subst multiplies a term's factors
 * into its coefficient left to right, so here the factors before the free symbol fold
 * into `lead` and those after it stay as a list, multiplied in the same order: a point
 * of a sweep has the same bits as the statement with the dim bound to that value. */
typedef struct {
    double lead;
    int exp;        /* of the free symbol; 0 when the term lacks it */
    int tail, ntail; /* its factors after the free symbol, in PolyOne.tails */
} OneTerm;

struct PolyOne {
    int n;
    OneTerm *terms;
    double *tails;
};

void poly_one_free(PolyOne *p)
{
    if (!p)
        return;
    free(p->terms);
    free(p->tails);
    free(p);
}

static bool one_term(const Term *t, int sym, PolyLookup lookup, void *ctx, OneTerm *out,
                     double *tails, int *ntails)
{
    *out = (OneTerm){t->coef, 0, *ntails, 0};
    for (int k = 0; k < t->nvars; k++) {
        double v;
        if (t->vars[k].sym == sym) {
            out->exp = t->vars[k].exp;
            continue;
        }
        if (!lookup(t->vars[k].sym, &v, ctx))
            return false;
        if (out->exp == 0) {
            out->lead *= power(v, t->vars[k].exp);
        } else {
            tails[(*ntails)++] = power(v, t->vars[k].exp);
            out->ntail++;
        }
    }
    return true;
}

PolyOne *poly_one(const Poly *p, int sym, PolyLookup lookup, void *ctx)
{
    PolyOne *r = calloc(1, sizeof *r);
    size_t factors = 1;
    for (size_t i = 0; i < p->n; i++)
        factors += (size_t)p->terms[i].nvars;
    if (!r || !(r->terms = malloc((p->n + 1) * sizeof *r->terms)) ||
        !(r->tails = malloc(factors * sizeof *r->tails))) {
        poly_one_free(r);
        return NULL;
    }
    int ntails = 0;
    for (size_t i = 0; i < p->n; i++, r->n++)
        if (!one_term(&p->terms[i], sym, lookup, ctx, &r->terms[i], r->tails, &ntails)) {
            poly_one_free(r);
            return NULL;
        }
    return r;
}

/* out[j] += one term at x[j]: its lead times x^exp, then its tail factors in order. The
 * common shapes (x or a constant, at most two tail factors) in one pass. The first term
 * (`first`, a constant once inlined) adds to 0 rather than to out, which needs no
 * clearing first: 0 + term as the sum always began (-0 becomes +0 as before). */
static inline __attribute__((always_inline)) void add_term(const OneTerm *t,
                                                         const double *tail,
                                                         const double *restrict x,
                                                         double *restrict out, int n,
                                                         bool first)
{
    double lead = t->lead, a = t->ntail > 0 ? tail[0] : 1, b = t->ntail > 1 ? tail[1] : 1;
    if (t->exp == 0)
        for (int j = 0; j < n; j++)
            out[j] = (first ? 0 : out[j]) + lead;
    else if (t->exp == 1 && t->ntail == 0)
        for (int j = 0; j < n; j++)
            out[j] = (first ? 0 : out[j]) + lead * x[j];
    else if (t->exp == 1 && t->ntail == 1)
        for (int j = 0; j < n; j++)
            out[j] = (first ? 0 : out[j]) + lead * x[j] * a;
    else if (t->exp == 1 && t->ntail == 2)
        for (int j = 0; j < n; j++)
            out[j] = (first ? 0 : out[j]) + lead * x[j] * a * b;
    else
        for (int j = 0; j < n; j++) {
            double term = lead * power(x[j], t->exp);
            for (int k = 0; k < t->ntail; k++)
                term *= tail[k];
            out[j] = (first ? 0 : out[j]) + term;
        }
}

/* Term by term over the points: the same operations on each point as one evaluation
 * at a time (the sum starts from 0 and adds the terms in order), in loops the compiler
 * turns into vector instructions when n is the constant POLY_ONE_BLOCK (so it must be
 * inlined). */
static inline __attribute__((always_inline)) void each_point(const PolyOne *p,
                                                           const double *restrict x,
                                                           double *restrict out, int n)
{
    if (p->n == 0) {
        memset(out, 0, sizeof *out * (size_t)n);
        return;
    }
    add_term(&p->terms[0], p->tails + p->terms[0].tail, x, out, n, true);
    for (int i = 1; i < p->n; i++)
        add_term(&p->terms[i], p->tails + p->terms[i].tail, x, out, n, false);
}

void poly_one_each(const PolyOne *p, const double *restrict x, double *restrict out, int n)
{
    if (n == POLY_ONE_BLOCK)
        each_point(p, x, out, POLY_ONE_BLOCK);
    else
        each_point(p, x, out, n);
}

bool poly_one_linear(const PolyOne *p, double k[2], bool with_x[2])
{
    if (p->n > 2)
        return false;
    for (int i = 0; i < 2; i++) {
        const OneTerm *t = i < p->n ? &p->terms[i] : NULL;
        if (t && (t->exp > 1 || t->ntail > 0))
            return false;
        /* lead · 1 is lead to the bit (a nan stays the same nan), so a constant term
         * `out + lead` is out + lead · 1 */
        k[i] = t ? t->lead : 0;
        with_x[i] = t && t->exp == 1;
    }
    return true;
}

/* ---- Questions ------------------------------------------------------------ */

int poly_term_degree(const Poly *p, int i, int except)
{
    int degree = 0;
    for (int k = 0; k < p->terms[i].nvars; k++)
        if (p->terms[i].vars[k].sym != except)
            degree += p->terms[i].vars[k].exp;
    return degree;
}

int poly_symbols(const Poly *p, int *out, int max)
{
    int n = 0;
    for (size_t i = 0; i < p->n; i++)
        for (int k = 0; k < p->terms[i].nvars; k++) {
            int sym = p->terms[i].vars[k].sym, j = 0;
            while (j < n && out[j] != sym)
                j++;
            if (j == n && n < max)
                out[n++] = sym;
        }
    return n;
}

int poly_degree_in(const Poly *p, int sym)
{
    int degree = 0;
    for (size_t i = 0; i < p->n; i++)
        for (int k = 0; k < p->terms[i].nvars; k++)
            if (p->terms[i].vars[k].sym == sym && p->terms[i].vars[k].exp > degree)
                degree = p->terms[i].vars[k].exp;
    return degree;
}

/* Terms are distinct monomials, so at most one of them is a constant. */
bool poly_is_const(const Poly *p, double *value)
{
    if (p->n > 1 || (p->n == 1 && p->terms[0].nvars > 0))
        return false;
    if (value)
        *value = p->n == 1 ? p->terms[0].coef : 0;
    return true;
}

bool poly_is_zero(const Poly *p) { return p->n == 0; }

bool poly_equal(const Poly *a, const Poly *b)
{
    if (a->n != b->n)
        return false;
    for (size_t i = 0; i < a->n; i++) {
        size_t j = 0;
        while (j < b->n && !same_monomial(&a->terms[i], &b->terms[j]))
            j++;
        if (j == b->n || a->terms[i].coef != b->terms[j].coef)
            return false;
    }
    return true;
}

int poly_nterms(const Poly *p) { return p->n > INT_MAX ? INT_MAX : (int)p->n; }

Poly *poly_term(const Poly *p, int i, double *coef)
{
    Poly *m = poly_alloc(1);
    if (!m)
        return NULL;
    m->terms[0] = p->terms[i];
    m->terms[0].coef = 1;
    m->n = 1;
    *coef = p->terms[i].coef;
    return m;
}

int poly_single_symbol(const Poly *p)
{
    if (p->n != 1 || p->terms[0].nvars != 1 || p->terms[0].vars[0].exp != 1)
        return -1;
    return p->terms[0].vars[0].sym;
}

int poly_bare_symbol(const Poly *p)
{
    int sym = poly_single_symbol(p);
    return sym >= 0 && p->terms[0].coef == 1 ? sym : -1;
}

bool poly_has_nonfinite(const Poly *p)
{
    for (size_t i = 0; i < p->n; i++)
        if (!isfinite(p->terms[i].coef))
            return true;
    return false;
}

bool poly_needs_parens(const Poly *p)
{
    return p->n > 1 || (p->n == 1 && p->terms[0].coef < 0);
}

/* ---- Ratios --------------------------------------------------------------- */

/* Term i of the sequence a's terms then b's, so one loop covers a ratio's terms. */
static const Term *nth_term(const Poly *a, const Poly *b, size_t i)
{
    return i < a->n ? &a->terms[i] : &b->terms[i - a->n];
}

/* Each symbol at its least exponent over every term; that can be negative, so that
 * B/K / (D/K) clears K as well. Needs at least one term. */
static bool common_monomial(const Poly *a, const Poly *b, Term *out)
{
    *out = *nth_term(a, b, 0);
    out->coef = 1;
    for (size_t i = 1; i < a->n + b->n; i++) {
        Term least;
        if (!merge_exps(out, nth_term(a, b, i), EXP_MIN, &least))
            return false;
        least.coef = 1;
        *out = least;
    }
    return true;
}

/* The greatest common divisor of all coefficients when all are integers that double
 * holds exactly (up to 2^53), else 1. */
static double common_integer(const Poly *a, const Poly *b)
{
    double g = 0;
    for (size_t i = 0; i < a->n + b->n; i++) {
        double c = fabs(nth_term(a, b, i)->coef);
        if (!(c <= 0x1p53) || c != floor(c)) /* !(<=) also catches nan */
            return 1;
        g = num_gcd(g, c);
    }
    return g;
}

/* k divides every coefficient exactly, or is -1 or 1. */
static void divide_coefs(Poly *p, double k)
{
    for (size_t i = 0; i < p->n; i++)
        p->terms[i].coef /= k;
}

/* Takes ownership of num and den; false (freeing both) when either is NULL. */
static bool set_ratio(PolyRatio *out, Poly *num, Poly *den)
{
    if (!num || !den) {
        poly_free(num);
        poly_free(den);
        return false;
    }
    out->num = num;
    out->den = den;
    return true;
}

/* A single-term denominator is folded into the numerator: D/2 is a polynomial. */
static bool fold_single_term(PolyRatio *out, Poly *num, Poly *den)
{
    Poly *folded = div_by_term(num, &den->terms[0]);
    poly_free(num);
    poly_free(den);
    return set_ratio(out, folded, poly_const(1));
}

bool poly_ratio(const Poly *num, const Poly *den, PolyRatio *out)
{
    out->num = out->den = NULL;
    if (poly_is_zero(den))
        return false;
    if (poly_is_zero(num))
        return set_ratio(out, poly_const(0), poly_const(1));
    Term common;
    if (!common_monomial(num, den, &common))
        return false;
    Poly *n = div_by_term(num, &common), *d = div_by_term(den, &common);
    if (!n || !d)
        return set_ratio(out, n, d);
    if (d->n == 1)
        return fold_single_term(out, n, d);
    double k = common_integer(n, d);
    if (d->terms[0].coef < 0)
        k = -k;
    divide_coefs(n, k);
    divide_coefs(d, k);
    return set_ratio(out, n, d);
}

void poly_ratio_free(PolyRatio *r)
{
    poly_free(r->num);
    poly_free(r->den);
    r->num = r->den = NULL;
}

/* ---- Printing ------------------------------------------------------------- */

typedef struct {
    char *buf;
    size_t size, len; /* size >= 1 */
    bool cut;
    const char *times; /* "·" or "*" */
    PolyNamer namer;
    void *ctx;
} Printer;

static bool printer_start(Printer *pr, PolyStyle style, PolyNamer namer, void *ctx,
                          char *buf, size_t size)
{
    if (size == 0)
        return false;
    buf[0] = '\0';
    *pr = (Printer){buf, size, 0, false, style == POLY_STYLE_TEXT ? "\xc2\xb7" : "*",
                    namer, ctx};
    return true;
}

static void put(Printer *pr, const char *s)
{
    size_t n = strlen(s), room = pr->size - 1 - pr->len;
    if (pr->cut)
        return;
    if (n > room) {
        n = room;
        pr->cut = true;
    }
    memcpy(pr->buf + pr->len, s, n);
    pr->len += n;
    pr->buf[pr->len] = '\0';
}

/* Ends a cut text with "...", backing up to a UTF-8 boundary so no '·' is split. */
static char *printer_end(Printer *pr)
{
    if (!pr->cut)
        return pr->buf;
    size_t at = pr->len >= 3 ? pr->len - 3 : 0;
    while (at > 0 && ((unsigned char)pr->buf[at] & 0xC0) == 0x80)
        at--;
    size_t dots = pr->len - at < 3 ? pr->len - at : 3;
    memcpy(pr->buf + at, "...", dots);
    pr->buf[at + dots] = '\0';
    return pr->buf;
}

static void put_number(Printer *pr, double v)
{
    char text[64];
    put(pr, num_format_plain(v, text, sizeof text));
}

/* n when mag is exactly 1/n for an integer 2 <= n <= 1e6, else 0: D/2 reads better
 * than 0.5·D. */
static long unit_fraction(double mag)
{
    double r = 1 / mag;
    if (!(r >= 2 && r <= 1e6))
        return 0;
    long n = lround(r);
    return 1 / (double)n == mag ? n : 0;
}

static int count_factors(const Term *t, int sign)
{
    int count = 0;
    for (int i = 0; i < t->nvars; i++)
        count += (t->vars[i].exp > 0) == (sign > 0);
    return count;
}

/* The factors whose exponent has the given sign, as |exponent|: "B·D^2". Returns
 * whether any was written; `after` says something precedes them. */
static bool put_factors(Printer *pr, const Term *t, int sign, bool after)
{
    bool any = false;
    for (int i = 0; i < t->nvars; i++) {
        long long e = t->vars[i].exp;
        if ((e > 0) != (sign > 0))
            continue;
        if (after || any)
            put(pr, pr->times);
        put(pr, pr->namer(t->vars[i].sym, pr->ctx));
        if (e != 1 && e != -1) {
            put(pr, "^");
            put_number(pr, (double)llabs(e));
        }
        any = true;
    }
    return any;
}

/* q when mag is exactly p/q for whole p and 2 <= q <= 1000 and its decimals run long
 * (0.6666666666666666), else 0: 2·B·D/3 reads better. The smallest such q. */
static long long_fraction(double mag, double *p)
{
    char text[64];
    if (mag == floor(mag) || !(mag < 1e12) ||
        strlen(num_format_plain(mag, text, sizeof text)) <= 8)
        return 0;
    for (long q = 2; q <= 1000; q++) {
        double whole = round(mag * q);
        if (whole >= 1 && whole / q == mag) {
            *p = whole;
            return q;
        }
    }
    return 0;
}

/* A term's magnitude as numerator/denominator: "2·B·D", "D/2", "B/(T·K)", "1/K",
 * "2·B·D/3". */
static void put_term(Printer *pr, const Term *t, double mag)
{
    double above = 1; /* the numerator when the magnitude is shown as a fraction */
    long n = t->nvars > 0 ? unit_fraction(mag) : 0;
    if (n == 0 && t->nvars > 0)
        n = long_fraction(mag, &above);
    int below = count_factors(t, -1) + (n > 0);
    bool coef_shown = n > 0 ? above > 1 : mag != 1 || count_factors(t, 1) == 0;
    if (coef_shown)
        put_number(pr, n > 0 ? above : mag);
    if (!put_factors(pr, t, 1, coef_shown) && !coef_shown)
        put(pr, "1");
    if (below == 0)
        return;
    put(pr, below > 1 ? "/(" : "/");
    if (n > 0)
        put_number(pr, (double)n);
    put_factors(pr, t, -1, n > 0);
    if (below > 1)
        put(pr, ")");
}

static void put_poly(Printer *pr, const Poly *p, bool parens)
{
    if (p->n == 0) {
        put(pr, "0");
        return;
    }
    if (parens)
        put(pr, "(");
    for (size_t i = 0; i < p->n; i++) {
        double c = p->terms[i].coef;
        if (i > 0)
            put(pr, c < 0 ? " - " : " + ");
        else if (c < 0)
            put(pr, "-");
        put_term(pr, &p->terms[i], fabs(c));
    }
    if (parens)
        put(pr, ")");
}

char *poly_format(const Poly *p, PolyStyle style, PolyNamer namer, void *ctx, char *buf,
                  size_t size)
{
    Printer pr;
    if (!printer_start(&pr, style, namer, ctx, buf, size))
        return buf;
    put_poly(&pr, p, false);
    return printer_end(&pr);
}

char *poly_ratio_format(const PolyRatio *r, PolyStyle style, PolyNamer namer, void *ctx,
                        char *buf, size_t size)
{
    Printer pr;
    if (!printer_start(&pr, style, namer, ctx, buf, size))
        return buf;
    double d;
    bool whole = poly_is_const(r->den, &d) && d == 1;
    put_poly(&pr, r->num, !whole && r->num->n > 1);
    if (!whole) {
        put(&pr, " / ");
        put_poly(&pr, r->den, r->den->n > 1);
    }
    return printer_end(&pr);
}
