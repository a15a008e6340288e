/* num.h — numbers in and out: literals with SI and binary suffixes, the fixed
 * locale-free formats of the report, and human units.
 *
 * Everything here is pure: no allocation, no global state, no locale (a '.' is always
 * the decimal point, whatever LC_NUMERIC says).
 */
#ifndef ROOFLINE_NUM_H
#define ROOFLINE_NUM_H

#include <stdbool.h>
#include <stddef.h>

typedef enum {
    NUM_OK,
    NUM_BAD,       /* not a number at all, or a stray character ("1.2.3", "1e") */
    NUM_BAD_SUFFIX, /* digits then an unknown suffix ("2B", "8kB", "3x") */
    NUM_OVERFLOW,  /* does not fit a double ("1e999", "1e308k") */
    NUM_UNDERFLOW, /* not zero but rounds to zero ("1e-400"); a subnormal ("2.2e-308")
                    * is a number */
    NUM_INEXACT    /* a whole number written in digits (no '.', no exponent) above 2^53
                    * that a double does not hold: 9007199254740993 would round */
} NumStatus;

/* Parse a literal: decimal digits with optional '_' separators between digits, an
 * optional fraction and exponent, then an optional suffix: k M G T P (1e3 .. 1e15) or
 * Ki Mi Gi Ti Pi (2^10 .. 2^50). "8k" = 8000, "16Gi" = 17179869184, "1.5e3" = 1500,
 * "1_000" = 1000. text need not be NUL-terminated. */
NumStatus num_parse(const char *text, size_t len, double *out);
/* A short English reason for a status, e.g. "number too large". */
const char *num_status_message(NumStatus s);

/* Shortest form that reads back to the same double, exponent without '+' or leading
 * zeros. Integers below 1e15 print in full unless they end in five or more zeros:
 * 2 -> "2", 0.5 -> "0.5", 137438953472 -> "137438953472", 1.97e14 -> "1.97e14",
 * 16e9 -> "1.6e10", 1e-7 -> "1e-7". Returns buf. */
char *num_format_plain(double v, char *buf, size_t size);

/* JSON number: like num_format_plain but always valid JSON ("1.97e+14" is fine, but we
 * print "1.97e14", which JSON also accepts). inf and nan print as null. */
char *num_format_json(double v, char *buf, size_t size);

typedef enum {
    UNIT_SECONDS, /* 697.7 µs, 1.378 ms, 2.5 s, 12 ns */
    UNIT_BYTES,   /* 557.8 MB, 16 GB, 512 B (decimal, as the book) */
    UNIT_FLOPS,   /* 137.4 GFLOP, 2 FLOP */
    UNIT_RATE,    /* FLOP/s: 197 TFLOP/s */
    UNIT_BW,      /* B/s: 820 GB/s */
    UNIT_NONE     /* plain, 4 significant digits: 246.4, 0.5, 1.2e-5 */
} Unit;

/* Four significant digits, trailing zeros dropped, an SI prefix chosen so the mantissa
 * is in [1, 1000): 697.7 µs, 1.378 ms, 137.4 GFLOP, 240.2, 1 TB. Values beyond the
 * largest prefix use an exponent ("1.2e21 FLOP"). 0 prints as "0 s", "0 B".
 * The text form uses "µs"; ascii != 0 gives "us". Returns buf. */
char *num_format_unit(double v, Unit unit, int ascii, char *buf, size_t size);
/* A value a user gave, as a sweep's x: a whole number in full (65536, 2000000, not
 * 6.554e4 or 2e+06) below 1e12, else six significant digits. Returns buf. */
char *num_format_given(double v, char *buf, size_t size);
/* A percentage, the one way every report writes one: four significant digits and "%"
 * (50.15%, 0.3906%, 100%), "<0.001%" below that (never an exponent), "0%" for none.
 * Returns buf. */
char *num_format_percent(double percent, char *buf, size_t size);
/* Columns a UTF-8 string takes (µ is one): continuation bytes take none. */
int num_width(const char *s);
/* The printf width that right-aligns s in `columns` of a terminal: µ is one column but
 * two bytes, so "%*s" with num_columns(s, 12) lines µs up under ms. */
int num_columns(const char *s, int columns);

/* fmod(n, d) == 0, the same answer without the library call when both are whole
 * numbers a 64-bit integer holds (d > 0): a dim and the chips that split it. */
bool num_divisible(double n, double d);

/* The greatest common divisor of two whole numbers held as doubles (Euclid, by fmod). */
double num_gcd(double a, double b);

#endif
