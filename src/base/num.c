/* num.c — the one place numbers cross the text boundary: parsing literals with
 * their suffixes, the shortest round-trip form of the report and JSON, and the
 * four-digit human form with SI prefixes.
 *
 * No '.' ever reaches the C library: digits go to strtod as "DDDDe-N" and come
 * back from snprintf("%e") as bare digits and an exponent, so LC_NUMERIC cannot
 * change a result.
 */
#include "num.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Significant digits kept from a literal. A halfway point between two doubles has
 * at most 767 significant digits, so 800 digits plus a sticky digit for whatever
 * was dropped round exactly like the full text. */
#define SIG_MAX 800
/* Digits a binary suffix (at most Pi = 2^50 < 10^16) adds to a literal's. */
#define BINARY_DIGITS 16
/* Exponents beyond this are inf or zero whatever the (at most SIG_MAX+1) digits. */
#define EXP_CLAMP 100000
/* An exponent literal stops growing here: far past any clamp, far from overflow. */
#define EXP_SATURATE 100000000000000000LL

static int is_digit(char c) { return c >= '0' && c <= '9'; }

static int is_letter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

/* The powers of ten a double holds exactly. */
static const double EXACT_POW10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                     1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                     1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
enum { EXACT_POW10_MAX = 22, EXACT_DIGITS_MAX = 15 };

/* The digits as an integer times 10^exp10, correctly rounded. NAN if strtod
 * disagrees about the text, which would mean a locale reached it after all.
 * At most 15 digits (under 2^53) and a power of ten a double holds: both exact,
 * so one multiplication or division rounds once, as strtod does (most literals,
 * and a script of a million `let` statements spent a quarter of its time in
 * snprintf and strtod here). */
static double digits_to_double(const char *digits, int n, long long exp10)
{
    if (n <= EXACT_DIGITS_MAX && exp10 >= -EXACT_POW10_MAX && exp10 <= EXACT_POW10_MAX) {
        long long whole = 0;
        for (int i = 0; i < n; i++)
            whole = whole * 10 + (digits[i] - '0');
        double v = (double)whole;
        return exp10 >= 0 ? v * EXACT_POW10[exp10] : v / EXACT_POW10[-exp10];
    }
    char text[SIG_MAX + BINARY_DIGITS + 32];
    if (exp10 > EXP_CLAMP)
        exp10 = EXP_CLAMP;
    if (exp10 < -EXP_CLAMP)
        exp10 = -EXP_CLAMP;
    int len = snprintf(text, sizeof text, "%.*se%lld", n, digits, exp10);
    char *end;
    double v = strtod(text, &end);
    return end == text + len ? v : NAN;
}

/* ---- Parsing ---------------------------------------------------------------- */

/* The value so far: digits[0..n) as an integer times 10^exp10, leading zeros
 * dropped. */
typedef struct {
    char digits[SIG_MAX + 1];
    int n;
    long long exp10;
    int dropped_nonzero;
} Mantissa;

typedef struct {
    const char *p, *end;
} Cursor;

static int at(const Cursor *c, char ch) { return c->p < c->end && *c->p == ch; }

static int at_digit(const Cursor *c) { return c->p < c->end && is_digit(*c->p); }

static void mantissa_add(Mantissa *m, char d, int in_fraction)
{
    if (m->n == 0 && d == '0') {
        m->exp10 -= in_fraction;
    } else if (m->n < SIG_MAX) {
        m->digits[m->n++] = d;
        m->exp10 -= in_fraction;
    } else {
        m->exp10 += !in_fraction;
        m->dropped_nonzero |= d != '0';
    }
}

/* After a digit: a '_' that separates it from the next digit. Any other '_' stays
 * for the caller, which rejects it as a stray character. */
static void skip_separator(Cursor *c)
{
    if (at(c, '_') && c->end - c->p > 1 && is_digit(c->p[1]))
        c->p++;
}

/* digits ('_' digits)*. Returns how many digits it read. */
static size_t scan_digits(Cursor *c, Mantissa *m, int in_fraction)
{
    size_t count = 0;
    while (at_digit(c)) {
        mantissa_add(m, *c->p++, in_fraction);
        count++;
        skip_separator(c);
    }
    return count;
}

/* [eE] [+-]? digits ('_' digits)*, saturating. 0 when there is no exponent, -1 when it is bad. */
static int scan_exponent(Cursor *c, long long *exp10)
{
    *exp10 = 0;
    if (!at(c, 'e') && !at(c, 'E'))
        return 0;
    c->p++;
    int negative = at(c, '-');
    if (negative || at(c, '+'))
        c->p++;
    if (!at_digit(c))
        return -1;
    while (at_digit(c)) {
        if (*exp10 < EXP_SATURATE)
            *exp10 = *exp10 * 10 + (*c->p - '0');
        c->p++;
        skip_separator(c);
    }
    if (negative)
        *exp10 = -*exp10;
    return 1;
}

typedef struct {
    const char *name;
    int decimal_exp; /* 10^decimal_exp, or */
    int binary_exp;  /* 2^binary_exp */
} Suffix;

static const Suffix SUFFIXES[] = {
    {"k", 3, 0},   {"M", 6, 0},   {"G", 9, 0},   {"T", 12, 0},  {"P", 15, 0},
    {"Ki", 0, 10}, {"Mi", 0, 20}, {"Gi", 0, 30}, {"Ti", 0, 40}, {"Pi", 0, 50},
};

/* The suffix that is exactly the rest of the text; an empty rest is 10^0. */
static NumStatus scan_suffix(const Cursor *c, Suffix *out)
{
    size_t len = (size_t)(c->end - c->p);
    *out = (Suffix){"", 0, 0};
    if (len == 0)
        return NUM_OK;
    for (size_t i = 0; i < sizeof SUFFIXES / sizeof SUFFIXES[0]; i++) {
        if (strlen(SUFFIXES[i].name) == len && memcmp(SUFFIXES[i].name, c->p, len) == 0) {
            *out = SUFFIXES[i];
            return NUM_OK;
        }
    }
    /* Letters read as a unit the user meant ("8kB"); anything else is a typo. */
    return is_letter(*c->p) ? NUM_BAD_SUFFIX : NUM_BAD;
}

/* Splits the text into mantissa, exponent and suffix, checking the grammar; *whole
 * says whether it is written as a whole number (digits, no '.' and no exponent). */
static NumStatus scan_literal(Cursor *c, Mantissa *m, long long *exp10, Suffix *suffix,
                              bool *whole)
{
    size_t count = scan_digits(c, m, 0);
    *whole = !at(c, '.') && !at(c, 'e') && !at(c, 'E');
    if (at(c, '.')) {
        c->p++;
        count += scan_digits(c, m, 1);
    }
    if (count == 0)
        return NUM_BAD;
    if (scan_exponent(c, exp10) < 0)
        return NUM_BAD;
    return scan_suffix(c, suffix);
}

static NumStatus classify(double v)
{
    if (isinf(v))
        return NUM_OVERFLOW;
    if (isnan(v))
        return NUM_BAD;
    return v == 0 ? NUM_UNDERFLOW : NUM_OK; /* a subnormal (2.2e-308) is a number */
}

/* digits[0..n) × 2^k, exactly, as decimal digits into out (2^50 < 10^16: at most
 * BINARY_DIGITS more than n); returns how many. */
static int times_power_of_two(const char *digits, int n, int k, char *out)
{
    int len = n + BINARY_DIGITS, lead = 0;
    memset(out, '0', BINARY_DIGITS);
    memcpy(out + BINARY_DIGITS, digits, (size_t)n);
    for (int j = 0; j < k; j++)
        for (int i = len - 1, carry = 0; i >= 0; i--) {
            int d = (out[i] - '0') * 2 + carry;
            out[i] = (char)('0' + d % 10);
            carry = d / 10;
        }
    while (lead < len - 1 && out[lead] == '0')
        lead++;
    memmove(out, out + lead, (size_t)(len - lead));
    return len - lead;
}

/* Only called with at least one nonzero digit, so a zero is a literal that rounds to
 * it. A binary suffix scales a normal double exactly; a subnormal one has lost bits
 * already ("1e-310Ki"), so its digits are scaled instead and rounded once. */
static NumStatus mantissa_value(Mantissa *m, long long exp10, const Suffix *suffix, double *out)
{
    if (m->dropped_nonzero) {
        m->digits[m->n++] = '1';
        exp10--;
    }
    exp10 += m->exp10 + suffix->decimal_exp;
    double v = digits_to_double(m->digits, m->n, exp10);
    if (fpclassify(v) == FP_SUBNORMAL && suffix->binary_exp > 0) {
        char scaled[SIG_MAX + 1 + BINARY_DIGITS];
        int n = times_power_of_two(m->digits, m->n, suffix->binary_exp, scaled);
        *out = digits_to_double(scaled, n, exp10);
        return classify(*out);
    }
    NumStatus s = classify(v);
    if (s != NUM_OK)
        return s;
    *out = ldexp(v, suffix->binary_exp);
    return classify(*out);
}

/* Whether digits[0..n) × 10^exp10 is exactly v, a whole double: both as decimal
 * digits (printf's %.0f writes a double's exact value). */
static bool holds_exactly(const char *digits, int n, long long exp10, double v)
{
    char exact[400];
    int len = snprintf(exact, sizeof exact, "%.0f", v);
    while (n > 0 && digits[n - 1] == '0') {
        n--;
        exp10++;
    }
    if (exp10 < 0 || len < 0 || (size_t)len >= sizeof exact || n + exp10 != len ||
        memcmp(exact, digits, (size_t)n) != 0)
        return false;
    return strspn(exact + n, "0") == (size_t)(len - n);
}

/* Above 2^53 a double skips whole numbers: a literal written whole must be one it
 * holds, or it would round unseen (9007199254740993 -> ...992). A binary suffix
 * scales exactly, so the mantissa decides. */
static NumStatus whole_exact(const Mantissa *m, long long exp10, const Suffix *suffix)
{
    long long at = m->exp10 + exp10 + suffix->decimal_exp;
    if (m->n + at <= 15 && suffix->binary_exp == 0) /* below 10^15 < 2^53 */
        return NUM_OK;
    double v = digits_to_double(m->digits, m->n, at);
    if (!(v >= 9007199254740992.0) || isinf(v))
        return NUM_OK;
    return !m->dropped_nonzero && holds_exactly(m->digits, m->n, at, v) ? NUM_OK
                                                                         : NUM_INEXACT;
}

NumStatus num_parse(const char *text, size_t len, double *out)
{
    *out = 0;
    if (len == 0) /* text may then be NULL, and NULL + 0 is undefined */
        return NUM_BAD;
    Cursor c = {text, text + len};
    Mantissa m = {.n = 0};
    long long exp10;
    Suffix suffix;
    bool whole;
    NumStatus s = scan_literal(&c, &m, &exp10, &suffix, &whole);
    if (s != NUM_OK || m.n == 0)
        return s;
    if (whole && (s = whole_exact(&m, exp10, &suffix)) != NUM_OK)
        return s;
    s = mantissa_value(&m, exp10, &suffix, out);
    if (s != NUM_OK)
        *out = 0;
    return s;
}

const char *num_status_message(NumStatus s)
{
    switch (s) {
    case NUM_OK: return "ok";
    case NUM_BAD: return "not a number";
    case NUM_BAD_SUFFIX: return "unknown suffix (use k M G T P or Ki Mi Gi Ti Pi)";
    case NUM_OVERFLOW: return "number too large";
    case NUM_UNDERFLOW: return "number too small: it rounds to zero (the smallest a double holds is 4.9e-324)";
    case NUM_INEXACT: return "a whole number above 2^53 = 9007199254740992 that a double cannot "
                             "hold exactly: it would round to a neighbour";
    }
    return "not a number";
}

/* ---- Printing --------------------------------------------------------------- */

/* A positive finite value rounded to some significant digits: d1.d2..dn × 10^exp,
 * trailing zeros dropped (n >= 1). */
typedef struct {
    char digits[24];
    int n;
    int exp;
} Decimal;

/* snprintf does the rounding; whatever it uses as a decimal point is skipped. */
static Decimal decimal_of(double a, int precision)
{
    char text[48];
    Decimal d = {.n = 0};
    snprintf(text, sizeof text, "%.*e", precision - 1, a);
    const char *p = text;
    for (; *p != 'e'; p++)
        if (is_digit(*p))
            d.digits[d.n++] = *p;
    d.exp = atoi(p + 1);
    while (d.n > 1 && d.digits[d.n - 1] == '0')
        d.n--;
    d.digits[d.n] = '\0';
    return d;
}

static char *put_zeros(char *out, int count)
{
    for (; count > 0; count--)
        *out++ = '0';
    return out;
}

/* The digits with the decimal point after `point` of them (before them if
 * point <= 0, zeros appended if point > n). Returns the end; out must hold
 * n + |point| + 3 bytes. */
static char *put_fixed(const Decimal *d, int point, char *out)
{
    if (point <= 0) {
        *out++ = '0';
        *out++ = '.';
        out = put_zeros(out, -point);
        point = 0;
    }
    for (int i = 0; i < d->n; i++) {
        if (i == point && i > 0)
            *out++ = '.';
        *out++ = d->digits[i];
    }
    out = put_zeros(out, point - d->n);
    *out = '\0';
    return out;
}

/* d1.d2..dn e<exp>, the exponent without '+' or leading zeros. */
static char *put_scientific(const Decimal *d, char *out)
{
    out = put_fixed(d, 1, out);
    return out + sprintf(out, "e%d", d->exp);
}

/* NUL-terminated, truncated to size, like snprintf. */
static char *copy_out(const char *text, char *buf, size_t size)
{
    if (size > 0)
        snprintf(buf, size, "%s", text);
    return buf;
}

/* Callers promise finite values; a stray inf or nan still prints rather than crashes. */
static const char *non_finite(double v)
{
    if (isnan(v))
        return "nan";
    if (isinf(v))
        return v < 0 ? "-inf" : "inf";
    return NULL;
}

static int reads_back(const Decimal *d, double a)
{
    return digits_to_double(d->digits, d->n, (long long)d->exp - (d->n - 1)) == a;
}

/* An integer below 2^53 is exact in a double: its own digits are the answer, and
 * plain integer arithmetic finds them without a round trip through snprintf. */
static Decimal decimal_of_integer(unsigned long long v)
{
    char reversed[24];
    int n = 0;
    Decimal d = {.n = 0};
    do
        reversed[n++] = (char)('0' + v % 10);
    while ((v /= 10) > 0);
    d.exp = n - 1;
    while (n > 0)
        d.digits[d.n++] = reversed[--n];
    while (d.n > 1 && d.digits[d.n - 1] == '0')
        d.n--;
    d.digits[d.n] = '\0';
    return d;
}

/* The fewest digits (at most 17, which always suffice) that read back as a.
 * Rounding to p + 1 digits is never farther from a than rounding to p, so once some
 * precision reads back every larger one does: most values that are not short need 16
 * or 17 digits, so those are tried first, then a binary search below 16. */
static Decimal shortest(double a)
{
    if (a < 9007199254740992.0 && a == floor(a))
        return decimal_of_integer((unsigned long long)a);
    Decimal best = decimal_of(a, 17), d = decimal_of(a, 16);
    if (!reads_back(&d, a))
        return best;
    best = d;
    int lo = 1, hi = 16;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        d = decimal_of(a, mid);
        if (reads_back(&d, a)) {
            best = d;
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    return best;
}

char *num_format_plain(double v, char *buf, size_t size)
{
    const char *special = non_finite(v);
    if (special)
        return copy_out(special, buf, size);
    if (v == 0)
        return copy_out("0", buf, size); /* and -0 */
    char text[64] = "-";
    double a = fabs(v);
    Decimal d = shortest(a);
    /* %g's choice of notation, except that integers below 1e15 print in full
     * (137438953472) unless a run of zeros makes that hard to read (1.97e14). */
    int whole = a < 1e15 && a == floor(a) && d.exp + 1 - d.n < 5;
    char *p = text + (v < 0);
    if (whole || (d.exp >= -4 && d.exp < d.n))
        put_fixed(&d, d.exp + 1, p);
    else
        put_scientific(&d, p);
    return copy_out(text, buf, size);
}

/* JSON has no inf or nan: null, the value JSON has for "no number", keeps the line
 * valid whatever a caller passes. */
char *num_format_json(double v, char *buf, size_t size)
{
    return isfinite(v) ? num_format_plain(v, buf, size) : copy_out("null", buf, size);
}

/* How one unit is written: SI prefixes 10^(3*lo) .. 10^(3*hi), and outside them
 * the bare unit in fixed notation for exponents -3 .. fixed_max, else scientific. */
typedef struct {
    const char *name;
    int lo, hi;
    int fixed_max;
} UnitForm;

static UnitForm unit_form(Unit unit)
{
    switch (unit) {
    case UNIT_SECONDS: return (UnitForm){"s", -5, 0, 3};
    case UNIT_BYTES: return (UnitForm){"B", 0, 6, 3};
    case UNIT_FLOPS: return (UnitForm){"FLOP", 0, 6, 3};
    case UNIT_RATE: return (UnitForm){"FLOP/s", 0, 6, 3};
    case UNIT_BW: return (UnitForm){"B/s", 0, 6, 3};
    case UNIT_NONE: break;
    }
    return (UnitForm){"", 0, 0, 5};
}

/* The prefix for 10^(3*k), k in -5 .. 6. */
static const char *si_prefix(int k, int ascii)
{
    static const char *const PREFIXES[] = {"f", "p", "n", "\xc2\xb5", "m", "", "k", "M",
                                           "G", "T", "P", "E"};
    if (k == -2 && ascii)
        return "u";
    return PREFIXES[k + 5];
}

static int floor_div3(int x) { return x >= 0 ? x / 3 : -((2 - x) / 3); }

/* Rounding to four digits first means 999.96 µs becomes 1.000e-3 and picks "m". */
static void format_magnitude(double a, const UnitForm *form, int ascii, char *num, const char **prefix)
{
    Decimal d = decimal_of(a, 4);
    int k = floor_div3(d.exp);
    *prefix = "";
    if (k >= form->lo && k <= form->hi) {
        *prefix = si_prefix(k, ascii);
        put_fixed(&d, d.exp - 3 * k + 1, num);
    } else if (d.exp >= -3 && d.exp <= form->fixed_max) {
        put_fixed(&d, d.exp + 1, num);
    } else {
        put_scientific(&d, num);
    }
}

char *num_format_unit(double v, Unit unit, int ascii, char *buf, size_t size)
{
    UnitForm form = unit_form(unit);
    char num[48] = "0";
    const char *prefix = "";
    const char *special = non_finite(v);
    if (special)
        snprintf(num, sizeof num, "%s", special);
    else if (v != 0)
        format_magnitude(fabs(v), &form, ascii, num, &prefix);
    const char *sign = v < 0 && !special ? "-" : "";
    const char *space = form.name[0] ? " " : "";
    if (size > 0)
        snprintf(buf, size, "%s%s%s%s%s", sign, num, space, prefix, form.name);
    return buf;
}

char *num_format_given(double v, char *buf, size_t size)
{
    if (v == floor(v) && fabs(v) < 1e12)
        snprintf(buf, size, "%.0f", v);
    else
        snprintf(buf, size, "%.6g", v);
    return buf;
}

char *num_format_percent(double percent, char *buf, size_t size)
{
    char num[48];
    if (percent != 0 && fabs(percent) < 1e-3 && isfinite(percent))
        return copy_out(percent < 0 ? "-<0.001%" : "<0.001%", buf, size);
    num_format_unit(percent, UNIT_NONE, 0, num, sizeof num);
    if (size > 0)
        snprintf(buf, size, "%s%%", num);
    return buf;
}

int num_columns(const char *s, int columns)
{
    return columns + (int)strlen(s) - num_width(s); /* a continuation byte: no column */
}

int num_width(const char *s)
{
    int w = 0;
    for (; *s; s++)
        w += ((unsigned char)*s & 0xC0) != 0x80;
    return w;
}

/* fmod is exact, so for whole numbers it is zero exactly when d divides n, which the
 * integer remainder says; anything else (a fraction, nan, inf, beyond 2^63) asks fmod. */
bool num_divisible(double n, double d)
{
    const double limit = 9223372036854775808.0; /* 2^63 */
    if (d >= 1 && d < limit && n > -limit && n < limit) {
        long long in = (long long)n, id = (long long)d;
        if ((double)in == n && (double)id == d)
            return in % id == 0;
    }
    return fmod(n, d) == 0;
}

double num_gcd(double a, double b)
{
    while (b != 0) {
        double r = fmod(a, b);
        a = b;
        b = r;
    }
    return a;
}
