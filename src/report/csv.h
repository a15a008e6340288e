/* csv.h — --csv: the run's JSON records as one CSV table (RFC 4180).
 *
 * The rows are drawn from the very records --json prints, so every field --json has,
 * CSV has, with the same value. One fixed header (csv_columns) whatever the run holds;
 * the first column, `kind`, says what a row is:
 *
 *   statement   a costed statement (a contraction, a collective, an elementwise op)
 *   block       a block call or repeat: its totals; then one `op` row per operation of
 *   op          its breakdown, `path` naming it from the top (repeat 3/dense_layer/mla)
 *   sweep       one row per point of a sweep: `dim` is the swept name, `at` its value
 *   solve       one row per range of a solve (`from`, `to`, `bound`)
 *   search      one row per configuration searched
 *   fit, serve, send
 *   chip        one row per field of a chip (`chip NAME`, `--chips`): field, value,
 *               meaning, source; a derived figure has its formula in `formula`
 *
 * A field a row has no value for is empty; a list or an object (shape, mesh, strategy)
 * is one field holding its JSON text; formulas are the formula_* columns.
 */
#ifndef ROOFLINE_CSV_H
#define ROOFLINE_CSV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* A CSV field: quoted, its quotes doubled, a byte that is not UTF-8 as U+FFFD. */
void csv_field(FILE *out, const char *text);

/* The header's names, in order; NULL-terminated. */
extern const char *const csv_columns[];

typedef struct {
    FILE *out;      /* where the CSV goes */
    FILE *records;  /* where the evaluator writes JSON Lines (a memory stream) */
    char *text;     /* the memory stream's buffer */
    size_t len;
    bool header;    /* written already */
} CsvStream;

/* The stream the evaluator should write its JSON records to; NULL when out of memory. */
FILE *csv_begin(CsvStream *c, FILE *out);
/* Writes, as rows, the records written to the stream since the last call. False when a
 * record is not JSON (an internal fault, reported on err) or out is failing. */
bool csv_flush(CsvStream *c, FILE *err);
void csv_end(CsvStream *c);

#endif
