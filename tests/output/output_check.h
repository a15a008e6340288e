/* output_check.h — the output invariants of --json and --csv (issue 16), checked
 * strictly, for the tests (check-output) and the fuzz targets (a fault is a find):
 *
 *   JSON   every line one JSON object (RFC 8259): valid UTF-8, no raw control
 *          character, finite numbers, no key twice in an object
 *   CSV    the whole output is one table (RFC 4180): a "kind,..." header, then rows
 *          of as many fields, UTF-8, no inf or nan, nothing else
 */
#ifndef ROOFLINE_OUTPUT_CHECK_H
#define ROOFLINE_OUTPUT_CHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* The faults in len bytes of output (text[len] must be a NUL): the first of each JSON
 * line, or the first of the CSV. Each is printed to `out` (when not NULL) as
 * NAME:LINE:COL: what is wrong. */
int output_check(bool json, const char *name, const unsigned char *text, size_t len, FILE *out);

#endif
