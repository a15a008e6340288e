/* report.h — what a statement costs, for a person (text) or a program (JSON Lines).
 *
 * Text: one block per statement, each figure with its formula and its value in human
 * units. JSON: one object per statement with exactly the keys of DESIGN.md; a value
 * that still depends on an unbound dim is null and `formula` holds it.
 */
#ifndef ROOFLINE_REPORT_H
#define ROOFLINE_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "chip.h"
#include "cost.h"
#include "mesh.h"
#include "op.h"
#include "optimizer.h"
#include "remat.h"
#include "roof.h"
#include "poly.h"
#include "summary_rows.h"

enum { REPORT_NOTE_SIZE = 200 };

/* The number a name is bound to, for the JSON's "dims": true when it is a number, its
 * id in *id (-1 when the name is unknown). */
typedef bool (*ReportNumber)(const char *name, double *value, int *id, void *ctx);

typedef struct {
    const char *stmt; /* the statement's source text */
    size_t stmt_len;
    int line;
    const char *file; /* the name of the source the statement is in */
    const Tensor *result;
    const Roofline *roof;
    const Cost *cost;  /* its collectives */
    const Mesh *mesh;  /* for the names of their axes */
    const Chip *chip;  /* a block's (its operations carry their own) */
    CostMode training;
    const Remat *remat;         /* training: what the backward pass keeps */
    const Optimizer *optimizer; /* training: how its state is counted */
    double microbatches; /* of a training step (`mode training microbatches M`); 1 */
    bool launch_graph;   /* `mode ... launch graph`: how t_predicted's kernels launch */
    const Summary *summary; /* a whole-model statement's MFU, tokens/s, run; or NULL */
    char (*notes)[REPORT_NOTE_SIZE]; /* what the report notes (World.under_way) */
    int nnotes;
    PolyLookup lookup; /* the figures' values: padded shards (layout.h) */
    void *lookup_ctx;
    PolyNamer namer;
    PolyLookup values;   /* the world's values, unpadded (a result's shape) */
    ReportNumber number; /* the dims' values (the JSON's "dims") */
    void *ctx;        /* for namer, values and number */
    bool json;
    FILE *out;
} Report;

void report_statement(const Report *r);
/* What a statement's first line says of the mode: "  [training: forward + backward]",
 * with ", overlap step" when its collectives overlap the whole step; "" in inference. */
const char *report_mode_tag(CostMode mode);
/* The JSON key `,"mode":"training"` (or "inference") of a record, as every record spells
 * it, so that the HTML page can state each section's configuration. */
void report_json_mode(FILE *out, CostMode mode);
/* The keys `,"line":N,"file":"NAME"` of a record: its statement's line and the source it
 * is in (a path as given, <-e>, <stdin>), so that the records of two scripts of one run,
 * or of a script and a file it includes, are told apart. */
void report_json_where(FILE *out, int line, const char *file);
/* The same with the step's microbatches when there are several:
 * "  [training: forward + backward, 8 microbatches]"; into buf, which it returns. */
const char *report_step_tag(CostMode mode, double microbatches, char *buf, size_t size);
/* A block call or a repeat: the breakdown of its operations and the totals. */
void report_block(const Report *r, const Op *op);
/* A statement that costs nothing: a number ("2·B = 512") or a tensor's shape. */
void report_number(const Report *r, const Poly *value);
void report_tensor(const Report *r, const char *name);
/* Source text on one line: each run of white space (newlines too) one space, control
 * bytes and bytes that are not UTF-8 escaped as \xNN (diag_escaped). */
void report_text_line(FILE *out, const char *text, size_t len);

#endif
