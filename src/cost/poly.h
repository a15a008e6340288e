/* poly.h — symbolic costs: polynomials in the dims.
 *
 * A Poly is a sum of terms, each a double coefficient times a monomial: a product of
 * symbols (dims, by interned id) raised to small integer exponents, possibly negative
 * (so D/K stays a monomial). Terms keep the order in which their monomial first
 * appeared, so 2·B·D + 2·D·F + 2·B·F prints the way the book writes it; inside a
 * monomial, symbols are ordered by id (the order the names were first seen).
 *
 * Ownership: every function returning Poly* returns a new heap object that the caller
 * frees with poly_free; arguments are never consumed. A NULL return means the result
 * is not a polynomial (see the individual functions) or memory ran out (nomem.h says
 * which).
 */
#ifndef ROOFLINE_POLY_H
#define ROOFLINE_POLY_H

#include <stdbool.h>
#include <stddef.h>

#include "caps.h"

#define POLY_MAX_VARS LIMIT_TERM_DIMS /* distinct symbols in one monomial */

typedef struct Poly Poly;

/* Look up a symbol's value: return true and set *value when the symbol is bound. */
typedef bool (*PolyLookup)(int sym, double *value, void *ctx);
/* The printable name of a symbol. */
typedef const char *(*PolyNamer)(int sym, void *ctx);

typedef enum { POLY_STYLE_TEXT, POLY_STYLE_ASCII } PolyStyle;

Poly *poly_const(double c);
Poly *poly_sym(int sym);
Poly *poly_copy(const Poly *p);
void poly_free(Poly *p);

Poly *poly_add(const Poly *a, const Poly *b);
Poly *poly_sub(const Poly *a, const Poly *b);
Poly *poly_mul(const Poly *a, const Poly *b);
/* into × p, freeing into (a running product); NULL when either is NULL or on failure. */
Poly *poly_mul_into(Poly *into, const Poly *p);
Poly *poly_scale(const Poly *a, double k);
/* p × k in place (p is taken and returned; NULL stays NULL). */
Poly *poly_scale_into(Poly *p, double k);
/* a / b when b is a single term (a constant or a monomial); NULL when b has several
 * terms or is zero. */
Poly *poly_div(const Poly *a, const Poly *b);

/* Replace every bound symbol by its value. */
Poly *poly_subst(const Poly *p, PolyLookup lookup, void *ctx);
/* Whether poly_subst would leave a constant, and then its value in *out, with the same
 * bits as poly_subst then poly_is_const; allocates nothing when every symbol is bound.
 * False (with *out unspecified) when memory runs out or a symbol is left. */
bool poly_value(const Poly *p, PolyLookup lookup, void *ctx, double *out);
/* poly_value of the product of factors[0..n) (poly_mul_into from poly_const(1)) scaled by
 * k, then by `then` (poly_scale_into each; 1 leaves it as it is), with the same bits,
 * building no poly: true when every factor is one term and every symbol bound. False
 * (try the polys) otherwise, or when the product is 0 or its monomial does not fit. */
bool poly_product_value(const Poly *const *factors, int n, double k, double then,
                        PolyLookup lookup, void *ctx, double *out);
/* p with every symbol but `sym` put in, compiled once to evaluate at many values of
 * sym (a sweep's points) without lookups or allocation; its value at x has the
 * same bits as poly_subst with sym bound to x. NULL when another symbol is unbound or
 * memory ran out. */
typedef struct PolyOne PolyOne;
PolyOne *poly_one(const Poly *p, int sym, PolyLookup lookup, void *ctx);
/* out[j] = p at x[j], for j < n <= POLY_ONE_BLOCK; fastest for a whole block. */
enum { POLY_ONE_BLOCK = 256 };
void poly_one_each(const PolyOne *p, const double *restrict x, double *restrict out, int n);
void poly_one_free(PolyOne *p);
/* Whether p is at most two terms, each a constant or a constant times the free symbol
 * and nothing else (a sweep's usual formulas: a·X + b). Then its value at x has the same
 * bits as (0 + k[0]·u[0]) + k[1]·u[1], where u[i] is x when with_x[i] and 1 otherwise
 * (a missing term is k = 0, u = 1: adding +0 to a sum that cannot be -0 changes nothing),
 * which a caller can evaluate in one pass with its other figures. */
bool poly_one_linear(const PolyOne *p, double k[2], bool with_x[2]);
/* The degree of term i in the symbols other than `except` (the sum of their
 * exponents). */
int poly_term_degree(const Poly *p, int i, int except);
/* The distinct symbols of p, up to max of them, in order of id; returns the count. */
int poly_symbols(const Poly *p, int *out, int max);
/* The degree of p in one symbol (largest exponent over its terms; 0 when absent). */
int poly_degree_in(const Poly *p, int sym);

/* True when p has no symbol left; *value gets the constant (0 for the empty sum). */
bool poly_is_const(const Poly *p, double *value);
bool poly_is_zero(const Poly *p);
bool poly_equal(const Poly *a, const Poly *b);
int poly_nterms(const Poly *p);
/* Term i (0-based, in order) as its coefficient and a new monomial with coefficient 1,
 * so a caller can print the coefficient its own way ("2.725 µs·B"). */
Poly *poly_term(const Poly *p, int i, double *coef);
/* The symbol of a one-term p that is exactly that symbol to the first power (times a
 * coefficient), or -1. */
int poly_single_symbol(const Poly *p);
/* The same, when the coefficient is 1 (p is the symbol itself), else -1. */
int poly_bare_symbol(const Poly *p);
/* Some coefficient is inf or nan. */
bool poly_has_nonfinite(const Poly *p);

/* Print into buf (always NUL-terminated, truncated with "..." if too small).
 * TEXT: "2·B·D·F", "2·B·D + D·F - 3", "B^2"; ASCII: the same with '*'.
 * A coefficient of 1 is omitted; integers print without a fraction; others in the
 * shortest %g form that reads back exactly (0.5, 1.97e14). Returns buf. */
char *poly_format(const Poly *p, PolyStyle style, PolyNamer namer, void *ctx, char *buf,
                  size_t size);
/* Needs parentheses when written as a factor (more than one term, or a negative
 * leading coefficient). */
bool poly_needs_parens(const Poly *p);

/* A ratio of polynomials in lowest monomial terms: the common monomial factor of all
 * terms and the common integer factor of all coefficients are divided out; when the
 * denominator is a single term the ratio becomes a polynomial (den is then 1).
 * Examples: 2BDF / (2BD + 2DF + 2BF) -> BDF / (BD + DF + BF);
 *           B·D·F / 2·B·F -> D/2 (num = 0.5·D, den = 1). */
typedef struct {
    Poly *num;
    Poly *den;
} PolyRatio;
/* Returns false (and leaves *out empty) when den is zero. */
bool poly_ratio(const Poly *num, const Poly *den, PolyRatio *out);
void poly_ratio_free(PolyRatio *r);
char *poly_ratio_format(const PolyRatio *r, PolyStyle style, PolyNamer namer, void *ctx,
                        char *buf, size_t size);

#endif
