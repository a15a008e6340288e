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
} PlotPoint;

typedef struct {
    const char *label;
    const double *x, *y;
    int n;
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
} Plot;

/* A standalone SVG document (width × height pixels) with axes, ticks, tick labels in
 * SI units (1e12 → "1T"), axis labels, a title, a legend, the roofs (ridge points
 * marked and labelled with their x), the points and the series. Non-finite or
 * non-positive values on a log axis are skipped, never drawn as garbage. Returns false
 * if writing failed. */
bool plot_svg(FILE *out, const Plot *p, int width, int height);

/* The same chart in `columns` × `rows` character cells, with Unicode box drawing for
 * the frame, braille dots (U+2800..U+28FF) for curves and roofs, letters for points,
 * tick labels on both axes and a legend below. ascii != 0 uses only ASCII ('*', '.',
 * '-', '|', '+'). Returns false if writing failed. */
bool plot_text(FILE *out, const Plot *p, int columns, int rows, int ascii);

#endif
