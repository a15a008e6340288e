/* plot.c — draws a Plot (plot.h) as an SVG document or as text in character cells.
 *
 * The shared half owns the geometry: axis ranges and ticks with SI labels, the roofs of
 * each group and their ridge points, the runs of drawable series points, the legend's
 * entries. It hands every mark over in unit coordinates (u, v in 0..1 across the plot
 * area) to a Painter. The SVG painter writes elements; the text painter sets braille
 * dots and letters in a grid of cells, then prints the grid. Nothing here knows chips
 * or costs, and nothing depends on the rest of the program (only libm).
 */
#include "plot.h"

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "nomem.h"

/* ---- Numbers and labels -------------------------------------------------------- */

static bool has_text(const char *s)
{
    return s != NULL && *s != '\0';
}

/* Whether v can be placed on an axis: finite, and positive on a log axis. */
static bool on_axis(double v, bool logscale)
{
    return isfinite(v) && (!logscale || v > 0);
}

/* Up to four significant digits with an SI prefix: 1e14 -> "100T", 2.5e11 -> "250G",
 * 1000 -> "1k", 0.5 -> "0.5". Beyond yotta, an exponent. */
static void si_format_digits(char *buf, size_t size, double v, int digits)
{
    static const char PREFIXES[] = "kMGTPEZY";
    double scaled = v;
    int k = 0;
    digits = digits < 2 ? 2 : digits > 17 ? 17 : digits; /* a double has 17 */
    while (fabs(scaled) >= 1000 && PREFIXES[k] != '\0') {
        scaled /= 1000;
        k++;
    }
    if (k == 0)
        snprintf(buf, size, "%.*g", digits, v + 0.0); /* + 0.0: no "-0" */
    else if (fabs(scaled) >= 1000) /* past the prefixes: "1e+30", unless more tell */
        snprintf(buf, size, "%.*g", digits > 4 ? digits : 3, v);
    else
        snprintf(buf, size, "%.*g%c", digits, scaled, PREFIXES[k - 1]);
}

/* Four significant digits: "1.97T", "240", "1e+30". */
static void si_format(char *buf, size_t size, double v)
{
    si_format_digits(buf, size, v, 4);
}

/* "ridge 240": intensities read best as whole numbers, as the book writes them. */
static void ridge_format(char *buf, size_t size, double x)
{
    char num[32];
    if (x >= 10 && x < 1e5)
        snprintf(num, sizeof num, "%.0f", x);
    else
        si_format(num, sizeof num, x);
    snprintf(buf, size, "ridge %s", num);
}

/* The next code point of a NUL-terminated string, advancing *s. A malformed sequence
 * reads as U+FFFD, so any label can be drawn without breaking the XML or the count of
 * cells. */
static uint32_t utf8_next(const unsigned char **s)
{
    const unsigned char *p = *s;
    uint32_t c = p[0];
    int len = c < 0x80 ? 1 : c < 0xC2 ? 0 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : c < 0xF5 ? 4 : 0;
    if (len == 0) {
        *s = p + 1;
        return 0xFFFD;
    }
    if (len > 1)
        c &= 0x3Fu >> (len - 1);
    for (int i = 1; i < len; i++) {
        if ((p[i] & 0xC0) != 0x80) { /* also stops at the NUL */
            *s = p + i;
            return 0xFFFD;
        }
        c = c << 6 | (p[i] & 0x3Fu);
    }
    *s = p + len;
    bool overlong = (len == 3 && c < 0x800) || (len == 4 && c < 0x10000);
    bool surrogate = c >= 0xD800 && c < 0xE000;
    return overlong || surrogate || c > 0x10FFFF ? 0xFFFD : c;
}

static void utf8_put(FILE *out, uint32_t c)
{
    static const unsigned LEAD[] = {0, 0, 0xC0, 0xE0, 0xF0};
    int len = c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4;
    if (len == 1) {
        putc((int)c, out);
        return;
    }
    putc((int)(LEAD[len] | c >> (6 * (len - 1))), out);
    for (int i = len - 2; i >= 0; i--)
        putc((int)(0x80 | (c >> (6 * i) & 0x3F)), out);
}

/* Code points, which is cells in the text chart and the unit of width estimates. */
static int utf8_length(const char *s)
{
    int n = 0;
    for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p != '\0'; n++)
        utf8_next(&p);
    return n;
}

/* ---- Axes ------------------------------------------------------------------------ */

typedef struct {
    double lo, hi;
    bool any;
} Extent;

static void extent_add(Extent *e, double v, bool logscale)
{
    if (!on_axis(v, logscale))
        return;
    if (!e->any || v < e->lo)
        e->lo = v;
    if (!e->any || v > e->hi)
        e->hi = v;
    e->any = true;
}

typedef struct {
    bool logscale;
    double lo, hi; /* the drawn range: whole decades on a log axis, whole steps else */
    double step;   /* a linear axis's tick spacing; on a log axis, the decades from one
                      labelled tick to the next (1, or more when too many decades) */
} Axis;

/* The largest of 1, 2 or 5 times a power of ten that is at most v (down) or the
 * smallest that is at least v (up): round bounds for a log axis. */
static double round_125(double v, bool up)
{
    static const double STEPS[] = {1, 2, 5, 10};
    double decade = pow(10, floor(log10(v)));
    double f = v / decade;
    if (up) {
        for (int i = 0; i < 4; i++)
            if (f <= STEPS[i] * (1 + 1e-9))
                return STEPS[i] * decade;
    }
    for (int i = 3; i >= 0; i--)
        if (f >= STEPS[i] * (1 - 1e-9))
            return STEPS[i] * decade;
    return decade;
}

/* Round bounds around the data (1, 2 or 5 times a power of ten), so a sweep over
 * 1 .. 16k draws 1 .. 20k. The bounds stay within 1e±300 so that every position is
 * finite; one value gets a step of room either side. */
static Axis log_axis(Extent e)
{
    Axis a = {.logscale = true, .lo = 1, .hi = 10};
    if (!e.any)
        return a;
    double lo = round_125(fmax(e.lo, 1e-300), false), hi = round_125(fmin(e.hi, 1e300), true);
    if (!(hi > lo * (1 + 1e-9))) {
        lo = round_125(lo * 0.99, false);
        hi = round_125(hi * 1.01, true);
    }
    a.lo = lo;
    a.hi = hi;
    return a;
}

/* 1, 2 or 5 times a power of ten, at least raw. */
static double nice_step(double raw)
{
    double mag = pow(10, floor(log10(raw))), f = raw / mag;
    return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * mag;
}

/* About `target` nice steps around the data, padded by a twentieth; the padding does not
 * cross zero, so data that are all positive start at 0 rather than at "-20T". */
static Axis linear_axis(Extent e, int target)
{
    Axis a = {.logscale = false, .lo = 0, .hi = 1, .step = 0.2};
    if (!e.any)
        return a;
    double lo = e.lo, hi = e.hi;
    if (!(hi - lo > fabs(hi) * 1e-12)) { /* one value: a range around it */
        double pad = lo != 0 ? fabs(lo) / 2 : 1;
        lo -= pad;
        hi += pad;
    }
    double pad = (hi - lo) / 20;
    lo = e.lo >= 0 && lo - pad < 0 ? 0 : lo - pad;
    hi = e.hi <= 0 && hi + pad > 0 ? 0 : hi + pad;
    a.step = nice_step((hi - lo) / target);
    a.lo = floor(lo / a.step) * a.step;
    a.hi = ceil(hi / a.step) * a.step;
    return a;
}

/* Every how many decades a log axis has a tick. Each decade, while they are few
 * enough to get a row (a text chart's target is a quarter of its rows) or a label's
 * room each; else 1, 2 or 5 times a power of ten of them, so that about target labels
 * fall evenly: 1e-300 .. 1e300 on 4 gets one every 200 decades. Skipping the labels
 * that collide instead kept an uneven few, and MAX_TICKS cut the top decades off. */
static double decade_step(double lo, double hi, int target)
{
    double decades = log10(hi) - log10(lo);
    target = target < 2 ? 2 : target;
    return decades <= 4 * target ? 1 : nice_step(decades / target);
}

static Axis axis_make(Extent e, bool logscale, int target)
{
    Axis a = logscale ? log_axis(e) : linear_axis(e, target < 2 ? 2 : target);
    if (logscale)
        a.step = decade_step(a.lo, a.hi, target);
    bool sane = isfinite(a.lo) && isfinite(a.hi) && a.hi > a.lo &&
                (logscale || (isfinite(a.step) && a.step > 0));
    if (!sane) /* data near the limits of double: an empty default, never nan */
        a = logscale ? log_axis((Extent){0}) : linear_axis((Extent){0}, 2);
    return a;
}

/* The range the user set, as it is; ticks as for the data's range. */
static Axis fixed_axis(const double range[2], bool logscale, int target)
{
    Axis a = {.logscale = logscale, .lo = range[0], .hi = range[1]};
    a.step = logscale ? decade_step(a.lo, a.hi, target)
                      : nice_step((a.hi - a.lo) / (target < 2 ? 2 : target));
    return a;
}

static bool range_usable(const double range[2], bool logscale)
{
    return on_axis(range[0], logscale) && on_axis(range[1], logscale) && range[1] > range[0];
}

/* Where v falls across the axis, 0 at lo and 1 at hi; nan if it cannot be placed. A
 * value a million axis-lengths away (possible only when the range fell back to the
 * default) cannot: its pixel would not be finite. */
static double axis_pos(const Axis *a, double v)
{
    if (!on_axis(v, a->logscale))
        return NAN;
    double pos = a->logscale ? (log10(v) - log10(a->lo)) / (log10(a->hi) - log10(a->lo))
                             : (v - a->lo) / (a->hi - a->lo);
    return fabs(pos) <= 1e6 ? pos : NAN;
}

/* The inverse of axis_pos. */
static double axis_value(const Axis *a, double pos)
{
    if (a->logscale)
        return pow(10, log10(a->lo) + pos * (log10(a->hi) - log10(a->lo)));
    return a->lo + pos * (a->hi - a->lo);
}

enum { MAX_TICKS = 256 };

typedef struct {
    double value;
    bool major; /* labelled; minor ticks (2..9 × 10^k) only get a faint grid line */
} Tick;

/* Whether v lies on the axis, give or take rounding. */
static bool within(const Axis *a, double v)
{
    return v >= a->lo * (1 - 1e-9) && v <= a->hi * (1 + 1e-9);
}

/* Labelled ticks every a->step decades, when that is more than one: no minor ones. */
static int sparse_log_ticks(const Axis *a, int first, int last, Tick *t)
{
    int step = (int)a->step, n = 0;
    for (int e = (int)ceil((double)first / step) * step; e <= last && n < MAX_TICKS; e += step)
        if (within(a, pow(10, e)))
            t[n++] = (Tick){pow(10, e), true};
    return n;
}

/* A tick at each decade and at 2..9 times it, within the range; the decades are
 * labelled, and 2 and 5 times them too when fewer than three decades fall inside. */
static int log_ticks(const Axis *a, Tick *t)
{
    int first = (int)floor(log10(a->lo) + 1e-9), last = (int)ceil(log10(a->hi) - 1e-9), n = 0;
    if (a->step > 1)
        return sparse_log_ticks(a, first, last, t);
    int decades = 0;
    for (int e = first; e <= last; e++)
        decades += within(a, pow(10, e));
    bool minor = last - first <= 6; /* more decades would make the grid a grey blur */
    for (int e = first; e <= last && n + 9 <= MAX_TICKS; e++) {
        double decade = pow(10, e);
        for (int m = 1; m <= 9; m++)
            if ((m == 1 || minor) && within(a, m * decade))
                t[n++] = (Tick){m * decade, m == 1 || (decades < 3 && (m == 2 || m == 5))};
    }
    return n;
}

static int linear_ticks(const Axis *a, Tick *t)
{
    int n = 0;
    double tiny = a->step * 1e-9; /* k · step is not exact: 0.30000000000000004 */
    for (double k = ceil(a->lo / a->step - 1e-9); n < MAX_TICKS && k * a->step <= a->hi + tiny;
         k++) {
        double v = k * a->step;
        t[n++] = (Tick){fabs(v) < tiny ? 0 : v, true};
    }
    return n;
}

static int axis_ticks(const Axis *a, Tick *t)
{
    return a->logscale ? log_ticks(a, t) : linear_ticks(a, t);
}

typedef struct {
    double pos;
    char label[24];
} Mark;

/* Significant digits that tell a linear axis's labels apart: 4, or more when the
 * range is narrow beside its values (1e300 .. 1.0000001e300 printed "1e+300" at
 * every tick). */
static int label_digits(const Axis *a)
{
    double span = fmax(fabs(a->lo), fabs(a->hi)) / a->step;
    int digits = a->logscale || !(span > 1e3) ? 4 : (int)ceil(log10(span)) + 1;
    return digits > 17 ? 17 : digits;
}

/* The labelled ticks, in increasing order, with their positions and SI labels. */
static int axis_marks(const Axis *a, Mark *m)
{
    Tick t[MAX_TICKS];
    int n = axis_ticks(a, t), count = 0, digits = label_digits(a);
    for (int i = 0; i < n; i++) {
        double pos = axis_pos(a, t[i].value);
        if (!t[i].major || !(pos >= -1e-9 && pos <= 1 + 1e-9))
            continue;
        m[count].pos = pos;
        si_format_digits(m[count].label, sizeof m[count].label, t[i].value, digits);
        count++;
    }
    return count;
}

/* The widest tick label, in characters: it sets the room left of the y axis. */
static int axis_label_width(const Axis *a)
{
    Mark m[MAX_TICKS];
    int n = axis_marks(a, m), widest = 0;
    for (int i = 0; i < n; i++) {
        int len = (int)strlen(m[i].label);
        widest = len > widest ? len : widest;
    }
    return widest;
}

/* ---- Roofs ----------------------------------------------------------------------- */

static bool roof_has_peak(const PlotRoof *r)
{
    return isfinite(r->peak) && r->peak > 0;
}

static bool roof_has_bandwidth(const PlotRoof *r)
{
    return isfinite(r->bandwidth) && r->bandwidth > 0;
}

/* What the roofs of one group share: the roofline is min(low_peak, bandwidth · x). */
typedef struct {
    int id;
    double low_peak, high_peak; /* 0 when the group has no peak */
    double fastest;             /* the highest bandwidth, 0 when none */
} RoofGroup;

static RoofGroup roof_group(const Plot *p, int id)
{
    RoofGroup g = {id, 0, 0, 0};
    for (int i = 0; i < p->nroofs; i++) {
        const PlotRoof *r = &p->roofs[i];
        if (r->group != id)
            continue;
        if (roof_has_peak(r) && (g.low_peak == 0 || r->peak < g.low_peak))
            g.low_peak = r->peak;
        if (roof_has_peak(r) && r->peak > g.high_peak)
            g.high_peak = r->peak;
        if (roof_has_bandwidth(r) && r->bandwidth > g.fastest)
            g.fastest = r->bandwidth;
    }
    return g;
}

/* Calls fn for each ridge point: every (peak, bandwidth) pair of one group meets at
 * x = peak / bandwidth. */
typedef void RidgeFn(void *ctx, double x, double peak, int group);

static void for_each_ridge(const Plot *p, RidgeFn *fn, void *ctx)
{
    for (int i = 0; i < p->nroofs; i++)
        for (int j = 0; j < p->nroofs; j++) {
            const PlotRoof *top = &p->roofs[i], *slope = &p->roofs[j];
            if (top->group == slope->group && roof_has_peak(top) && roof_has_bandwidth(slope))
                fn(ctx, top->peak / slope->bandwidth, top->peak, top->group);
        }
}

/* ---- Strokes and the legend -------------------------------------------------------- */

typedef enum { DASH_SOLID, DASH_DASHED, DASH_DOTTED } Dash;

typedef struct {
    const char *colour; /* for SVG */
    Dash dash;          /* in SVG, where colour already tells the lines apart */
    Dash mono;          /* in text, where only the dash can */
    double width;       /* SVG pixels */
    const char *kind;   /* the SVG class: "roof", "series" or "point" */
} Stroke;

/* Tableau's ten, for data; roofs are dark so the data in colour stand out on them. */
static const char *const PALETTE[] = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd",
                                      "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"};
static const char *const ROOF_COLOURS[] = {"#222222", "#8b1a1a", "#1a3a8b", "#1a6b2a"};

static const char *colour_at(const char *const *table, int n, int i)
{
    return table[(i % n + n) % n];
}

/* A roof above the group's lowest peak is not reachable there: drawn faint, dotted. */
static Stroke roof_stroke(int group, bool faint)
{
    Dash dash = faint ? DASH_DOTTED : DASH_SOLID;
    return (Stroke){colour_at(ROOF_COLOURS, 4, group), dash, dash, faint ? 1.2 : 2.2, "roof"};
}

static Stroke series_stroke(int i)
{
    return (Stroke){colour_at(PALETTE, 10, i), DASH_SOLID, (Dash)(i % 3), 2, "series"};
}

/* Points take the palette from its far end, so they rarely share a series' colour. */
static Stroke point_stroke(const PlotPoint *pt, int i)
{
    return (Stroke){pt->colour ? pt->colour : colour_at(PALETTE, 10, 9 - i % 10), DASH_SOLID,
                    DASH_SOLID, 1, "point"};
}

typedef enum { KEY_FLAT, KEY_SLOPE, KEY_LINE, KEY_POINT } KeyKind;

typedef struct {
    KeyKind kind;
    const char *label;
    Stroke stroke;
    int which; /* the point's index, for its letter */
} LegendEntry;

static LegendEntry *legend_alloc(const Plot *p)
{
    size_t n = (size_t)(p->nroofs + p->nseries + p->npoints + 1);
    return nomem_note(malloc(sizeof(LegendEntry) * n));
}

/* The labelled roofs, series and, when there are at most max_points, points. */
static int legend_entries(const Plot *p, LegendEntry *e, int max_points)
{
    int n = 0;
    for (int i = 0; i < p->nroofs; i++) {
        const PlotRoof *r = &p->roofs[i];
        bool slope = roof_has_bandwidth(r), faint = false;
        if (!has_text(r->label) || (!slope && !roof_has_peak(r)))
            continue;
        if (!slope)
            faint = r->peak > roof_group(p, r->group).low_peak;
        e[n++] =
            (LegendEntry){slope ? KEY_SLOPE : KEY_FLAT, r->label, roof_stroke(r->group, faint), i};
    }
    for (int i = 0; i < p->nseries; i++)
        if (has_text(p->series[i].label))
            e[n++] = (LegendEntry){KEY_LINE, p->series[i].label, series_stroke(i), i};
    for (int i = 0; p->npoints <= max_points && i < p->npoints; i++)
        if (has_text(p->points[i].label))
            e[n++] = (LegendEntry){KEY_POINT, p->points[i].label,
                                   point_stroke(&p->points[i], i), i};
    return n;
}

/* ---- The chart, painter-independent ------------------------------------------------ */

/* What a renderer does with the marks; u and v are in 0..1 across the plot area and are
 * finite. Marks may reach outside the area: the painter clips them. A line of two points
 * or more comes in pieces, so that a long series is placed a block at a time rather
 * than into arrays as long as itself: line_begin, then line_points one or more times
 * (each piece goes on from the last point of the one before), then line_end. */
typedef struct {
    void (*line_begin)(void *ctx, const Stroke *s);
    void (*line_points)(void *ctx, const double *u, const double *v, int n);
    void (*line_end)(void *ctx);
    /* May be NULL: the label of a roof, beside its visible stretch seg = {u0, v0, u1, v1}. */
    void (*roof_label)(void *ctx, const double seg[4], const char *label, const Stroke *s);
    void (*ridge)(void *ctx, double u, double v, double x, const Stroke *s);
    void (*point)(void *ctx, double u, double v, const PlotPoint *pt, int which);
} Painter;

typedef struct {
    Plot plot; /* a copy whose counts are 0 where the arrays are NULL */
    Axis x, y;
    bool has_data;
    const Painter *paint;
    void *ctx;
} Chart;

typedef struct {
    Extent x, y;
    bool logx, logy;
} Extents;

static void extent_pair(Extents *e, double x, double y)
{
    if (!on_axis(x, e->logx) || !on_axis(y, e->logy))
        return;
    extent_add(&e->x, x, e->logx);
    extent_add(&e->y, y, e->logy);
}

/* Room around a ridge for the roofline to read: on log axes a decade of slope before it,
 * a decade of flat roof after it, and room above the roof. */
static void ridge_extent(void *ctx, double x, double peak, int group)
{
    Extents *e = ctx;
    (void)group;
    extent_add(&e->x, x, e->logx);
    extent_add(&e->x, e->logx ? x * 10 : x * 2, e->logx);
    extent_add(&e->x, e->logx ? x / 10 : 0, e->logx);
    extent_add(&e->y, e->logy ? peak * 2 : peak, e->logy); /* room for the roof's label */
    extent_add(&e->y, e->logy ? peak / 10 : 0, e->logy);
}

enum { SERIES_BLOCK = 256 }; /* points read and placed at a time, on the stack */

/* The points of a series: its arrays, or what its thinner kept. */
static int series_count(const PlotSeries *s)
{
    return s->thin ? s->thin->n : s->x && s->y ? s->n : 0;
}

/* Points from, from + 1, ... of a series, at most SERIES_BLOCK: *x and *y point into its
 * arrays, or at xbuf and ybuf, into which a thinner's are read. Returns how many. */
static int series_block(const PlotSeries *s, int from, const double **x, const double **y,
                        double *xbuf, double *ybuf)
{
    if (s->thin) {
        *x = xbuf, *y = ybuf;
        return plot_thin_read(s->thin, from, xbuf, ybuf, SERIES_BLOCK);
    }
    int n = series_count(s) - from;
    *x = s->x + from, *y = s->y + from;
    return n < SERIES_BLOCK ? n : SERIES_BLOCK;
}

/* The same as extent_pair on each point, in one pass without a branch per bound (a
 * sweep's series may hold millions of points). */
static void series_extents(Extents *e, const PlotSeries *s)
{
    double xlo = INFINITY, xhi = -INFINITY, ylo = INFINITY, yhi = -INFINITY;
    double xbuf[SERIES_BLOCK], ybuf[SERIES_BLOCK];
    const double *xs, *ys;
    for (int at = 0, m; (m = series_block(s, at, &xs, &ys, xbuf, ybuf)) > 0; at += m) {
        for (int j = 0; j < m; j++) {
            double x = xs[j], y = ys[j];
            if (!on_axis(x, e->logx) || !on_axis(y, e->logy))
                continue;
            xlo = x < xlo ? x : xlo;
            xhi = x > xhi ? x : xhi;
            ylo = y < ylo ? y : ylo;
            yhi = y > yhi ? y : yhi;
        }
    }
    if (xlo <= xhi) {
        extent_pair(e, xlo, ylo);
        extent_pair(e, xhi, yhi);
    }
}

static void gather_extents(const Plot *p, Extents *e)
{
    for (int i = 0; i < p->npoints; i++)
        extent_pair(e, p->points[i].x, p->points[i].y);
    for (int i = 0; i < p->nseries; i++)
        series_extents(e, &p->series[i]);
    for (int i = 0; i < p->nroofs; i++)
        if (roof_has_peak(&p->roofs[i]))
            extent_add(&e->y, p->roofs[i].peak, e->logy);
    for_each_ridge(p, ridge_extent, e);
}

static Chart chart_make(const Plot *p, int xticks, int yticks)
{
    Chart c = {.plot = *p};
    c.plot.nroofs = p->roofs && p->nroofs > 0 ? p->nroofs : 0;
    c.plot.npoints = p->points && p->npoints > 0 ? p->npoints : 0;
    c.plot.nseries = p->series && p->nseries > 0 ? p->nseries : 0;
    Extents e = {.logx = p->logx, .logy = p->logy};
    gather_extents(&c.plot, &e);
    c.x = p->xset && range_usable(p->xrange, p->logx) ? fixed_axis(p->xrange, p->logx, xticks)
                                                      : axis_make(e.x, p->logx, xticks);
    c.y = p->yset && range_usable(p->yrange, p->logy) ? fixed_axis(p->yrange, p->logy, yticks)
                                                      : axis_make(e.y, p->logy, yticks);
    c.has_data = e.x.any || e.y.any;
    return c;
}

/* Cuts seg = {u0, v0, u1, v1} to the unit square (Liang–Barsky); false if nothing is
 * left or the segment is not finite. */
static bool clip_unit(double seg[4])
{
    double du = seg[2] - seg[0], dv = seg[3] - seg[1], t0 = 0, t1 = 1;
    if (!isfinite(du) || !isfinite(dv) || !isfinite(seg[0]) || !isfinite(seg[1]))
        return false;
    const double p[4] = {-du, du, -dv, dv}, q[4] = {seg[0], 1 - seg[0], seg[1], 1 - seg[1]};
    for (int i = 0; i < 4; i++) {
        if (p[i] == 0) {
            if (q[i] < 0)
                return false;
            continue;
        }
        double r = q[i] / p[i];
        if (p[i] < 0 ? r > t1 : r < t0)
            return false;
        if (p[i] < 0 && r > t0)
            t0 = r;
        if (p[i] > 0 && r < t1)
            t1 = r;
    }
    double u0 = seg[0], v0 = seg[1];
    seg[0] = u0 + t0 * du, seg[1] = v0 + t0 * dv, seg[2] = u0 + t1 * du, seg[3] = v0 + t1 * dv;
    return true;
}

/* A run of finite points being drawn as one line, fed a piece at a time: its first point
 * is held until a second comes, since a lone point draws nothing. */
typedef struct {
    const Chart *c;
    const Stroke *s;
    double u0, v0; /* the first point */
    int len;       /* points in the run so far */
} Run;

/* n >= 1 finite points that go on from the run's last. */
static void run_extend(Run *r, const double *u, const double *v, int n)
{
    const Painter *p = r->c->paint;
    if (r->len == 0 && n == 1) {
        r->u0 = u[0], r->v0 = v[0];
    } else if (r->len <= 1) {
        p->line_begin(r->c->ctx, r->s);
        if (r->len == 1)
            p->line_points(r->c->ctx, &r->u0, &r->v0, 1);
        p->line_points(r->c->ctx, u, v, n);
    } else {
        p->line_points(r->c->ctx, u, v, n);
    }
    r->len += n;
}

/* The run ends: a point that cannot be placed, or the last. */
static void run_break(Run *r)
{
    if (r->len >= 2)
        r->c->paint->line_end(r->c->ctx);
    r->len = 0;
}

/* Feeds the run the stretches of finite (u, v), breaking it at each point that cannot be
 * placed (which breaks the line rather than bending it). */
static void run_feed(Run *r, const double *u, const double *v, int n)
{
    int start = 0;
    for (int i = 0; i <= n; i++) {
        if (i < n && isfinite(u[i]) && isfinite(v[i]))
            continue;
        if (i > start)
            run_extend(r, u + start, v + start, i - start);
        if (i < n)
            run_break(r);
        start = i + 1;
    }
}

/* Draws the runs of finite (u, v). */
static void paint_runs(const Chart *c, const double *u, const double *v, int n, const Stroke *s)
{
    Run r = {.c = c, .s = s};
    run_feed(&r, u, v, n);
    run_break(&r);
}

enum { CURVE_SAMPLES = 64 };

/* y = bandwidth · x from x0 to x1: straight when both axes are log or both linear, so two
 * ends do; sampled when only one is log and the line bends. */
static int trace_slope(const Chart *c, double bandwidth, double x0, double x1, double *u, double *v)
{
    int n = c->x.logscale == c->y.logscale ? 2 : CURVE_SAMPLES;
    double u0 = axis_pos(&c->x, x0), u1 = axis_pos(&c->x, x1);
    for (int i = 0; i < n; i++) {
        double x = axis_value(&c->x, u0 + (u1 - u0) * i / (n - 1));
        u[i] = axis_pos(&c->x, x);
        v[i] = axis_pos(&c->y, bandwidth * x);
    }
    return n;
}

static void paint_roof_label(const Chart *c, const double *u, const double *v, int n,
                             const char *label, const Stroke *s)
{
    double seg[4] = {u[0], v[0], u[n - 1], v[n - 1]};
    if (c->paint->roof_label && has_text(label) && clip_unit(seg))
        c->paint->roof_label(c->ctx, seg, label, s);
}

/* A bandwidth's roof: solid up to its ridge with the group's lowest peak, then dotted on
 * to the highest peak, which only a faster dtype reaches. */
static void paint_slope(const Chart *c, const PlotRoof *r, RoofGroup g)
{
    double u[CURVE_SAMPLES], v[CURVE_SAMPLES], bw = r->bandwidth;
    double ridge = g.low_peak > 0 ? g.low_peak / bw : c->x.hi;
    Stroke solid = roof_stroke(g.id, false), faint = roof_stroke(g.id, true);
    int n = trace_slope(c, bw, c->x.lo, ridge, u, v);
    paint_runs(c, u, v, n, &solid);
    paint_roof_label(c, u, v, n, r->label, &solid);
    if (g.high_peak > g.low_peak) {
        n = trace_slope(c, bw, ridge, g.high_peak / bw, u, v);
        paint_runs(c, u, v, n, &faint);
    }
}

/* A peak's roof: flat from where the fastest bandwidth reaches it to the right edge. */
static void paint_peak(const Chart *c, const PlotRoof *r, RoofGroup g)
{
    double from = g.fastest > 0 ? r->peak / g.fastest : c->x.lo;
    double u[2] = {axis_pos(&c->x, from), 1}, v[2];
    v[0] = v[1] = axis_pos(&c->y, r->peak);
    Stroke s = roof_stroke(g.id, r->peak > g.low_peak);
    paint_runs(c, u, v, 2, &s);
    paint_roof_label(c, u, v, 2, r->label, &s);
}

static void paint_ridge(void *ctx, double x, double peak, int group)
{
    const Chart *c = ctx;
    double u = axis_pos(&c->x, x), v = axis_pos(&c->y, peak);
    Stroke s = roof_stroke(group, false);
    if (isfinite(u) && isfinite(v))
        c->paint->ridge(c->ctx, u, v, x, &s);
}

/* ---- Thinning ---------------------------------------------------------------------- */

/* The slice x falls in (log x on a log axis), 0 below lo and the last above hi. */
static int thin_slice_of(const PlotThin *t, double x)
{
    if (!(t->hi > t->lo))
        return 0;
    double f = t->logx ? log(x / t->lo) / log(t->hi / t->lo) : (x - t->lo) / (t->hi - t->lo);
    double k = floor(f * PLOT_THIN_SLICES);
    return !(k > 0) ? 0 : k >= PLOT_THIN_SLICES ? PLOT_THIN_SLICES - 1 : (int)k;
}

/* The x where slice k begins. */
static double thin_edge(const PlotThin *t, int k)
{
    if (k >= PLOT_THIN_SLICES || !(t->hi > t->lo))
        return INFINITY;
    double f = (double)k / PLOT_THIN_SLICES;
    return t->logx ? t->lo * pow(t->hi / t->lo, f) : t->lo + f * (t->hi - t->lo);
}

void plot_thin_init(PlotThin *t, double lo, double hi, bool logx, bool logy, bool every)
{
    *t = (PlotThin){.lo = lo, .hi = hi, .logx = logx, .logy = logy, .every = every,
                    .edge = -INFINITY, .slice = -1};
}

void plot_thin_free(PlotThin *t)
{
    free(t->x_code);
    free(t->x_mark);
    free(t->run_y);
    free(t->run_end);
    t->x_code = NULL;
    t->x_mark = t->run_end = NULL;
    t->run_y = NULL;
    t->n = t->x_bytes = t->x_room = t->marks = t->mark_room = t->runs = t->run_cap = 0;
}

/* The code of a kept x: 2 · step as a varint (7 bits a byte, the lowest first, the top
 * bit set on all but the last; so the first byte's bit 0 is clear) where x is the x
 * before plus a whole step below 2^53, exactly; else the byte THIN_RAW and the double's
 * 8 bytes. Points 0, 256, 512, ... (THIN_MARK) are always raw, so reading can start
 * there. */
enum { THIN_MARK = 256, THIN_RAW = 1, THIN_CODE_MOST = 9 };

/* The x whose code begins at *at, after prev; *at moves past it. */
static double thin_x_get(const unsigned char *code, int *at, double prev)
{
    const unsigned char *p = code + *at;
    double x;
    if (!(*p & 0x81)) { /* a step below 64, in a byte: a sweep's mostly are */
        *at += 1;
        return prev + (double)(*p >> 1);
    }
    if (*p == THIN_RAW) {
        memcpy(&x, p + 1, sizeof x);
        p += 1 + sizeof x;
    } else {
        uint64_t v = 0;
        int shift = 0;
        do
            v |= (uint64_t)(*p & 0x7F) << shift, shift += 7;
        while (*p++ & 0x80);
        x = prev + (double)(v >> 1);
    }
    *at = (int)(p - code);
    return x;
}

/* The run that holds point i (< n). */
static int thin_run_of(const PlotThin *t, int i)
{
    int lo = 0, hi = t->runs - 1; /* run_end[hi] > i */
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (t->run_end[mid] > i)
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

/* The x decoded from the mark before `from`; the runs of y filled in a plain loop the
 * compiler makes vector code. */
int plot_thin_read(const PlotThin *t, int from, double *x, double *y, int max)
{
    int n = from < 0 || from >= t->n ? 0 : t->n - from < max ? t->n - from : max;
    int at = n > 0 ? t->x_mark[from / THIN_MARK] : 0;
    double prev = 0;
    for (int i = from - from % THIN_MARK; i < from + n; i++) {
        prev = thin_x_get(t->x_code, &at, prev);
        if (i >= from)
            x[i - from] = prev;
    }
    for (int i = 0, r = n > 0 ? thin_run_of(t, from) : 0; i < n; r++) {
        int end = t->run_end[r] - from < n ? t->run_end[r] - from : n;
        for (double v = t->run_y[r]; i < end; i++)
            y[i] = v;
    }
    return n;
}

/* The room first made for kept points: 1024, or all that the points expected can keep
 * (each, or four a slice and the breaks: a few more, grown if need be). */
static int thin_first_room(const PlotThin *t)
{
    int most = 4 * PLOT_THIN_SLICES + 64;
    return t->expect > 1024 ? (t->expect < most ? t->expect : most) : 1024;
}

/* Room for one more run of y: 64 at first, twice as many each time. */
static bool thin_run_room(PlotThin *t)
{
    if (t->runs < t->run_cap)
        return true;
    int cap = t->run_cap ? 2 * t->run_cap : 64;
    double *y = nomem_note(realloc(t->run_y, sizeof *y * (size_t)cap));
    if (y)
        t->run_y = y;
    int *end = y ? nomem_note(realloc(t->run_end, sizeof *end * (size_t)cap)) : NULL;
    if (!end)
        return false;
    t->run_end = end;
    t->run_cap = cap;
    return true;
}

/* Room for one more x's code (a byte a point at first, as a sweep's mostly take, then
 * twice as much each time), and for its mark. */
static bool thin_x_room(PlotThin *t)
{
    if (t->n % THIN_MARK == 0 && t->marks == t->mark_room) {
        int room = t->mark_room ? 2 * t->mark_room : 64;
        int *mark = nomem_note(realloc(t->x_mark, sizeof *mark * (size_t)room));
        if (!mark)
            return false;
        t->x_mark = mark;
        t->mark_room = room;
    }
    if (t->x_room - t->x_bytes >= THIN_CODE_MOST)
        return true;
    int room = t->x_room ? 2 * t->x_room : thin_first_room(t) + 4 * THIN_CODE_MOST;
    unsigned char *code = nomem_note(realloc(t->x_code, (size_t)room));
    if (!code)
        return false;
    t->x_code = code;
    t->x_room = room;
    return true;
}

static void thin_x_put(PlotThin *t, double x)
{
    unsigned char *out = t->x_code + t->x_bytes;
    double step = x - t->x_kept, back = t->x_kept + step;
    bool whole = t->n % THIN_MARK != 0 && step >= 0 && step < 0x1p53 &&
                 step == (double)(int64_t)step && memcmp(&back, &x, sizeof x) == 0;
    if (t->n % THIN_MARK == 0)
        t->x_mark[t->marks++] = t->x_bytes;
    if (whole) {
        uint64_t v = (uint64_t)step << 1;
        do
            *out++ = (unsigned char)((v & 0x7F) | (v > 0x7F ? 0x80 : 0));
        while ((v >>= 7) > 0);
    } else {
        *out++ = THIN_RAW;
        memcpy(out, &x, sizeof x);
        out += sizeof x;
    }
    t->x_bytes = (int)(out - t->x_code);
    t->x_kept = x;
}

static bool thin_keep(PlotThin *t, const double p[2])
{
    if (!thin_x_room(t))
        return false;
    /* the same bits, so that -0 and each nan stay as they came */
    bool same = t->runs > 0 && memcmp(&t->run_y[t->runs - 1], &p[1], sizeof p[1]) == 0;
    if (!same && !thin_run_room(t))
        return false;
    if (!same)
        t->run_y[t->runs++] = p[1];
    thin_x_put(t, p[0]);
    t->run_end[t->runs - 1] = ++t->n;
    return true;
}

/* The points kept of the slice being filled, in the order they came. */
static bool thin_flush(PlotThin *t)
{
    if (t->count == 0)
        return true;
    bool low_first = t->low_at <= t->high_at;
    const double *order[4] = {t->first, low_first ? t->low : t->high, low_first ? t->high : t->low,
                              t->last};
    int at[4] = {0, low_first ? t->low_at : t->high_at, low_first ? t->high_at : t->low_at,
                 t->count - 1};
    bool ok = true;
    for (int k = 0; k < 4; k++)
        if (k == 0 || at[k] > at[k - 1])
            ok = thin_keep(t, order[k]) && ok;
    t->stride = t->count;
    t->count = 0;
    return ok;
}

/* A point that is placed: into its slice, which starts afresh past the edge. */
static bool thin_point(PlotThin *t, double x, double y)
{
    bool ok = true;
    if (x >= t->edge) {
        ok = thin_flush(t);
        int k = thin_slice_of(t, x);
        t->slice = k > t->slice ? k : t->slice + 1;
        t->edge = thin_edge(t, t->slice + 1);
    }
    const double p[2] = {x, y};
    if (t->count == 0) {
        memcpy(t->first, p, sizeof p);
        memcpy(t->low, p, sizeof p);
        memcpy(t->high, p, sizeof p);
        t->low_at = t->high_at = 0;
    } else if (y < t->low[1]) {
        memcpy(t->low, p, sizeof p);
        t->low_at = t->count;
    } else if (y > t->high[1]) {
        memcpy(t->high, p, sizeof p);
        t->high_at = t->count;
    }
    memcpy(t->last, p, sizeof p);
    t->count++;
    return ok;
}

/* Points [i, j) taken into the slice being filled: its lowest and highest where they
 * moved (low_i, high_i: -1 where not), and its last. Returns j. */
static int thin_take(PlotThin *t, const double *x, const double *y, int i, int j, int low_i,
                     int high_i)
{
    if (low_i >= 0) {
        memcpy(t->low, (const double[2]){x[low_i], y[low_i]}, sizeof t->low);
        t->low_at = t->count + low_i - i;
    }
    if (high_i >= 0) {
        memcpy(t->high, (const double[2]){x[high_i], y[high_i]}, sizeof t->high);
        t->high_at = t->count + high_i - i;
    }
    memcpy(t->last, (const double[2]){x[j - 1], y[j - 1]}, sizeof t->last);
    t->last_x = x[j - 1];
    t->count += j - i;
    return j;
}

/* From point i on, the points that need no decision (placed, x ascending, before the
 * slice's edge) into the slice being filled, which has a point already; returns the
 * index of the first that does. The common case, kept in registers. */
static int thin_run(PlotThin *t, const double *x, const double *y, int i, int n)
{
    double edge = t->edge, prev = t->last_x, low = t->low[1], high = t->high[1];
    bool logx = t->logx, logy = t->logy;
    int low_i = -1, high_i = -1, j = i;
    for (; j < n; prev = x[j], j++) {
        if (!(x[j] < edge && x[j] >= prev && on_axis(x[j], logx) && on_axis(y[j], logy)))
            break;
        if (y[j] < low) {
            low = y[j];
            low_i = j;
        } else if (y[j] > high) {
            high = y[j];
            high_i = j;
        }
    }
    return j == i ? i : thin_take(t, x, y, i, j, low_i, high_i);
}

enum { THIN_CHUNK = 256 }; /* points checked at a time, as many as a sweep's block */

/* Whether x[0 .. m) ascends from prev and y[0 .. m) are all on their axis (on_axis:
 * lo < y <= DBL_MAX, nan neither), in a loop the compiler makes vector code (inlined
 * with m a constant; each x against the one before, copied beside it), then one
 * comparison with zeros. */
static inline __attribute__((always_inline)) bool chunk_placed(const double *x,
                                                              const double *y, double prev,
                                                              double lo, int m)
{
    static const double zeros[THIN_CHUNK];
    double before[THIN_CHUNK], off[THIN_CHUNK];
    before[0] = prev;
    memcpy(before + 1, x, sizeof *x * (size_t)(m - 1));
    for (int j = 0; j < m; j++)
        off[j] = ((x[j] >= before[j]) & (y[j] > lo) & (y[j] <= DBL_MAX)) ? 0.0 : 1.0;
    return memcmp(off, zeros, sizeof *off * (size_t)m) == 0;
}

/* Whether thin_run may take the points of x[0 .. n) checking only the slice's edge:
 * x ascends from the last point added and its ends are on their axis (so all of it is),
 * and every y is on its axis. */
static bool all_placed(const PlotThin *t, const double *x, const double *y, int n)
{
    if (!on_axis(x[0], t->logx) || !on_axis(x[n - 1], t->logx))
        return false;
    double lo = t->logy ? 0 : -INFINITY;
    for (int at = 0; at < n; at += THIN_CHUNK) {
        int m = n - at < THIN_CHUNK ? n - at : THIN_CHUNK;
        double prev = at ? x[at - 1] : t->last_x;
        if (!(m == THIN_CHUNK ? chunk_placed(x + at, y + at, prev, lo, THIN_CHUNK)
                              : chunk_placed(x + at, y + at, prev, lo, m)))
            return false;
    }
    return true;
}

/* Whether y[0 .. m) (m >= 1) are all the same double, within low .. high (nan is not):
 * each the same bits as the next, which memcmp checks faster than a loop. */
static bool all_same_within(const double *y, int m, double low, double high)
{
    return y[0] >= low && y[0] <= high &&
           memcmp(y, y + 1, sizeof *y * (size_t)(m - 1)) == 0;
}

/* The first of x[lo .. hi) at or past the edge (hi if none), x ascending: a binary
 * search whose step is arithmetic on the comparison, not a branch (which would be
 * mispredicted every other step). */
static int thin_search(const double *x, int lo, int hi, double edge)
{
    if (lo >= hi)
        return hi;
    int base = lo; /* x[lo .. base) are below the edge */
    for (int len = hi - lo; len > 1; len -= len / 2)
        base += (x[base + len / 2 - 1] < edge) * (len / 2);
    return base + (x[base] < edge);
}

/* Whether the first of x[i .. n) at or past the edge is at g. */
static bool thin_end_at(const double *x, int i, int n, double edge, int g)
{
    return (g == i || x[g - 1] < edge) && (g == n || x[g] >= edge);
}

/* The first of x[i .. n) at or past the edge (n if none), x ascending. A slice holds
 * about as many points as the one before (all as many on a step range), so the end is
 * looked for first where that puts it, and beside it; else by halves on the side it is
 * on. A search by halves alone costs a chain of some eight dependent loads a slice. */
static int thin_run_end(const PlotThin *t, const double *x, int i, int n)
{
    double edge = t->edge;
    int ahead = t->stride - t->count, g = ahead < 0 ? i : ahead < n - i ? i + ahead : n;
    if (thin_end_at(x, i, n, edge, g))
        return g;
    if (g == i || x[g - 1] < edge) /* past g */
        return g + 1 <= n && thin_end_at(x, i, n, edge, g + 1) ? g + 1
                                                                : thin_search(x, g + 1, n, edge);
    return thin_end_at(x, i, n, edge, g - 1) ? g - 1 : thin_search(x, i, g - 1, edge);
}

/* thin_run for placed points (all_placed): where the run ends found first, so the loop
 * over the run looks at y alone. */
static int thin_run_placed(PlotThin *t, const double *x, const double *y, int i, int n)
{
    int end = thin_run_end(t, x, i, n);
    if (end == i)
        return i;
    double low = t->low[1], high = t->high[1];
    int low_i = -1, high_i = -1;
    for (int j = i; j < end; j++) {
        double v = y[j];
        if (v < low) {
            low = v;
            low_i = j;
        } else if (v > high) {
            high = v;
            high_i = j;
        }
    }
    return thin_take(t, x, y, i, end, low_i, high_i);
}

/* thin_run for rising x whose ends are on their axis (so all are): where the run ends
 * found first; when its y are all one value between the slice's lowest and highest so
 * far (so on their axis, and changing neither), the run is taken whole; else point by
 * point, as thin_run does. The flat part of a roofline (most of a long sweep) is one
 * such run after another. */
static int thin_run_rising(PlotThin *t, const double *x, const double *y, int i, int n)
{
    int end = thin_run_end(t, x, i, n);
    if (end == i || !all_same_within(y + i, end - i, t->low[1], t->high[1]))
        return thin_run(t, x, y, i, n);
    memcpy(t->last, (const double[2]){x[end - 1], y[end - 1]}, sizeof t->last);
    t->last_x = x[end - 1];
    t->count += end - i;
    return end;
}

/* From point i on, into the slice being filled (which has a point already) the points
 * that need no decision; returns the index of the first that does. */
static int thin_run_any(PlotThin *t, const double *x, const double *y, int i, int n,
                        bool rising, bool placed)
{
    return rising ? thin_run_rising(t, x, y, i, n)
           : placed ? thin_run_placed(t, x, y, i, n)
                    : thin_run(t, x, y, i, n);
}

bool plot_thin_add(PlotThin *t, const double *x, const double *y, int n)
{
    bool rising = t->rising && !t->every && n > 0 && on_axis(x[0], t->logx) &&
                  on_axis(x[n - 1], t->logx);
    bool placed = !rising && !t->every && t->n + t->count > 0 && n > 1 &&
                  all_placed(t, x, y, n);
    for (int i = 0; i < n && !t->failed; i++) {
        if (!t->every && t->count > 0 && (i = thin_run_any(t, x, y, i, n, rising, placed)) == n)
            break;
        if (t->every)
            t->failed = !thin_keep(t, (const double[2]){x[i], y[i]});
        else if (t->n + t->count > 0 && x[i] < t->last_x)
            t->failed = true;
        else if (on_axis(x[i], t->logx) && on_axis(y[i], t->logy))
            t->failed = !thin_point(t, x[i], y[i]);
        else /* it breaks the line: the slice so far, then the point itself */
            t->failed = !thin_flush(t) || !thin_keep(t, (const double[2]){x[i], y[i]});
        t->last_x = x[i];
    }
    return !t->failed;
}

bool plot_thin_end(PlotThin *t)
{
    t->failed = t->failed || !thin_flush(t);
    return !t->failed;
}

/* A series of more than THIN_ABOVE points is thinned over the x axis before it is
 * drawn, so a million points draw as fast as a few thousand. */
enum { THIN_ABOVE = 4 * PLOT_THIN_SLICES };

/* Draws the points of a series, placed a block at a time. */
static void paint_points(const Chart *c, const PlotSeries *series, const Stroke *s)
{
    Run r = {.c = c, .s = s};
    double u[SERIES_BLOCK], v[SERIES_BLOCK], xbuf[SERIES_BLOCK], ybuf[SERIES_BLOCK];
    const double *x, *y;
    for (int at = 0, m; (m = series_block(series, at, &x, &y, xbuf, ybuf)) > 0; at += m) {
        for (int i = 0; i < m; i++) {
            u[i] = axis_pos(&c->x, x[i]);
            v[i] = axis_pos(&c->y, y[i]);
        }
        run_feed(&r, u, v, m);
    }
    run_break(&r);
}

/* Thins a series into t: its arrays at once, a thinner's kept points a block at a time. */
static bool thin_series(PlotThin *t, const PlotSeries *s)
{
    if (!s->thin)
        return plot_thin_add(t, s->x, s->y, s->n) && plot_thin_end(t);
    double xbuf[SERIES_BLOCK], ybuf[SERIES_BLOCK];
    const double *x, *y;
    for (int at = 0, m; (m = series_block(s, at, &x, &y, xbuf, ybuf)) > 0; at += m)
        if (!plot_thin_add(t, x, y, m))
            return false;
    return plot_thin_end(t);
}

/* The thinned series, or every point where it is short or cannot be thinned (its x go
 * down, or memory ran out). */
static void paint_series(const Chart *c, const PlotSeries *s, int which)
{
    if (series_count(s) < 2)
        return;
    PlotThin t;
    plot_thin_init(&t, c->x.lo, c->x.hi, c->x.logscale, c->y.logscale, false);
    bool thin = series_count(s) > THIN_ABOVE && thin_series(&t, s);
    Stroke st = series_stroke(which);
    paint_points(c, thin ? &(PlotSeries){.thin = &t} : s, &st);
    plot_thin_free(&t);
}

/* Every mark, bottom to top: roofs, their ridge markers, series, and the points over
 * all, so no marker hides a statement. */
static void paint_marks(const Chart *c)
{
    const Plot *p = &c->plot;
    for (int i = 0; i < p->nroofs; i++) {
        RoofGroup g = roof_group(p, p->roofs[i].group);
        if (roof_has_bandwidth(&p->roofs[i]))
            paint_slope(c, &p->roofs[i], g);
        if (roof_has_peak(&p->roofs[i]))
            paint_peak(c, &p->roofs[i], g);
    }
    for_each_ridge(p, paint_ridge, (void *)c);
    for (int i = 0; i < p->nseries; i++)
        paint_series(c, &p->series[i], i);
    for (int i = 0; i < p->npoints; i++) {
        double u = axis_pos(&c->x, p->points[i].x), v = axis_pos(&c->y, p->points[i].y);
        if (isfinite(u) && isfinite(v))
            c->paint->point(c->ctx, u, v, &p->points[i], i);
    }
}

/* ---- SVG ------------------------------------------------------------------------- */

typedef struct {
    double x0, y0, x1, y1;
    bool round; /* the circle inscribed in the box: a point's marker */
} Box;

enum { LEGEND_ROW = 20, LEGEND_KEY = 24, SVG_POINT_ENTRIES = 8, MAX_TAKEN = 1024 };
/* Labels keep LABEL_GAP pixels from each other and the plot's edges; one that finds no
 * room beside its mark tries LABEL_RINGS rings farther out, RING_STEP pixels apart. */
enum { LABEL_GAP = 1, LABEL_RINGS = 12, RING_STEP = 8 };
#define DEGREES_PER_RADIAN 57.29577951308232

typedef struct {
    FILE *out;
    double width, height;   /* the whole chart, in pixels */
    double left, top, w, h; /* the plot area */
    int legend_rows;        /* below the x axis, at most a quarter of the height */
    /* Room for MAX_TAKEN of each, made without clearing it: a page of memory costs
     * only once touched, and a chart touches a few of the 2048 boxes. */
    Box *taken;             /* point circles and labels so far, which labels step around */
    Box *roofs;             /* roof segments from (x0, y0) to (x1, y1), which they also do */
    int ntaken, nroofs;
    char clip[72];          /* the id of the plot area's clip path */
    /* the line being written: whether a roof, how many points it has, the last point
     * (u, v), and the last written in tenths of a pixel; whether the last was not
     * written for landing on it (the line's last point is written all the same), and
     * as what */
    bool line_roof;
    int line_n;
    double line_u, line_v, line_px, line_py, held_x, held_y;
    bool held;
} Svg;

static double svg_x(const Svg *s, double u)
{
    return s->left + u * s->w;
}

static double svg_y(const Svg *s, double v)
{
    return s->top + (1 - v) * s->h;
}

/* A guess at a label's width; sans-serif averages a little under 0.6 em. */
static double text_px(const char *s, double size)
{
    return 0.6 * size * utf8_length(s);
}

enum { FITTED_MAX = 1024 };

/* The text, or as much of it as fits `room` pixels at `size` with "…" after it: a title,
 * an axis's label or a legend's entry stays inside the chart however long it is. buf
 * holds FITTED_MAX bytes. */
static const char *fit_text(const char *text, double size, double room, char *buf)
{
    if (text_px(text, size) <= room)
        return text;
    long keep = (long)floor(room / (0.6 * size)) - 1; /* a code point for the ellipsis */
    const unsigned char *p = (const unsigned char *)text;
    size_t used = 0;
    for (long n = 0; n < keep && *p != '\0'; n++) {
        const unsigned char *from = p;
        utf8_next(&p);
        if (used + (size_t)(p - from) + 4 > FITTED_MAX)
            break;
        memcpy(buf + used, from, (size_t)(p - from));
        used += (size_t)(p - from);
    }
    memcpy(buf + used, keep > 0 ? "\xE2\x80\xA6" : "", keep > 0 ? 4 : 1); /* U+2026 */
    return buf;
}

/* Character data: XML's specials escaped, control characters (not allowed in XML 1.0)
 * as spaces, malformed UTF-8 as U+FFFD. */
static void svg_escaped(FILE *out, const char *text)
{
    const unsigned char *p = (const unsigned char *)(text ? text : "");
    while (*p != '\0') {
        uint32_t c = utf8_next(&p);
        if (c == '&')
            fputs("&amp;", out);
        else if (c == '<')
            fputs("&lt;", out);
        else if (c == '>')
            fputs("&gt;", out);
        else if (c == '"')
            fputs("&quot;", out);
        else
            utf8_put(out, c < 0x20 || c == 0xFFFE || c == 0xFFFF ? ' ' : c);
    }
}

typedef struct {
    double x, y, size, angle;
    const char *anchor, *fill, *weight; /* NULL: start, dark grey, normal */
    bool halo; /* a white outline, so a label that must cross a line stays legible */
} TextStyle;

/* The box a text takes, as the layout reckons it: its estimated width (text_px) along
 * the baseline from where its anchor puts it, from 0.8 em above the baseline to 0.2 em
 * below, turned with the text; the upright box around that. Labels step around these
 * boxes, and svg_text writes each as data-box="x0 y0 x1 y1", so that a test reads the
 * layout back with the numbers it used. */
static Box text_box(const TextStyle *st, const char *text)
{
    double w = text_px(text, st->size), start = 0;
    if (st->anchor && strcmp(st->anchor, "middle") == 0)
        start = -w / 2;
    else if (st->anchor && strcmp(st->anchor, "end") == 0)
        start = -w;
    const double along[2] = {start, start + w}, across[2] = {-0.8 * st->size, 0.2 * st->size};
    double turn = st->angle / DEGREES_PER_RADIAN, c = cos(turn), sn = sin(turn);
    Box b = {INFINITY, INFINITY, -INFINITY, -INFINITY, false};
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 2; j++) {
            double x = st->x + along[i] * c - across[j] * sn;
            double y = st->y + along[i] * sn + across[j] * c;
            b.x0 = fmin(b.x0, x), b.x1 = fmax(b.x1, x), b.y0 = fmin(b.y0, y), b.y1 = fmax(b.y1, y);
        }
    return b;
}

static void svg_text(FILE *out, TextStyle st, const char *text)
{
    fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"%.0f\" text-anchor=\"%s\" fill=\"%s\"",
            st.x, st.y, st.size, st.anchor ? st.anchor : "start", st.fill ? st.fill : "#222");
    if (st.angle != 0)
        fprintf(out, " transform=\"rotate(%.1f %.1f %.1f)\"", st.angle, st.x, st.y);
    if (st.weight)
        fprintf(out, " font-weight=\"%s\"", st.weight);
    if (st.halo)
        fputs(" stroke=\"white\" stroke-width=\"3\" stroke-opacity=\"0.85\" paint-order=\"stroke\"",
              out);
    Box b = text_box(&st, text);
    fprintf(out, " data-box=\"%.1f %.1f %.1f %.1f\">", b.x0, b.y0, b.x1, b.y1);
    svg_escaped(out, text);
    fputs("</text>\n", out);
}

static const char *svg_dasharray(Dash d)
{
    return d == DASH_DASHED   ? " stroke-dasharray=\"7 4\""
           : d == DASH_DOTTED ? " stroke-dasharray=\"1 4\""
                              : "";
}

/* Writes t / 10 for a whole number t (a coordinate in tenths of a pixel) as "%.1f"
 * writes it, without printf's cost: a long line has thousands. Returns the end. */
static char *tenths(char *out, double t)
{
    if (!(fabs(t) < 1e15))
        return out + sprintf(out, "%.1f", t / 10);
    char digits[24];
    int n = 0;
    if (signbit(t))
        *out++ = '-';
    long long k = llabs((long long)t);
    do
        digits[n++] = (char)('0' + k % 10);
    while ((k /= 10) > 0);
    if (n == 1)
        digits[n++] = '0';
    while (n > 1)
        *out++ = digits[--n];
    *out++ = '.';
    *out++ = digits[0];
    return out;
}

static void svg_line_begin(void *ctx, const Stroke *st)
{
    Svg *s = ctx;
    s->line_roof = strcmp(st->kind, "roof") == 0;
    s->line_n = 0;
    s->line_px = s->line_py = NAN;
    s->held = false;
    fprintf(s->out,
            "<polyline class=\"%s\" fill=\"none\" stroke=\"%s\" stroke-width=\"%.1f\"%s points=\"",
            st->kind, st->colour, st->width, svg_dasharray(st->dash));
}

/* A roof's segment from the last point to (u, v), which labels step around. */
static void svg_roof_segment(Svg *s, double u, double v)
{
    if (s->line_n > 0 && s->nroofs < MAX_TAKEN)
        s->roofs[s->nroofs++] = (Box){svg_x(s, s->line_u), svg_y(s, s->line_v), svg_x(s, u),
                                      svg_y(s, v), false};
}

/* A point in tenths of a pixel, after a space unless it is the line's first. */
static void svg_line_write(Svg *s, double x, double y)
{
    char text[80], *end = text;
    if (!isnan(s->line_px))
        *end++ = ' ';
    end = tenths(end, x);
    *end++ = ',';
    end = tenths(end, y);
    fwrite(text, 1, (size_t)(end - text), s->out);
    s->line_px = x;
    s->line_py = y;
}

/* round(t), inline rather than a call into libm (a long line rounds thousands): t less
 * its whole part (exact below 2^53) decides, half away from zero, and the whole part
 * keeps t's sign, so -0.3 rounds to -0 as round does. Beyond 1e15, round itself. */
static double round_tenth(double t)
{
    if (!(fabs(t) < 1e15))
        return round(t);
    double whole = copysign((double)(long long)t, t);
    return fabs(t - whole) >= 0.5 ? whole + copysign(1, t) : whole;
}

static void svg_line_points(void *ctx, const double *u, const double *v, int n)
{
    Svg *s = ctx;
    for (int i = 0; i < n; i++) {
        if (s->line_roof)
            svg_roof_segment(s, u[i], v[i]);
        s->line_u = u[i], s->line_v = v[i], s->line_n++;
        /* A point that lands on the last one's tenth of a pixel adds nothing, unless it
         * is the line's last (svg_line_end). */
        double x = round_tenth(10 * svg_x(s, u[i])), y = round_tenth(10 * svg_y(s, v[i]));
        s->held = x == s->line_px && y == s->line_py;
        if (s->held)
            s->held_x = x, s->held_y = y;
        else
            svg_line_write(s, x, y);
    }
}

static void svg_line_end(void *ctx)
{
    Svg *s = ctx;
    if (s->held)
        svg_line_write(s, s->held_x, s->held_y);
    fputs("\"/>\n", s->out);
}

/* The labels over the plot (a roof's, a ridge's, a point's) step around each other and
 * the points: each goes where its box (text_box) is inside the plot area and clear of
 * every box taken so far, or is left out, never drawn over another. */

/* A label beyond the last box that can be taken could not be checked: it is left out. */
static void svg_take(Svg *s, Box b)
{
    if (s->ntaken < MAX_TAKEN)
        s->taken[s->ntaken++] = b;
}

/* Whether the label box b comes within LABEL_GAP pixels of t, a label box or a circle:
 * the gap keeps two boxes apart once their corners are written to a tenth of a pixel. */
static bool overlaps(Box b, const Box *t)
{
    b.x0 -= LABEL_GAP, b.y0 -= LABEL_GAP, b.x1 += LABEL_GAP, b.y1 += LABEL_GAP;
    if (!(b.x0 < t->x1 && t->x0 < b.x1 && b.y0 < t->y1 && t->y0 < b.y1))
        return false;
    if (!t->round)
        return true;
    double cx = (t->x0 + t->x1) / 2, cy = (t->y0 + t->y1) / 2;
    double nx = fmax(b.x0, fmin(cx, b.x1)), ny = fmax(b.y0, fmin(cy, b.y1)); /* nearest to centre */
    return hypot(nx - cx, ny - cy) < (t->x1 - t->x0) / 2;
}

/* Inside the plot area, LABEL_GAP in from its edges, and clear of every box taken; with
 * no room left to take its box, nowhere is. */
static bool clear_of_labels(const Svg *s, Box b)
{
    double g = LABEL_GAP;
    if (s->ntaken == MAX_TAKEN || b.x0 < s->left + g || b.x1 > s->left + s->w - g ||
        b.y0 < s->top + g || b.y1 > s->top + s->h - g)
        return false;
    for (int i = 0; i < s->ntaken; i++)
        if (overlaps(b, &s->taken[i]))
            return false;
    return true;
}

/* Clear of labels and points, and not crossed by a roof. */
static bool svg_clear(const Svg *s, Box b)
{
    if (!clear_of_labels(s, b))
        return false;
    double w = b.x1 - b.x0, h = b.y1 - b.y0;
    for (int i = 0; i < s->nroofs; i++) {
        const Box *r = &s->roofs[i]; /* in the box's own unit square, to reuse the clip */
        double seg[4] = {(r->x0 - b.x0) / w, (r->y0 - b.y0) / h, (r->x1 - b.x0) / w,
                         (r->y1 - b.y0) / h};
        if (clip_unit(seg))
            return false;
    }
    return true;
}

/* The box of a label beside a mark of radius r at (x, y), in direction (dx, dy): its near
 * edge `away` px from the mark's edge, centred on the axis where the direction is 0. */
static Box label_box(double x, double y, double r, double away, const double dir[2], double w,
                     double size)
{
    double dx = dir[0], dy = dir[1], gap = r + away, bx = x + dx * gap, by = y + dy * gap;
    double x0 = dx > 0.01 ? bx : dx < -0.01 ? bx - w : bx - w / 2;
    double y0 = dy > 0.01 ? by : dy < -0.01 ? by - size : by - size / 2;
    return (Box){x0, y0, x0 + w, y0 + size, false};
}

/* Sixteen directions, a quarter of them at a time around the compass, for labels that
 * find no room beside their mark. */
static void around(int i, double dir[2])
{
    double turn = (i % 4 * 4 + i / 4) * (atan(1) / 2); /* 0°, 90°, 180°, 270°, 22.5°, ... */
    dir[0] = cos(turn), dir[1] = -sin(turn);
}

/* Where a label w × size beside a mark of radius r at (x, y) goes: in the first of the
 * directions where it is clear, or else farther out, ring after ring in sixteen
 * directions. False when no place is clear. *ring says how far out (0: beside it). */
static bool label_place(const Svg *s, double x, double y, double r, const double (*dirs)[2],
                        int n, double w, double size, Box *b, int *ring)
{
    for (int k = 0; k <= LABEL_RINGS; k++)
        for (int i = 0; i < (k == 0 ? n : 16); i++) {
            double dir[2];
            if (k == 0)
                dir[0] = dirs[i][0], dir[1] = dirs[i][1];
            else
                around(i, dir);
            Box c = label_box(x, y, r, 3 + k * RING_STEP, dir, w, size);
            if (svg_clear(s, c)) {
                *b = c;
                *ring = k;
                return true;
            }
        }
    return false;
}

/* A label placed by label_place, taken; away from its mark, a thin leader line ties it
 * to the mark's edge. The baseline is 0.2 em above the box's bottom, as text_box has it. */
static void svg_label_at(Svg *s, Box b, double x, double y, double r, int ring, TextStyle st,
                         const char *label)
{
    svg_take(s, b);
    if (ring > 0) {
        double nx = fmax(b.x0, fmin(x, b.x1)), ny = fmax(b.y0, fmin(y, b.y1));
        double d = hypot(nx - x, ny - y);
        fprintf(s->out,
                "<line class=\"leader\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
                "stroke=\"#999\" stroke-width=\"0.8\"/>\n",
                x + (nx - x) * r / d, y + (ny - y) * r / d, nx, ny);
    }
    st.x = b.x0, st.y = b.y1 - 0.2 * st.size, st.anchor = "start";
    svg_text(s->out, st, label);
}

/* A flat roof's label just above the line (or just below it), at the right end of its
 * visible stretch, or stepping left along it. */
static bool flat_label(const Svg *s, TextStyle *t, double ax, double bx, double y,
                       const char *label)
{
    double w = text_px(label, t->size);
    t->anchor = "end";
    for (double end = bx - 4; end - w >= ax; end -= w / 2)
        for (int below = 0; below < 2; below++) {
            t->x = end, t->y = below ? y + t->size + 3 : y - 5;
            if (svg_clear(s, text_box(t, label)))
                return true;
        }
    return false;
}

/* A slope's label turned to it, just above it (or just below), halfway up its visible
 * stretch or stepping out from there. Its upright box holds a stretch of its own line:
 * it steps around labels and points only. */
static bool slope_label(const Svg *s, TextStyle *t, const double end[4], const char *label)
{
    static const double AT[] = {0.5, 0.4, 0.6, 0.3, 0.7, 0.2, 0.8};
    double angle = atan2(end[3] - end[1], end[2] - end[0]);
    t->anchor = "middle", t->angle = angle * DEGREES_PER_RADIAN;
    for (int below = 0; below < 2; below++)
        for (size_t i = 0; i < sizeof AT / sizeof AT[0]; i++) {
            double off = below ? -(5 + 0.8 * t->size) : 5;
            t->x = end[0] + AT[i] * (end[2] - end[0]) + off * sin(angle);
            t->y = end[1] + AT[i] * (end[3] - end[1]) - off * cos(angle);
            if (clear_of_labels(s, text_box(t, label)))
                return true;
        }
    return false;
}

/* A roof is named where it is drawn: a flat roof towards its right end, a slope along
 * its visible stretch and turned to it, both just above the line, where no data lie.
 * Where there is no room, the legend names it alone. */
static void svg_roof_label(void *ctx, const double seg[4], const char *label, const Stroke *st)
{
    Svg *s = ctx;
    double end[4] = {svg_x(s, seg[0]), svg_y(s, seg[1]), svg_x(s, seg[2]), svg_y(s, seg[3])};
    TextStyle t = {.size = 11, .fill = st->colour, .halo = true};
    if (hypot(end[2] - end[0], end[3] - end[1]) < text_px(label, t.size) + 12)
        return;
    bool flat = fabs(end[3] - end[1]) < 0.5;
    if (flat ? !flat_label(s, &t, end[0], end[2], end[3], label) : !slope_label(s, &t, end, label))
        return;
    svg_take(s, text_box(&t, label));
    svg_text(s->out, t, label);
}

/* Ridge labels go below and right of the kink first, under the flat roof. */
static const double RIDGE_DIRS[][2] = {{0.7, 0.7}, {-0.7, -0.7}, {0.7, -0.7}, {-0.7, 0.7}};
/* Point labels go right first, which is under a slope through the point, then above,
 * which on a roofline is empty sky. */
static const double POINT_DIRS[][2] = {{1, 0},     {0.7, -0.7}, {-0.7, -0.7},
                                       {0.7, 0.7}, {-1, 0},     {-0.7, 0.7}};

enum { RIDGE_RADIUS = 4 };

/* A ridge's ring, and its label in full or as the bare number where that fits. */
static void svg_ridge(void *ctx, double u, double v, double x, const Stroke *st)
{
    Svg *s = ctx;
    char label[48];
    double cx = svg_x(s, u), cy = svg_y(s, v);
    fprintf(s->out,
            "<circle class=\"ridge\" cx=\"%.1f\" cy=\"%.1f\" r=\"%d\" fill=\"white\" stroke=\"%s\" "
            "stroke-width=\"1.5\"/>\n",
            cx, cy, RIDGE_RADIUS, st->colour);
    ridge_format(label, sizeof label, x);
    TextStyle t = {.size = 11, .fill = st->colour, .halo = true};
    for (const char *text = label; text; text = text == label ? label + strlen("ridge ") : NULL) {
        Box b;
        int ring;
        if (label_place(s, cx, cy, RIDGE_RADIUS, RIDGE_DIRS, 4, text_px(text, t.size), t.size,
                        &b, &ring)) {
            svg_label_at(s, b, cx, cy, RIDGE_RADIUS, ring, t, text);
            return;
        }
    }
}

/* Area proportional to the weight (the share of the time), with a radius still visible
 * at weight 0. */
static double svg_radius(const Svg *s, const PlotPoint *pt)
{
    double w = isfinite(pt->weight) && pt->weight > 0 ? fmin(pt->weight, 1) : 0;
    return fmax(3.5, 0.06 * fmin(s->w, s->h) * sqrt(w));
}

/* A point's circle and its label; a label with no room left is the circle's tooltip
 * (a <title>), unless the point has a note for that. */
static void svg_point(void *ctx, double u, double v, const PlotPoint *pt, int which)
{
    Svg *s = ctx;
    double r = svg_radius(s, pt), cx = svg_x(s, u), cy = svg_y(s, v);
    const char *colour = point_stroke(pt, which).colour;
    Box b;
    int ring;
    TextStyle t = {.size = 12, .halo = true};
    bool placed = has_text(pt->label) && label_place(s, cx, cy, r, POINT_DIRS, 6,
                                                     text_px(pt->label, t.size), t.size, &b, &ring);
    const char *tip = has_text(pt->note) ? pt->note : placed ? NULL : pt->label;
    fprintf(s->out,
            "<circle class=\"point\" cx=\"%.1f\" cy=\"%.1f\" r=\"%.1f\" fill=\"%s\" "
            "fill-opacity=\"0.55\" stroke=\"%s\"",
            cx, cy, r, colour, colour);
    if (has_text(tip)) {
        fputs("><title>", s->out);
        svg_escaped(s->out, tip);
        fputs("</title></circle>\n", s->out);
    } else
        fputs("/>\n", s->out);
    if (placed)
        svg_label_at(s, b, cx, cy, r, ring, t, pt->label);
}

typedef struct {
    Svg *s;
    const Chart *c;
} Marks;

static void take_ridge(void *ctx, double x, double peak, int group)
{
    const Marks *m = ctx;
    double u = axis_pos(&m->c->x, x), v = axis_pos(&m->c->y, peak), r = RIDGE_RADIUS;
    (void)group;
    if (isfinite(u) && isfinite(v))
        svg_take(m->s, (Box){svg_x(m->s, u) - r, svg_y(m->s, v) - r, svg_x(m->s, u) + r,
                             svg_y(m->s, v) + r, true});
}

/* Every point's circle and ridge's ring is taken before any label is placed, so no
 * label lands on a mark drawn after it. */
static void svg_take_points(Svg *s, const Chart *c)
{
    for (int i = 0; i < c->plot.npoints; i++) {
        const PlotPoint *pt = &c->plot.points[i];
        double u = axis_pos(&c->x, pt->x), v = axis_pos(&c->y, pt->y), r = svg_radius(s, pt);
        if (isfinite(u) && isfinite(v))
            svg_take(
                s, (Box){svg_x(s, u) - r, svg_y(s, v) - r, svg_x(s, u) + r, svg_y(s, v) + r, true});
    }
    Marks m = {s, c};
    for_each_ridge(&c->plot, take_ridge, &m);
}

static const Painter SVG_PAINTER = {svg_line_begin, svg_line_points, svg_line_end,
                                    svg_roof_label, svg_ridge, svg_point};

/* Grid lines at every tick, labels at the major ones that do not overlap the last. */
static void svg_axis(const Svg *s, const Axis *a, bool is_x)
{
    Tick t[MAX_TICKS];
    int n = axis_ticks(a, t);
    for (int i = 0; i < n; i++) {
        double q = axis_pos(a, t[i].value);
        if (!(q > 1e-9 && q < 1 - 1e-9))
            continue; /* the frame is drawn there */
        double x = is_x ? svg_x(s, q) : s->left, y = is_x ? s->top : svg_y(s, q);
        fprintf(s->out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\"/>\n",
                x, y, is_x ? x : s->left + s->w, is_x ? s->top + s->h : y,
                t[i].major ? "#d8d8d8" : "#f2f2f2");
    }
    Mark m[MAX_TICKS];
    n = axis_marks(a, m);
    double last = -1e9; /* the far edge of the last label, along the axis */
    for (int i = 0; i < n; i++) {
        double at = is_x ? svg_x(s, m[i].pos) : -svg_y(s, m[i].pos);
        double half = is_x ? text_px(m[i].label, 11) / 2 + 3 : 8;
        if (at - half < last || (is_x && (at - half < 0 || at + half > s->width)))
            continue;
        last = at + half;
        TextStyle st = is_x ? (TextStyle){.x = at, .y = s->top + s->h + 17, .anchor = "middle"}
                            : (TextStyle){.x = s->left - 6, .y = -at + 4, .anchor = "end"};
        st.size = 11, st.fill = "#333";
        svg_text(s->out, st, m[i].label);
    }
}

static void svg_legend_entry(FILE *out, const LegendEntry *e, const char *label, double x,
                             double y)
{
    const Stroke *st = &e->stroke;
    double rise = e->kind == KEY_SLOPE ? 6 : 0;
    if (e->kind == KEY_POINT)
        fprintf(out,
                "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"5\" fill=\"%s\" fill-opacity=\"0.55\" "
                "stroke=\"%s\"/>\n",
                x + LEGEND_KEY / 2.0, y, st->colour, st->colour);
    else
        fprintf(out,
                "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
                "stroke-width=\"%.1f\"%s/>\n",
                x, y + rise, x + LEGEND_KEY, y - rise, st->colour, st->width,
                svg_dasharray(st->dash));
    svg_text(out, (TextStyle){.x = x + LEGEND_KEY + 6, .y = y + 4, .size = 12}, label);
}

/* Lays the legend out in rows `width` pixels wide from (x, y), at most max_rows of them;
 * draws it when out is not NULL. Returns the number of rows. */
static int svg_legend(FILE *out, const LegendEntry *e, int n, double x, double y, double width,
                      int max_rows)
{
    int rows = n > 0 && max_rows > 0;
    double at = 0;
    for (int i = 0; i < n && rows > 0; i++) {
        char buf[FITTED_MAX];
        const char *label = fit_text(e[i].label, 12, width - LEGEND_KEY - 6, buf);
        double w = LEGEND_KEY + 6 + text_px(label, 12);
        if (at > 0 && at + w > width) {
            if (rows == max_rows)
                break;
            rows++, at = 0;
        }
        if (out)
            svg_legend_entry(out, &e[i], label, x + at, y + (rows - 1) * LEGEND_ROW);
        at += w + 18;
    }
    return rows;
}

/* Margins for the title, the y tick labels and axis label, the x tick labels and axis
 * label, and the legend's rows below. */
static Svg svg_layout(FILE *out, const Chart *c, int width, int height, const LegendEntry *e, int n)
{
    const Plot *p = &c->plot;
    Svg s = {.out = out, .width = width, .height = height, .top = has_text(p->title) ? 44 : 16};
    s.taken = nomem_note(malloc(sizeof *s.taken * 2 * MAX_TAKEN));
    s.roofs = s.taken ? s.taken + MAX_TAKEN : NULL;
    double ticks = c->has_data ? text_px("0", 11) * axis_label_width(&c->y) : 0;
    s.left = 14 + (has_text(p->ylabel) ? 20 : 0) + ticks + 8;
    s.w = fmax(20, width - s.left - 28);
    s.legend_rows = svg_legend(NULL, e, n, 0, 0, s.w, height / 4 / LEGEND_ROW);
    double bottom = 26 + (has_text(p->xlabel) ? 22 : 0) + s.legend_rows * LEGEND_ROW + 10;
    s.h = fmax(20, height - s.top - bottom);
    return s;
}

static void svg_head(const Svg *s, const Plot *p, int width, int height)
{
    fprintf(s->out, "<svg%s width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
            "font-family=\"sans-serif\">\n",
            p->inline_id ? "" : " xmlns=\"http://www.w3.org/2000/svg\"", width, height, width,
            height);
    fprintf(s->out, "<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"white\"/>\n", width,
            height);
    fprintf(s->out,
            "<defs><clipPath id=\"%s\"><rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
            "height=\"%.1f\"/></clipPath></defs>\n",
            s->clip, s->left, s->top, s->w, s->h);
    char buf[FITTED_MAX];
    if (has_text(p->title))
        svg_text(s->out,
                 (TextStyle){
                     .x = width / 2.0, .y = 26, .size = 16, .anchor = "middle", .weight = "bold"},
                 fit_text(p->title, 16, width - 16, buf));
    if (has_text(p->ylabel))
        svg_text(s->out,
                 (TextStyle){
                     .x = 18, .y = s->top + s->h / 2, .size = 13, .anchor = "middle", .angle = -90},
                 fit_text(p->ylabel, 13, s->h, buf));
    if (has_text(p->xlabel))
        svg_text(
            s->out,
            (TextStyle){
                .x = s->left + s->w / 2, .y = s->top + s->h + 40, .size = 13, .anchor = "middle"},
            fit_text(p->xlabel, 13, s->w, buf));
}

/* Axes and marks, or the note that there is nothing to draw; then the frame on top. */
static void svg_body(Svg *s, Chart *c)
{
    if (c->has_data) {
        svg_axis(s, &c->x, true);
        svg_axis(s, &c->y, false);
        c->paint = &SVG_PAINTER, c->ctx = s;
        svg_take_points(s, c);
        fprintf(s->out, "<g clip-path=\"url(#%s)\" stroke-linecap=\"round\" "
                "stroke-linejoin=\"round\">\n", s->clip);
        paint_marks(c);
        fputs("</g>\n", s->out);
    } else {
        svg_text(s->out,
                 (TextStyle){.x = s->left + s->w / 2,
                             .y = s->top + s->h / 2,
                             .size = 14,
                             .anchor = "middle",
                             .fill = "#888"},
                 "no data");
    }
    fprintf(s->out,
            "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"none\" "
            "stroke=\"#333\"/>\n",
            s->left, s->top, s->w, s->h);
}

/* Sizes below 100 × 80 are raised to it: smaller has no room for a chart. */
bool plot_svg(FILE *out, const Plot *p, int width, int height)
{
    width = width < 100 ? 100 : width;
    height = height < 80 ? 80 : height;
    Chart c = chart_make(p, width / 110 + 1, height / 80 + 1);
    LegendEntry *e = legend_alloc(&c.plot);
    if (!e)
        return false;
    int n = c.has_data ? legend_entries(&c.plot, e, SVG_POINT_ENTRIES) : 0;
    Svg s = svg_layout(out, &c, width, height, e, n);
    if (!s.taken) {
        free(e);
        return false;
    }
    snprintf(s.clip, sizeof s.clip, "%.60s%splot-area", p->inline_id ? p->inline_id : "",
             p->inline_id ? "-" : "");
    svg_head(&s, &c.plot, width, height);
    svg_body(&s, &c);
    double legend_y = s.top + s.h + 26 + (has_text(p->xlabel) ? 22 : 0) + 14;
    svg_legend(out, e, n, s.left, legend_y, s.w, s.legend_rows);
    fputs("</svg>\n", out);
    free(e);
    free(s.taken);
    return fflush(out) == 0 && !ferror(out);
}

/* ---- Text ------------------------------------------------------------------------ */

typedef struct {
    int cols, rows;
    uint32_t *cell;      /* rows × cols code points: the whole output */
    int left, top, w, h; /* the plot area inside the frame, in cells */
    uint8_t *dots;       /* w × h braille masks */
    uint32_t *over;      /* w × h: letters and labels over the dots; 0 where none */
    const char **dot_ink; /* w × h: the colour of the last line or point drawn there */
    const char **ink;    /* rows × cols: each cell's colour ("#4c72b0"), NULL for plain */
    const char *pen;     /* the colour of the line being drawn */
    Dash dash;           /* its pattern, */
    double along;        /* how far along it the last point is, in dots, */
    double last_u, last_v; /* and where that point is */
    bool has_last;
    bool ascii;
} Text;

/* Braille dot bits by (row, column) within a 2 × 4 cell. */
static const uint8_t BRAILLE[4][2] = {{0x01, 0x08}, {0x02, 0x10}, {0x04, 0x20}, {0x40, 0x80}};

enum { BOX_H, BOX_V, BOX_TL, BOX_TR, BOX_BL, BOX_BR, BOX_TICK_LEFT, BOX_TICK_DOWN };

static uint32_t box(const Text *t, int part)
{
    static const uint32_t UNICODE[] = {0x2500, 0x2502, 0x250C, 0x2510,
                                       0x2514, 0x2518, 0x2524, 0x252C};
    return t->ascii ? (uint32_t) "-|++++++"[part] : UNICODE[part];
}

/* Cells outside the output are ignored, so a row left out of the layout (-1) costs the
 * callers no test. */
static void text_put(Text *t, int row, int col, uint32_t c)
{
    if (row >= 0 && row < t->rows && col >= 0 && col < t->cols)
        t->cell[(size_t)row * t->cols + col] = c;
}

static void text_ink(Text *t, int row, int col, const char *colour)
{
    if (t->ink && row >= 0 && row < t->rows && col >= 0 && col < t->cols)
        t->ink[(size_t)row * t->cols + col] = colour;
}

/* Up to max cells of s from (row, col); returns the cells it took. */
static int text_write(Text *t, int row, int col, const char *s, int max)
{
    const unsigned char *p = (const unsigned char *)(s ? s : "");
    int n = 0;
    for (; *p != '\0' && n < max; n++) {
        uint32_t c = utf8_next(&p);
        c = c < 0x20 ? ' ' : t->ascii && c >= 0x80 ? '?' : c;
        text_put(t, row, col + n, c);
    }
    return n;
}

static void text_centered(Text *t, int row, int left, int width, const char *s)
{
    int len = utf8_length(s);
    text_write(t, row, left + (len < width ? (width - len) / 2 : 0), s, width);
}

static void text_frame(Text *t, int top, int left, int bottom, int right)
{
    for (int c = left; c <= right; c++) {
        text_put(t, top, c, box(t, BOX_H));
        text_put(t, bottom, c, box(t, BOX_H));
    }
    for (int r = top; r <= bottom; r++) {
        text_put(t, r, left, box(t, BOX_V));
        text_put(t, r, right, box(t, BOX_V));
    }
    text_put(t, top, left, box(t, BOX_TL));
    text_put(t, top, right, box(t, BOX_TR));
    text_put(t, bottom, left, box(t, BOX_BL));
    text_put(t, bottom, right, box(t, BOX_BR));
}

/* A cell's dots in ASCII: the character nearest the shape they make. */
static uint32_t ascii_dots(uint8_t m)
{
    int rows = 0, top = -1, bottom = -1;
    for (int r = 0; r < 4; r++)
        if (m & (BRAILLE[r][0] | BRAILLE[r][1])) {
            rows++;
            bottom = r;
            top = top < 0 ? r : top;
        }
    bool left = m & 0x47, right = m & 0xB8;
    if ((m & (m - 1)) == 0)
        return '.';
    if (rows <= 2)
        return '-';
    if (!left || !right)
        return '|';
    bool rising = (m & BRAILLE[top][1]) && !(m & BRAILLE[top][0]) && (m & BRAILLE[bottom][0]);
    bool falling = (m & BRAILLE[top][0]) && !(m & BRAILLE[top][1]) && (m & BRAILLE[bottom][1]);
    return rising ? '/' : falling ? '\\' : '*';
}

static uint32_t dots_char(uint8_t m, bool ascii)
{
    return m == 0 ? ' ' : ascii ? ascii_dots(m) : 0x2800u + m;
}

static double dot_x(const Text *t, double u)
{
    return u * (2 * t->w - 1);
}

static double dot_y(const Text *t, double v)
{
    return (1 - v) * (4 * t->h - 1);
}

static void text_dot(Text *t, long x, long y)
{
    if (x >= 0 && y >= 0 && x < 2L * t->w && y < 4L * t->h) {
        t->dots[(y / 4) * t->w + x / 2] |= BRAILLE[y % 4][x % 2];
        t->dot_ink[(y / 4) * t->w + x / 2] = t->pen;
    }
}

/* Whether the pattern puts a dot `at` dots along the line. */
static bool dash_on(Dash d, double at)
{
    return d == DASH_SOLID || (d == DASH_DASHED ? fmod(at, 6) < 4 : fmod(at, 3) < 1);
}

/* One dot per step along the longer direction; *along carries the distance from the
 * line's start, so a dash pattern runs on across the many short segments of a curve. */
static void text_segment(Text *t, double seg[4], Dash d, double *along)
{
    if (!clip_unit(seg))
        return;
    double ax = dot_x(t, seg[0]), ay = dot_y(t, seg[1]), bx = dot_x(t, seg[2]),
           by = dot_y(t, seg[3]);
    double len = fmax(fabs(bx - ax), fabs(by - ay));
    long n = (long)ceil(len);
    for (long k = 0; k <= n; k++) {
        double f = n > 0 ? (double)k / n : 0;
        if (dash_on(d, *along + f * len))
            text_dot(t, lround(ax + f * (bx - ax)), lround(ay + f * (by - ay)));
    }
    *along += len;
}

static void text_line_begin(void *ctx, const Stroke *s)
{
    Text *t = ctx;
    t->pen = s->colour;
    t->dash = s->mono;
    t->along = 0;
    t->has_last = false;
}

static void text_line_points(void *ctx, const double *u, const double *v, int n)
{
    Text *t = ctx;
    for (int i = 0; i < n; i++) {
        double seg[4] = {t->last_u, t->last_v, u[i], v[i]};
        if (t->has_last)
            text_segment(t, seg, t->dash, &t->along);
        t->last_u = u[i], t->last_v = v[i], t->has_last = true;
    }
}

static void text_line_end(void *ctx)
{
    ((Text *)ctx)->pen = NULL;
}

/* The plot cell under (u, v), or false when it is outside the area. */
static bool text_cell(const Text *t, double u, double v, int *row, int *col)
{
    long x = lround(dot_x(t, u)), y = lround(dot_y(t, v));
    *col = (int)(x / 2), *row = (int)(y / 4);
    return x >= 0 && y >= 0 && *col < t->w && *row < t->h;
}

/* Writes s over the plot at (row, col) if every cell it needs is inside and empty. */
static bool text_place(Text *t, int row, int col, const char *s)
{
    int len = (int)strlen(s);
    if (row < 0 || row >= t->h || col < 0 || col + len > t->w)
        return false;
    for (int i = 0; i < len; i++)
        if (t->over[row * t->w + col + i] || t->dots[row * t->w + col + i])
            return false;
    for (int i = 0; i < len; i++)
        t->over[row * t->w + col + i] = (unsigned char)s[i];
    return true;
}

/* s beside the cell (row, col): below or above it, to the right or else to the left. */
static bool text_place_near(Text *t, int row, int col, const char *s)
{
    int len = (int)strlen(s);
    return text_place(t, row + 1, col + 1, s) || text_place(t, row - 1, col + 1, s) ||
           text_place(t, row + 1, col - len, s) || text_place(t, row - 1, col - len, s);
}

/* A ridge: a ring on the kink, and its label in the first free place around it, in
 * full or as the bare number. Points keep their cells. */
static void text_ridge(void *ctx, double u, double v, double x, const Stroke *s)
{
    Text *t = ctx;
    int row, col;
    char label[48];
    (void)s;
    if (!text_cell(t, u, v, &row, &col) || t->over[row * t->w + col])
        return;
    t->over[row * t->w + col] = t->ascii ? 'o' : 0x25CB;
    ridge_format(label, sizeof label, x);
    if (!text_place_near(t, row, col, label))
        text_place_near(t, row, col, label + strlen("ridge "));
}

enum { TEXT_POINT_ENTRIES = 52 }; /* A..Z, a..z: points beyond are '*' and not in the legend */

static uint32_t point_letter(int i)
{
    return i < 26 ? (uint32_t)('A' + i) : i < 52 ? (uint32_t)('a' + i - 26) : '*';
}

static void text_point(void *ctx, double u, double v, const PlotPoint *pt, int which)
{
    Text *t = ctx;
    int row, col;
    if (text_cell(t, u, v, &row, &col)) {
        t->over[row * t->w + col] = point_letter(which);
        t->dot_ink[row * t->w + col] = point_stroke(pt, which).colour;
    }
}

static const Painter TEXT_PAINTER = {text_line_begin, text_line_points, text_line_end, NULL,
                                     text_ridge, text_point};

/* Tick marks on the bottom frame, labels centred below them unless they would touch
 * the last one. */
static void text_axis_x(Text *t, const Axis *a)
{
    Mark m[MAX_TICKS];
    int n = axis_marks(a, m), end = -1, row = t->top + t->h;
    for (int i = 0; i < n; i++) {
        int col = t->left + (int)(lround(dot_x(t, m[i].pos)) / 2), len = (int)strlen(m[i].label);
        int start = col - len / 2;
        start = start + len > t->cols ? t->cols - len : start;
        start = start < 0 ? 0 : start;
        text_put(t, row, col, box(t, BOX_TICK_DOWN));
        if (start <= end)
            continue;
        end = start + text_write(t, row + 1, start, m[i].label, len);
    }
}

/* Tick marks on the left frame, labels right-aligned in the gutter, one per row. */
static void text_axis_y(Text *t, const Axis *a)
{
    Mark m[MAX_TICKS];
    int n = axis_marks(a, m), last = -1;
    for (int i = 0; i < n; i++) {
        int row = t->top + (int)(lround(dot_y(t, m[i].pos)) / 4), len = (int)strlen(m[i].label);
        if (row == last)
            continue;
        last = row;
        text_put(t, row, t->left - 1, box(t, BOX_TICK_LEFT));
        text_write(t, row, t->left - 2 - len, m[i].label, len);
    }
}

/* The cells standing for an entry: a sample of its line drawn with the same dots and
 * dashes as the chart, or a point's letter. Returns how many. */
static int legend_key(const LegendEntry *e, bool ascii, uint32_t key[3])
{
    if (e->kind == KEY_POINT) {
        key[0] = point_letter(e->which);
        return 1;
    }
    uint8_t m[3] = {0, 0, 0};
    for (int x = 0; x < 6; x++) {
        int y = e->kind == KEY_SLOPE ? 3 - (3 * x + 2) / 5 : 1;
        if (dash_on(e->stroke.mono, x))
            m[x / 2] |= BRAILLE[y][x % 2];
    }
    for (int i = 0; i < 3; i++)
        key[i] = dots_char(m[i], ascii);
    return 3;
}

/* Lays the legend out in lines of t->cols cells from row0: key, space, label, and three
 * spaces between entries. With draw false it only counts the lines it needs. */
static int text_legend(Text *t, bool draw, const LegendEntry *e, int n, int row0, int max_lines)
{
    int line = 0, col = 0;
    for (int i = 0; i < n; i++) {
        uint32_t key[3];
        int keylen = legend_key(&e[i], t->ascii, key), width = keylen + 1 + utf8_length(e[i].label);
        if (col > 0 && col + 3 + width > t->cols)
            line++, col = 0;
        else if (col > 0)
            col += 3;
        if (line >= max_lines)
            break;
        for (int k = 0; draw && k < keylen; k++) {
            text_put(t, row0 + line, col + k, key[k]);
            text_ink(t, row0 + line, col + k, e[i].stroke.colour);
        }
        if (draw)
            text_write(t, row0 + line, col + keylen + 1, e[i].label, t->cols - col - keylen - 1);
        col += width;
    }
    return n > 0 ? line + (line < max_lines) : 0;
}

typedef struct {
    int title, ylabel, xlabel, legend; /* rows, -1 when left out */
    int legend_lines;
    int top, h; /* the frame's top row, and the plot's height inside it */
} TextLayout;

/* Rows from the top: title, y label, frame (plot inside), x ticks, x label, legend. When
 * rows are short, the extras go, least useful first, until the plot has half the rows.
 * False when not even a minimal plot fits. */
static bool text_layout(TextLayout *L, const Plot *p, int rows, int legend_lines)
{
    int title = has_text(p->title), ylabel = has_text(p->ylabel), xlabel = has_text(p->xlabel);
    int legend = legend_lines, want = rows / 2 > 3 ? rows / 2 : 3;
    while (rows - 3 - title - ylabel - xlabel - legend < want) {
        if (legend > 1)
            legend--;
        else if (ylabel)
            ylabel = 0;
        else if (xlabel)
            xlabel = 0;
        else if (legend)
            legend--;
        else if (title)
            title = 0;
        else
            break;
    }
    L->title = title ? 0 : -1;
    L->ylabel = ylabel ? title : -1;
    L->top = title + ylabel;
    L->h = rows - 3 - title - ylabel - xlabel - legend;
    L->xlabel = xlabel ? L->top + L->h + 3 : -1;
    L->legend = L->top + L->h + 3 + xlabel;
    L->legend_lines = legend;
    return L->h >= 2;
}

/* Too small for axes: a box, with the title or the note inside when it fits. */
static void text_minimal(Text *t, const char *note)
{
    text_frame(t, 0, 0, t->rows - 1, t->cols - 1);
    text_write(t, t->rows > 2 ? 1 : 0, 1, note, t->cols - 2);
}

static void text_compose(Text *t)
{
    for (int r = 0; r < t->h; r++)
        for (int c = 0; c < t->w; c++) {
            uint32_t over = t->over[r * t->w + c];
            bool mark = !over || (over >= 'A' && over <= 'Z') || (over >= 'a' && over <= 'z');
            text_put(t, t->top + r, t->left + c,
                     over ? over : dots_char(t->dots[r * t->w + c], t->ascii));
            text_ink(t, t->top + r, t->left + c, mark ? t->dot_ink[r * t->w + c] : NULL);
        }
}

static void text_chart(Text *t, Chart *c, const TextLayout *L, const LegendEntry *e, int n)
{
    const Plot *p = &c->plot;
    text_centered(t, L->title, 0, t->cols, p->title);
    text_write(t, L->ylabel, 0, p->ylabel, t->cols);
    text_frame(t, L->top, t->left - 1, L->top + t->h + 1, t->left + t->w);
    t->top = L->top + 1;
    if (c->has_data) {
        text_axis_x(t, &c->x);
        text_axis_y(t, &c->y);
        c->paint = &TEXT_PAINTER, c->ctx = t;
        paint_marks(c);
    }
    text_compose(t);
    if (!c->has_data)
        text_centered(t, t->top + (t->h - 1) / 2, t->left, t->w, "no data");
    text_centered(t, L->xlabel, t->left, t->w, p->xlabel);
    text_legend(t, true, e, n, L->legend, L->legend_lines);
}

/* Lays out and draws into t->cell; false only when memory runs out. */
static bool text_draw(Text *t, const Plot *p)
{
    Chart c = chart_make(p, t->cols / 10, t->rows / 4);
    LegendEntry *e = legend_alloc(&c.plot);
    if (!e)
        return false;
    int n = c.has_data ? legend_entries(&c.plot, e, TEXT_POINT_ENTRIES) : 0;
    TextLayout L;
    t->left = (c.has_data ? axis_label_width(&c.y) + 1 : 0) + 1;
    t->w = t->cols - t->left - 1;
    bool fits =
        text_layout(&L, &c.plot, t->rows, text_legend(t, false, e, n, 0, t->rows)) && t->w >= 4;
    t->h = fits ? L.h : 0;
    t->dots = nomem_note(calloc((size_t)t->w * t->h + 1, 1));
    t->over = nomem_note(calloc((size_t)t->w * t->h + 1, sizeof *t->over));
    t->dot_ink = nomem_note(calloc((size_t)t->w * t->h + 1, sizeof *t->dot_ink));
    bool ok = t->dots && t->over && t->dot_ink;
    if (ok && fits)
        text_chart(t, &c, &L, e, n);
    else if (ok)
        text_minimal(t, c.has_data ? p->title : "no data");
    free(t->dots);
    free(t->over);
    free(t->dot_ink);
    free(e);
    return ok;
}

/* "#4c72b0" as a terminal's 24-bit foreground colour; NULL resets it. */
static void ink_put(FILE *out, const char *colour)
{
    unsigned r, g, b;
    if (colour && sscanf(colour, "#%2x%2x%2x", &r, &g, &b) == 3)
        fprintf(out, "\033[38;2;%u;%u;%um", r, g, b);
    else
        fputs("\033[0m", out);
}

/* One row of cells, with a colour change wherever the ink changes when `color`. */
static void text_row(FILE *out, const Text *t, int r, bool color)
{
    const char *now = NULL;
    for (int c = 0; c < t->cols; c++) {
        const char *ink = color ? t->ink[(size_t)r * t->cols + c] : NULL;
        if (ink != now)
            ink_put(out, ink);
        now = ink;
        utf8_put(out, t->cell[(size_t)r * t->cols + c]);
    }
    if (now)
        ink_put(out, NULL);
    putc('\n', out);
}

bool plot_text(FILE *out, const Plot *p, int columns, int rows, int ascii, bool color)
{
    Text t = {.cols = columns > 0 ? columns : 0, .rows = rows > 0 ? rows : 0, .ascii = ascii != 0};
    t.cell = nomem_note(malloc(sizeof *t.cell * ((size_t)t.cols * t.rows + 1)));
    t.ink = nomem_note(calloc((size_t)t.cols * t.rows + 1, sizeof *t.ink));
    bool ok = t.cell != NULL && t.ink != NULL;
    for (size_t i = 0; ok && i < (size_t)t.cols * t.rows; i++)
        t.cell[i] = ' ';
    ok = ok && text_draw(&t, p);
    for (int r = 0; ok && r < t.rows; r++)
        text_row(out, &t, r, color);
    free(t.cell);
    free(t.ink);
    return ok && fflush(out) == 0 && !ferror(out);
}
