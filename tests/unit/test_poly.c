/* test_poly.c — unit tests of the polynomial algebra and its printing (src/cost/poly.c).
 * Every expected value is worked out by hand. Prints one line per failed check and
 * ends with "N passed, M failed". */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "poly.h"

enum { B, D, F, T, S, K };


#define CHECK(cond) check((cond), __FILE__, __LINE__, #cond)

static const char *namer(int sym, void *ctx)
{
    static const char *const names[] = {"B", "D", "F", "T", "S", "K"};
    (void)ctx;
    return sym >= 0 && sym < 6 ? names[sym] : "?";
}

/* Every Poly a test makes is kept here and freed at the end, so tests read as algebra. */
static Poly *kept[1024];
static int nkept;

static Poly *keep(Poly *p)
{
    if (p && nkept < (int)(sizeof kept / sizeof kept[0]))
        kept[nkept++] = p;
    return p;
}

static void free_kept(void)
{
    while (nkept > 0)
        poly_free(kept[--nkept]);
}

/* c times the symbols spelled by letters: mono(2, "BDF") is 2·B·D·F, "BB" is B^2. */
static Poly *mono(double c, const char *letters)
{
    static const char order[] = "BDFTSK";
    Poly *p = keep(poly_const(c));
    for (const char *l = letters; *l; l++)
        p = keep(poly_mul(p, keep(poly_sym((int)(strchr(order, *l) - order)))));
    return p;
}

static Poly *add(Poly *a, Poly *b) { return keep(poly_add(a, b)); }
static Poly *sub(Poly *a, Poly *b) { return keep(poly_sub(a, b)); }
static Poly *mul(Poly *a, Poly *b) { return keep(poly_mul(a, b)); }
static Poly *divide(Poly *a, Poly *b) { return keep(poly_div(a, b)); }

static void check_text(const Poly *p, PolyStyle style, const char *want, const char *file,
                       int line)
{
    char got[256], what[600];
    if (!p) {
        check(false, file, line, "unexpected NULL poly");
        return;
    }
    poly_format(p, style, namer, NULL, got, sizeof got);
    snprintf(what, sizeof what, "got \"%s\", want \"%s\"", got, want);
    check(strcmp(got, want) == 0, file, line, what);
}

#define CHECK_TEXT(p, want) check_text((p), POLY_STYLE_TEXT, (want), __FILE__, __LINE__)
#define CHECK_ASCII(p, want) check_text((p), POLY_STYLE_ASCII, (want), __FILE__, __LINE__)

/* Formats the ratio of num and den; "false" when poly_ratio refuses. */
static void check_ratio(const Poly *num, const Poly *den, const char *want, const char *file,
                        int line)
{
    char got[256] = "false", what[600];
    PolyRatio r;
    if (poly_ratio(num, den, &r))
        poly_ratio_format(&r, POLY_STYLE_TEXT, namer, NULL, got, sizeof got);
    poly_ratio_free(&r);
    snprintf(what, sizeof what, "got \"%s\", want \"%s\"", got, want);
    check(strcmp(got, want) == 0, file, line, what);
}

#define CHECK_RATIO(n, d, want) check_ratio((n), (d), (want), __FILE__, __LINE__)

typedef struct {
    double value[6];
    bool bound[6];
} Env;

static bool lookup(int sym, double *value, void *ctx)
{
    const Env *env = ctx;
    if (!env->bound[sym])
        return false;
    *value = env->value[sym];
    return true;
}

static void test_constructors(void)
{
    double v = -1;
    CHECK_TEXT(keep(poly_const(0)), "0");
    CHECK(poly_is_zero(keep(poly_const(0))));
    CHECK(poly_nterms(keep(poly_const(0))) == 0);
    CHECK(poly_is_const(keep(poly_const(0)), &v) && v == 0);
    CHECK_TEXT(keep(poly_const(3)), "3");
    CHECK_TEXT(keep(poly_const(-2)), "-2");
    CHECK(poly_is_const(keep(poly_const(3)), &v) && v == 3);
    CHECK_TEXT(keep(poly_sym(B)), "B");
    CHECK(!poly_is_const(keep(poly_sym(B)), &v));
    CHECK_TEXT(keep(poly_copy(mono(2, "BD"))), "2·B·D");
}

static void test_add_sub(void)
{
    Poly *bytes = add(add(mono(2, "BD"), mono(2, "DF")), mono(2, "BF"));
    CHECK_TEXT(bytes, "2·B·D + 2·D·F + 2·B·F");
    CHECK(poly_nterms(bytes) == 3);
    CHECK_TEXT(add(add(mono(1, "B"), mono(1, "D")), mono(1, "B")), "2·B + D");
    CHECK_TEXT(add(mono(1, "DB"), mono(1, "BD")), "2·B·D");
    CHECK_TEXT(add(mono(1, "B"), mono(3, "")), "B + 3");

    Poly *gone = sub(mono(1, "B"), mono(1, "B"));
    CHECK_TEXT(gone, "0");
    CHECK(poly_is_zero(gone));
    CHECK_TEXT(sub(add(mono(2, "BD"), mono(1, "DF")), mono(1, "BD")), "B·D + D·F");
    CHECK_TEXT(sub(mono(1, "D"), mono(2, "B")), "D - 2·B");
    CHECK_TEXT(sub(keep(poly_const(0)), mono(2, "B")), "-2·B");
    CHECK_TEXT(sub(mono(1, "B"), mono(3, "")), "B - 3");
    /* A cancelled term that comes back keeps its first place. */
    Poly *back = add(sub(add(mono(1, "B"), mono(1, "D")), mono(1, "B")), mono(1, "B"));
    CHECK_TEXT(back, "D + B");
}

static void test_mul_scale(void)
{
    Poly *b_d = add(mono(1, "B"), mono(1, "D"));
    CHECK_TEXT(mul(b_d, add(mono(1, "F"), mono(1, "T"))), "B·F + B·T + D·F + D·T");
    CHECK_TEXT(mul(b_d, b_d), "B^2 + 2·B·D + D^2");
    CHECK_TEXT(mul(b_d, sub(mono(1, "B"), mono(1, "D"))), "B^2 - D^2");
    CHECK_TEXT(mul(mono(2, "D"), mono(3, "B")), "6·B·D");
    CHECK_TEXT(mul(b_d, keep(poly_const(0))), "0");
    CHECK_TEXT(keep(poly_scale(b_d, 3)), "3·B + 3·D");
    CHECK_TEXT(keep(poly_scale(b_d, -1)), "-B - D");
    CHECK_TEXT(keep(poly_scale(b_d, 0)), "0");
    CHECK(!poly_needs_parens(mono(2, "B")));
    CHECK(poly_needs_parens(b_d));
    CHECK(poly_needs_parens(mono(-1, "B")));
}

static void test_div(void)
{
    CHECK_TEXT(divide(mono(2, "BDF"), mono(2, "BF")), "D");
    CHECK_TEXT(divide(mono(1, "B"), mono(1, "K")), "B/K");
    CHECK_TEXT(divide(mono(1, "B"), mono(1, "TK")), "B/(T·K)");
    CHECK_TEXT(divide(mono(1, "B"), mono(1, "KK")), "B/K^2");
    CHECK_TEXT(divide(mono(1, "BD"), mono(2, "")), "B·D/2");
    CHECK_TEXT(divide(mono(1, "B"), mono(2, "K")), "B/(2·K)");
    CHECK_TEXT(divide(mono(1, ""), mono(1, "K")), "1/K");
    CHECK_TEXT(divide(mono(1, ""), mono(2, "K")), "1/(2·K)");
    CHECK_TEXT(divide(mono(-3, "B"), mono(1, "K")), "-3·B/K");
    CHECK_TEXT(divide(mono(3, ""), mono(2, "")), "1.5");
    CHECK_TEXT(divide(add(mono(1, "BK"), mono(1, "D")), mono(1, "K")), "B + D/K");
    CHECK(poly_equal(mul(divide(mono(1, "B"), mono(1, "K")), mono(1, "K")), mono(1, "B")));
    CHECK(divide(mono(1, "B"), add(mono(1, "B"), mono(1, "D"))) == NULL);
    CHECK(divide(mono(1, "B"), keep(poly_const(0))) == NULL);
}

static void test_subst(void)
{
    Env all = {{256, 8192, 32768, 0, 0, 4}, {true, true, true, false, false, true}};
    Env only_b = {{256}, {true}};
    Env d2_f3 = {{0, 2, 3}, {false, true, true}};
    double v = 0;

    Poly *flops = keep(poly_subst(mono(2, "BDF"), lookup, &all));
    CHECK(poly_is_const(flops, &v) && v == 137438953472.0);
    CHECK_TEXT(flops, "137438953472");
    CHECK_TEXT(keep(poly_subst(mono(2, "BDF"), lookup, &only_b)), "512·D·F");
    CHECK_TEXT(keep(poly_subst(add(mono(1, "BD"), mono(1, "BF")), lookup, &d2_f3)), "5·B");
    CHECK_TEXT(keep(poly_subst(sub(mono(3, "BD"), mono(2, "BF")), lookup, &d2_f3)), "0");
    CHECK_TEXT(keep(poly_subst(mono(1, "T"), lookup, &all)), "T");

    Env k4 = {{0, 0, 0, 0, 0, 4}, {false, false, false, false, false, true}};
    Poly *b_over_k = divide(mono(1, "B"), mono(1, "K"));
    CHECK_TEXT(keep(poly_subst(b_over_k, lookup, &k4)), "B/4");
    CHECK_TEXT(keep(poly_subst(divide(mono(1, "B"), mono(1, "KKK")), lookup, &k4)), "B/64");
    Poly *whole = keep(poly_subst(divide(mono(2, "B"), mono(1, "K")), lookup, &all));
    CHECK(poly_is_const(whole, &v) && v == 128);
}

/* A symbol no Env binds: p·Z keeps one symbol unbound, so poly_subst of it runs the
 * term-by-term algebra (push, finish), whose coefficient of Z is the reference for
 * poly_value of p. */
enum { Z = 6 };

static bool lookup_but_z(int sym, double *value, void *ctx)
{
    return sym != Z && lookup(sym, value, ctx);
}

static bool algebra_value(const Poly *p, Env *env, double *out)
{
    Poly *z = poly_sym(Z), *pz = poly_mul(p, z);
    Poly *now = pz ? poly_subst(pz, lookup_but_z, env) : NULL;
    double coef = 0;
    bool made = now && (poly_nterms(now) == 0 || poly_single_symbol(now) == Z);
    if (made && poly_nterms(now) == 1)
        poly_free(poly_term(now, 0, &coef));
    *out = coef;
    poly_free(z);
    poly_free(pz);
    poly_free(now);
    return made;
}

/* A fixed pseudo-random sequence (an LCG), so a failure reproduces. */
static unsigned long long seed = 12345;

static unsigned next_random(unsigned n)
{
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    return (unsigned)(seed >> 33) % n;
}

/* A random term: a coefficient that may be 0, negative or a fraction, and up to four
 * factors of B D F T S K with exponents -3..3 (pow beyond ±2). */
static Poly *random_term(void)
{
    static const double coefs[] = {0, 1, -1, 2, 0.5, -3.25, 1e-3, 7e15, 1.0 / 3};
    Poly *t = keep(poly_const(coefs[next_random(9)]));
    int factors = (int)next_random(5);
    for (int k = 0; k < factors; k++) {
        Poly *x = keep(poly_sym((int)next_random(6)));
        int e = (int)next_random(7) - 3;
        for (int j = 0; j < (e < 0 ? -e : e); j++)
            t = e > 0 ? mul(t, x) : divide(t, x);
    }
    return t;
}

/* poly_value has the bits of poly_subst's algebra then poly_is_const, over random sums
 * of random terms (like monomials merge as they are summed), values that are fractions,
 * and sums that cancel to 0 (poly_value gives +0, the empty sum, never -0). */
static void test_value(void)
{
    static const double values[] = {3, 0.1, 7.5, 1e-7, 4096, 1.0 / 7, 1e9};
    int same = 0, rounds = 2000;
    for (int r = 0; r < rounds; r++) {
        Env env = {{0}, {true, true, true, true, true, true}};
        for (int s = 0; s < 6; s++)
            env.value[s] = values[next_random(7)];
        Poly *p = keep(poly_const(0));
        for (int n = (int)next_random(6); n > 0; n--)
            p = add(p, random_term());
        if (next_random(4) == 0) /* every term cancels: the empty sum */
            p = sub(p, keep(poly_copy(p)));
        double want = NAN, got = NAN, via_subst = NAN;
        Poly *now = keep(poly_subst(p, lookup, &env));
        bool ok = algebra_value(p, &env, &want) && poly_value(p, lookup, &env, &got) &&
                  now && poly_is_const(now, &via_subst);
        same += ok && memcmp(&want, &got, sizeof got) == 0 &&
                memcmp(&want, &via_subst, sizeof got) == 0;
        free_kept();
    }
    check(same == rounds, __FILE__, __LINE__, "poly_value == poly_subst's algebra, bits");

    /* An unbound symbol: no value, unless its terms cancel once the rest is bound. */
    Env d2_f3 = {{0, 2, 3}, {false, true, true}};
    double v = -1;
    CHECK(!poly_value(mono(1, "BD"), lookup, &d2_f3, &v));
    Env b_eq_d = {{2, 2}, {true, true}};
    CHECK(poly_value(sub(mono(1, "BF"), mono(1, "DF")), lookup, &b_eq_d, &v) && v == 0 &&
          !signbit(v));
    CHECK(poly_value(keep(poly_const(0)), lookup, &d2_f3, &v) && v == 0);
    CHECK(poly_value(add(mono(-1, "DF"), mono(1, "DF")), lookup, &d2_f3, &v) && v == 0);
    Poly *neg_zero = mono(-1, "D");
    Env d0 = {{0, 0}, {false, true}};
    CHECK(poly_value(neg_zero, lookup, &d0, &v) && v == 0 && !signbit(v)); /* -1·0 = -0 */
    CHECK(poly_value(add(mono(2, "DF"), mono(0.5, "F")), lookup, &d2_f3, &v) && v == 13.5);
}

/* poly_product_value has the bits of poly_value of the product the polys build
 * (poly_mul_into from poly_const(1), poly_scale_into by k, then by `then`), over random
 * one-term factors whose symbols repeat and cancel (B·1/B), with coefficients of 0; it
 * declines (false) a factor of two terms, a product of 0 and an unbound symbol. */
static void test_product_value(void)
{
    static const double values[] = {3, 0.1, 7.5, 1e-7, 4096, 1.0 / 7, 1e9};
    static const double scales[] = {1, 0.25, 1.0 / 3, 1.0 / 48, 2, 1e-300};
    int same = 0, taken = 0, rounds = 3000;
    for (int r = 0; r < rounds; r++) {
        Env env = {{0}, {true, true, true, true, true, true}};
        for (int s = 0; s < 6; s++)
            env.value[s] = values[next_random(7)];
        if (next_random(8) == 0)
            env.bound[next_random(6)] = false;
        const Poly *factors[6];
        int n = (int)next_random(7);
        for (int i = 0; i < n; i++)
            factors[i] = next_random(10) == 0 ? add(random_term(), random_term()) : random_term();
        double k = scales[next_random(6)], then = scales[next_random(6)];
        Poly *built = poly_const(1); /* consumed by each step: kept once made */
        for (int i = 0; i < n; i++)
            built = poly_mul_into(built, factors[i]);
        built = keep(poly_scale_into(poly_scale_into(built, k), then));
        double want = NAN, got = NAN;
        bool known = built && poly_value(built, lookup, &env, &want);
        if (poly_product_value(factors, n, k, then, lookup, &env, &got)) {
            taken++;
            same += known && memcmp(&want, &got, sizeof got) == 0;
        } else {
            same++; /* declined: the caller takes the polys' way */
        }
        free_kept();
    }
    check(same == rounds, __FILE__, __LINE__, "poly_product_value == the product's poly_value");
    check(taken > rounds / 2, __FILE__, __LINE__, "poly_product_value takes most products");

    Env d2_f3 = {{0, 2, 3}, {false, true, true}};
    double v = -1;
    const Poly *bf[] = {mono(1, "B"), mono(2, "F")}, *df[] = {mono(1, "D"), mono(2, "FF")};
    CHECK(!poly_product_value(bf, 2, 1, 1, lookup, &d2_f3, &v)); /* B unbound */
    CHECK(poly_product_value(df, 2, 0.5, 3, lookup, &d2_f3, &v) && v == 2 * 2 * 9 * 0.5 * 3);
    const Poly *zero[] = {mono(1, "D"), keep(poly_const(0))};
    CHECK(!poly_product_value(zero, 2, 1, 1, lookup, &d2_f3, &v));
    CHECK(poly_product_value(NULL, 0, 0.25, 1, lookup, &d2_f3, &v) && v == 0.25);
}

/* p at x with every other symbol from env, through poly_subst: the reference. */
static double subst_at(const Poly *p, int sym, double x, Env env)
{
    double v = NAN;
    env.value[sym] = x;
    env.bound[sym] = true;
    Poly *c = poly_subst(p, lookup, &env);
    if (!c || !poly_is_const(c, &v))
        v = NAN;
    poly_free(c);
    return v;
}

/* poly_one evaluates at a block of points what poly_subst gives at each, bit for bit:
 * terms without the free symbol, with it first, in the middle and last (factors
 * before and after it), squared, inverse, and cubed (through pow). */
static void test_one_free_symbol(void)
{
    Env env = {{0, 0.3, 7, 1.1, 0, 3}, {false, true, true, true, false, true}};
    Poly *shapes[] = {
        mono(2, "BDF"),                                        /* B first: tail D, F */
        add(add(mono(2, "BD"), mono(1, "DF")), mono(2, "BF")), /* a constant term */
        add(mono(0.1, "DTB"), mono(3, "BBT")),                 /* B after D: folded lead */
        divide(mono(1, "DB"), mono(1, "KT")),                  /* negative exponents */
        divide(mono(1.7, "DF"), mono(1, "B")),                 /* B^-1 */
        add(mono(1, "BBBD"), mono(-5, "")),                    /* B^3, pow() */
    };
    double xs[POLY_ONE_BLOCK];
    for (int j = 0; j < POLY_ONE_BLOCK; j++)
        xs[j] = 1 + j * 0.37;
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
        PolyOne *one = poly_one(shapes[i], B, lookup, &env);
        double block[POLY_ONE_BLOCK], single;
        CHECK(one != NULL);
        if (!one)
            continue;
        poly_one_each(one, xs, block, POLY_ONE_BLOCK);
        int same = 0;
        for (int j = 0; j < POLY_ONE_BLOCK; j++) {
            poly_one_each(one, &xs[j], &single, 1);
            double want = subst_at(shapes[i], B, xs[j], env);
            same += memcmp(&block[j], &want, sizeof want) == 0 &&
                    memcmp(&single, &want, sizeof want) == 0;
        }
        check(same == POLY_ONE_BLOCK, __FILE__, __LINE__, "poly_one_each == poly_subst, bits");
        poly_one_free(one);
    }
    /* By hand: 2·B·D·F at B = 4 with D = 0.3, F = 7 is 16.8; 2·B·D + D·F + 2·B·F at
     * B = 10 is 6 + 2.1 + 140. */
    PolyOne *flops = poly_one(shapes[0], B, lookup, &env);
    PolyOne *bytes = poly_one(shapes[1], B, lookup, &env);
    double four = 4, ten = 10, v = 0, w = 0;
    poly_one_each(flops, &four, &v, 1);
    poly_one_each(bytes, &ten, &w, 1);
    CHECK(fabs(v - 16.8) < 1e-12 && fabs(w - 148.1) < 1e-12);
    poly_one_free(flops);
    poly_one_free(bytes);
    /* Another symbol unbound: no compiled form. */
    Env no_f = {{0, 0.3}, {false, true}};
    CHECK(poly_one(shapes[0], B, lookup, &no_f) == NULL);
}

/* poly_one_linear reads a formula of at most two terms, each a constant or a constant
 * times the free symbol, as (0 + k0·u0) + k1·u1 (u: x or 1) with the same bits as
 * poly_one_each; any other shape it leaves alone. */
static void test_one_linear(void)
{
    Env env = {{0, 0.3, 7, 1.1, 0, 3}, {false, true, true, true, false, true}};
    Poly *linear[] = {
        mono(3, "B"),                              /* k·B */
        add(mono(3, "B"), mono(1, "DF")),          /* k·B + c, c = 0.3 · 7 folded */
        mono(-5, ""),                              /* a constant */
        add(mono(-2.5, "B"), mono(1e-300, "DT")),  /* negative, and tiny */
        sub(mono(1, "B"), mono(1, "B")),           /* no terms: 0 */
    };
    Poly *other[] = {
        mono(2, "BDF"),                                        /* factors after B */
        mono(1, "BB"),                                         /* B^2 */
        add(add(mono(1, "B"), mono(1, "K")), mono(1, "BK")),   /* three terms */
    };
    double xs[POLY_ONE_BLOCK];
    for (int j = 0; j < POLY_ONE_BLOCK; j++)
        xs[j] = 1 + j * 0.37;
    for (size_t i = 0; i < sizeof linear / sizeof linear[0]; i++) {
        PolyOne *one = poly_one(linear[i], B, lookup, &env);
        double k[2], block[POLY_ONE_BLOCK];
        bool with_x[2];
        CHECK(one && poly_one_linear(one, k, with_x));
        if (!one || !poly_one_linear(one, k, with_x))
            continue;
        poly_one_each(one, xs, block, POLY_ONE_BLOCK);
        int same = 0;
        for (int j = 0; j < POLY_ONE_BLOCK; j++) {
            double v = (0 + k[0] * (with_x[0] ? xs[j] : 1)) + k[1] * (with_x[1] ? xs[j] : 1);
            same += memcmp(&v, &block[j], sizeof v) == 0;
        }
        check(same == POLY_ONE_BLOCK, __FILE__, __LINE__, "poly_one_linear == poly_one_each, bits");
        poly_one_free(one);
    }
    for (size_t i = 0; i < sizeof other / sizeof other[0]; i++) {
        PolyOne *one = poly_one(other[i], B, lookup, &env);
        double k[2];
        bool with_x[2];
        CHECK(one && !poly_one_linear(one, k, with_x));
        poly_one_free(one);
    }
    /* By hand: 3·B + 0.3·7 is 3·B + 2.1, so 32.1 at B = 10. */
    PolyOne *one = poly_one(linear[1], B, lookup, &env);
    double k[2], ten = 10;
    bool with_x[2];
    CHECK(one && poly_one_linear(one, k, with_x) &&
          fabs((0 + k[0] * (with_x[0] ? ten : 1)) + k[1] * (with_x[1] ? ten : 1) - 32.1) < 1e-12);
    poly_one_free(one);
}

static void test_equal_nonfinite(void)
{
    Poly *b_d = add(mono(1, "B"), mono(1, "D"));
    CHECK(poly_equal(b_d, add(mono(1, "D"), mono(1, "B"))));
    CHECK(!poly_equal(b_d, add(mono(1, "B"), mono(2, "D"))));
    CHECK(!poly_equal(b_d, add(mono(1, "B"), mono(1, "F"))));
    CHECK(!poly_equal(mono(1, "B"), b_d));
    CHECK(poly_equal(keep(poly_const(0)), sub(b_d, b_d)));

    Poly *huge = keep(poly_scale(mono(1e308, "B"), 10));
    CHECK(poly_has_nonfinite(huge));
    CHECK_TEXT(huge, "inf·B");
    CHECK(!poly_has_nonfinite(b_d));
    CHECK(poly_has_nonfinite(sub(huge, huge)));
}

static void test_limits(void)
{
    Poly *twelve = mono(1, "BDFTSK");
    for (int sym = 6; sym < POLY_MAX_VARS; sym++)
        twelve = mul(twelve, keep(poly_sym(sym)));
    CHECK(twelve != NULL && poly_nterms(twelve) == 1);
    CHECK(mul(twelve, keep(poly_sym(POLY_MAX_VARS))) == NULL);
    CHECK(mul(twelve, mono(1, "B")) != NULL); /* B^2 is still twelve symbols */
    CHECK(divide(twelve, keep(poly_sym(POLY_MAX_VARS))) == NULL);

    Poly *square = mono(1, "B");
    for (int i = 0; i < 31 && square; i++)
        square = mul(square, square); /* B^(2^31) leaves int */
    CHECK(square == NULL);
}

static void test_ratio(void)
{
    Poly *flops = mono(2, "BDF");
    Poly *bytes = add(add(mono(2, "BD"), mono(2, "DF")), mono(2, "BF"));
    CHECK_RATIO(flops, bytes, "B·D·F / (B·D + D·F + B·F)");
    Poly *mixed = add(add(mono(2, "BD"), mono(1, "DF")), mono(2, "BF"));
    CHECK_RATIO(flops, mixed, "2·B·D·F / (2·B·D + D·F + 2·B·F)");

    PolyRatio r;
    double v = 0;
    CHECK(poly_ratio(mono(1, "BDF"), mono(2, "BF"), &r));
    CHECK(poly_equal(r.num, keep(poly_scale(mono(1, "D"), 0.5))));
    CHECK(poly_is_const(r.den, &v) && v == 1);
    CHECK_TEXT(r.num, "D/2");
    poly_ratio_free(&r);
    CHECK_RATIO(mono(1, "BDF"), mono(2, "BF"), "D/2");

    CHECK(!poly_ratio(mono(1, "B"), keep(poly_const(0)), &r));
    CHECK(r.num == NULL && r.den == NULL);
    CHECK_RATIO(mono(1, "B"), sub(mono(1, "B"), mono(1, "B")), "false");
    CHECK_RATIO(keep(poly_const(0)), bytes, "0");
    CHECK_RATIO(mono(1, "B"), sub(mono(-1, "D"), mono(1, "F")), "-B / (D + F)");
    CHECK_RATIO(mono(1, "BBD"), add(mono(1, "BD"), mono(1, "BF")), "B·D / (D + F)");
    CHECK_RATIO(add(mono(1, "BD"), mono(1, "BF")), mono(1, "BBD"), "1/B + F/(B·D)");
    CHECK_RATIO(mono(1, "B"), mono(2, "D"), "B/(2·D)");
    CHECK_RATIO(mono(6, "B"), add(mono(4, "D"), mono(2, "F")), "3·B / (2·D + F)");
    CHECK_RATIO(mono(0.5, "B"), add(mono(1, "D"), mono(1, "F")), "B/2 / (D + F)");
    Poly *over_k = keep(poly_sym(K));
    CHECK_RATIO(divide(mono(1, "B"), over_k),
                add(divide(mono(1, "D"), over_k), divide(mono(1, "F"), over_k)),
                "B / (D + F)");
}

static void test_format(void)
{
    Poly *bytes = add(add(mono(2, "BD"), mono(1, "DF")), mono(2, "BF"));
    CHECK_TEXT(bytes, "2·B·D + D·F + 2·B·F");
    CHECK_ASCII(bytes, "2*B*D + D*F + 2*B*F");
    CHECK_ASCII(divide(mono(1, "B"), mono(2, "TK")), "B/(2*T*K)");
    CHECK_ASCII(mono(1, "BBD"), "B^2*D");
    CHECK_TEXT(sub(add(mono(2, "BD"), mono(1, "DF")), mono(3, "")), "2·B·D + D·F - 3");

    CHECK_TEXT(keep(poly_const(0.5)), "0.5");
    CHECK_TEXT(mono(0.25, "B"), "B/4");
    CHECK_TEXT(mono(0.75, "B"), "0.75·B");
    CHECK_TEXT(mono(1.0 / 3, "B"), "B/3");
    CHECK_TEXT(keep(poly_const(1.97e15)), "1.97e15");
    CHECK_TEXT(keep(poly_const(1.97e14)), "1.97e14");
    CHECK_TEXT(keep(poly_const(137438953472.0)), "137438953472");
    CHECK_TEXT(mono(1e-7, "B"), "1e-7·B"); /* 1/n only up to n = 1e6 */
    CHECK_TEXT(mono(3e-7, "B"), "3e-7·B");
    CHECK_TEXT(keep(poly_const(-2.5)), "-2.5");

    char small[12];
    poly_format(bytes, POLY_STYLE_ASCII, namer, NULL, small, sizeof small);
    CHECK(strcmp(small, "2*B*D + ...") == 0);
    /* "2·B·D" with '·' two bytes: the cut must not split one. */
    poly_format(bytes, POLY_STYLE_TEXT, namer, NULL, small, 7);
    CHECK(strcmp(small, "2·...") == 0);
    poly_format(bytes, POLY_STYLE_TEXT, namer, NULL, small, 3);
    CHECK(strcmp(small, "..") == 0);
    poly_format(bytes, POLY_STYLE_TEXT, namer, NULL, small, 1);
    CHECK(small[0] == '\0');
    poly_format(mono(1, "BD"), POLY_STYLE_ASCII, namer, NULL, small, 4);
    CHECK(strcmp(small, "B*D") == 0); /* exactly fits: no cut */
    CHECK(poly_format(bytes, POLY_STYLE_TEXT, namer, NULL, small, 0) == small);
}

int main(void)
{
    test_constructors();
    test_add_sub();
    test_mul_scale();
    test_div();
    test_subst();
    test_value();
    test_product_value();
    test_one_free_symbol();
    test_one_linear();
    test_equal_nonfinite();
    test_limits();
    test_ratio();
    test_format();
    free_kept();
    printf("%d passed, %d failed\n", passed, failed);
    return failed > 0;
}
