/* plot.h — charts: the roofline chart and sweep curves, drawn as SVG or as Unicode
 * text in a terminal.
 *
 * A Plot is plain data: the evaluator fills it, this module only draws. Axes may be
 * logarithmic (the roofline chart is log-log). Three kinds of marks:
 *   roofs   the chart's ceilings: a horizontal line y = peak, or a sloped line
 *           y = bandwidth · x (straight on log-log axes), each drawn only where it is
 *           the lowest of the roofs of its group, so a group's roofs make the roofline
 *           min(peak, bandwidth · x); a ridge point marks where they meet;
 *   points  one per statement: its (intensity, attained FLOPs/s), its area
 *           proportional to `weight` (its share of the time), with a label;
 *   series  curves through (x[i], y[i]), e.g. attained FLOPs/s against B in a sweep.
 * Ownership: a Plot borrows every string and array it points to.
 */
#ifndef ROOFLINE_PLOT_H
#define ROOFLINE_PLOT_H

#include <stdbool.h>
#include <stdio.h>

typedef struct {
    const char *label; /* "bf16 peak 197 TFLOP/s", "HBM 820 GB/s" */
    double peak;       /* > 0 for a horizontal roof, else 0 */
    double bandwidth;  /* > 0 for a sloped roof (y = bandwidth · x), else 0 */
    int group;         /* roofs of one group form one roofline (one chip and dtype) */
} PlotRoof;

typedef struct {
    const char *label;
    double x, y;
    double weight;     /* 0..1: the share of the time; sets the marker's area */
    const char *colour; /* SVG fill, e.g. "#d62728"; NULL: the palette's */
    const char *note;   /* SVG: shown on hover (a <title>); NULL: none */
} PlotPoint;

struct PlotThin;

/* Its points are x[0 .. n), y[0 .. n), or, where thin is set (and x, y are NULL), the
 * n points a thinner kept (plot_thin_read). */
typedef struct {
    const char *label;
    const double *x, *y;
    int n;
    const struct PlotThin *thin;
} PlotSeries;

typedef struct {
    const char *title;
    const char *xlabel, *ylabel;
    bool logx, logy;
    const PlotRoof *roofs;
    int nroofs;
    const PlotPoint *points;
    int npoints;
    const PlotSeries *series;
    int nseries;
    /* SVG inside an HTML page: no XML namespace, and ids that start with it, unique in
     * the page. NULL: a standalone document. */
    const char *inline_id;
    /* A range the user set (`plot x 1 .. 1024`): lo < hi, finite, positive on a log
     * axis; drawn as it is. Unset, an axis follows the data: round bounds around it. */
    bool xset, yset;
    double xrange[2], yrange[2];
} Plot;

/* A long series thinned while it is made, x never decreasing: the range lo .. hi of x
 * is cut into PLOT_THIN_SLICES slices (of log x when logx), and each slice keeps its
 * first, lowest, highest and last points, in order. A point that cannot be placed (not
 * finite, or not positive on a log axis) is kept as it is: it breaks the line. Drawn
 * from the kept points, a chart looks the same as from all of them, to a tenth of a
 * pixel up to 1600 pixels wide; a million points make at most 65,536 (and the breaks).
 * With every set, all points are kept (for a series whose x do not ascend). The kept
 * points are n, read with plot_thin_read, owned by the PlotThin. A page of fresh
 * memory costs more than thousands of points (a fault), and a long sweep's kept points
 * are most of its memory: their x are kept as their steps from the one before (a byte
 * for a whole step below 64, as a sweep's mostly are), and their y as runs of one value
 * (the same bits), so the flat roof's thousands of points hold one y. */
enum { PLOT_THIN_SLICES = 16384 };
typedef struct PlotThin {
    double lo, hi;
    bool logx, logy, every;
    bool rising;     /* set by a caller whose x never go down (a sweep's ascending points):
                      * then plot_thin_add does not check that they do not */
    int expect;      /* set by a caller that knows how many points it will add: room for
                      * as many as can be kept is made at once, not grown by copying */
    unsigned char *x_code; /* the kept x, each as its step from the one before (plot.c) */
    int x_bytes, x_room;
    int *x_mark;     /* where the code of points 0, 256, 512, ... begins */
    int marks, mark_room;
    double x_kept;   /* the last x kept: the next one's step is from it */
    int n;           /* the points kept */
    double *run_y;   /* run k: the points before run_end[k] and from run_end[k - 1] on */
    int *run_end;
    int runs, run_cap;
    bool failed;     /* memory ran out, or x went down */
    double last_x;   /* of the point added last */
    /* the slice being filled: its number, where the next begins, and its points so
     * far (indices by arrival: 0 is the first, count - 1 the last) */
    int slice, count, low_at, high_at;
    double edge, first[2], last[2], low[2], high[2];
    int stride;      /* the points of the slice filled last: where the next one's edge is
                      * looked for first */
} PlotThin;
void plot_thin_init(PlotThin *t, double lo, double hi, bool logx, bool logy, bool every);
/* Adds n points; false once memory ran out or x went down (then nothing is kept). */
bool plot_thin_add(PlotThin *t, const double *x, const double *y, int n);
/* Keeps the last slice's points; false as plot_thin_add. */
bool plot_thin_end(PlotThin *t);
void plot_thin_free(PlotThin *t);
/* Copies the kept points from, from + 1, ... into x and y, at most max of them; returns
 * how many (0 from n on). */
int plot_thin_read(const PlotThin *t, int from, double *x, double *y, int max);

/* A standalone SVG document (width × height pixels) with axes, ticks, tick labels in
 * SI units (1e12 → "1T"), axis labels, a title, a legend, the roofs (ridge points
 * marked and labelled with their x), the points and the series. Non-finite or
 * non-positive values on a log axis are skipped, never drawn as garbage. No two labels
 * overlap: the labels over the plot stay inside it, stepping around each other and the
 * points (farther out with a leader line, or left out: a point's then becomes its
 * tooltip), and the rest stay inside the chart, cut short with "…" where too long.
 * Every <text> carries data-box="x0 y0 x1 y1", the box the layout gave it. Returns
 * false if writing failed. */
bool plot_svg(FILE *out, const Plot *p, int width, int height);

/* The same chart in `columns` × `rows` character cells, with Unicode box drawing for
 * the frame, braille dots (U+2800..U+28FF) for curves and roofs, letters for points,
 * tick labels on both axes and a legend below. ascii != 0 uses only ASCII ('*', '.',
 * '-', '|', '+'). color: the lines, points and legend keys in their SVG colours, as
 * 24-bit terminal escapes (for a terminal; never in a pipe or with NO_COLOR). Returns
 * false if writing failed. */
bool plot_text(FILE *out, const Plot *p, int columns, int rows, int ascii, bool color);

#endif
