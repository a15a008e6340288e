/* test_plot.c — unit tests for plot.c: the book's Question 3 chart and a v5e roofline
 * chart built by hand, drawn as SVG and as text into memory, and checked for what a
 * reader relies on: well-formed SVG with the legend, tick labels and one polyline per
 * series; text of exactly the asked size; no "nan" or "inf" anywhere; an empty plot
 * that says so. With PLOT_OUT_DIR set it also writes q3.svg, roofline.svg, q3.txt and
 * roofline.txt there, for tests/plot/render.sh and for eyes. Depends on plot.c only.
 * Prints one FAIL line per failure and ends with "N passed, M failed". */
#include "check.h"
#include "plot.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


#define CHECK(cond, what) check((cond) ? 1 : 0, __FILE__, __LINE__, what)

/* ---- Drawing into memory -------------------------------------------------------- */

static char *svg_of(const Plot *p, int width, int height)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f)
        return NULL;
    bool ok = plot_svg(f, p, width, height);
    fclose(f);
    if (!ok)
        CHECK(0, "plot_svg returns true");
    return buf;
}

static char *text_in(const Plot *p, int columns, int rows, int ascii, bool color)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f)
        return NULL;
    bool ok = plot_text(f, p, columns, rows, ascii, color);
    fclose(f);
    if (!ok)
        CHECK(0, "plot_text returns true");
    return buf;
}

static char *text_of(const Plot *p, int columns, int rows, int ascii)
{
    return text_in(p, columns, rows, ascii, false);
}

static int count(const char *s, const char *what)
{
    int n = 0;
    for (const char *p = strstr(s, what); p; p = strstr(p + 1, what))
        n++;
    return n;
}

/* Whether s contains what, ignoring ASCII case: "NaN", "nan" and "Inf" all count. */
static bool contains_nocase(const char *s, const char *what)
{
    size_t n = strlen(what);
    for (; *s != '\0'; s++) {
        size_t i = 0;
        while (i < n && s[i] != '\0' && (s[i] | 0x20) == what[i])
            i++;
        if (i == n)
            return true;
    }
    return false;
}

/* ---- A small XML checker ----------------------------------------------------------- */

/* Skips an attribute list to the tag's '>', failing on an unquoted '<' or a tag that
 * never ends. Returns the '>' or NULL; *empty says whether the tag ended in "/>". */
static const char *tag_end(const char *p, bool *empty)
{
    char quote = 0;
    for (; *p != '\0'; p++) {
        if (quote) {
            if (*p == quote)
                quote = 0;
            else if (*p == '<')
                return NULL;
        } else if (*p == '"' || *p == '\'') {
            quote = *p;
        } else if (*p == '>') {
            *empty = p[-1] == '/';
            return p;
        } else if (*p == '<') {
            return NULL;
        }
    }
    return NULL;
}

static bool entity_ok(const char *p)
{
    static const char *const NAMES[] = {"&amp;", "&lt;", "&gt;", "&quot;", "&apos;"};
    for (int i = 0; i < 5; i++)
        if (strncmp(p, NAMES[i], strlen(NAMES[i])) == 0)
            return true;
    return false;
}

/* Well-formed as far as our SVG can go wrong: elements closed in order, one root <svg>,
 * quoted attributes, no raw '<' or stray '&'. */
static bool xml_well_formed(const char *s)
{
    const char *open[64];
    size_t len[64];
    int depth = 0, roots = 0;
    for (const char *p = s; *p != '\0'; p++) {
        if (*p == '&' && !entity_ok(p))
            return false;
        if (*p != '<')
            continue;
        bool closing = p[1] == '/', empty = false;
        const char *name = p + 1 + closing;
        size_t n = strcspn(name, " \t\n/>");
        const char *end = tag_end(name + n, &empty);
        if (n == 0 || !end)
            return false;
        if (closing) {
            if (depth == 0 || len[depth - 1] != n || strncmp(open[depth - 1], name, n) != 0)
                return false;
            depth--;
        } else if (!empty) {
            if (depth == 64)
                return false;
            roots += depth == 0;
            open[depth] = name, len[depth] = n, depth++;
        }
        p = end;
    }
    return depth == 0 && roots == 1;
}

/* The number of x,y pairs in the points of the k-th polyline of the given class. */
static int polyline_points(const char *svg, const char *cls, int k)
{
    char tag[64];
    snprintf(tag, sizeof tag, "<polyline class=\"%s\"", cls);
    const char *p = strstr(svg, tag);
    for (int i = 0; p && i < k; i++)
        p = strstr(p + 1, tag);
    if (!p || !(p = strstr(p, "points=\"")))
        return -1;
    int n = 1;
    for (p += strlen("points=\""); *p != '"' && *p != '\0'; p++)
        n += *p == ' ';
    return n;
}

/* ---- The text checks ---------------------------------------------------------------- */

/* Whether the text is exactly rows lines of columns code points each. */
static bool text_shape(const char *s, int columns, int rows)
{
    int lines = 0, width = 0;
    for (const unsigned char *p = (const unsigned char *)s; *p != '\0'; p++) {
        if (*p == '\n') {
            if (width != columns)
                return false;
            lines++, width = 0;
        } else if ((*p & 0xC0) != 0x80) {
            width++;
        }
    }
    return width == 0 && lines == rows;
}

static bool all_ascii(const char *s)
{
    for (const unsigned char *p = (const unsigned char *)s; *p != '\0'; p++)
        if (*p >= 0x80)
            return false;
    return true;
}

/* The shape, the absence of nan and inf, and ASCII when asked, at many sizes. */
static void text_sizes(const char *name, const Plot *p)
{
    static const int SIZES[][2] = {{80, 24}, {20, 8}, {300, 100}, {40, 12}, {120, 40},
                                   {12, 4},  {5, 3},  {1, 1},     {0, 0},   {30, 2}};
    for (size_t i = 0; i < sizeof SIZES / sizeof SIZES[0]; i++)
        for (int ascii = 0; ascii <= 1; ascii++) {
            int cols = SIZES[i][0], rows = SIZES[i][1];
            char *t = text_of(p, cols, rows, ascii), what[160];
            snprintf(what, sizeof what, "%s text %dx%d%s: %d lines of %d cells, no nan/inf%s", name,
                     cols, rows, ascii ? " ascii" : "", rows, cols, ascii ? ", ASCII only" : "");
            CHECK(t && text_shape(t, cols, rows) && !contains_nocase(t, "nan") &&
                      !contains_nocase(t, "inf") && (!ascii || all_ascii(t)),
                  what);
            if (t && getenv("PLOT_VERBOSE"))
                printf("%s\n", t);
            free(t);
        }
}

/* ---- Question 3 ------------------------------------------------------------------ */

enum { NB = 511 };
static double batch[NB], big[NB], small[NB];

/* The book's formula: bf16 activations, int8 weights, v5e peak and HBM bandwidth. */
static double q3_roofline(double b, double d, double f)
{
    double flops = 2 * b * d * f;
    double math = flops / 1.97e14, comms = (2 * b * d + d * f + 2 * b * f) / 8.2e11;
    return flops / (math > comms ? math : comms);
}

static Plot q3_plot(PlotSeries s[2])
{
    for (int i = 0; i < NB; i++) {
        batch[i] = i + 1;
        big[i] = q3_roofline(i + 1, 4096, 4096);
        small[i] = q3_roofline(i + 1, 1024, 1024);
    }
    s[0] = (PlotSeries){"F=D=4096", batch, big, NB, NULL};
    s[1] = (PlotSeries){"F=D=1024", batch, small, NB, NULL};
    return (Plot){.title = "Question 3: bf16[B, D] x int8[D, F] on TPU v5e",
                  .xlabel = "batch size B",
                  .ylabel = "peak bf16 FLOPs/s",
                  .series = s,
                  .nseries = 2};
}

/* The index of the first B at which the curve reaches the peak, as the book reads it. */
static int first_at_peak(const double *y)
{
    for (int i = 0; i < NB; i++)
        if (y[i] >= 1.97e14 * (1 - 1e-12))
            return i + 1;
    return -1;
}

static void test_q3(void)
{
    PlotSeries s[2];
    Plot p = q3_plot(s);
    CHECK(first_at_peak(big) == 137 && first_at_peak(small) == 227,
          "Q3 data: compute-bound from B = 137 (D=F=4096) and B = 227 (D=F=1024)");
    char *svg = svg_of(&p, 900, 600);
    CHECK(svg && strncmp(svg, "<svg", 4) == 0, "Q3 SVG starts with <svg");
    CHECK(svg && xml_well_formed(svg), "Q3 SVG is well-formed");
    CHECK(svg && strstr(svg, "viewBox=\"0 0 900 600\""), "Q3 SVG has a viewBox");
    CHECK(svg && strstr(svg, "fill=\"white\""), "Q3 SVG has a white background");
    CHECK(svg && count(svg, "<polyline class=\"series\"") == 2, "Q3 SVG: one polyline per series");
    CHECK(svg && polyline_points(svg, "series", 0) == NB && polyline_points(svg, "series", 1) == NB,
          "Q3 SVG: each polyline has 511 points");
    CHECK(svg && count(svg, ">F=D=4096<") == 1 && count(svg, ">F=D=1024<") == 1, "Q3 SVG legend");
    CHECK(svg && strstr(svg, ">100T<") && strstr(svg, ">200T<") && strstr(svg, ">0<"),
          "Q3 SVG y ticks in SI: 0, 100T, 200T");
    CHECK(svg && strstr(svg, ">500<") && strstr(svg, ">batch size B<"), "Q3 SVG x ticks and label");
    free(svg);
    char *t = text_of(&p, 80, 24, 0);
    CHECK(t && strstr(t, "Question 3: bf16[B, D] x int8[D, F] on TPU v5e"),
          "Q3 text has the title");
    CHECK(t && strstr(t, "F=D=4096") && strstr(t, "F=D=1024"), "Q3 text has the legend");
    CHECK(t && strstr(t, "200T") && strstr(t, "500"), "Q3 text tick labels");
    CHECK(t && strstr(t, "\xE2\xA3"), "Q3 text draws with braille");
    free(t);
    text_sizes("Q3", &p);
}

/* ---- A roofline chart ---------------------------------------------------------------- */

static const PlotRoof V5E[] = {
    {"bf16 peak 197 TFLOP/s", 1.97e14, 0, 0},
    {"int8 peak 394 TOP/s", 3.94e14, 0, 0},
    {"HBM 820 GB/s", 0, 8.2e11, 0},
    {"ICI 45 GB/s", 0, 4.5e10, 0},
};

/* bf16 matmuls with D = F = 4096: intensity BDF / (BD + DF + BF), and a softmax whose
 * label needs escaping. */
static const PlotPoint POINTS[] = {
    {"matmul B=64", 62.06060606, 5.0889697e13, 0.5, NULL, NULL},
    {"matmul B=512", 409.6, 1.97e14, 0.3, NULL, NULL},
    {"softmax <B,S> & \"exp\"", 1.25, 1.025e12, 0.2, NULL, NULL},
};

static Plot roofline_plot(void)
{
    return (Plot){.title = "TPU v5e roofline",
                  .xlabel = "arithmetic intensity (FLOPs/byte)",
                  .ylabel = "FLOPs/s",
                  .logx = true,
                  .logy = true,
                  .roofs = V5E,
                  .nroofs = 4,
                  .points = POINTS,
                  .npoints = 3};
}

static void test_roofline_svg(void)
{
    Plot p = roofline_plot();
    char *svg = svg_of(&p, 900, 600);
    CHECK(svg && strncmp(svg, "<svg", 4) == 0 && xml_well_formed(svg), "roofline SVG well-formed");
    CHECK(svg && strstr(svg, "font-family=\"sans-serif\""), "roofline SVG font");
    CHECK(svg && count(svg, "<circle class=\"ridge\"") == 4,
          "roofline SVG: a ridge per (peak, bandwidth)");
    CHECK(svg && strstr(svg, ">ridge 240<") && strstr(svg, ">ridge 480<") &&
              strstr(svg, ">ridge 4378<") && strstr(svg, ">ridge 8756<"),
          "roofline SVG ridge labels 240, 480, 4378, 8756");
    CHECK(svg && count(svg, "<circle class=\"point\"") == 3, "roofline SVG: three points");
    CHECK(svg && count(svg, "<polyline class=\"roof\"") == 6,
          "roofline SVG: two slopes, their dotted extensions, two flat roofs");
    CHECK(svg && count(svg, "stroke-dasharray") >= 3, "roofline SVG: the int8 roof is dotted");
    CHECK(svg && strstr(svg, ">100T<") && strstr(svg, ">1k<") && strstr(svg, ">10k<"),
          "roofline SVG decade ticks 100T, 1k, 10k");
    CHECK(svg && strstr(svg, ">100k<") && !strstr(svg, ">1M<"),
          "roofline SVG x ends a decade past the last ridge");
    CHECK(svg && strstr(svg, "softmax &lt;B,S&gt; &amp; &quot;exp&quot;"), "SVG escapes labels");
    CHECK(svg && count(svg, ">HBM 820 GB/s<") == 2 && count(svg, ">matmul B=64<") == 2,
          "roofline SVG names roofs on the chart and in the legend, points beside and below");
    free(svg);
}

static void test_roofline_text(void)
{
    Plot p = roofline_plot();
    char *t = text_of(&p, 100, 30, 0);
    CHECK(t && strstr(t, "TPU v5e roofline") && strstr(t, "HBM 820 GB/s") &&
              strstr(t, "A matmul B=64") && strstr(t, "C softmax <B,S> & \"exp\""),
          "roofline text: title and legend");
    CHECK(t && strstr(t, "\xE2\x97\x8B") && strstr(t, "240"), "roofline text: ridge ring and 240");
    CHECK(t && strstr(t, "100T") && strstr(t, "10k"), "roofline text ticks");
    free(t);
    t = text_of(&p, 100, 30, 1);
    CHECK(t && all_ascii(t) && strstr(t, "A matmul B=64") && strstr(t, "+---"),
          "roofline ascii: legend and frame");
    free(t);
    text_sizes("roofline", &p);
}

/* s without its terminal escapes (ESC [ ... m), in place. */
static char *strip_escapes(char *s)
{
    char *out = s;
    for (const char *p = s; *p; p++) {
        if (*p == '\033') {
            p = strchr(p, 'm');
            if (!p)
                break;
            continue;
        }
        *out++ = *p;
    }
    *out = '\0';
    return s;
}

/* No line ends in colour: a reset comes after the last colour of each line. */
static bool resets_by_line_end(const char *s)
{
    bool coloured = false;
    for (; *s; s++) {
        if (strncmp(s, "\033[38;", 5) == 0)
            coloured = true;
        else if (strncmp(s, "\033[0m", 4) == 0)
            coloured = false;
        else if (*s == '\n' && coloured)
            return false;
    }
    return true;
}

/* In colour, the same cells, with the roofs, points and legend keys in their SVG
 * colours: the first group's roofs in ROOF_COLOURS' first, #222222 (34, 34, 34), and
 * every coloured run ends in a reset before the end of its line. */
static void test_text_colour(void)
{
    Plot p = roofline_plot();
    char *plain = text_of(&p, 100, 30, 0), *colour = text_in(&p, 100, 30, 0, true);
    CHECK(plain && !strchr(plain, '\033'), "text without colour has no escapes");
    CHECK(colour && strstr(colour, "\033[38;2;34;34;34m"), "text in colour: the roof's colour");
    CHECK(colour && resets_by_line_end(colour),
          "a coloured run ends before its line does");
    CHECK(colour && plain && strcmp(strip_escapes(colour), plain) == 0,
          "colour changes no cell");
    free(plain);
    free(colour);
}

/* ---- Odd inputs ------------------------------------------------------------------- */

static void test_empty(void)
{
    Plot none = {0}, titled = {.title = "nothing & more", .logx = true, .logy = true};
    const Plot *plots[] = {&none, &titled};
    for (int i = 0; i < 2; i++) {
        char *svg = svg_of(plots[i], 600, 400);
        CHECK(svg && xml_well_formed(svg) && strstr(svg, ">no data<"), "empty SVG says no data");
        free(svg);
        char *t = text_of(plots[i], 60, 15, 0);
        CHECK(t && text_shape(t, 60, 15) && strstr(t, "no data"), "empty text says no data");
        free(t);
        text_sizes("empty", plots[i]);
    }
    char *t = text_of(&titled, 60, 15, 0);
    CHECK(t && strstr(t, "nothing & more"), "empty text keeps the title");
    free(t);
    char *svg = svg_of(&none, 0, -5);
    CHECK(svg && xml_well_formed(svg), "SVG of size 0 x -5 still well-formed");
    free(svg);
}

static void test_not_finite(void)
{
    static const double X[] = {1, 2, NAN, 4, 5, 6, INFINITY, 8, 9};
    static const double Y[] = {10, 20, 30, 40, 50, 60, 70, 80, NAN};
    static const PlotPoint POINTS_BAD[] = {{"bad x", NAN, 1, 0.5, NULL, NULL},
                                           {"bad y", 1, INFINITY, 0.5, NULL, NULL},
                                           {"negative", -1, -5, NAN, NULL, NULL},
                                           {"fine", 3, 40, INFINITY, NULL, NULL},
                                           {NULL, 2, 2, -1, NULL, NULL}};
    static const PlotRoof ROOFS_BAD[] = {{"bad peak", NAN, 0, 0},
                                         {"bad bw", 0, INFINITY, 0},
                                         {"both zero", 0, 0, 1},
                                         {"ok peak", 100, 0, 2},
                                         {"ok bw", 0, 1e-300, 2}};
    PlotSeries s = {"gappy", X, Y, 9, NULL};
    for (int logscale = 0; logscale <= 1; logscale++) {
        Plot p = {.title = "odd", .xlabel = "x", .ylabel = "y", .logx = logscale, .logy = logscale,
                  .roofs = ROOFS_BAD, .nroofs = 5, .points = POINTS_BAD, .npoints = 5,
                  .series = &s, .nseries = 1};
        char *svg = svg_of(&p, 700, 500);
        CHECK(svg && xml_well_formed(svg), "SVG with nan and inf is well-formed");
        CHECK(svg && !contains_nocase(svg, "nan") && !contains_nocase(svg, "inf"),
              "SVG never prints nan or inf");
        CHECK(svg && count(svg, "<polyline class=\"series\"") == 2,
              "a series breaks at its non-finite points: 1,2 | 4,5,6 | 8 alone is not a line");
        free(svg);
        text_sizes("non-finite", &p);
    }
    Plot huge = {.title = "huge",
                 .points =
                     (PlotPoint[]){{"max", 1.7e308, 1.7e308, 1, NULL, NULL},
                                   {"min", -1.7e308, 5e-324, 1, NULL, NULL}},
                 .npoints = 2};
    char *svg = svg_of(&huge, 400, 300);
    CHECK(svg && xml_well_formed(svg) && !contains_nocase(svg, "nan") &&
              !contains_nocase(svg, "inf"),
          "values near DBL_MAX draw without nan or inf");
    free(svg);
    text_sizes("huge", &huge);
    huge.logx = huge.logy = true;
    text_sizes("huge log", &huge);
}

/* ---- A long series, thinned ---------------------------------------------------------- */

enum { LONG_N = 300000 };

/* The x,y pairs of the series polyline after the first `skip`, into xy (2 per point);
 * returns the count. */
static int nth_series_coordinates(const char *svg, int skip, double *xy, int max)
{
    const char *p = strstr(svg, "<polyline class=\"series\"");
    for (int k = 0; p && k < skip; k++)
        p = strstr(p + 1, "<polyline class=\"series\"");
    if (!p || !(p = strstr(p, "points=\"")))
        return 0;
    p += strlen("points=\"");
    int n = 0;
    char *end;
    while (n < max && *p != '"') {
        xy[2 * n] = strtod(p, &end);
        if (*end != ',')
            return n;
        xy[2 * n + 1] = strtod(end + 1, &end);
        n++;
        p = *end == ' ' ? end + 1 : end;
    }
    return n;
}

static int series_coordinates(const char *svg, double *xy, int max)
{
    return nth_series_coordinates(svg, 0, xy, max);
}

/* The distance from (px, py) to the polyline xy (n points, x never decreasing), looking
 * only at segments within a pixel of px. */
static double distance_to(double px, double py, const double *xy, int n)
{
    double best = INFINITY;
    int lo = 0, hi = n - 1;
    while (lo < hi) { /* the first point with x >= px - 1 */
        int mid = (lo + hi) / 2;
        if (xy[2 * mid] < px - 1)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (int i = lo > 0 ? lo - 1 : 0; i + 1 < n && xy[2 * i] <= px + 1; i++) {
        double ax = xy[2 * i], ay = xy[2 * i + 1], dx = xy[2 * i + 2] - ax,
               dy = xy[2 * i + 3] - ay, len = dx * dx + dy * dy;
        double t = len > 0 ? ((px - ax) * dx + (py - ay) * dy) / len : 0;
        t = t < 0 ? 0 : t > 1 ? 1 : t;
        double d = hypot(px - ax - t * dx, py - ay - t * dy);
        best = d < best ? d : best;
    }
    return best;
}

/* The points a thinner kept, read back 1000 at a time (so across runs of y); freed by
 * kept_free. */
typedef struct {
    double *x, *y;
    int n;
} Kept;

static Kept kept_of(const PlotThin *t)
{
    Kept k = {malloc(sizeof *k.x * ((size_t)t->n + 1)), malloc(sizeof *k.y * ((size_t)t->n + 1)), 0};
    for (int m; k.x && k.y && (m = plot_thin_read(t, k.n, k.x + k.n, k.y + k.n, 1000)) > 0;)
        k.n += m;
    CHECK(k.x && k.y && k.n == t->n, "the kept points read back");
    return k;
}

static void kept_free(Kept *k)
{
    free(k->x);
    free(k->y);
}

/* A series of 300,000 points with a slow wave, fast wiggles, one spike and one dip is
 * drawn thinned; the same points followed by one whose x goes back (so they cannot be
 * thinned) and whose y cannot be placed (so the axes stay the same) are drawn in full. The thinned line has a few thousand points at
 * most and passes within a tenth of a pixel of every point of the full one (the
 * coordinates are written to a tenth); the rest of the two charts is the same. */
static void test_thinning(void)
{
    double *x = malloc(sizeof *x * (LONG_N + 1)), *y = malloc(sizeof *y * (LONG_N + 1));
    double *full = malloc(sizeof *full * 2 * (LONG_N + 1)), *thin = malloc(sizeof *thin * 2 * 70000);
    if (!x || !y || !full || !thin) {
        CHECK(0, "memory for the thinning test");
        return;
    }
    for (int i = 0; i < LONG_N; i++) {
        x[i] = i + 1;
        y[i] = 1e12 * (3 + sin(i * 1e-4) + 0.2 * sin(i * 0.37));
    }
    y[150001] = 9e12;
    y[77777] = 0.5e12;
    x[LONG_N] = 0.5; /* x goes down: no thinning; y cannot be placed: the same axes */
    y[LONG_N] = NAN;
    PlotSeries thinned = {"long", x, y, LONG_N, NULL}, whole = {"long", x, y, LONG_N + 1, NULL};
    Plot a = {.title = "long", .xlabel = "B", .ylabel = "y", .series = &thinned, .nseries = 1};
    Plot b = a;
    b.series = &whole;
    char *sa = svg_of(&a, 900, 560), *sb = svg_of(&b, 900, 560);
    int na = sa ? series_coordinates(sa, thin, 70000) : 0;
    int nb = sb ? series_coordinates(sb, full, LONG_N + 1) : 0;
    CHECK(na > 100 && na < 4 * 16384, "a 300,000-point series is thinned to at most 4 points per slice");
    CHECK(nb > na, "the series with an unplaceable point is drawn in full");
    double worst = 0;
    for (int i = 0; i < nb; i++) {
        double d = distance_to(full[2 * i], full[2 * i + 1], thin, na);
        worst = d > worst ? d : worst;
    }
    CHECK(nb > 0 && worst <= 0.1 + 1e-9, "the thinned line passes within 0.1 px of every point");
    double top[2] = {INFINITY, INFINITY}, bottom[2] = {-INFINITY, -INFINITY};
    for (int k = 0; k < 2; k++)
        for (int i = 0; i < (k ? nb : na); i++) {
            double v = (k ? full : thin)[2 * i + 1];
            top[k] = v < top[k] ? v : top[k];
            bottom[k] = v > bottom[k] ? v : bottom[k];
        }
    CHECK(top[0] == top[1] && bottom[0] == bottom[1], "the spike and the dip survive thinning");
    char *pa = sa ? strstr(sa, "points=\"") : NULL, *pb = sb ? strstr(sb, "points=\"") : NULL;
    CHECK(pa && pb && pa - sa == pb - sb && strncmp(sa, sb, (size_t)(pa - sa)) == 0 &&
              strcmp(strchr(pa + 8, '"'), strchr(pb + 8, '"')) == 0,
          "the charts differ only in the series' points");
    PlotThin t; /* thinned by the caller a block at a time, as a sweep does */
    plot_thin_init(&t, 1, LONG_N, false, false, false);
    bool ok = true;
    for (int at = 0; at < LONG_N; at += 256)
        ok = plot_thin_add(&t, x + at, y + at, LONG_N - at < 256 ? LONG_N - at : 256) && ok;
    ok = plot_thin_end(&t) && ok;
    Kept k = kept_of(&t);
    PlotSeries given = {.label = "long", .n = t.n, .thin = &t},
               arrays = {"long", k.x, k.y, k.n, NULL};
    Plot c = a, d = a;
    c.series = &given, d.series = &arrays;
    char *sc = ok ? svg_of(&c, 900, 560) : NULL, *sd = svg_of(&d, 900, 560);
    CHECK(sc && sd && strcmp(sc, sd) == 0 && count(sc, "<polyline class=\"series\"") == 1,
          "a series given as a thinner draws as its kept points given as arrays");
    free(sc);
    free(sd);
    kept_free(&k);
    plot_thin_free(&t);
    plot_thin_init(&t, 1, LONG_N, false, false, true); /* every: too many to draw as they are */
    ok = plot_thin_add(&t, x, y, LONG_N) && plot_thin_end(&t);
    given = (PlotSeries){.label = "long", .n = t.n, .thin = &t};
    sc = ok ? svg_of(&c, 900, 560) : NULL;
    CHECK(sa && sc && strcmp(sa, sc) == 0,
          "a thinner's 300,000 points, thinned again a block at a time, draw as at once");
    free(sc);
    plot_thin_free(&t);
    free(sa);
    free(sb);
    free(x);
    free(y);
    free(full);
    free(thin);
}

/* The thinner on its own: a point that cannot be placed stays, between the last point
 * before it and the first after; the first and last points stay; x going down fails;
 * `every` keeps all. Fed in blocks of 256, as a sweep does. */
static void test_thin_stream(void)
{
    enum { N = 100000 };
    static double x[N], y[N];
    for (int i = 0; i < N; i++) {
        x[i] = i + 1;
        y[i] = 1e9 * (i + 1);
    }
    y[50000] = NAN;
    for (int logx = 0; logx <= 1; logx++) {
        PlotThin t;
        plot_thin_init(&t, 1, N, logx, true, false);
        bool ok = true;
        for (int at = 0; at < N; at += 256)
            ok = plot_thin_add(&t, x + at, y + at, N - at < 256 ? N - at : 256) && ok;
        ok = plot_thin_end(&t) && ok;
        Kept k = kept_of(&t);
        int nan = -1, nans = 0;
        for (int i = 0; i < k.n; i++) {
            if (isnan(k.y[i])) {
                nan = i;
                nans++;
            }
        }
        CHECK(ok && t.n > 1000 && t.n <= 4 * PLOT_THIN_SLICES + 1, "100,000 points thin");
        CHECK(nans == 1 && nan > 0 && nan + 1 < k.n && k.x[nan] == 50001 &&
                  k.x[nan - 1] == 50000 && k.x[nan + 1] == 50002,
              "the unplaceable point stays, with its neighbours");
        CHECK(k.n > 0 && k.x[0] == 1 && k.x[k.n - 1] == N && k.y[k.n - 1] == 1e9 * N,
              "the first and the last points stay");
        bool ascending = true;
        for (int i = 1; i < k.n; i++)
            ascending = ascending && k.x[i] > k.x[i - 1];
        CHECK(ascending, "kept points in order, each once");
        kept_free(&k);
        plot_thin_free(&t);
    }
    PlotThin down;
    plot_thin_init(&down, 1, 10, false, false, false);
    CHECK(!plot_thin_add(&down, (const double[]){1, 5, 3}, (const double[]){1, 1, 1}, 3),
          "x going down cannot be thinned");
    plot_thin_free(&down);
    PlotThin every;
    plot_thin_init(&every, 1, 10, false, false, true);
    CHECK(plot_thin_add(&every, (const double[]){1, 5, 3}, (const double[]){1, 2, 3}, 3) &&
              plot_thin_end(&every) && every.n == 3,
          "every keeps all");
    double x3[3], y3[3];
    CHECK(plot_thin_read(&every, 0, x3, y3, 3) == 3 && x3[1] == 5 && x3[2] == 3 && y3[2] == 3,
          "every keeps them in order");
    plot_thin_free(&every);
}

/* A sweep's points ascend, so it sets PlotThin.rising and the thinner takes a slice's
 * run of one value whole: the same points kept, bit for bit, as without, through a
 * climb, a flat stretch, a dip, a spike, a point off the log axis (nan) and a stretch
 * of two alternating values; on a linear and a log x axis. */
static void test_thin_rising(void)
{
    enum { N = 100000 };
    static double x[N], y[N];
    for (int i = 0; i < N; i++) {
        x[i] = i + 1;
        y[i] = i < 30000 ? 1e9 * (i + 1) : i < 90000 ? 3e13 : (i % 2 ? 2e13 : 3e13);
    }
    y[40000] = 1;
    y[60000] = 1e20;
    y[70000] = NAN;
    for (int logx = 0; logx <= 1; logx++) {
        PlotThin plain, rising;
        plot_thin_init(&plain, 1, N, logx, true, false);
        plot_thin_init(&rising, 1, N, logx, true, false);
        rising.rising = true;
        bool ok = true;
        for (int at = 0; at < N; at += 256) {
            int n = N - at < 256 ? N - at : 256;
            ok = plot_thin_add(&plain, x + at, y + at, n) && ok;
            ok = plot_thin_add(&rising, x + at, y + at, n) && ok;
        }
        ok = plot_thin_end(&plain) && plot_thin_end(&rising) && ok;
        Kept r = kept_of(&rising), q = kept_of(&plain);
        CHECK(ok && r.n == q.n && r.n > 1000 &&
                  memcmp(r.x, q.x, sizeof *q.x * (size_t)q.n) == 0 &&
                  memcmp(r.y, q.y, sizeof *q.y * (size_t)q.n) == 0,
              "rising points thin to the same points");
        bool dip = false, spike = false;
        for (int i = 0; i < r.n; i++) {
            dip = dip || (r.x[i] == 40001 && r.y[i] == 1);
            spike = spike || (r.x[i] == 60001 && r.y[i] == 1e20);
        }
        CHECK(dip && spike, "the dip and the spike in a flat stretch stay");
        kept_free(&r);
        kept_free(&q);
        plot_thin_free(&plain);
        plot_thin_free(&rising);
    }
}

/* A series is placed and drawn a block of 256 points at a time. Its breaks at the blocks'
 * edges: y not finite at points 255 (a block's last), 257 and 512 (a block's first), so
 * point 256 is alone (no line) and the rest make three lines: 0 .. 254 (255 points),
 * 258 .. 511 (254) and 513 .. 699 (187). Each is the same, to the tenth of a pixel, as
 * the same points drawn alone as a short series (one block) on the same fixed axes. */
static void test_series_blocks(void)
{
    enum { N = 700 };
    static double x[N], y[N], xy[2 * N], alone[2 * N];
    for (int i = 0; i < N; i++) {
        x[i] = i + 1; /* 1.1 px apart on 900 px: every point on a tenth of its own */
        y[i] = 100 + 50 * sin(i * 0.05);
    }
    y[255] = y[257] = y[512] = NAN;
    Plot p = {.title = "blocks", .xlabel = "x", .ylabel = "y", .xset = true, .yset = true,
              .xrange = {0, 800}, .yrange = {0, 200}};
    PlotSeries whole = {"s", x, y, N, NULL};
    p.series = &whole, p.nseries = 1;
    char *svg = svg_of(&p, 900, 560);
    CHECK(svg && count(svg, "<polyline class=\"series\"") == 3,
          "breaks at the blocks' edges: three lines, the lone point none");
    static const int FIRST[3] = {0, 258, 513}, LEN[3] = {255, 254, 187};
    for (int k = 0; svg && k < 3; k++) {
        int n = nth_series_coordinates(svg, k, xy, N);
        PlotSeries part = {"s", x + FIRST[k], y + FIRST[k], LEN[k], NULL};
        p.series = &part;
        char *one = svg_of(&p, 900, 560);
        int m = one ? series_coordinates(one, alone, N) : 0;
        CHECK(n == LEN[k] && m == n && memcmp(xy, alone, sizeof *xy * 2 * (size_t)n) == 0,
              "a line drawn in blocks is the same as drawn at once");
        free(one);
    }
    free(svg);
    /* A point on the tenth of the one before is left out, but the line's last never is:
     * points 100 and 101 the same, and the last, 256 (the next block's first), the same
     * as 255: 257 points written as 256, the last two the same. */
    y[255] = y[257] = y[512] = 120;
    y[101] = y[100], x[101] = x[100];
    y[256] = y[255], x[256] = x[255];
    PlotSeries dup = {"s", x, y, 257, NULL};
    p.series = &dup;
    svg = svg_of(&p, 900, 560);
    int n = svg ? series_coordinates(svg, xy, N) : 0;
    CHECK(n == 256 && xy[2 * 254] == xy[2 * 255] && xy[2 * 254 + 1] == xy[2 * 255 + 1] &&
              xy[2 * 99] != xy[2 * 100] && xy[2 * 100] != xy[2 * 101],
          "a repeated point is written once, except as the line's last");
    free(svg);
}

/* Where a slice ends is looked for first where the last slice's length puts it: with x
 * at uneven steps (repeats, gaps that skip slices, a stretch ten times as dense), fed a
 * block of 256 at a time as a sweep's (rising) or as any placed points are, the points
 * kept are the same, bit for bit, as fed one at a time (which never looks ahead). */
static void test_thin_uneven(void)
{
    enum { N = 60000 };
    static double x[N], y[N];
    unsigned seed = 12345;
    x[0] = 1;
    for (int i = 1; i < N; i++) {
        seed = seed * 1103515245u + 12345u;
        unsigned r = seed >> 16 & 0xff;
        double gap = r < 20 ? 0 : r < 24 ? 400 : r < 200 ? 1 : 3;
        x[i] = x[i - 1] + (i > 20000 && i < 30000 ? gap / 10 : gap);
        y[i] = 1e12 * (i < 40000 ? 2 : 3) + (r < 8 ? 1e11 * r : 0);
    }
    y[0] = 2e12;
    for (int logx = 0; logx <= 1; logx++) {
        PlotThin one, rising, placed;
        plot_thin_init(&one, 1, x[N - 1], logx, true, false);
        plot_thin_init(&rising, 1, x[N - 1], logx, true, false);
        plot_thin_init(&placed, 1, x[N - 1], logx, true, false);
        rising.rising = true;
        bool ok = true;
        for (int i = 0; i < N; i++)
            ok = plot_thin_add(&one, x + i, y + i, 1) && ok;
        for (int at = 0; at < N; at += 256) {
            int n = N - at < 256 ? N - at : 256;
            ok = plot_thin_add(&rising, x + at, y + at, n) && plot_thin_add(&placed, x + at, y + at, n) && ok;
        }
        ok = plot_thin_end(&one) && plot_thin_end(&rising) && plot_thin_end(&placed) && ok;
        Kept a = kept_of(&one), b = kept_of(&rising), c = kept_of(&placed);
        CHECK(ok && a.n > 1000 && a.n == b.n && a.n == c.n &&
                  memcmp(a.x, b.x, sizeof *a.x * (size_t)a.n) == 0 &&
                  memcmp(a.y, b.y, sizeof *a.y * (size_t)a.n) == 0 &&
                  memcmp(a.x, c.x, sizeof *a.x * (size_t)a.n) == 0 &&
                  memcmp(a.y, c.y, sizeof *a.y * (size_t)a.n) == 0,
              "uneven x thin to the same points in blocks as one at a time");
        kept_free(&a);
        kept_free(&b);
        kept_free(&c);
        plot_thin_free(&one);
        plot_thin_free(&rising);
        plot_thin_free(&placed);
    }
}

/* The kept y are runs of one value, by its bits, and the kept x their steps: every point
 * kept, x and y read back the same bits however the reading is cut (from each point on,
 * a few at a time), through -0 after 0, two nans of different payloads, runs of one
 * point, and x that step down (to -0), by whole numbers (a byte each), past 2^24, to 0.1
 * and 1e300 (kept whole). */
static void test_thin_runs(void)
{
    enum { N = 12 };
    double nan1 = NAN, nan2 = -NAN;
    const double x[N] = {1, 2, -0.0, 4, 5, 6, 16777217, 8, 0.1, 10, 1e300, 12};
    const double y[N] = {5, 5, 5, 0.0, -0.0, -0.0, nan1, nan2, nan2, 7, 5, 5};
    PlotThin t;
    plot_thin_init(&t, 1, 12, false, false, true);
    CHECK(plot_thin_add(&t, x, y, 5) && plot_thin_add(&t, x + 5, y + 5, N - 5) &&
              plot_thin_end(&t) && t.n == N,
          "every point kept");
    CHECK(t.runs == 7, "5 5 5 | 0 | -0 -0 | nan | -nan -nan | 7 | 5 5: seven runs");
    /* 1 raw (9 bytes), 2 a step of 1 (1), -0 raw (9), 4, 5, 6 (1 each), 16777217 a step
     * of 16777211 (2 * that is 25 bits: 4 bytes), 8 raw (9), 0.1 raw (9), 10 raw (a step
     * of 9.9 is not whole: 9), 1e300 raw (9), 12 raw (9) */
    CHECK(t.x_bytes == 9 + 1 + 9 + 3 + 4 + 5 * 9, "x coded as steps, whole where they can be");
    bool same = true;
    for (int from = 0; from < N; from++)
        for (int max = 1; max <= N; max++) {
            double xs[N], ys[N];
            int m = plot_thin_read(&t, from, xs, ys, max);
            same = same && m == (N - from < max ? N - from : max) &&
                   memcmp(xs, x + from, sizeof *xs * (size_t)m) == 0 &&
                   memcmp(ys, y + from, sizeof *ys * (size_t)m) == 0;
        }
    CHECK(same, "read back the same bits, from any point, any number at a time");
    double one;
    CHECK(plot_thin_read(&t, N, &one, &one, 1) == 0, "nothing to read past the last");
    plot_thin_free(&t);
    plot_thin_init(&t, 1, 12, false, false, true);
    double xs[300], ys[300], back[300], yb[300];
    for (int i = 0; i < 300; i++)
        xs[i] = 1000 + 61 * i, ys[i] = 1;
    CHECK(plot_thin_add(&t, xs, ys, 300) && plot_thin_end(&t) && t.x_bytes == 9 + 255 + 9 + 43 &&
              plot_thin_read(&t, 250, back, yb, 50) == 50 && memcmp(back, xs + 250, sizeof back[0] * 50) == 0,
          "a step of 61 is a byte, every 256th point whole; read back across it");
    plot_thin_free(&t);
}

static void test_si_ticks(void)
{
    Plot p = {.points = (PlotPoint[]){{"p", 0.5, 2.5e11, 1, NULL, NULL}}, .npoints = 1};
    char *svg = svg_of(&p, 600, 600);
    CHECK(svg && strstr(svg, ">250G<") && strstr(svg, ">0.5<"), "SI tick labels 250G and 0.5");
    free(svg);
}

/* ---- Files for render.sh --------------------------------------------------------- */

static void write_file(const char *dir, const char *name, const char *text)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    CHECK(f && text && fputs(text, f) >= 0 && fclose(f) == 0, "writes the chart to PLOT_OUT_DIR");
}

static void write_charts(const char *dir)
{
    PlotSeries s[2];
    Plot q3 = q3_plot(s), roof = roofline_plot();
    char *texts[4] = {svg_of(&q3, 900, 600), svg_of(&roof, 900, 600), text_of(&q3, 100, 30, 0),
                      text_of(&roof, 100, 30, 0)};
    static const char *const NAMES[4] = {"q3.svg", "roofline.svg", "q3.txt", "roofline.txt"};
    for (int i = 0; i < 4; i++) {
        write_file(dir, NAMES[i], texts[i]);
        free(texts[i]);
    }
}

int main(void)
{
    test_q3();
    test_roofline_svg();
    test_roofline_text();
    test_text_colour();
    test_empty();
    test_not_finite();
    test_thinning();
    test_thin_stream();
    test_thin_rising();
    test_series_blocks();
    test_thin_uneven();
    test_thin_runs();
    test_si_ticks();
    const char *dir = getenv("PLOT_OUT_DIR");
    if (dir && *dir)
        write_charts(dir);
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
