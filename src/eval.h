/* eval.h — walks the tree: names, tensors, chips, statements.
 *
 * The World is what outlives one buffer of source: bindings, chips, the chip picked
 * by `use`. Evaluating a reported statement computes its Cost (cost.h), puts it on
 * the roofline of its chip (roof.h) and hands that to the report (report.h).
 *
 * Ownership: the World owns every value and chip; values never point into a tree, so
 * a tree can be freed as soon as it has been evaluated.
 */
#ifndef ROOFLINE_EVAL_H
#define ROOFLINE_EVAL_H

#include <stdbool.h>
#include <stdio.h>

#include "ast.h"
#include "chip.h"
#include "cost.h"
#include "diag.h"
#include "intern.h"
#include "mesh.h"
#include "roof.h"

typedef enum { VAL_UNBOUND, VAL_NUMBER, VAL_TENSOR } ValueKind;

typedef struct {
    ValueKind kind;
    double number;
    Tensor *tensor;
} Value;

/* A costed statement, kept for the roofline chart (`plot`). */
typedef struct {
    char *label;
    char chip[32];
    DType compute;
    double intensity, attained, t_lower;
    double peak, hbm_bw, link_bw; /* link_bw 0 without collectives */
} ChartPoint;

typedef struct {
    Intern *names;
    Value *values; /* by interned id; grows with names */
    int nvalues;
    ChipTable chips;
    int use_chip;  /* interned name of the default chip, or -1 */
    Mesh mesh;     /* from `mesh` or `use CHIP AxB`; no axes: one chip */
    ChartPoint *chart; /* every statement costed with all dims bound, for `plot` */
    int nchart, chart_cap;
} World;

bool world_init(World *w);
void world_free(World *w);
/* The value bound to a name (VAL_UNBOUND if none). */
const Value *world_value(const World *w, int name);
/* Gives a name a value for a while (a sweep's points, solve's free dim) and returns
 * what it held; world_restore puts that back. The world takes v's tensor, the caller
 * the returned one. False from world_swap if memory ran out. */
bool world_swap(World *w, int name, Value v, Value *old);
void world_restore(World *w, int name, Value old);
/* PolyLookup over the bound numbers of a world. */
bool world_lookup(int sym, double *value, void *world);
/* PolyNamer over the interned names of a world. */
const char *world_namer(int sym, void *world);

typedef struct Eval Eval;
/* Runs an included file, resolved against the file being evaluated. */
typedef bool (*IncludeFn)(void *ctx, const Source *from, const char *path, Span span);

struct Eval {
    World *world;
    const Source *src;
    Diag *diag;
    bool exact;
    bool json;
    bool csv;      /* sweeps as CSV */
    FILE *out;
    IncludeFn include;
    void *include_ctx;
};

enum { EVAL_MAX_DEPTH = 1000 }; /* nesting of one expression */

/* An expression statement (or a collective) costed on its chip but not reported: the
 * figures with the dims bound now, unbound ones left as formulas. For solve and sweep. */
typedef struct {
    Cost cost;
    Roofline roof;
    Tensor *result;
    Mesh mesh;
    const Chip *chip;
} Costed;
/* False after reporting an error; the statement needs an operation and a chip. */
bool eval_costed(Eval *ev, const Stmt *s, Costed *out);
void costed_free(Costed *c);

/* solve and sweep (explore.c). */
bool eval_solve(Eval *ev, const Stmt *s);
bool eval_sweep(Eval *ev, const Stmt *s);
bool eval_plot(Eval *ev, const Stmt *s);

/* A number from an expression (dims bound, finite); false after reporting why not. */
bool eval_number(Eval *ev, const Node *n, double *out);
/* Evaluates one statement; false after reporting an error. */
bool eval_stmt(Eval *ev, const Stmt *s);

#endif
