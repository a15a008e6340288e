/* scan.h — solve and sweep over statements that the compiled curves cannot take:
 * block calls (whole models) and statements whose mesh depends on the dim
 * (`on v5p mesh X = 16, Y = n`). Each value of the dim is costed whole, as the
 * statement would be with `let` binding it: slower than a compiled curve (a model per
 * point), exact at every point it tries.
 *
 * solve tries 1, 2, 4, ... until a value cannot be costed (a mesh larger than the pod,
 * a dim that is no longer whole) or 2^24, then finds each change of the bound between
 * two tries by bisection on whole numbers: a bound that changes and changes back
 * between two powers of two is not seen.
 */
#ifndef ROOFLINE_SCAN_H
#define ROOFLINE_SCAN_H

#include <stdbool.h>

#include "eval.h"
#include "plot.h"

/* Whether the statement calls a block, gives its own mesh, compares two costs, or (in
 * training) has a `param`, a step with its optimizer update: then it is scanned. */
bool scan_wanted(const Eval *ev, const Stmt *s);
/* The sweep's statements at each of the n values of the dim: numbers, or chips (a
 * sweep over chips, `sweep c in [v5e, v5p] { ... on c }`). With `plot`, the chart of
 * the numbers (logx: on a log axis, as a log range is). */
bool scan_sweep(Eval *ev, const Stmt *sweep, int dim, const BoundValue *x, int n, bool logx);
/* Where the statement's bound changes as the dim grows. */
bool scan_solve(Eval *ev, const Stmt *s, int dim);

/* A sweep's chart (explore.c), for both kinds of sweep: attained FLOP/s against the
 * swept dim, a series per statement of the body, labelled as its table is.
 * explore_sweep_chart_begin sets it up and applies the options after `plot`, so that a wrong
 * option stops the sweep before a point is costed; explore_sweep_chart_draw draws the series
 * (at most 64) in the terminal or into the SVG file, and with --json or --csv only into
 * a file. False after an error (reported). A SweepChart points into itself: it is
 * not copied. */
typedef struct {
    Plot plot;
    char title[160];
} SweepChart;
bool explore_sweep_chart_begin(Eval *ev, const Stmt *sweep, bool logx, SweepChart *c);
bool explore_sweep_chart_draw(Eval *ev, const Stmt *sweep, SweepChart *c, const PlotSeries *series,
                      int n);

#endif
