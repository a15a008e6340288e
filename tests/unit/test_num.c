/* test_num.c — unit tests for num.c: literals, their errors, the round-trip
 * format and the human units. Prints one FAIL line per failure and ends with
 * "N passed, M failed". */
#include "check.h"
#include "num.h"

#include <float.h>
#include <locale.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


static const char *status_name(NumStatus s)
{
    static const char *const NAMES[] = {"NUM_OK", "NUM_BAD", "NUM_BAD_SUFFIX", "NUM_OVERFLOW",
                                        "NUM_UNDERFLOW", "NUM_INEXACT"};
    return NAMES[s];
}

/* ---- Parsing ---------------------------------------------------------------- */

static void parse_is(const char *file, int line, const char *text, size_t len, double want)
{
    double v = -1;
    NumStatus s = num_parse(text, len, &v);
    char what[128], got[96];
    snprintf(what, sizeof what, "num_parse(\"%.40s\") == %.17g", text, want);
    snprintf(got, sizeof got, "%s, %.17g", status_name(s), v);
    check_got(s == NUM_OK && v == want && signbit(v) == signbit(want), file, line, what, got);
}

static void parse_fails(const char *file, int line, const char *text, size_t len, NumStatus want)
{
    double v = -1;
    NumStatus s = num_parse(text, len, &v);
    char what[128];
    snprintf(what, sizeof what, "num_parse(\"%.40s\") is %s", text, status_name(want));
    check_got(s == want, file, line, what, status_name(s));
}

#define PARSE(text, want) parse_is(__FILE__, __LINE__, text, strlen(text), want)
#define PARSE_FAILS(text, status) parse_fails(__FILE__, __LINE__, text, strlen(text), status)

static void test_parse_plain(void)
{
    PARSE("0", 0);
    PARSE("0.0", 0);
    PARSE("0e5", 0);
    PARSE("000", 0);
    PARSE("2", 2);
    PARSE("007", 7);
    PARSE("1.5", 1.5);
    PARSE("1.5e3", 1500);
    PARSE("1.5E3", 1500);
    PARSE("15e-1", 1.5);
    PARSE("1e+2", 100);
    PARSE(".5", 0.5);
    PARSE("5.", 5);
    PARSE("0.1", 0.1);
    PARSE("0.05", 0.05);
    PARSE("123.456", 123.456);
    PARSE("137438953472", 137438953472.0);
    PARSE("1e308", 1e308);
    PARSE("1.7976931348623157e308", DBL_MAX);
    PARSE("1e-300", 1e-300);
    PARSE("2.2250738585072014e-308", DBL_MIN);
    /* a tie rounds to even (written as a float: whole, it is refused, below) */
    PARSE("9007199254740993.0", 9007199254740992.0);
    PARSE("9007199254740995e0", 9007199254740996.0);
}

static void test_parse_separators(void)
{
    PARSE("1_000", 1000);
    PARSE("1_000_000", 1e6);
    PARSE("1_0.2_5", 10.25);
    PARSE("1e1_0", 1e10);
}

static void test_parse_suffixes(void)
{
    PARSE("8k", 8000);
    PARSE("2M", 2e6);
    PARSE("3G", 3e9);
    PARSE("4T", 4e12);
    PARSE("5P", 5e15);
    PARSE("1Ki", 1024);
    PARSE("1Mi", 1048576);
    PARSE("16Gi", 17179869184.0);
    PARSE("2Ti", 2199023255552.0);
    PARSE("1Pi", 1125899906842624.0);
    PARSE("1.5k", 1500);
    PARSE("0.1k", 100);
    PARSE("0.3G", 3e8); /* exact through the exponent, not 0.3 * 1e9 */
    PARSE("1.5e3k", 1.5e6);
    PARSE("0.5Ki", 512);
    PARSE("0k", 0);
    PARSE("1_000k", 1e6);
}

/* A subnormal is a number, as in C and JSON: only a literal that rounds to 0 fails. */
static void test_parse_subnormal(void)
{
    PARSE("2.2e-308", 2.2e-308);
    PARSE("1e-310", 1e-310);
    PARSE("4.9e-324", 4.9e-324);
    PARSE("2.5e-324", 4.9e-324); /* above half the smallest subnormal: rounds up to it */
    PARSE("1e-310Ki", 1.024e-307);
}

static void test_parse_errors(void)
{
    PARSE_FAILS("", NUM_BAD);
    PARSE_FAILS(".", NUM_BAD);
    PARSE_FAILS("1.2.3", NUM_BAD);
    PARSE_FAILS("1e", NUM_BAD);
    PARSE_FAILS("1e+", NUM_BAD);
    PARSE_FAILS("1E-", NUM_BAD);
    PARSE_FAILS("e5", NUM_BAD);
    PARSE_FAILS(".e5", NUM_BAD);
    PARSE_FAILS("-1", NUM_BAD);
    PARSE_FAILS("+1", NUM_BAD);
    PARSE_FAILS("1 ", NUM_BAD);
    PARSE_FAILS(" 1", NUM_BAD);
    PARSE_FAILS("inf", NUM_BAD);
    PARSE_FAILS("nan", NUM_BAD);
    PARSE_FAILS("0x10", NUM_BAD_SUFFIX);
    PARSE_FAILS("_1", NUM_BAD);
    PARSE_FAILS("1_", NUM_BAD);
    PARSE_FAILS("1__0", NUM_BAD);
    PARSE_FAILS("1_.5", NUM_BAD);
    PARSE_FAILS("1._5", NUM_BAD);
    PARSE_FAILS("1_e5", NUM_BAD);
    PARSE_FAILS("1e_5", NUM_BAD);
    PARSE_FAILS("16_Gi", NUM_BAD);
    PARSE_FAILS("2B", NUM_BAD_SUFFIX);
    PARSE_FAILS("8kB", NUM_BAD_SUFFIX);
    PARSE_FAILS("3x", NUM_BAD_SUFFIX);
    PARSE_FAILS("1K", NUM_BAD_SUFFIX);
    PARSE_FAILS("1KiB", NUM_BAD_SUFFIX);
    PARSE_FAILS("1m", NUM_BAD_SUFFIX);
    PARSE_FAILS("1Ei", NUM_BAD);
    PARSE_FAILS("1k5", NUM_BAD_SUFFIX);
    PARSE_FAILS("1.5\xc2\xb5", NUM_BAD);
    PARSE_FAILS("1e999", NUM_OVERFLOW);
    PARSE_FAILS("1.8e308", NUM_OVERFLOW);
    PARSE_FAILS("1e308k", NUM_OVERFLOW);
    PARSE_FAILS("1e300Pi", NUM_OVERFLOW);
    PARSE_FAILS("1e99999999999999999999999", NUM_OVERFLOW);
    PARSE_FAILS("1e-400", NUM_UNDERFLOW);
    PARSE_FAILS("2.4e-324", NUM_UNDERFLOW); /* below half the smallest subnormal: 0 */
    PARSE_FAILS("1e-99999999999999999999999", NUM_UNDERFLOW);
    PARSE_FAILS("2x", NUM_BAD_SUFFIX);
    /* Whole numbers above 2^53 = 9007199254740992 that a double does not hold: odd
     * ones up to 2^54, 2^64 + 1; and with a suffix, 9007199254740993 × 1000 (the
     * digits decide) and 9007199254740993 × 2^10 (the mantissa decides). */
    PARSE_FAILS("9007199254740993", NUM_INEXACT);
    PARSE_FAILS("9_007_199_254_740_995", NUM_INEXACT);
    PARSE_FAILS("18446744073709551617", NUM_INEXACT);
    PARSE_FAILS("9007199254740993k", NUM_INEXACT);
    PARSE_FAILS("9007199254740993Ki", NUM_INEXACT);
    /* Those it holds pass: 2^53, 2^53 + 2, 2^64, 10^20 = 2^20 × 5^20 (5^20 < 2^53),
     * 8 × 2^50 = 2^53; and a number written with '.' or an exponent is a float:
     * 1e23 rounds as any float does. */
    PARSE("9007199254740992", 9007199254740992.0);
    PARSE("9007199254740994", 9007199254740994.0);
    PARSE("18446744073709551616", 18446744073709551616.0);
    PARSE("100000000000000000000", 1e20);
    PARSE("8Pi", 9007199254740992.0);
    PARSE("1e23", 1e23);
}

/* The text need not end in NUL: only len bytes count. */
static void test_parse_length(void)
{
    parse_is(__FILE__, __LINE__, "12345", 2, 12);
    parse_is(__FILE__, __LINE__, "8kB", 2, 8000);
    parse_is(__FILE__, __LINE__, "1e5", 1, 1);
    parse_fails(__FILE__, __LINE__, "1e5", 2, NUM_BAD);
    parse_fails(__FILE__, __LINE__, "1_0", 2, NUM_BAD);
    parse_fails(__FILE__, __LINE__, NULL, 0, NUM_BAD);
}

/* A string of `len` copies of `fill` between head and tail, on the heap. */
static char *long_literal(const char *head, char fill, size_t len, const char *tail, size_t *total)
{
    size_t h = strlen(head), t = strlen(tail);
    *total = h + len + t;
    char *s = malloc(*total + 1);
    if (!s) {
        printf("out of memory\n");
        exit(2);
    }
    memcpy(s, head, h);
    memset(s + h, fill, len);
    memcpy(s + h + len, tail, t + 1);
    return s;
}

#define TEN_MB ((size_t)10 * 1000 * 1000)

static void long_is(int line, const char *head, char fill, size_t len, const char *tail, double want)
{
    size_t total;
    char *s = long_literal(head, fill, len, tail, &total);
    parse_is(__FILE__, line, s, total, want);
    free(s);
}

static void long_fails(int line, const char *head, char fill, size_t len, const char *tail, NumStatus want)
{
    size_t total;
    char *s = long_literal(head, fill, len, tail, &total);
    parse_fails(__FILE__, line, s, total, want);
    free(s);
}

/* Ten megabytes of digits: linear time, bounded stack, exact rounding. */
static void test_parse_long(void)
{
    long_fails(__LINE__, "", '9', TEN_MB, "", NUM_OVERFLOW);
    long_fails(__LINE__, "1", '0', TEN_MB, "k", NUM_OVERFLOW);
    long_is(__LINE__, "", '0', TEN_MB, "", 0);
    long_is(__LINE__, "0.", '0', TEN_MB, "", 0);
    long_is(__LINE__, "1.", '0', TEN_MB, "", 1);
    long_is(__LINE__, "0.", '3', TEN_MB, "", 1.0 / 3);
    long_is(__LINE__, "0.1", '0', TEN_MB, "", 0.1);
    long_fails(__LINE__, "0.", '0', TEN_MB, "1", NUM_UNDERFLOW);
    long_is(__LINE__, "0.", '0', TEN_MB, "1e10000005", 1e4);
    long_is(__LINE__, "1", '0', TEN_MB, "e-10000000", 1);
    /* Halfway between two doubles: only the last of many digits decides. */
    long_is(__LINE__, "9007199254740993.", '0', 5000, "", 9007199254740992.0);
    long_is(__LINE__, "9007199254740993.", '0', 5000, "1", 9007199254740994.0);
    long_is(__LINE__, "9007199254740993", '0', 5000, "1e-5001", 9007199254740994.0);
}

static void test_status_messages(void)
{
    static const struct {
        NumStatus status;
        const char *message;
    } CASES[] = {
        {NUM_BAD, "not a number"},
        {NUM_BAD_SUFFIX, "unknown suffix (use k M G T P or Ki Mi Gi Ti Pi)"},
        {NUM_OVERFLOW, "number too large"},
        {NUM_UNDERFLOW, "number too small: it rounds to zero (the smallest a double holds is 4.9e-324)"},
    };
    for (size_t i = 0; i < sizeof CASES / sizeof CASES[0]; i++) {
        const char *got = num_status_message(CASES[i].status);
        check_got(strcmp(got, CASES[i].message) == 0, __FILE__, __LINE__, CASES[i].message, got);
    }
}

/* ---- Printing --------------------------------------------------------------- */

static void text_is(const char *file, int line, const char *what, const char *got, const char *want)
{
    char description[160];
    snprintf(description, sizeof description, "%s is \"%s\"", what, want);
    check_got(strcmp(got, want) == 0, file, line, description, got);
}

static void plain_is(const char *file, int line, double v, const char *want)
{
    char buf[64], what[64];
    snprintf(what, sizeof what, "num_format_plain(%.17g)", v);
    text_is(file, line, what, num_format_plain(v, buf, sizeof buf), want);
    snprintf(what, sizeof what, "num_format_json(%.17g)", v);
    if (isfinite(v))
        text_is(file, line, what, num_format_json(v, buf, sizeof buf), want);
}

#define PLAIN(v, want) plain_is(__FILE__, __LINE__, v, want)

static void test_format_plain(void)
{
    PLAIN(2, "2");
    PLAIN(0.5, "0.5");
    PLAIN(1.97e14, "1.97e14");
    PLAIN(137438953472.0, "137438953472");
    PLAIN(1e-7, "1e-7");
    PLAIN(0, "0");
    PLAIN(-0.0, "0");
    PLAIN(-2.5, "-2.5");
    PLAIN(0.1, "0.1");
    PLAIN(1.0 / 3, "0.3333333333333333");
    PLAIN(100, "100");
    PLAIN(1e14, "1e14");
    PLAIN(10000, "10000");
    PLAIN(100000, "1e5");
    PLAIN(16e9, "1.6e10");
    PLAIN(1048576, "1048576");
    PLAIN(123450000, "123450000");
    PLAIN(999999999999999.0, "999999999999999");
    PLAIN(1e15, "1e15");
    PLAIN(1234567890123456.0, "1234567890123456");
    PLAIN(1.5e15, "1.5e15");
    PLAIN(1e21, "1e21");
    PLAIN(123.456, "123.456");
    PLAIN(0.0001, "0.0001");
    PLAIN(0.00012, "0.00012");
    PLAIN(0.00001, "1e-5");
    PLAIN(1e100, "1e100");
    PLAIN(-1e-100, "-1e-100");
    PLAIN(DBL_MAX, "1.7976931348623157e308");
    PLAIN(DBL_MIN, "2.2250738585072014e-308");
    PLAIN(5e-324, "5e-324");
    PLAIN(INFINITY, "inf");
    PLAIN(-INFINITY, "-inf");
    PLAIN(NAN, "nan");
}

/* JSON has no inf or nan: they are null, so a stray one still leaves valid JSON. */
static void test_format_json_non_finite(void)
{
    char buf[16];
    text_is(__FILE__, __LINE__, "json of inf", num_format_json(INFINITY, buf, sizeof buf), "null");
    text_is(__FILE__, __LINE__, "json of -inf", num_format_json(-INFINITY, buf, sizeof buf), "null");
    text_is(__FILE__, __LINE__, "json of nan", num_format_json(NAN, buf, sizeof buf), "null");
}

/* Truncated like snprintf, always terminated. */
static void test_format_small_buffer(void)
{
    char buf[4] = "xyz";
    text_is(__FILE__, __LINE__, "plain into 4 bytes", num_format_plain(123456, buf, sizeof buf), "123");
    text_is(__FILE__, __LINE__, "unit into 4 bytes", num_format_unit(2.5, UNIT_SECONDS, 0, buf, sizeof buf),
            "2.5");
    num_format_plain(1, buf, 0);
    text_is(__FILE__, __LINE__, "plain into 0 bytes", buf, "2.5");
}

/* Deterministic pseudo-random doubles (Knuth's MMIX LCG). */
static uint64_t lcg_state = 12345;

static uint64_t lcg_next(void)
{
    lcg_state = lcg_state * 6364136223846793005u + 1442695040888963407u;
    return lcg_state;
}

static double random_double(int i)
{
    uint64_t bits = lcg_next();
    double v;
    if (i % 2) { /* any bit pattern: every exponent, subnormals too */
        memcpy(&v, &bits, sizeof v);
        return v;
    }
    /* a value of the size costs have */
    return (double)(bits >> 11) / 9007199254740992.0 * pow(10, (int)(lcg_next() % 40) - 20);
}

/* The exponent as the header promises: no '+', no leading zeros. */
static int exponent_is_tidy(const char *s)
{
    const char *e = strchr(s, 'e');
    if (!e)
        return 1;
    e += e[1] == '-';
    return e[1] >= '1' && e[1] <= '9';
}

static void test_plain_round_trip(void)
{
    for (int i = 0; i < 600; i++) {
        double v = random_double(i);
        if (!isfinite(v))
            continue;
        char buf[64], what[64];
        num_format_plain(v, buf, sizeof buf);
        snprintf(what, sizeof what, "plain(%a) reads back", v);
        check_got(strtod(buf, NULL) == v || (v == 0 && strtod(buf, NULL) == 0), __FILE__, __LINE__, what, buf);
        check_got(exponent_is_tidy(buf), __FILE__, __LINE__, "tidy exponent", buf);
        double back;
        if (v > 0 && fpclassify(v) == FP_NORMAL) {
            check_got(num_parse(buf, strlen(buf), &back) == NUM_OK && back == v, __FILE__, __LINE__,
                  "num_parse reads num_format_plain back", buf);
        }
    }
}

/* Literals of up to 15 significant digits and exponents up to ±22 (num.c reads them
 * without strtod) and just past those bounds (with it): the same double as strtod's,
 * bit for bit, written as digits, with a fraction, with an exponent and with k/M. */
static void test_parse_short_against_strtod(void)
{
    int differ = 0;
    for (int i = 0; i < 20000; i++) {
        char digits[24], text[64];
        int n = 1 + (int)(lcg_next() % 17), exp10 = (int)(lcg_next() % 51) - 25;
        for (int k = 0; k < n; k++)
            digits[k] = (char)('0' + (k == 0 ? 1 + lcg_next() % 9 : lcg_next() % 10));
        digits[n] = '\0';
        switch (i % 4) {
        case 0: snprintf(text, sizeof text, "%se%d", digits, exp10); break;
        case 1: snprintf(text, sizeof text, "%.1s.%se%d", digits, digits + 1, exp10); break;
        case 2: snprintf(text, sizeof text, "%s", digits); break;
        default: snprintf(text, sizeof text, "%sk", digits); break;
        }
        double want = strtod(text, NULL), got;
        if (i % 4 == 3)
            want = strtod(strcat(digits, "e3"), NULL);
        NumStatus s = num_parse(text, strlen(text), &got);
        if (s == NUM_INEXACT)
            continue; /* a whole number above 2^53: refused, not read */
        if (s != NUM_OK || memcmp(&got, &want, sizeof got) != 0) {
            if (differ++ < 5)
                check_got(0, __FILE__, __LINE__, "num_parse as strtod", text);
        }
    }
    check_got(differ == 0, __FILE__, __LINE__, "20,000 short literals read as strtod reads them",
              differ ? "some differ" : "");
}

static void unit_is(const char *file, int line, double v, Unit unit, int ascii, const char *want)
{
    char buf[64], what[64];
    snprintf(what, sizeof what, "num_format_unit(%.17g, %d, %d)", v, (int)unit, ascii);
    text_is(file, line, what, num_format_unit(v, unit, ascii, buf, sizeof buf), want);
}

#define UNIT(v, unit, want) unit_is(__FILE__, __LINE__, v, unit, 0, want)
#define UNIT_ASCII(v, unit, want) unit_is(__FILE__, __LINE__, v, unit, 1, want)

static void test_format_unit_examples(void)
{
    UNIT(6.977e-4, UNIT_SECONDS, "697.7 \xc2\xb5s");
    UNIT(1.378e-3, UNIT_SECONDS, "1.378 ms");
    UNIT(1.374e11, UNIT_FLOPS, "137.4 GFLOP");
    UNIT(5.578e8, UNIT_BYTES, "557.8 MB");
    UNIT(1.97e14, UNIT_RATE, "197 TFLOP/s");
    UNIT(8.2e11, UNIT_BW, "820 GB/s");
    UNIT(4.5e10, UNIT_BW, "45 GB/s");
    UNIT(240.2439, UNIT_NONE, "240.2");
    UNIT(16e9, UNIT_BYTES, "16 GB");
    UNIT(2.5, UNIT_SECONDS, "2.5 s");
    UNIT(12e-9, UNIT_SECONDS, "12 ns");
    UNIT(512, UNIT_BYTES, "512 B");
    UNIT(2, UNIT_FLOPS, "2 FLOP");
    UNIT(1e12, UNIT_BYTES, "1 TB");
    UNIT(246.4, UNIT_NONE, "246.4");
    UNIT(0.5, UNIT_NONE, "0.5");
    UNIT(1.2e-5, UNIT_NONE, "1.2e-5");
    UNIT(2.4e6, UNIT_NONE, "2.4e6");
}

static void test_format_unit_ranges(void)
{
    UNIT(0, UNIT_SECONDS, "0 s");
    UNIT(0, UNIT_BYTES, "0 B");
    UNIT(0, UNIT_FLOPS, "0 FLOP");
    UNIT(-0.0, UNIT_BYTES, "0 B");
    UNIT(0, UNIT_NONE, "0");
    UNIT(-6.977e-4, UNIT_SECONDS, "-697.7 \xc2\xb5s");
    UNIT(-16e9, UNIT_BYTES, "-16 GB");
    UNIT(3e-12, UNIT_SECONDS, "3 ps");
    UNIT(5e-14, UNIT_SECONDS, "50 fs");
    UNIT(5e-17, UNIT_SECONDS, "5e-17 s");
    UNIT(3600, UNIT_SECONDS, "3600 s");
    UNIT(9999, UNIT_SECONDS, "9999 s");
    UNIT(12346, UNIT_SECONDS, "1.235e4 s");
    UNIT(12345, UNIT_SECONDS, "1.234e4 s"); /* an exact tie rounds to even, as printf does */
    UNIT(0.5, UNIT_BYTES, "0.5 B");
    UNIT(0.25, UNIT_FLOPS, "0.25 FLOP");
    UNIT(1.234e-5, UNIT_BYTES, "1.234e-5 B");
    UNIT(1.2e20, UNIT_FLOPS, "120 EFLOP");
    UNIT(1.2e21, UNIT_FLOPS, "1.2e21 FLOP");
    UNIT(1e300, UNIT_BW, "1e300 B/s");
    UNIT(1234.5678, UNIT_NONE, "1235");
    UNIT(999999, UNIT_NONE, "1e6");
    UNIT(0.001, UNIT_NONE, "0.001");
    UNIT(0.0009999, UNIT_NONE, "9.999e-4");
    UNIT(1.5e3, UNIT_BYTES, "1.5 kB");
    UNIT(2.5e15, UNIT_RATE, "2.5 PFLOP/s");
    UNIT(3e18, UNIT_BYTES, "3 EB");
    UNIT(1.23456e9, UNIT_FLOPS, "1.235 GFLOP");
    UNIT(INFINITY, UNIT_SECONDS, "inf s");
    UNIT(-INFINITY, UNIT_BYTES, "-inf B");
    UNIT(NAN, UNIT_NONE, "nan");
}

/* Rounding to four digits can carry into the next prefix. */
static void test_format_unit_carry(void)
{
    UNIT(999.96e-6, UNIT_SECONDS, "1 ms");
    UNIT(999.94e-6, UNIT_SECONDS, "999.9 \xc2\xb5s");
    UNIT(999.96e-9, UNIT_SECONDS, "1 \xc2\xb5s");
    UNIT(0.99996, UNIT_SECONDS, "1 s");
    UNIT(0.99996e-12, UNIT_SECONDS, "1 ps");
    UNIT(999.96, UNIT_BYTES, "1 kB");
    UNIT(999.96e9, UNIT_FLOPS, "1 TFLOP");
    UNIT(999.96e18, UNIT_FLOPS, "1e21 FLOP");
    UNIT(9999.6, UNIT_SECONDS, "1e4 s");
    UNIT(0.99996, UNIT_BYTES, "1 B");
    UNIT(999999.6, UNIT_NONE, "1e6");
    UNIT(0.00099996, UNIT_NONE, "0.001");
}

static void test_format_unit_ascii(void)
{
    UNIT_ASCII(6.977e-4, UNIT_SECONDS, "697.7 us");
    UNIT_ASCII(999.96e-9, UNIT_SECONDS, "1 us");
    UNIT_ASCII(1.378e-3, UNIT_SECONDS, "1.378 ms");
    UNIT_ASCII(16e9, UNIT_BYTES, "16 GB");
    UNIT_ASCII(1.97e14, UNIT_RATE, "197 TFLOP/s");
}

/* Only where a locale with a decimal comma is installed. */
/* Percentages one way: four digits, never an exponent; below 0.001% a bound. */
static void test_format_percent(void)
{
    static const struct { double v; const char *want; } cases[] = {
        {50.15384, "50.15%"}, {0.390625, "0.3906%"}, {100, "100%"}, {0, "0%"},
        {97.1548, "97.15%"}, {0.001, "0.001%"}, {0.0009178, "<0.001%"},
        {2.4e-6, "<0.001%"}, {3.488e-310, "<0.001%"}, {-0.0001, "-<0.001%"},
        {12345.6, "12350%"},
    };
    char buf[32];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        text_is(__FILE__, __LINE__, "num_format_percent",
                num_format_percent(cases[i].v, buf, sizeof buf), cases[i].want);
}

static void test_comma_locale(void)
{
    static const char *const NAMES[] = {"de_DE.UTF-8", "de_DE.utf8", "fr_FR.UTF-8", "de_DE"};
    const char *found = NULL;
    for (size_t i = 0; i < sizeof NAMES / sizeof NAMES[0] && !found; i++)
        found = setlocale(LC_NUMERIC, NAMES[i]);
    if (!found)
        return;
    PARSE("1.5", 1.5);
    PARSE("2.5e-3k", 2.5);
    PLAIN(0.5, "0.5");
    PLAIN(1.97e14, "1.97e14");
    UNIT(6.977e-4, UNIT_SECONDS, "697.7 \xc2\xb5s");
    setlocale(LC_NUMERIC, "C");
}

/* num_divisible answers fmod(n, d) == 0: by hand for dims and chips (8192 over 64 chips
 * divides, 28672 over 3 does not), then against fmod itself where the integer shortcut
 * does not apply (fractions, negatives, 0, beyond 2^63, inf, nan) and at its edges. */
static void test_divisible(void)
{
    check(num_divisible(8192, 64), __FILE__, __LINE__, "8192 over 64");
    check(!num_divisible(28672, 3), __FILE__, __LINE__, "28672 over 3: 9557.33");
    check(!num_divisible(8, 64), __FILE__, __LINE__, "8 over 64: a remainder of 8");
    check(num_divisible(0, 7) && num_divisible(-0.0, 7), __FILE__, __LINE__, "0 over 7");
    check(num_divisible(-12, 4) && !num_divisible(-13, 4), __FILE__, __LINE__, "negatives");
    static const double ns[] = {0, 1, 3, 12, 7.5, -6, 0x1p53, 0x1p53 + 2, 0x1p62, 0x1p63,
                                0x1p64, 1e300, INFINITY, -INFINITY, NAN, 0.25, 1e-9};
    static const double ds[] = {1, 2, 3, 0.5, 2.5, 0, -4, 0x1p62, 0x1p63, INFINITY, NAN, 1e-9};
    int same = 0, n = 0;
    for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++)
        for (size_t j = 0; j < sizeof ds / sizeof ds[0]; j++, n++)
            same += num_divisible(ns[i], ds[j]) == (fmod(ns[i], ds[j]) == 0);
    check(same == n, __FILE__, __LINE__, "num_divisible(n, d) == (fmod(n, d) == 0)");
}

int main(void)
{
    test_parse_plain();
    test_parse_separators();
    test_parse_suffixes();
    test_parse_errors();
    test_parse_subnormal();
    test_parse_length();
    test_parse_long();
    test_status_messages();
    test_format_plain();
    test_format_json_non_finite();
    test_format_small_buffer();
    test_plain_round_trip();
    test_parse_short_against_strtod();
    test_format_unit_examples();
    test_format_unit_ranges();
    test_format_unit_carry();
    test_format_unit_ascii();
    test_format_percent();
    test_comma_locale();
    test_divisible();
    printf("%d passed, %d failed\n", passed, failed);
    return failed != 0;
}
