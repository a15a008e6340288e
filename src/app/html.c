/* html.c — the page: the run's records read back, grouped into sections, laid out. */
#include "html.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "nomem.h"
#include "num.h"
#include "outfile.h"
#include "plot.h"
#include "session.h"
#include "utf8.h"

struct HtmlPage {
    FILE *records, *chips;
};

HtmlPage *html_new(void)
{
    HtmlPage *p = calloc(1, sizeof *p);
    if (p && (p->records = tmpfile()) != NULL && (p->chips = tmpfile()) != NULL)
        return p;
    html_free(p);
    return NULL;
}

void html_free(HtmlPage *p)
{
    if (!p)
        return;
    if (p->records)
        fclose(p->records);
    if (p->chips)
        fclose(p->chips);
    free(p);
}

FILE *html_records(HtmlPage *p)
{
    return p->records;
}

FILE *html_chips(HtmlPage *p)
{
    return p->chips;
}

bool html_copy_records(HtmlPage *p, FILE *out)
{
    char buf[8192];
    size_t n;
    if (fflush(p->records) != 0 || fseek(p->records, 0, SEEK_SET) != 0)
        return false;
    while ((n = fread(buf, 1, sizeof buf, p->records)) > 0)
        if (fwrite(buf, 1, n, out) != n)
            return false;
    return !ferror(p->records);
}

/* ---- Sections: the records grouped as the page shows them ------------------------ */

enum { SWEEP_TABLE_ROWS = 128, CHART_LABELS = 6, NOTE_MAX = 256, LABEL_MAX = 64 };

typedef enum { SEC_MODEL, SEC_STATEMENTS, SEC_SWEEP, SEC_SEARCH, SEC_CHIP, SEC_SERVE, SEC_FIT,
               SEC_SOLVE, SEC_OTHER } SectionKind;

/* A sweep row's figures, as its record names them; NAN where it has none. */
enum { SV_FLOPS, SV_BYTES, SV_INTENSITY, SV_T_MATH, SV_T_HBM, SV_T_COMM, SV_T_LOWER,
       SV_T_UPPER, SV_ATTAINED, SV_MEMORY, SV_COUNT };
static const char *const SWEEP_KEYS[SV_COUNT] = {"flops", "bytes", "intensity", "t_math",
                                                 "t_hbm", "t_comm", "t_lower", "t_upper",
                                                 "attained", "memory"};
static const Unit SWEEP_UNITS[SV_COUNT] = {UNIT_FLOPS, UNIT_BYTES, UNIT_NONE, UNIT_SECONDS,
                                           UNIT_SECONDS, UNIT_SECONDS, UNIT_SECONDS,
                                           UNIT_SECONDS, UNIT_RATE, UNIT_BYTES};

typedef struct {
    double x;    /* NAN when the point is not a number (a chip) */
    char *at;    /* the point as the record writes it */
    double v[SV_COUNT];
    char bound[8];
} SweepRow;

typedef struct {
    char *label;
    int line;
    bool training; /* its record's mode; a sweep keeps rows, not records */
    SweepRow *rows;
    int n, cap;
} Curve;

typedef struct Section Section;
struct Section {
    SectionKind kind;
    Arena arena;          /* the records it keeps (a sweep keeps rows instead) */
    const Json **records;
    int n, cap;
    char *dim;            /* a sweep's */
    Curve *curves;
    int ncurves;
    Section *next;
};

typedef struct {
    Section *first, *last;
    int count;
    Arena chip_arena;
    const Json **chips;
    int nchips;
} Page;

static bool keep_record(Section *s, const char *line, size_t len)
{
    const char *why;
    const Json *r = json_parse(line, len, &s->arena, &why);
    if (!r)
        return false;
    if (s->n == s->cap) {
        int cap = s->cap ? 2 * s->cap : 8;
        const Json **records = realloc(s->records, sizeof *records * (size_t)cap);
        if (!records)
            return false;
        s->records = records;
        s->cap = cap;
    }
    s->records[s->n++] = r;
    return true;
}

static Section *section_new(Page *pg, SectionKind kind)
{
    Section *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->kind = kind;
    if (pg->last)
        pg->last->next = s;
    else
        pg->first = s;
    pg->last = s;
    pg->count++;
    return s;
}

static void section_free(Section *s)
{
    for (int c = 0; c < s->ncurves; c++) {
        for (int i = 0; i < s->curves[c].n; i++)
            free(s->curves[c].rows[i].at);
        free(s->curves[c].rows);
        free(s->curves[c].label);
    }
    free(s->curves);
    free(s->dim);
    free(s->records);
    arena_free(&s->arena);
    free(s);
}

static void page_free(Page *pg)
{
    while (pg->first) {
        Section *next = pg->first->next;
        section_free(pg->first);
        pg->first = next;
    }
    free(pg->chips);
    arena_free(&pg->chip_arena);
}

static SectionKind kind_of(const Json *r)
{
    /* a solve's record holds a formula too (its intensity's), as a statement's does */
    return json_get(r, "ops")       ? SEC_MODEL
           : json_get(r, "at")      ? SEC_SWEEP
           : json_get(r, "rank")    ? SEC_SEARCH
           : json_string(r, "solve") ? SEC_SOLVE
           : json_get(r, "formula") ? SEC_STATEMENTS
           : json_get(r, "fields") && json_string(r, "chip") ? SEC_CHIP
           : json_get(r, "ttft") && json_get(r, "tpot") ? SEC_SERVE
           : json_string(r, "fit")  ? SEC_FIT
                                    : SEC_OTHER;
}

static bool same_string(const char *a, const char *b)
{
    return a && b && strcmp(a, b) == 0;
}

static double number_or_nan(const Json *r, const char *key)
{
    double v;
    return json_number(r, key, &v) ? v : NAN;
}

/* "line 22" or "lines 5 to 12": where a section's records come from, which tells two
 * sections of statements apart; "" when the records have no line. */
static const char *lines_of(const Section *s, char *buf, size_t size)
{
    double first = number_or_nan(s->records[0], "line");
    double last = number_or_nan(s->records[s->n - 1], "line");
    if (isfinite(first) && first == last)
        snprintf(buf, size, "line %.0f", first);
    else if (isfinite(first) && isfinite(last))
        snprintf(buf, size, "lines %.0f to %.0f", first, last);
    else
        buf[0] = '\0';
    return buf;
}

/* A search's records are one statement's: the same text on the same line; so are a
 * serve's, a record a mix. A model, a fit and a solve are one record each. */
static bool continues(const Section *s, SectionKind kind, const Json *r)
{
    if (!s || s->kind != kind || kind == SEC_MODEL || kind == SEC_SWEEP || kind == SEC_FIT ||
        kind == SEC_SOLVE)
        return false;
    if (kind != SEC_SEARCH && kind != SEC_SERVE)
        return true;
    const Json *first = s->records[0];
    return same_string(json_string(first, "stmt"), json_string(r, "stmt")) &&
           number_or_nan(first, "line") == number_or_nan(r, "line");
}

/* ---- Sweeps: rows kept compact, so a long sweep costs 100 bytes a point ----------- */

static bool curve_add(Curve *c, const SweepRow *row)
{
    if (c->n == c->cap) {
        int cap = c->cap ? 2 * c->cap : 64;
        SweepRow *rows = realloc(c->rows, sizeof *rows * (size_t)cap);
        if (!rows)
            return false;
        c->rows = rows;
        c->cap = cap;
    }
    c->rows[c->n++] = *row;
    return true;
}

static Curve *curve_new(Section *s, const char *label, int line, bool training)
{
    Curve *curves = realloc(s->curves, sizeof *curves * (size_t)(s->ncurves + 1));
    if (!curves)
        return NULL;
    s->curves = curves;
    Curve *c = &curves[s->ncurves++];
    *c = (Curve){.label = strdup(label ? label : ""), .line = line, .training = training};
    return c->label ? c : NULL;
}

static bool sweep_row(const Json *r, SweepRow *row, const char **dim)
{
    const Json *at = json_get(r, "at");
    if (!at || at->kind != JSON_OBJECT || at->n < 1)
        return false;
    char buf[64];
    *dim = at->keys[0];
    const Json *v = &at->items[0];
    row->x = v->kind == JSON_NUMBER ? v->number : NAN;
    row->at = strdup(v->kind == JSON_NUMBER ? num_format_json(v->number, buf, sizeof buf)
                     : v->kind == JSON_STRING ? v->string : "?");
    for (int k = 0; k < SV_COUNT; k++)
        row->v[k] = number_or_nan(r, SWEEP_KEYS[k]);
    snprintf(row->bound, sizeof row->bound, "%s", json_string(r, "bound") ? json_string(r, "bound") : "");
    return row->at != NULL;
}

/* Whether a row is at the i-th point of a curve. */
static bool same_point(const Curve *c, int i, const SweepRow *row)
{
    return i < c->n && strcmp(c->rows[i].at, row->at) == 0;
}

/* A curve whose points part from its sweep's first curve's goes to a sweep of its own. */
static Curve *split_off(Page *pg, Section *s)
{
    Section *alone = section_new(pg, SEC_SWEEP);
    if (!alone || !(alone->dim = strdup(s->dim)) || !(alone->curves = malloc(sizeof(Curve))))
        return NULL;
    alone->curves[0] = s->curves[--s->ncurves];
    alone->ncurves = 1;
    return alone->curves;
}

/* The curve a row belongs to: the last one while its statement goes on; a new one of
 * the same sweep while the points are the first curve's and the statement is new to
 * it; else a new sweep's. */
static Curve *sweep_curve(Page *pg, const Json *r, const char *dim, const SweepRow *row)
{
    Section *s = pg->last;
    const char *label = json_string(r, "stmt");
    int line = (int)number_or_nan(r, "line");
    bool same = s && s->kind == SEC_SWEEP && same_string(s->dim, dim);
    for (int i = 0; same && i < s->ncurves; i++) {
        Curve *c = &s->curves[i];
        if (!same_string(c->label, label) || c->line != line)
            continue;
        if (i < s->ncurves - 1)
            break;
        return i == 0 || same_point(&s->curves[0], c->n, row) ? c : split_off(pg, s);
    }
    for (int i = 0; same && i < s->ncurves; i++) /* a statement again: the next sweep */
        same = !same_string(s->curves[i].label, label);
    if (!same || !same_point(&s->curves[0], 0, row)) {
        s = section_new(pg, SEC_SWEEP);
        if (!s || !(s->dim = strdup(dim)))
            return NULL;
    }
    return curve_new(s, label, line, same_string(json_string(r, "mode"), "training"));
}

static bool sweep_add(Page *pg, const Json *r)
{
    SweepRow row;
    const char *dim;
    if (!sweep_row(r, &row, &dim))
        return false;
    Curve *c = sweep_curve(pg, r, dim, &row);
    if (c && curve_add(c, &row))
        return true;
    free(row.at);
    return false;
}

/* ---- Reading the records ------------------------------------------------------------ */

static bool add_record(Page *pg, const char *line, size_t len, const char **why)
{
    Arena scratch = {0};
    const Json *r = json_parse(line, len, &scratch, why);
    bool ok = r != NULL;
    if (ok) {
        SectionKind kind = kind_of(r);
        if (kind == SEC_SWEEP)
            ok = sweep_add(pg, r) || (*why = "out of memory", false);
        else {
            Section *s = continues(pg->last, kind, r) ? pg->last : section_new(pg, kind);
            ok = (s && keep_record(s, line, len)) || (*why = "out of memory", false);
        }
    }
    arena_free(&scratch);
    return ok;
}

static bool read_lines(FILE *f, bool (*each)(Page *, const char *, size_t, const char **),
                       Page *pg, char *why, size_t size)
{
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    int n = 0;
    bool written = !ferror(f); /* the session stops at a failed write, but not the chips */
    bool ok = written && fflush(f) == 0 && fseek(f, 0, SEEK_SET) == 0;
    if (!ok) /* the records are kept in a temporary file: a full disk stops them too */
        snprintf(why, size, "cannot keep the run's records: %s",
                 errno ? strerror(errno) : "a write to the temporary file failed");
    while (ok && (len = getline(&line, &cap, f)) > 0) {
        const char *bad = NULL;
        n++;
        if (!each(pg, line, (size_t)len, &bad))
            ok = (snprintf(why, size, "record %d does not read: %s", n, bad ? bad : "?"), false);
    }
    free(line);
    return ok;
}

static bool add_chip(Page *pg, const char *line, size_t len, const char **why)
{
    const Json *c = json_parse(line, len, &pg->chip_arena, why);
    const Json **chips = c ? realloc(pg->chips, sizeof *chips * (size_t)(pg->nchips + 1)) : NULL;
    if (c && !chips)
        *why = "out of memory";
    if (!chips)
        return false;
    pg->chips = chips;
    pg->chips[pg->nchips++] = c;
    return true;
}

static const Json *chip_named(const Page *pg, const char *name)
{
    for (int i = 0; name && i < pg->nchips; i++)
        if (same_string(json_string(pg->chips[i], "chip"), name))
            return pg->chips[i];
    return NULL;
}

/* ---- Writing: escapes, figures with their formulas -------------------------------- */

static void esc(FILE *o, const char *s)
{
    for (; s && *s; s++)
        switch (*s) {
        case '&': fputs("&amp;", o); break;
        case '<': fputs("&lt;", o); break;
        case '>': fputs("&gt;", o); break;
        case '"': fputs("&quot;", o); break;
        default: fputc(*s, o);
        }
}

/* The unit of a figure as the JSON writes it (base units). */
static const char *base_unit(Unit u)
{
    switch (u) {
    case UNIT_SECONDS: return " s";
    case UNIT_BYTES: return " B";
    case UNIT_FLOPS: return " FLOP";
    case UNIT_RATE: return " FLOP/s";
    case UNIT_BW: return " B/s";
    default: return "";
    }
}

static const char *human(double v, Unit u, char *buf, size_t size)
{
    return isfinite(v) ? num_format_unit(v, u, 0, buf, size) : "–";
}

/* A figure as a table cell: its value in human units; on hover its formula and its
 * exact value as the JSON writes it; that value is also the key the script sorts by. */
static void figure(FILE *o, const char *tag, double v, Unit u, const char *formula)
{
    char h[64], e[40];
    if (!isfinite(v)) {
        fprintf(o, "<%s class=\"n\" data-v=\"\"", tag);
        if (formula) {
            fputs(" title=\"", o);
            esc(o, formula);
            fputc('"', o);
        }
        fprintf(o, ">–</%s>", tag);
        return;
    }
    fprintf(o, "<%s class=\"n\" data-v=\"%s\" title=\"", tag, num_format_json(v, e, sizeof e));
    if (formula) {
        esc(o, formula);
        fputs(" = ", o);
    }
    fprintf(o, "%s%s\">%s</%s>", e, base_unit(u), human(v, u, h, sizeof h), tag);
}

/* A word or name as a cell, sorted by its text. */
static void text_cell(FILE *o, const char *tag, const char *cls, const char *text,
                      const char *title)
{
    fprintf(o, "<%s", tag);
    if (cls)
        fprintf(o, " class=\"%s\"", cls);
    if (title) {
        fputs(" title=\"", o);
        esc(o, title);
        fputc('"', o);
    }
    fputc('>', o);
    esc(o, text);
    fprintf(o, "</%s>", tag);
}

static const char *bound_colour(const char *bound)
{
    return same_string(bound, "compute") ? "#2b6cb0"
           : same_string(bound, "memory") ? "#dd7a1a"
           : same_string(bound, "comm")   ? "#c53030"
                                          : "#888888";
}

static void bound_cell(FILE *o, const char *tag, const char *bound, const char *why)
{
    char cls[32];
    snprintf(cls, sizeof cls, "b b-%s", bound && *bound ? bound : "none");
    text_cell(o, tag, cls, bound && *bound ? bound : "–", why);
}

/* The chip's peaks that the operations ran at (flops / t_math), as horizontal roofs,
 * and its HBM bandwidth as the slope, in group `group`. */
typedef struct {
    PlotRoof roofs[16];
    char labels[16][LABEL_MAX];
    int n;
} Roofs;

static void roofs_add(Roofs *r, const char *label, double peak, double bandwidth, int group)
{
    for (int i = 0; i < r->n; i++)
        if (r->roofs[i].peak == peak && r->roofs[i].bandwidth == bandwidth &&
            r->roofs[i].group == group)
            return;
    if (r->n == 16)
        return;
    snprintf(r->labels[r->n], LABEL_MAX, "%s", label);
    r->roofs[r->n] = (PlotRoof){r->labels[r->n], peak, bandwidth, group};
    r->n++;
}

/* The chip field whose peak is `peak` (to a part in 1e9), e.g. "flops_bf16", or NULL. */
static const char *peak_field(const Json *chip, double peak, double *exact)
{
    for (int i = 0; chip && i < chip->n; i++) {
        const Json *v = &chip->items[i];
        if (strncmp(chip->keys[i], "flops_", 6) == 0 && strcmp(chip->keys[i], "flops_eff") != 0 &&
            v->kind == JSON_NUMBER && fabs(v->number - peak) <= 1e-9 * v->number) {
            *exact = v->number;
            return chip->keys[i];
        }
    }
    return NULL;
}

static void chip_roofs(Roofs *r, const Json *chip, const double *peaks, int n, int group)
{
    char label[LABEL_MAX], rate[32];
    const char *name = json_string(chip, "chip");
    for (int i = 0; i < n; i++) {
        double exact;
        const char *field = peak_field(chip, peaks[i], &exact);
        if (!field)
            continue;
        snprintf(label, sizeof label, "%s %s peak %s", name, field + 6,
                 num_format_unit(exact, UNIT_RATE, 0, rate, sizeof rate));
        roofs_add(r, label, exact, 0, group);
    }
    double bw;
    if (json_number(chip, "hbm_bw", &bw) && bw > 0) {
        snprintf(label, sizeof label, "%s HBM %s", name, num_format_unit(bw, UNIT_BW, 0, rate,
                                                                         sizeof rate));
        roofs_add(r, label, 0, bw, group);
    }
}

/* As the SVG charts of `plot` place it (eval.c: chart_vs_network): a statement or an
 * operation that communication bounds, with one link pricing its collectives
 * (link_bw), lies under that link's roof at x = flops / comm_bytes. */
static bool vs_network(const Json *r)
{
    return same_string(json_string(r, "bound"), "comm") && number_or_nan(r, "link_bw") > 0 &&
           number_or_nan(r, "comm_bytes") > 0;
}

/* A link's roof, bandwidth bw on the chip named `chip`, in group g. */
static void link_roof(Roofs *roofs, const char *chip, double bw, int g)
{
    char label[LABEL_MAX], rate[32];
    snprintf(label, sizeof label, "%s network link %s", chip,
             num_format_unit(bw, UNIT_BW, 0, rate, sizeof rate));
    roofs_add(roofs, label, 0, bw, g);
}

/* The x axis, saying so when some point's intensity is against the network. */
static const char *intensity_label(bool network)
{
    return network ? "arithmetic intensity (FLOP/B of HBM, of network when comm-bound)"
                   : "arithmetic intensity (FLOP/B)";
}

/* ---- A model: totals, chart, memory, the breakdown tree --------------------------- */

/* A repeat of one thing reads as that thing run N times (as in the text report). */
static const Json *through_repeat(const Json *op, double *runs)
{
    *runs = number_or_nan(op, "runs");
    for (;;) {
        const Json *ops = json_get(op, "ops");
        const char *label = json_string(op, "stmt");
        if (!ops || ops->kind != JSON_ARRAY || ops->n != 1 || !label ||
            strncmp(label, "repeat ", 7) != 0)
            return op;
        op = &ops->items[0];
        *runs *= number_or_nan(op, "runs");
    }
}

static const Json *children(const Json *op)
{
    const Json *ops = json_get(op, "ops");
    return ops && ops->kind == JSON_ARRAY ? ops : NULL;
}

static bool is_leaf(const Json *op)
{
    return !children(op) || children(op)->n == 0;
}

typedef struct {
    FILE *o;
    const Json *chip;
    double total;   /* the whole's t_lower, which shares divide */
    PlotPoint *points;
    char (*notes)[NOTE_MAX];
    int npoints, cap;
    double peaks[8];
    int npeaks;
    double links[8]; /* the link bandwidths of the points against the network */
    int nlinks;
} ModelCtx;

/* Adds v to the n values of set (8 at most), unless one equals it to a part in 1e9;
 * whether the set holds it. */
static bool note_value(double *set, int *n, double v)
{
    for (int i = 0; i < *n; i++)
        if (fabs(set[i] - v) <= 1e-9 * v)
            return true;
    if (*n == 8)
        return false;
    set[(*n)++] = v;
    return true;
}

/* The formulas of an operation's times, in the words of the text report. */
static void time_formulas(const Json *chip, const Json *op, bool leaf, char f[3][192])
{
    double flops = number_or_nan(op, "flops"), bytes = number_or_nan(op, "bytes");
    double t_math = number_or_nan(op, "t_math"), t_hbm = number_or_nan(op, "t_hbm"), exact;
    char a[32], b[32], c[32];
    const char *field = t_math > 0 ? peak_field(chip, flops / t_math, &exact) : NULL;
    double bw = number_or_nan(chip, "hbm_bw");
    if (!leaf) {
        snprintf(f[0], 192, "Σ runs × t_math of its operations");
        snprintf(f[1], 192, "Σ runs × t_hbm of its operations");
        snprintf(f[2], 192, "Σ runs × t_lower of its operations");
        return;
    }
    if (field)
        snprintf(f[0], 192, "flops / %s = %s / %s", field, human(flops, UNIT_FLOPS, a, sizeof a),
                 human(exact, UNIT_RATE, b, sizeof b));
    else
        snprintf(f[0], 192, "flops / peak (the peaks of its dtypes)");
    if (t_hbm > 0 && fabs(bytes / t_hbm - bw) <= 1e-9 * bw)
        snprintf(f[1], 192, "bytes / hbm_bw = %s / %s", human(bytes, UNIT_BYTES, a, sizeof a),
                 human(bw, UNIT_BW, b, sizeof b));
    else
        snprintf(f[1], 192, "bytes / the HBM bandwidth");
    double t_comm = number_or_nan(op, "t_comm"), t_lower = number_or_nan(op, "t_lower");
    if (t_lower == fmax(t_math, fmax(t_hbm, t_comm)))
        snprintf(f[2], 192, "max(t_math, t_hbm, t_comm) = max(%s, %s, %s)",
                 human(t_math, UNIT_SECONDS, a, sizeof a), human(t_hbm, UNIT_SECONDS, b, sizeof b),
                 human(t_comm, UNIT_SECONDS, c, sizeof c));
    else
        snprintf(f[2], 192, "t_forward + t_backward: each pass the max of its part of t_math, "
                 "t_hbm and its t_comm (docs/costmodel.md §6.3)");
}

static void tree_cells(ModelCtx *m, const Json *op, double runs, double all, bool leaf)
{
    FILE *o = m->o;
    char f[3][192], share[160], a[32], b[32], c[32];
    double flops = number_or_nan(op, "flops"), bytes = number_or_nan(op, "bytes");
    time_formulas(m->chip, op, leaf, f);
    figure(o, "span", runs, UNIT_NONE, "runs of it in one run of the row above it");
    figure(o, "span", flops, UNIT_FLOPS, leaf ? "flops, per chip, one run"
                                              : "Σ runs × flops of its operations");
    figure(o, "span", bytes, UNIT_BYTES, leaf ? "HBM bytes read and written, per chip, one run"
                                              : "Σ runs × bytes of its operations");
    snprintf(share, sizeof share, "flops / bytes = %s / %s", human(flops, UNIT_FLOPS, a, sizeof a),
             human(bytes, UNIT_BYTES, b, sizeof b));
    figure(o, "span", number_or_nan(op, "intensity"), UNIT_NONE, share);
    figure(o, "span", number_or_nan(op, "t_math"), UNIT_SECONDS, f[0]);
    figure(o, "span", number_or_nan(op, "t_hbm"), UNIT_SECONDS, f[1]);
    snprintf(share, sizeof share, leaf ? "its collectives' bytes (%s) over the links, each with "
             "its latency floor" : "Σ runs × t_comm of its operations (network %s)",
             human(number_or_nan(op, "comm_bytes"), UNIT_BYTES, a, sizeof a));
    figure(o, "span", number_or_nan(op, "t_comm"), UNIT_SECONDS, share);
    figure(o, "span", number_or_nan(op, "t_lower"), UNIT_SECONDS, f[2]);
    bound_cell(o, "span", json_string(op, "bound"),
               leaf ? "the largest of its times" : "what bounds most of its time");
    snprintf(share, sizeof share, "runs × t_lower / the whole's t_lower = %s × %s / %s",
             human(all / number_or_nan(op, "t_lower"), UNIT_NONE, a, sizeof a),
             human(number_or_nan(op, "t_lower"), UNIT_SECONDS, b, sizeof b),
             human(m->total, UNIT_SECONDS, c, sizeof c));
    double pct = m->total > 0 ? 100 * all / m->total : 0;
    fprintf(o, "<span class=\"n share\" style=\"--w:%.2f%%\" data-v=\"%.17g\" title=\"",
            isfinite(pct) ? pct : 0, isfinite(pct) ? pct : 0);
    esc(o, share);
    fprintf(o, "\">%s%%</span>", human(pct, UNIT_NONE, a, sizeof a));
    const char *coll = json_string(op, "collective");
    text_cell(o, "span", NULL, coll ? coll : "–",
              "the collective that takes most of its network time");
}

/* A leaf on the roofline chart: at its intensity and attained FLOP/s, sized by its
 * share of the time and coloured by its bound. */
static void chart_point(ModelCtx *m, const Json *op, const char *label, double all)
{
    double flops = number_or_nan(op, "flops"), t_lower = number_or_nan(op, "t_lower");
    double t_math = number_or_nan(op, "t_math"), intensity = number_or_nan(op, "intensity");
    if (!(flops > 0 && t_lower > 0 && intensity > 0))
        return;
    if (t_math > 0)
        (void)note_value(m->peaks, &m->npeaks, flops / t_math);
    /* against the network only where that link's roof is drawn */
    bool network = m->chip && vs_network(op) &&
                   note_value(m->links, &m->nlinks, number_or_nan(op, "link_bw"));
    if (network)
        intensity = flops / number_or_nan(op, "comm_bytes");
    if (m->npoints == m->cap) {
        int cap = m->cap ? 2 * m->cap : 32;
        PlotPoint *points = nomem_note(realloc(m->points, sizeof *points * (size_t)cap));
        char(*notes)[NOTE_MAX] =
            points ? nomem_note(realloc(m->notes, sizeof *notes * (size_t)cap)) : NULL;
        if (points)
            m->points = points;
        if (!notes)
            return;
        m->notes = notes;
        m->cap = cap;
    }
    char a[32], b[32], c[32];
    const char *bound = json_string(op, "bound");
    double share = m->total > 0 ? all / m->total : 0;
    snprintf(m->notes[m->npoints], NOTE_MAX, "%s: %s FLOP/B%s, %s attained, %s%% of the time, %s",
             label, human(intensity, UNIT_NONE, a, sizeof a), network ? " of network" : "",
             human(flops / t_lower, UNIT_RATE, b, sizeof b), human(100 * share, UNIT_NONE, c,
                                                                  sizeof c), bound ? bound : "");
    m->points[m->npoints] = (PlotPoint){.label = label, .x = intensity, .y = flops / t_lower,
                                        .weight = share, .colour = bound_colour(bound),
                                        .note = NULL}; /* set once the notes stop moving */
    m->npoints++;
}

static void tree_node(ModelCtx *m, const Json *op, double runs_above, int depth)
{
    double runs;
    const Json *shown = through_repeat(op, &runs);
    bool leaf = is_leaf(shown);
    double all = runs_above * runs * number_or_nan(shown, "t_lower");
    const char *label = json_string(shown, "stmt");
    const char *bound = json_string(shown, "bound");
    if (leaf)
        fprintf(m->o, "<div class=\"row leaf\" style=\"--d:%d\">", depth);
    else
        fprintf(m->o, "<details%s style=\"--d:%d\"><summary class=\"row\">", depth < 2 ? " open" : "",
                depth);
    fputs("<span class=\"name\" title=\"", m->o);
    esc(m->o, label);
    fprintf(m->o, "\"><i style=\"background:%s\"></i>", bound_colour(bound));
    esc(m->o, label);
    fputs("</span>", m->o);
    tree_cells(m, shown, runs, all, leaf);
    if (leaf) {
        fputs("</div>\n", m->o);
        chart_point(m, shown, label, all);
        return;
    }
    fputs("</summary>\n", m->o);
    for (int i = 0; i < children(shown)->n; i++)
        tree_node(m, &children(shown)->items[i], runs_above * runs, depth + 1);
    fputs("</details>\n", m->o);
}

static const char *const TREE_HEAD[] = {"operation", "runs", "flops", "bytes", "intensity",
                                        "t_math", "t_hbm", "t_comm", "t_lower", "bound",
                                        "share", "collective"};

static void model_tree(ModelCtx *m, const Json *root)
{
    fputs("<h3>Breakdown <small>figures per chip, for one run of each row; click a heading to "
          "sort</small></h3>\n<div class=\"tree\">\n<div class=\"row head\">", m->o);
    for (size_t i = 0; i < sizeof TREE_HEAD / sizeof *TREE_HEAD; i++)
        fprintf(m->o, "<span%s>%s</span>", i ? " class=\"n\"" : "", TREE_HEAD[i]);
    fputs("</div>\n", m->o);
    tree_node(m, root, 1, 0);
    fputs("</div>\n", m->o);
}

/* Only the biggest few points are named on the chart; every point has its note. */
static void name_biggest(PlotPoint *p, int n)
{
    for (int i = 0; i < n; i++) {
        int bigger = 0;
        for (int j = 0; j < n; j++)
            bigger += p[j].weight > p[i].weight || (p[j].weight == p[i].weight && j < i);
        if (bigger >= CHART_LABELS)
            p[i].label = NULL;
    }
}

static void model_chart(ModelCtx *m, int id)
{
    Roofs roofs = {.n = 0};
    char ident[32];
    if (m->chip)
        chip_roofs(&roofs, m->chip, m->peaks, m->npeaks, 0);
    for (int i = 0; i < m->nlinks; i++)
        link_roof(&roofs, json_string(m->chip, "chip"), m->links[i], 0);
    name_biggest(m->points, m->npoints);
    for (int i = 0; i < m->npoints; i++)
        m->points[i].note = m->notes[i];
    snprintf(ident, sizeof ident, "s%d-roofline", id);
    Plot p = {.title = "operations on the roofline (per chip)",
              .xlabel = intensity_label(m->nlinks > 0), .ylabel = "attained FLOP/s",
              .logx = true, .logy = true, .roofs = roofs.roofs, .nroofs = roofs.n,
              .points = m->points, .npoints = m->npoints, .inline_id = ident};
    fputs("<figure class=\"chart\">", m->o);
    plot_svg(m->o, &p, 900, 540);
    fprintf(m->o, "<figcaption>Each operation at its intensity and attained FLOP/s (flops / "
            "t_lower), its area its share of the time, its colour its bound%s; hover a point "
            "for its figures.</figcaption></figure>\n", m->nlinks ? "; a comm-bound one with "
            "its collectives on one link at flops / comm_bytes, under that link's roof" : "");
}

typedef struct {
    const char *key, *name, *what, *colour;
} MemoryPart;

static const MemoryPart PARTS[] = {
    {"memory_params", "params", "the weights, as their types shard them", "#4c72b0"},
    {"memory_gradients", "gradients", "a gradient a parameter", "#55a868"},
    {"memory_master", "master", "master weights", "#8172b2"},
    {"memory_optimizer", "optimizer", "the optimizer's moments", "#c44e52"},
    {"memory_activations", "activations", "kept for the backward pass", "#dd8452"},
    {"memory_cache", "KV cache", "the keys and values of the context", "#937860"},
};
enum { NPARTS = sizeof PARTS / sizeof *PARTS, BAR_W = 600 };

static void memory_verdict(FILE *o, double memory, double hbm)
{
    char a[32], b[32], c[32];
    fprintf(o, "<p class=\"verdict\"><b>%s</b> of %s HBM per chip: ",
            human(memory, UNIT_BYTES, a, sizeof a), human(hbm, UNIT_BYTES, b, sizeof b));
    if (memory <= hbm)
        fprintf(o, "fits, %s free</p>\n", human(hbm - memory, UNIT_BYTES, c, sizeof c));
    else
        fprintf(o, "<b class=\"over\">does NOT fit</b> (%s over)</p>\n",
                human(memory - hbm, UNIT_BYTES, c, sizeof c));
}

/* A stacked bar of what a chip holds, against its HBM (a dashed line). */
static void memory_bar(FILE *o, const Json *root, const Json *chip)
{
    double memory = number_or_nan(root, "memory"), hbm = number_or_nan(chip, "hbm_bytes");
    if (!(memory > 0))
        return;
    double scale = BAR_W / (isfinite(hbm) && hbm > memory ? hbm : memory), x = 10;
    char a[32], e[40];
    fputs("<h3>Memory per chip</h3>\n<svg class=\"bar\" width=\"620\" height=\"64\" "
          "viewBox=\"0 0 620 64\" role=\"img\" aria-label=\"memory per chip\">\n", o);
    for (int i = 0; i < NPARTS; i++) {
        double v = number_or_nan(root, PARTS[i].key);
        if (!(v > 0))
            continue;
        fprintf(o, "<rect x=\"%.1f\" y=\"12\" width=\"%.1f\" height=\"30\" fill=\"%s\">"
                "<title>%s %s = %s B: %s</title></rect>\n", x, v * scale, PARTS[i].colour,
                PARTS[i].name, human(v, UNIT_BYTES, a, sizeof a), num_format_json(v, e, sizeof e),
                PARTS[i].what);
        x += v * scale;
    }
    if (x == 10)
        fprintf(o, "<rect x=\"10\" y=\"12\" width=\"%.1f\" height=\"30\" fill=\"#4c72b0\"/>\n",
                memory * scale);
    if (isfinite(hbm))
        fprintf(o, "<line x1=\"%.1f\" y1=\"4\" x2=\"%.1f\" y2=\"50\" stroke=\"#222\" "
                "stroke-width=\"2\" stroke-dasharray=\"5 3\"/><text x=\"%.1f\" y=\"62\" "
                "font-size=\"12\" text-anchor=\"end\" font-family=\"sans-serif\">HBM %s</text>\n",
                10 + hbm * scale, 10 + hbm * scale, 10 + hbm * scale,
                human(hbm, UNIT_BYTES, a, sizeof a));
    fputs("</svg>\n<ul class=\"keys\">", o);
    for (int i = 0; i < NPARTS; i++) {
        double v = number_or_nan(root, PARTS[i].key);
        if (v > 0) {
            fprintf(o, "<li><i style=\"background:%s\"></i>%s ", PARTS[i].colour, PARTS[i].name);
            figure(o, "b", v, UNIT_BYTES, PARTS[i].what);
            fputs("</li>", o);
        }
    }
    fputs("</ul>\n", o);
    if (isfinite(hbm))
        memory_verdict(o, memory, hbm);
}

/* Each leaf's t_lower times the runs above it, by bound (as the text's "by bound"). */
static void bound_shares(const Json *op, double runs_above, double by[4])
{
    double runs = number_or_nan(op, "runs") * runs_above;
    if (!is_leaf(op)) {
        for (int i = 0; i < children(op)->n; i++)
            bound_shares(&children(op)->items[i], runs, by);
        return;
    }
    const char *b = json_string(op, "bound");
    double t = runs * number_or_nan(op, "t_lower");
    if (isfinite(t))
        by[same_string(b, "compute") ? 1 : same_string(b, "memory") ? 2
           : same_string(b, "comm")  ? 3 : 0] += t;
}

static void total_row(FILE *o, const char *name, double v, Unit u, const char *formula)
{
    if (!isfinite(v))
        return;
    fprintf(o, "<tr><th>%s</th>", name);
    figure(o, "td", v, u, formula);
    fputs("<td class=\"f\">", o);
    esc(o, formula);
    fputs("</td></tr>\n", o);
}

static void model_totals(FILE *o, const Json *root)
{
    double by[4] = {0, 0, 0, 0};
    char a[32], b[32], c[32];
    fputs("<table class=\"totals\">\n", o);
    total_row(o, "flops", number_or_nan(root, "flops"), UNIT_FLOPS, "all the operations");
    total_row(o, "bytes", number_or_nan(root, "bytes"), UNIT_BYTES, "HBM, all the operations");
    if (number_or_nan(root, "comm_bytes") > 0)
        total_row(o, "comm_bytes", number_or_nan(root, "comm_bytes"), UNIT_BYTES,
                  "network, all the collectives");
    total_row(o, "t_lower", number_or_nan(root, "t_lower"), UNIT_SECONDS,
              "the sum of the operations' t_lower");
    total_row(o, "t_upper", number_or_nan(root, "t_upper"), UNIT_SECONDS,
              "the sum of their t_upper");
    if (number_or_nan(root, "t_derated") != number_or_nan(root, "t_lower"))
        total_row(o, "t_derated", number_or_nan(root, "t_derated"), UNIT_SECONDS,
                  "at the chip's achievable fractions");
    bound_shares(root, 1, by);
    double sum = by[1] + by[2] + by[3];
    if (sum > 0)
        fprintf(o, "<tr><th>by bound</th><td colspan=\"2\">compute %s%%, memory %s%%, comm %s%% "
                "of the time</td></tr>\n", human(100 * by[1] / sum, UNIT_NONE, a, sizeof a),
                human(100 * by[2] / sum, UNIT_NONE, b, sizeof b),
                human(100 * by[3] / sum, UNIT_NONE, c, sizeof c));
    total_row(o, "params", number_or_nan(root, "params"), UNIT_NONE, "parameters, all the chips");
    total_row(o, "memory", number_or_nan(root, "memory"), UNIT_BYTES,
              "what a chip holds, per chip");
    fputs("</table>\n", o);
}

/* What the section was costed as, one line: the mesh, the mode (in training the remat
 * policy and the microbatches), the dims bound (B = 256, ...). */
static void config_line(FILE *o, const Json *r)
{
    char buf[40];
    double mb;
    fputs("<p class=\"config\">", o);
    /* a search's records each hold one configuration's mesh, not the section's */
    const Json *mesh = json_get(r, "rank") ? NULL : json_get(r, "mesh");
    for (int i = 0; mesh && mesh->kind == JSON_OBJECT && i < mesh->n; i++) {
        fputs(i ? ", " : "mesh ", o);
        esc(o, mesh->keys[i]);
        fprintf(o, "=%s", num_format_plain(mesh->items[i].number, buf, sizeof buf));
    }
    if (mesh && mesh->kind == JSON_OBJECT && mesh->n > 0)
        fputs(" · ", o);
    esc(o, json_string(r, "mode") ? json_string(r, "mode") : "inference");
    if (json_string(r, "remat")) {
        fputs(" · remat ", o);
        esc(o, json_string(r, "remat"));
    }
    if (json_number(r, "microbatches", &mb))
        fprintf(o, " · %.0f microbatches", mb);
    const Json *dims = json_get(r, "dims");
    for (int i = 0; dims && dims->kind == JSON_OBJECT && i < dims->n; i++) {
        fputs(i ? ", " : " · ", o);
        esc(o, dims->keys[i]);
        fprintf(o, " = %s", dims->items[i].kind == JSON_NUMBER
                                ? num_format_plain(dims->items[i].number, buf, sizeof buf) : "?");
    }
    fputs("</p>\n", o);
}

/* The statement as the title, with its line, so that one statement written twice (with
 * another remat between) gives two titles that differ; then the configuration. */
static void section_head(FILE *o, int id, const char *kind, const Json *r)
{
    char line[32] = "";
    double l;
    if (json_number(r, "line", &l))
        snprintf(line, sizeof line, " · line %.0f", l);
    fprintf(o, "<section id=\"s%d\" class=\"%s\">\n<h2><code>", id, kind);
    esc(o, json_string(r, "stmt"));
    fputs("</code>", o);
    if (json_number(r, "line", &l))
        fprintf(o, " <small>line %.0f</small>", l);
    fprintf(o, "</h2>\n<p class=\"meta\">%s%s", kind, line);
    if (json_string(r, "chip")) {
        fputs(" · ", o);
        esc(o, json_string(r, "chip"));
    }
    if (json_number(r, "chips", &l))
        fprintf(o, " · %.0f chip%s", l, l == 1 ? "" : "s");
    fputs("</p>\n", o);
    config_line(o, r);
}

static void write_model(const Page *pg, const Section *s, int id, FILE *o)
{
    const Json *root = s->records[0];
    ModelCtx m = {.o = o, .chip = chip_named(pg, json_string(root, "chip")),
                  .total = number_or_nan(root, "t_lower")};
    section_head(o, id, "model", root);
    fputs("<div class=\"side\">\n", o);
    model_totals(o, root);
    fputs("<div>", o);
    memory_bar(o, root, m.chip);
    fputs("</div></div>\n", o);
    /* the tree first, into the page, gathering the chart's points on the way; the chart
     * goes above it with the CSS order property, so the page reads chart, then tree */
    fputs("<div class=\"stack\">\n<div class=\"second\">", o);
    model_tree(&m, root);
    fputs("</div>\n<div class=\"first\">", o);
    model_chart(&m, id);
    fputs("</div>\n</div>\n</section>\n", o);
    free(m.points);
    free(m.notes);
}

/* ---- Statements ------------------------------------------------------------------- */

static const char *formula_of(const Json *r, const char *key)
{
    return json_string(json_get(r, "formula"), key);
}

/* A statement's figure: its number with its formula on hover, or, while it depends on
 * a dim still unbound (null), the formula itself. */
static void stmt_figure(FILE *o, const Json *r, const char *key, Unit u, const char *formula)
{
    char title[320];
    const char *symbolic = formula_of(r, key);
    double v = number_or_nan(r, key);
    if (!isfinite(v) && symbolic) {
        snprintf(title, sizeof title, "%s, in the dims still unbound", key);
        text_cell(o, "td", "sym", symbolic, title);
        return;
    }
    snprintf(title, sizeof title, "%s = %s", key, symbolic ? symbolic : formula ? formula : "");
    figure(o, "td", v, u, title);
}

static void statement_row(const Page *pg, FILE *o, const Json *r)
{
    char f[3][192];
    time_formulas(chip_named(pg, json_string(r, "chip")), r, true, f);
    fputs("<tr><td class=\"stmt\">", o);
    esc(o, json_string(r, "stmt"));
    config_line(o, r);
    fputs("</td>", o);
    text_cell(o, "td", NULL, json_string(r, "chip") ? json_string(r, "chip") : "–", NULL);
    stmt_figure(o, r, "flops", UNIT_FLOPS, NULL);
    stmt_figure(o, r, "bytes", UNIT_BYTES, NULL);
    stmt_figure(o, r, "intensity", UNIT_NONE, "flops / bytes");
    stmt_figure(o, r, "ridge", UNIT_NONE, "peak / hbm_bw");
    stmt_figure(o, r, "t_math", UNIT_SECONDS, f[0]);
    stmt_figure(o, r, "t_hbm", UNIT_SECONDS, f[1]);
    stmt_figure(o, r, "t_comm", UNIT_SECONDS, "comm_bytes / the link bandwidth");
    stmt_figure(o, r, "t_lower", UNIT_SECONDS, f[2]);
    stmt_figure(o, r, "t_upper", UNIT_SECONDS, "t_math + t_hbm + t_comm");
    bound_cell(o, "td", json_string(r, "bound"), "the largest of its times");
    fputs("</tr>\n", o);
}

static const char *const STMT_HEAD[] = {"statement", "chip", "flops", "bytes", "intensity",
                                        "ridge", "t_math", "t_hbm", "t_comm", "t_lower",
                                        "t_upper", "bound"};

static void table_head(FILE *o, const char *const *head, int n)
{
    fputs("<table class=\"data\"><thead><tr>", o);
    for (int i = 0; i < n; i++)
        fprintf(o, "<th data-sort=\"1\"%s>%s</th>", i ? " class=\"n\"" : "", head[i]);
    fputs("</tr></thead>\n<tbody>\n", o);
}

/* Points on a chart of the statements: at intensity and attained FLOP/s per chip. */
static void statement_chart(const Page *pg, const Section *s, int id, FILE *o)
{
    PlotPoint *points = nomem_note(calloc((size_t)s->n + 1, sizeof *points));
    char (*notes)[NOTE_MAX] = nomem_note(calloc((size_t)s->n + 1, sizeof *notes));
    Roofs *roofs = nomem_note(calloc(1, sizeof *roofs));
    const char *groups[8] = {NULL};
    int n = 0, ngroups = 0;
    bool any_network = false;
    for (int i = 0; points && notes && roofs && i < s->n; i++) {
        const Json *r = s->records[i];
        double in = number_or_nan(r, "intensity"), t = number_or_nan(r, "t_lower");
        double y = in * number_or_nan(r, "bytes") / t;
        const Json *chip = chip_named(pg, json_string(r, "chip"));
        if (!(in > 0 && y > 0 && isfinite(y)))
            continue;
        int g = 0;
        while (g < ngroups && !same_string(groups[g], json_string(r, "chip")))
            g++;
        if (g == ngroups && ngroups < 8)
            groups[ngroups++] = json_string(r, "chip");
        double peak = number_or_nan(r, "ridge") * number_or_nan(chip, "hbm_bw");
        if (chip && g < 8)
            chip_roofs(roofs, chip, &peak, 1, g);
        bool network = chip && g < 8 && vs_network(r);
        if (network) {
            link_roof(roofs, json_string(r, "chip"), number_or_nan(r, "link_bw"), g);
            in = number_or_nan(r, "flops") / number_or_nan(r, "comm_bytes");
            any_network = true;
        }
        snprintf(notes[n], NOTE_MAX, "%s%s", json_string(r, "stmt"),
                 network ? " (vs network)" : "");
        points[n] = (PlotPoint){.label = json_string(r, "stmt"), .x = in, .y = y,
                                .colour = bound_colour(json_string(r, "bound")), .note = notes[n]};
        n++;
    }
    char ident[32];
    snprintf(ident, sizeof ident, "s%d-roofline", id);
    if (n > 0) {
        name_biggest(points, n);
        Plot p = {.title = "the statements on the roofline (per chip)",
                  .xlabel = intensity_label(any_network), .ylabel = "attained FLOP/s",
                  .logx = true, .logy = true, .roofs = roofs->roofs, .nroofs = roofs->n,
                  .points = points, .npoints = n, .inline_id = ident};
        fputs("<figure class=\"chart\">", o);
        plot_svg(o, &p, 900, 500);
        fputs("</figure>\n", o);
    }
    free(points);
    free(notes);
    free(roofs);
}

static void write_statements(const Page *pg, const Section *s, int id, FILE *o)
{
    char lines[64];
    fprintf(o, "<section id=\"s%d\" class=\"statements\">\n<h2>Statements <small>%s</small></h2>\n"
            "<p class=\"meta\">%d statement%s; hover a figure for its formula</p>\n", id,
            lines_of(s, lines, sizeof lines), s->n, s->n == 1 ? "" : "s");
    statement_chart(pg, s, id, o);
    table_head(o, STMT_HEAD, sizeof STMT_HEAD / sizeof *STMT_HEAD);
    for (int i = 0; i < s->n; i++)
        statement_row(pg, o, s->records[i]);
    fputs("</tbody></table>\n</section>\n", o);
}

/* ---- Sweeps ----------------------------------------------------------------------- */

/* What the chart plots: attained FLOP/s, or for a sweep costed whole, flops / t_lower. */
static double sweep_y(const SweepRow *r)
{
    return isfinite(r->v[SV_ATTAINED]) ? r->v[SV_ATTAINED] : r->v[SV_FLOPS] / r->v[SV_T_LOWER];
}

/* Whether the points grow by a constant factor (a log range), so the x axis is log. */
static bool geometric(const Curve *c)
{
    if (c->n < 3 || !(c->rows[0].x > 0))
        return false;
    double ratio = c->rows[1].x / c->rows[0].x;
    return ratio > 1.01 && fabs(c->rows[2].x / c->rows[1].x - ratio) < 1e-6 * ratio;
}

typedef struct {
    PlotPoint points[64];
    char labels[64][LABEL_MAX], notes[64][NOTE_MAX];
    int n;
} Marks;

static void mark(Marks *k, double x, double y, const char *colour, const char *label,
                 const char *note)
{
    if (k->n == 64 || !isfinite(x) || !isfinite(y))
        return;
    snprintf(k->labels[k->n], LABEL_MAX, "%s", label);
    snprintf(k->notes[k->n], NOTE_MAX, "%s", note);
    k->points[k->n] = (PlotPoint){.label = k->labels[k->n], .x = x, .y = y, .weight = 0,
                                  .colour = colour, .note = k->notes[k->n]};
    k->n++;
}

/* Where a curve's bound changes: between two points, marked at the second. */
static void bound_crossings(const Section *s, const Curve *c, Marks *k)
{
    char label[LABEL_MAX], note[NOTE_MAX];
    for (int i = 1; i < c->n; i++) {
        const SweepRow *a = &c->rows[i - 1], *b = &c->rows[i];
        if (strcmp(a->bound, b->bound) == 0)
            continue;
        snprintf(label, sizeof label, "%s from %s = %s", b->bound, s->dim, b->at);
        snprintf(note, sizeof note, "%s: %s-bound at %s = %s, %s-bound at %s = %s", c->label,
                 a->bound, s->dim, a->at, b->bound, s->dim, b->at);
        mark(k, b->x, sweep_y(b), bound_colour(b->bound), label, note);
    }
}

/* Where two curves over the same points swap which is faster (t_lower). */
static void curve_crossings(const Section *s, const Curve *c, const Curve *d, Marks *k)
{
    char label[LABEL_MAX], note[NOTE_MAX];
    for (int i = 1; i < c->n && i < d->n; i++) {
        double before = c->rows[i - 1].v[SV_T_LOWER] - d->rows[i - 1].v[SV_T_LOWER];
        double after = c->rows[i].v[SV_T_LOWER] - d->rows[i].v[SV_T_LOWER];
        if (!(before < 0 && after > 0) && !(before > 0 && after < 0))
            continue;
        snprintf(label, sizeof label, "%s = %s", s->dim, c->rows[i].at);
        snprintf(note, sizeof note, "%s and %s swap: %s is faster at %s = %s, %s at %s = %s",
                 c->label, d->label, before < 0 ? c->label : d->label, s->dim,
                 c->rows[i - 1].at, before < 0 ? d->label : c->label, s->dim, c->rows[i].at);
        mark(k, c->rows[i].x, sweep_y(&c->rows[i]), "#444444", label, note);
    }
}

static bool sweep_chart(const Section *s, int id, FILE *o)
{
    int n = s->ncurves < 32 ? s->ncurves : 32;
    PlotSeries series[32];
    PlotThin thin[32];
    Marks *k = nomem_note(calloc(1, sizeof *k));
    bool logx = geometric(&s->curves[0]), ok = k != NULL;
    for (int i = 0; i < n; i++) {
        const Curve *c = &s->curves[i];
        plot_thin_init(&thin[i], c->rows[0].x, c->rows[c->n - 1].x, logx, false,
                       !(c->rows[c->n - 1].x > c->rows[0].x));
        for (int j = 0; ok && j < c->n; j++) {
            double y = sweep_y(&c->rows[j]);
            ok = plot_thin_add(&thin[i], &c->rows[j].x, &y, 1);
        }
        ok = ok && plot_thin_end(&thin[i]);
        series[i] = (PlotSeries){.label = c->label, .n = thin[i].n, .thin = &thin[i]};
        if (ok) {
            bound_crossings(s, c, k);
            for (int j = 0; j < i; j++)
                curve_crossings(s, &s->curves[j], c, k);
        }
    }
    char title[96], ident[32];
    snprintf(title, sizeof title, "attained FLOP/s against %s", s->dim);
    snprintf(ident, sizeof ident, "s%d-sweep", id);
    Plot p = {.title = title, .xlabel = s->dim, .ylabel = "attained FLOP/s", .logx = logx,
              .series = series, .nseries = n, .points = ok ? k->points : NULL,
              .npoints = ok ? k->n : 0, .inline_id = ident};
    fputs("<figure class=\"chart\">", o);
    ok = ok && plot_svg(o, &p, 900, 500);
    fputs("<figcaption>Each statement's attained FLOP/s (flops / t_lower) at each point; a "
          "marked point is where its bound changes, or where two statements swap which is "
          "faster; hover it for the points either side.</figcaption></figure>\n", o);
    for (int i = 0; i < n; i++)
        plot_thin_free(&thin[i]);
    free(k);
    return ok;
}

/* Shown rows of a long curve: every k-th, and both sides of each change of bound. */
static bool row_shown(const Curve *c, int i, int every)
{
    if (every <= 1 || i % every == 0 || i == c->n - 1)
        return true;
    return (i > 0 && strcmp(c->rows[i - 1].bound, c->rows[i].bound) != 0) ||
           (i + 1 < c->n && strcmp(c->rows[i + 1].bound, c->rows[i].bound) != 0);
}

static const char *const SWEEP_FORMULAS[SV_COUNT] = {
    "flops", "bytes", "flops / bytes", "flops / peak", "bytes / hbm_bw",
    "comm_bytes / the link bandwidth", "max(t_math, t_hbm, t_comm)", "t_math + t_hbm + t_comm",
    "flops / t_lower", "what a chip holds"};

static void sweep_table(const Section *s, const Curve *c, FILE *o)
{
    bool has[SV_COUNT];
    const char *head[SV_COUNT + 2] = {s->dim};
    int nhead = 1, every = c->n > SWEEP_TABLE_ROWS ? (c->n + SWEEP_TABLE_ROWS - 1) / SWEEP_TABLE_ROWS : 1;
    for (int k = 0; k < SV_COUNT; k++) {
        has[k] = false;
        for (int i = 0; i < c->n && !has[k]; i++)
            has[k] = isfinite(c->rows[i].v[k]);
        if (has[k])
            head[nhead++] = SWEEP_KEYS[k];
    }
    head[nhead++] = "bound";
    fprintf(o, "<details%s><summary><code>", c->n <= SWEEP_TABLE_ROWS / 4 ? " open" : "");
    esc(o, c->label);
    fprintf(o, "</code> <small>line %d, %d point%s", c->line, c->n, c->n == 1 ? "" : "s");
    if (every > 1)
        fprintf(o, "; every %dth shown, and both sides of each change of bound (--json has "
                "them all)", every);
    fputs("</small></summary>\n", o);
    table_head(o, head, nhead);
    for (int i = 0; i < c->n; i++) {
        if (!row_shown(c, i, every))
            continue;
        fputs("<tr>", o);
        figure(o, "td", c->rows[i].x, UNIT_NONE, s->dim);
        for (int k = 0; k < SV_COUNT; k++)
            if (has[k])
                figure(o, "td", c->rows[i].v[k], SWEEP_UNITS[k], SWEEP_FORMULAS[k]);
        bound_cell(o, "td", c->rows[i].bound, "the largest of its times");
        fputs("</tr>\n", o);
    }
    fputs("</tbody></table></details>\n", o);
}

static void write_sweep(const Section *s, int id, FILE *o)
{
    /* titled by its statements and the first one's line: two sweeps of B differ */
    fprintf(o, "<section id=\"s%d\" class=\"sweep\">\n<h2>Sweep over <code>", id);
    esc(o, s->dim);
    fputs("</code>:", o);
    for (int c = 0; c < s->ncurves; c++) {
        fputs(c ? ", <code>" : " <code>", o);
        esc(o, s->curves[c].label);
        fputs("</code>", o);
    }
    fprintf(o, " <small>line %d</small></h2>\n<p class=\"meta\">sweep · %d statement%s · "
            "%d points</p>\n", s->curves[0].line,
            s->ncurves, s->ncurves == 1 ? "" : "s", s->curves[0].n);
    /* one statement's mode, so the same for every curve: as config_line writes it */
    fprintf(o, "<p class=\"config\">%s</p>\n", s->curves[0].training ? "training" : "inference");
    bool numeric = true;
    for (int c = 0; c < s->ncurves; c++)
        for (int i = 0; i < s->curves[c].n; i++)
            numeric = numeric && isfinite(s->curves[c].rows[i].x);
    if (numeric)
        sweep_chart(s, id, o);
    for (int c = 0; c < s->ncurves; c++)
        sweep_table(s, &s->curves[c], o);
    fputs("</section>\n", o);
}

/* ---- Searches --------------------------------------------------------------------- */

/* "8x16x16" and "fsdp=YZ tp=X", from the record's mesh and strategy objects. */
static void mesh_text(const Json *r, char *mesh, size_t msize, char *strategy, size_t ssize)
{
    const Json *m = json_get(r, "mesh"), *s = json_get(r, "strategy");
    size_t used = 0;
    mesh[0] = strategy[0] = '\0';
    for (int i = 0; m && m->kind == JSON_OBJECT && i < m->n && used < msize; i++)
        used += (size_t)snprintf(mesh + used, msize - used, i ? "x%.0f" : "%.0f", m->items[i].number);
    used = 0;
    for (int i = 0; s && s->kind == JSON_OBJECT && i < s->n && used < ssize; i++) {
        const Json *axes = &s->items[i];
        if (axes->kind != JSON_ARRAY || axes->n == 0)
            continue;
        used += (size_t)snprintf(strategy + used, ssize - used, "%s%s=", used ? " " : "", s->keys[i]);
        for (int a = 0; a < axes->n && used < ssize; a++)
            used += (size_t)snprintf(strategy + used, ssize - used, "%s",
                                     axes->items[a].string ? axes->items[a].string : "");
    }
}

/* The section's records by rank, 1 to n (NULL where no record has it; the first record
 * of a rank where two have it): one pass, where looking each rank up in turn costs
 * n² key lookups, most of the page's time for a search of thousands of configurations.
 * NULL when memory runs out. */
static const Json **records_by_rank(const Section *s)
{
    const Json **by_rank = nomem_note(calloc((size_t)s->n + 1, sizeof *by_rank));
    for (int i = 0; by_rank && i < s->n; i++) {
        double rank = number_or_nan(s->records[i], "rank");
        if (rank >= 1 && rank <= s->n && rank == (int)rank && !by_rank[(int)rank])
            by_rank[(int)rank] = s->records[i];
    }
    return by_rank;
}

typedef struct {
    PlotPoint *points;
    char (*labels)[LABEL_MAX];
    char (*notes)[NOTE_MAX];
    double *fx, *fy; /* the front, by chips */
    int n, nfront;
} SearchChart;

static void search_point(SearchChart *c, const Json *r)
{
    char mesh[64], strategy[128], a[32], b[32];
    double chips = number_or_nan(r, "chips"), t = number_or_nan(r, "t_step");
    bool ranked = json_get(r, "rank")->kind == JSON_NUMBER, pareto = json_true(r, "pareto");
    if (!(chips > 0 && t > 0))
        return;
    mesh_text(r, mesh, sizeof mesh, strategy, sizeof strategy);
    snprintf(c->labels[c->n], LABEL_MAX, "%.20s %.40s", mesh, strategy);
    snprintf(c->notes[c->n], NOTE_MAX, "%.40s %.100s: t_step %s, memory %s%s%s", mesh, strategy,
             human(t, UNIT_SECONDS, a, sizeof a), human(number_or_nan(r, "memory"), UNIT_BYTES, b,
                                                       sizeof b),
             ranked ? "" : json_true(r, "fits") ? ", splits a dim too finely" : ", does not fit",
             pareto ? ", on the Pareto front" : "");
    c->points[c->n] = (PlotPoint){.label = pareto ? c->labels[c->n] : NULL, .x = chips, .y = t,
                                  .weight = pareto ? 0.02 : 0,
                                  .colour = ranked ? bound_colour(json_string(r, "bound"))
                                                   : "#cccccc",
                                  .note = c->notes[c->n]};
    if (pareto)
        c->fx[c->nfront] = chips, c->fy[c->nfront++] = t;
    c->n++;
}

/* The front as a line, by chips (its points come in by time, the slowest last). */
static void front_order(SearchChart *c)
{
    for (int i = 1; i < c->nfront; i++)
        for (int j = i; j > 0 && c->fx[j - 1] > c->fx[j]; j--) {
            double x = c->fx[j], y = c->fy[j];
            c->fx[j] = c->fx[j - 1], c->fy[j] = c->fy[j - 1];
            c->fx[j - 1] = x, c->fy[j - 1] = y;
        }
}

static void search_chart(const Section *s, int id, FILE *o)
{
    size_t n = (size_t)s->n + 1;
    SearchChart c = {.points = nomem_note(calloc(n, sizeof *c.points)),
                     .labels = nomem_note(calloc(n, LABEL_MAX)),
                     .notes = nomem_note(calloc(n, NOTE_MAX)),
                     .fx = nomem_note(calloc(n, sizeof(double))),
                     .fy = nomem_note(calloc(n, sizeof(double)))};
    /* the unranked first, so the ranked are drawn over them */
    for (int pass = 0; c.points && c.labels && c.notes && c.fx && c.fy && pass < 2; pass++)
        for (int i = 0; i < s->n; i++)
            if ((json_get(s->records[i], "rank")->kind == JSON_NUMBER) == pass)
                search_point(&c, s->records[i]);
    front_order(&c);
    PlotSeries front = {"the Pareto front", c.fx, c.fy, c.nfront, NULL};
    char ident[32];
    snprintf(ident, sizeof ident, "s%d-pareto", id);
    Plot p = {.title = "step time against chips", .xlabel = "chips", .ylabel = "t_step (s)",
              .logx = true, .logy = true, .points = c.points, .npoints = c.n,
              .series = &front, .nseries = c.nfront > 0, .inline_id = ident};
    fputs("<figure class=\"chart\">", o);
    plot_svg(o, &p, 900, 520);
    fputs("<figcaption>Every configuration costed: coloured by its bound when ranked, grey "
          "when it does not fit HBM or splits a dim too finely; the line joins the Pareto "
          "front (no other configuration is both faster and cheaper). Hover a point for "
          "its mesh.</figcaption></figure>\n", o);
    free(c.points);
    free(c.labels);
    free(c.notes);
    free(c.fx);
    free(c.fy);
}

static const char *const SEARCH_HEAD[] = {"rank", "chips", "mesh", "strategy", "t_step",
                                          "t_derated", "mfu", "memory", "headroom", "bound",
                                          "collective", "pareto"};

static void search_row(FILE *o, const Json *r, double hbm)
{
    char mesh[64], strategy[128];
    double memory = number_or_nan(r, "memory");
    mesh_text(r, mesh, sizeof mesh, strategy, sizeof strategy);
    fputs("<tr>", o);
    figure(o, "td", number_or_nan(r, "rank"), UNIT_NONE, "its place by t_step among those that fit");
    figure(o, "td", number_or_nan(r, "chips"), UNIT_NONE, "the product of the mesh's axes");
    text_cell(o, "td", NULL, mesh, NULL);
    text_cell(o, "td", NULL, strategy, "which mesh axes each parallelism takes");
    figure(o, "td", number_or_nan(r, "t_step"), UNIT_SECONDS, "the whole call's t_lower");
    figure(o, "td", number_or_nan(r, "t_derated"), UNIT_SECONDS,
           "t_lower at the chip's achievable fractions");
    figure(o, "td", 100 * number_or_nan(r, "mfu"), UNIT_NONE,
           "100 × the model's flops / (chips × bf16 peak × t_derated), in %");
    figure(o, "td", memory, UNIT_BYTES, "what a chip holds");
    figure(o, "td", hbm - memory, UNIT_BYTES, "HBM − memory");
    bound_cell(o, "td", json_string(r, "bound"), "what bounds most of its time");
    text_cell(o, "td", NULL, json_string(r, "collective") ? json_string(r, "collective") : "–",
              "the collective that takes most of its network time");
    text_cell(o, "td", NULL, json_true(r, "pareto") ? "★" : "", "on the Pareto front");
    fputs("</tr>\n", o);
}

static void write_search(const Page *pg, const Section *s, int id, FILE *o)
{
    int ranked = 0, fit = 0;
    for (int i = 0; i < s->n; i++) {
        ranked += json_get(s->records[i], "rank")->kind == JSON_NUMBER;
        fit += json_true(s->records[i], "fits");
    }
    section_head(o, id, "search", s->records[0]);
    fprintf(o, "<p>%d configurations: %d fit in HBM, %d do not; %d ranked (the rest split a "
            "dim over more chips than it has elements)</p>\n", s->n, fit, s->n - fit, ranked);
    search_chart(s, id, o);
    double hbm = number_or_nan(chip_named(pg, json_string(s->records[0], "chip")), "hbm_bytes");
    table_head(o, SEARCH_HEAD, sizeof SEARCH_HEAD / sizeof *SEARCH_HEAD);
    const Json **by_rank = records_by_rank(s);
    for (int rank = 1; by_rank && rank <= s->n; rank++)
        if (by_rank[rank])
            search_row(o, by_rank[rank], hbm);
    free(by_rank);
    fputs("</tbody></table>\n</section>\n", o);
}

/* ---- Anything else: its fields ---------------------------------------------------- */

static Unit unit_of(const char *key)
{
    if (key[0] == 't' && key[1] == '_')
        return UNIT_SECONDS;
    if (strstr(key, "ttft") || strstr(key, "tpot") == key)
        return strstr(key, "context") ? UNIT_NONE : UNIT_SECONDS;
    if (strstr(key, "bytes") || strstr(key, "memory") || strcmp(key, "hbm") == 0 ||
        strstr(key, "kv_per"))
        return UNIT_BYTES;
    return strcmp(key, "flops") == 0 ? UNIT_FLOPS : UNIT_NONE;
}

static void other_value(FILE *o, const char *key, const Json *v)
{
    char buf[40];
    switch (v->kind) {
    case JSON_NUMBER: figure(o, "td", v->number, unit_of(key), key); return;
    case JSON_STRING: text_cell(o, "td", NULL, v->string, NULL); return;
    case JSON_BOOL: text_cell(o, "td", NULL, v->truth ? "true" : "false", NULL); return;
    case JSON_NULL: text_cell(o, "td", NULL, "–", NULL); return;
    default: break;
    }
    fputs("<td>", o); /* an array or object: its members, one a line */
    for (int i = 0; i < v->n; i++) {
        const Json *item = &v->items[i];
        if (v->kind == JSON_OBJECT)
            fprintf(o, "%s%s ", i ? "; " : "", v->keys[i]);
        for (int j = 0; item->kind == JSON_OBJECT && j < item->n; j++) {
            const Json *x = &item->items[j];
            fprintf(o, "%s%s %s", j ? ", " : i ? "<br/>" : "", item->keys[j],
                    x->kind == JSON_NUMBER ? num_format_plain(x->number, buf, sizeof buf)
                    : x->kind == JSON_STRING ? "" : "–");
            if (x->kind == JSON_STRING)
                esc(o, x->string);
        }
        if (item->kind == JSON_NUMBER)
            fputs(num_format_plain(item->number, buf, sizeof buf), o);
    }
    fputs("</td>", o);
}

/* A solve's ranges as the text report reads them: "memory for B < 255.21; compute for
 * B > 255.21", each bound exact on hover. */
static void segments_cell(FILE *o, const char *dim, const Json *v)
{
    char a[40], b[40];
    fputs("<td>", o);
    for (int i = 0; i < v->n; i++) {
        double from = number_or_nan(&v->items[i], "from"), to = number_or_nan(&v->items[i], "to");
        fprintf(o, "%s<span title=\"from %s to %s\">", i ? "; " : "",
                num_format_json(from, a, sizeof a), isfinite(to) ? num_format_json(to, b, sizeof b)
                                                                 : "infinity");
        esc(o, json_string(&v->items[i], "bound"));
        if (v->n == 1)
            fprintf(o, " for every %s", dim);
        else if (i == 0)
            fprintf(o, " for %s &lt; %.5g", dim, to);
        else if (!isfinite(to))
            fprintf(o, " for %s &gt; %.5g", dim, from);
        else
            fprintf(o, " for %.5g &lt; %s &lt; %.5g", from, dim, to);
        fputs("</span>", o);
    }
    fputs("</td>", o);
}

static bool skipped_key(const char *key)
{
    return strcmp(key, "stmt") == 0 || strcmp(key, "line") == 0 || strcmp(key, "file") == 0;
}

static void other_cell(FILE *o, const Json *r, int k)
{
    if (strcmp(r->keys[k], "segments") == 0 && r->items[k].kind == JSON_ARRAY)
        segments_cell(o, json_string(r, "solve") ? json_string(r, "solve") : "x", &r->items[k]);
    else
        other_value(o, r->keys[k], &r->items[k]);
}

/* Records of one shape, every value plain (a serve's, a fit's): a column each. */
static bool columns_of(const Json *a, const Json *b)
{
    if (a->n != b->n)
        return false;
    for (int k = 0; k < a->n; k++)
        if (strcmp(a->keys[k], b->keys[k]) != 0 || a->items[k].kind >= JSON_ARRAY ||
            b->items[k].kind >= JSON_ARRAY)
            return false;
    return true;
}

enum { OTHER_COLUMNS = 6 };

/* n records, each statement named above, then a row per field and a column per record. */
static void other_table(FILE *o, const Json *const *r, int n)
{
    fputs("<ol class=\"stmts\">", o);
    for (int i = 0; i < n; i++) {
        fputs("<li><code>", o);
        esc(o, json_string(r[i], "stmt"));
        fputs("</code>", o);
        if (isfinite(number_or_nan(r[i], "line")))
            fprintf(o, " <small>line %.0f</small>", number_or_nan(r[i], "line"));
        fputs("</li>", o);
    }
    fputs("</ol>\n<table class=\"fields\">\n", o);
    if (n > 1) {
        fputs("<tr><th></th>", o);
        for (int i = 0; i < n; i++)
            fprintf(o, "<th class=\"n\">%d</th>", i + 1);
        fputs("</tr>\n", o);
    }
    for (int k = 0; k < r[0]->n; k++) {
        if (skipped_key(r[0]->keys[k]))
            continue;
        fprintf(o, "<tr><th>%s</th>", r[0]->keys[k]);
        for (int i = 0; i < n; i++)
            other_cell(o, r[i], k);
        fputs("</tr>\n", o);
    }
    fputs("</table>\n", o);
}

static void write_other(const Section *s, int id, FILE *o)
{
    char lines[64];
    fprintf(o, "<section id=\"s%d\" class=\"other\">\n<h2>Other results <small>%s</small></h2>\n",
            id, lines_of(s, lines, sizeof lines));
    for (int i = 0, j; i < s->n; i = j) {
        for (j = i + 1; j < s->n && j - i < OTHER_COLUMNS; j++)
            if (!columns_of(s->records[i], s->records[j]))
                break;
        other_table(o, s->records + i, j - i);
    }
    fputs("</section>\n", o);
}

/* ---- serve, fit, solve: their rows as the text reports read them ------------------ */

/* A report's figure: in its unit, a count in full (a batch of 42, 213828 B, not 213800),
 * a price after its "$", a rate before its "tokens/s"; its exact value, as the JSON
 * writes it, on hover. */
typedef struct {
    const char *key;
    Unit unit;
    const char *before, *after; /* what the value reads with, for a unit Unit lacks */
} Shown;

static void value_cell(FILE *o, const Json *r, Shown f)
{
    double v = number_or_nan(r, f.key);
    Unit u = f.unit;
    char h[64], e[40];
    if (!isfinite(v)) { /* a record of an older shape: no figure, as figure() writes it */
        figure(o, "td", v, u, f.key);
        return;
    }
    if (u == UNIT_NONE && v == floor(v) && fabs(v) < 1e15)
        snprintf(h, sizeof h, "%.0f", v);
    else
        human(v, u, h, sizeof h);
    fprintf(o, "<td class=\"n\" data-v=\"%s\" title=\"%s = %s%s\">%s%s%s</td>",
            num_format_json(v, e, sizeof e), f.key, e, base_unit(u), f.before ? f.before : "", h,
            f.after ? f.after : "");
}

/* A row: the figure's name, how it is derived, its value and what the value says. */
static void report_row(FILE *o, const char *name, const char *how, const Json *r, Shown f,
                       const char *detail)
{
    fputs("<tr><th>", o);
    esc(o, name);
    fputs("</th><td class=\"f\">", o);
    esc(o, how);
    fputs("</td>", o);
    value_cell(o, r, f);
    fputs("<td class=\"d\">", o);
    esc(o, detail);
    fputs("</td></tr>\n", o);
}

/* A row of words alone (no figure): the mix, a missing price. */
static void words_row(FILE *o, const char *name, const char *text)
{
    fputs("<tr><th>", o);
    esc(o, name);
    fputs("</th><td class=\"d\" colspan=\"3\">", o);
    esc(o, text);
    fputs("</td></tr>\n", o);
}

/* Bytes in four digits, or in full where those read as `beside` (the capacity), so
 * that "16 GB of 16 GB" does not hide which side of it they are (as the text does). */
static const char *bytes_near(double v, const char *beside, char *buf, size_t size)
{
    human(v, UNIT_BYTES, buf, size);
    if (strcmp(buf, beside) == 0)
        snprintf(buf, size, "%.0f B", v);
    return buf;
}

/* The batch's name, as `serve B, S: ...` gives it first. */
static void batch_name(const Json *r, char *buf, size_t size)
{
    const char *s = json_string(r, "stmt");
    size_t n = 0;
    if (s && strncmp(s, "serve", 5) == 0)
        for (s += 5; *s == ' '; s++) {}
    while (s && n + 1 < size && (isalnum((unsigned char)s[n]) || s[n] == '_'))
        n++;
    snprintf(buf, size, "%.*s", n ? (int)n : 1, n ? s : "B");
}

static void serve_memory_rows(FILE *o, const Json *r)
{
    char how[128], d[256], a[32], b[32], c[32], bn[32];
    double chips = number_or_nan(r, "chips"), context = number_or_nan(r, "context");
    snprintf(d, sizeof d, "prompt %s + output %s tokens a request, on %s chip%s of %s",
             num_format_plain(number_or_nan(r, "prompt"), a, sizeof a),
             num_format_plain(number_or_nan(r, "output"), b, sizeof b),
             num_format_plain(chips, c, sizeof c), chips == 1 ? "" : "s", json_string(r, "chip"));
    words_row(o, "mix", d);
    snprintf(how, sizeof how, "one sequence at S = prompt + output = %.17g", context);
    snprintf(d, sizeof d, "%s per chip", human(number_or_nan(r, "kv_per_seq") / chips,
                                               UNIT_BYTES, a, sizeof a));
    report_row(o, "kv_per_seq", how, r, (Shown){"kv_per_seq", UNIT_BYTES, NULL, NULL}, d);
    batch_name(r, bn, sizeof bn);
    bool largest = json_get(r, "largest") && json_get(r, "largest")->kind == JSON_BOOL &&
                   json_get(r, "largest")->truth;
    snprintf(how, sizeof how, "%s, %s at S = %.17g", bn, largest ? "the largest that fits"
                                                               : "as given", context);
    human(number_or_nan(r, "hbm"), UNIT_BYTES, b, sizeof b);
    snprintf(d, sizeof d, "%s of %s per chip", bytes_near(number_or_nan(r, "memory"), b, a,
                                                          sizeof a), b);
    report_row(o, "batch", how, r, (Shown){"batch", UNIT_NONE, NULL, NULL}, d);
}

static void serve_time_rows(FILE *o, const Json *r, bool draft)
{
    char how[128], d[256], a[32], b[32];
    snprintf(how, sizeof how, "%s B = 1, T = S = prompt = %.17g",
             draft ? "model + draft prefill," : "the prefill:", number_or_nan(r, "prompt"));
    snprintf(d, sizeof d, "(%s)", json_string(r, "ttft_bound"));
    report_row(o, "ttft", how, r, (Shown){"ttft", UNIT_SECONDS, NULL, NULL}, d);
    if (draft) {
        snprintf(how, sizeof how, "k = %.17g, accept = %.4g: (1 - a^(k+1)) / (1 - a)",
                 number_or_nan(r, "k"), number_or_nan(r, "accept"));
        snprintf(d, sizeof d, "a round; at S = %.17g a draft step %s, the model over "
                 "k + 1 tokens %s", number_or_nan(r, "tpot_context"),
                 human(number_or_nan(r, "t_draft"), UNIT_SECONDS, a, sizeof a),
                 human(number_or_nan(r, "t_verify"), UNIT_SECONDS, b, sizeof b));
        report_row(o, "draft", how, r, (Shown){"tokens_per_round", UNIT_NONE, NULL, " tokens"}, d);
    }
    snprintf(how, sizeof how, "%s at S = prompt + output/2 = %.17g",
             draft ? "a round / its tokens" : "a decode step", number_or_nan(r, "tpot_context"));
    snprintf(d, sizeof d, "(%s); S = %.17g: %s, S = %.17g: %s", json_string(r, "tpot_bound"),
             number_or_nan(r, "prompt"), human(number_or_nan(r, "tpot_first"), UNIT_SECONDS, a,
                                               sizeof a),
             number_or_nan(r, "context"), human(number_or_nan(r, "tpot_last"), UNIT_SECONDS, b,
                                                sizeof b));
    report_row(o, "tpot", how, r, (Shown){"tpot", UNIT_SECONDS, NULL, NULL}, d);
}

static void serve_rate_rows(FILE *o, const Json *r)
{
    char d[256], a[32], b[32];
    const char *chip = json_string(r, "chip");
    report_row(o, "decode", "B / (tpot · chips)", r,
               (Shown){"decode_tokens_per_s", UNIT_NONE, NULL, " tokens/s"}, "per chip");
    report_row(o, "throughput", "B·output / ((B·ttft + output·tpot) · chips)", r,
               (Shown){"tokens_per_s", UNIT_NONE, NULL, " tokens/s"},
               "per chip, prefills included");
    if (!isfinite(number_or_nan(r, "price"))) {
        snprintf(d, sizeof d, "no price for %s: give one in USD per chip-hour, `chip mine : %s "
                 "{ price = 1.2 }`", chip, chip);
        words_row(o, "cost", d);
        return;
    }
    snprintf(d, sizeof d, "per 1M output tokens at $%s per chip-hour ($%s decoding alone)",
             human(number_or_nan(r, "price"), UNIT_NONE, a, sizeof a),
             human(number_or_nan(r, "usd_per_mtok_decode"), UNIT_NONE, b, sizeof b));
    report_row(o, "cost", "price · 1e6 / (3600 · throughput)", r,
               (Shown){"usd_per_mtok", UNIT_NONE, "$", NULL}, d);
    snprintf(d, sizeof d, "%s's `price` (`chip %s` shows its source; set `price` to what you "
             "pay)", chip, chip);
    report_row(o, "price", "USD per chip-hour", r, (Shown){"price", UNIT_NONE, "$", NULL}, d);
}

static void serve_pool_rows(FILE *o, const Json *r)
{
    char d[256], a[32];
    double chips = number_or_nan(r, "chips");
    report_row(o, "finishing", "B / output", r,
               (Shown){"finishing", UNIT_NONE, NULL, " sequences"}, "a step");
    snprintf(d, sizeof d, "of KV cache a step: %s",
             human(number_or_nan(r, "evicted_bytes"), UNIT_BYTES, a, sizeof a));
    report_row(o, "evicted", "B·(prompt + output) / output", r,
               (Shown){"evicted_tokens", UNIT_NONE, NULL, " tokens"}, d);
    snprintf(d, sizeof d, "per chip (%s with the prefills on the same chips)",
             human(number_or_nan(r, "qps_prefill"), UNIT_NONE, a, sizeof a));
    report_row(o, "qps", "B / (tpot · output · chips)", r, (Shown){"qps", UNIT_NONE, NULL, " queries/s"}, d);
    snprintf(d, sizeof d, "a generate server, each on %.17g chip%s", chips,
             chips == 1 ? "" : "s");
    report_row(o, "prefill:gen", "ttft · B / (tpot · output)", r,
               (Shown){"prefill_ratio", UNIT_NONE, NULL, " prefill servers"}, d);
}

/* A serve's mixes, each as the text report's rows; a draft's row only with a draft. */
static void write_serve(const Section *s, int id, FILE *o)
{
    section_head(o, id, "serve", s->records[0]);
    for (int i = 0; i < s->n; i++) {
        const Json *r = s->records[i];
        if (s->n > 1)
            fprintf(o, "<h3>mix %d of %d</h3>\n", i + 1, s->n);
        fputs("<table class=\"totals report\">\n", o);
        serve_memory_rows(o, r);
        serve_time_rows(o, r, isfinite(number_or_nan(r, "k")));
        serve_rate_rows(o, r);
        serve_pool_rows(o, r);
        fputs("</table>\n", o);
    }
    fputs("</section>\n", o);
}

/* A fit's answer: the largest value whose memory fits, against the chip's HBM. */
static void write_fit(const Section *s, int id, FILE *o)
{
    const Json *r = s->records[0];
    char how[128], d[256], a[32], b[32], c[32];
    const char *dim = json_string(r, "fit");
    section_head(o, id, "fit", r);
    fputs("<table class=\"totals report\">\n", o);
    snprintf(how, sizeof how, "the largest %s whose memory per chip fits its HBM", dim);
    human(number_or_nan(r, "hbm"), UNIT_BYTES, b, sizeof b);
    int n = snprintf(d, sizeof d, "fits: %s of %s HBM per chip",
                     bytes_near(number_or_nan(r, "memory"), b, a, sizeof a), b);
    if (isfinite(number_or_nan(r, "next_memory")) && n > 0 && (size_t)n < sizeof d)
        snprintf(d + n, sizeof d - (size_t)n, "; %s = %.17g needs %s", dim,
                 number_or_nan(r, "largest") + 1,
                 bytes_near(number_or_nan(r, "next_memory"), b, c, sizeof c));
    report_row(o, "largest", how, r, (Shown){"largest", UNIT_NONE, NULL, NULL}, d);
    fputs("</table>\n</section>\n", o);
}

/* A solve's intensity (or its network one) against its ridge, as the text's two rows:
 * its formula in the dim when it is not a number. None in a record without them. */
static void ratio_row(FILE *o, const Json *r, const char *key, const char *how,
                      const char *ridge)
{
    const Json *formula = json_get(r, "formula");
    const char *text = formula ? json_string(formula, key) : NULL;
    if (!json_get(r, key) || !isfinite(number_or_nan(r, ridge)))
        return;
    if (isfinite(number_or_nan(r, key)))
        report_row(o, key, how, r, (Shown){key, UNIT_NONE, NULL, " FLOP/B"}, "");
    else
        words_row(o, key, text ? text : "?");
    report_row(o, ridge, strcmp(ridge, "ridge") == 0 ? "peak / HBM bandwidth"
                                                     : "peak / link bandwidth",
               r, (Shown){ridge, UNIT_NONE, NULL, " FLOP/B"}, "");
}

/* A solve's ranges of the dim by bound and, when it has one, the intensity's limit. */
static void write_solve(const Section *s, int id, FILE *o)
{
    const Json *r = s->records[0];
    char how[128];
    const char *dim = json_string(r, "solve");
    const Json *segments = json_get(r, "segments");
    section_head(o, id, "solve", r);
    fputs("<table class=\"totals report\">\n", o);
    ratio_row(o, r, "intensity", "flops / bytes", "ridge");
    ratio_row(o, r, "net_intensity", "flops / comm_bytes", "net_ridge");
    if (segments && segments->kind == JSON_ARRAY) {
        snprintf(how, sizeof how, "what bounds the statement, by %s", dim);
        fputs("<tr><th>bound</th><td class=\"f\">", o);
        esc(o, how);
        fputs("</td>", o);
        segments_cell(o, dim, segments);
        fputs("<td></td></tr>\n", o);
    }
    if (isfinite(number_or_nan(r, "limit_intensity"))) {
        snprintf(how, sizeof how, "as %s grows, the intensity →", dim);
        report_row(o, "limit", how, r,
                   (Shown){"limit_intensity", UNIT_NONE, NULL, " FLOP/B"}, "");
    }
    fputs("</table>\n</section>\n", o);
}

/* ---- A chip's card (`chip NAME`): its fields and what follows from them ------------- */

static Unit chip_unit(const char *key)
{
    size_t n = strlen(key);
    if (strncmp(key, "flops_", 6) == 0 && strcmp(key, "flops_eff") != 0)
        return UNIT_RATE;
    if (strncmp(key, "peak", 4) == 0)
        return UNIT_RATE;
    if (n > 3 && strcmp(key + n - 3, "_bw") == 0)
        return UNIT_BW;
    if (strstr(key, "bytes"))
        return UNIT_BYTES;
    return strstr(key, "latency") || strstr(key, "_time") ? UNIT_SECONDS : UNIT_NONE;
}

/* A row per member of `fields`: its value, then the strings under `what` (meaning,
 * source; or formula). */
static void chip_rows(FILE *o, const Json *fields, const char *first, const char *second)
{
    for (int i = 0; fields && fields->kind == JSON_OBJECT && i < fields->n; i++) {
        const Json *f = &fields->items[i];
        fprintf(o, "<tr><th>%s</th>", fields->keys[i]);
        figure(o, "td", number_or_nan(f, "value"), chip_unit(fields->keys[i]),
               json_string(f, first) ? json_string(f, first) : fields->keys[i]);
        text_cell(o, "td", "f", json_string(f, first) ? json_string(f, first) : "", NULL);
        if (second)
            text_cell(o, "td", "f", json_string(f, second) ? json_string(f, second) : "", NULL);
        fputs("</tr>\n", o);
    }
}

static void write_chip(const Section *s, int id, FILE *o)
{
    fprintf(o, "<section id=\"s%d\" class=\"chip\">\n", id);
    for (int i = 0; i < s->n; i++) {
        const Json *r = s->records[i];
        fputs("<h2>chip <code>", o);
        esc(o, json_string(r, "chip"));
        fputs("</code></h2>\n<table class=\"fields\">\n", o);
        chip_rows(o, json_get(r, "fields"), "meaning", "source");
        fputs("</table>\n<h3>What follows from them</h3>\n<table class=\"fields\">\n", o);
        chip_rows(o, json_get(r, "derived"), "formula", NULL);
        fputs("</table>\n", o);
    }
    fputs("</section>\n", o);
}

/* ---- The page --------------------------------------------------------------------- */

static const char STYLE[] =
    "body{font:14px/1.45 system-ui,-apple-system,'Segoe UI',sans-serif;color:#1a202c;"
    "margin:0;background:#f7f8fa}\n"
    "header,section,footer{max-width:1280px;margin:0 auto;padding:12px 24px}\n"
    "header{border-bottom:1px solid #dde}h1{font-size:22px;margin:8px 0}"
    "h2{font-size:18px;margin:6px 0}h2 code{font-size:16px}h3{font-size:15px;margin:18px 0 6px}\n"
    "section{background:#fff;margin:18px auto;border:1px solid #e2e4ea;border-radius:6px}\n"
    "small,.meta,figcaption{color:#5a6270}.meta{margin:2px 0 10px}\n"
    ".config{margin:2px 0 10px;font-size:90%}td .config{margin:2px 0 0;color:#5a6270}\n"
    "code{font-family:ui-monospace,'SFMono-Regular',Menlo,monospace}\n"
    "nav ol{margin:4px 0;padding-left:22px}nav a{color:#2b6cb0}\n"
    ".side{display:flex;flex-wrap:wrap;gap:24px;align-items:flex-start}\n"
    ".stack{display:flex;flex-direction:column}.first{order:1}.second{order:2}\n"
    "figure{margin:8px 0}svg{max-width:100%;height:auto}\n"
    "table{border-collapse:collapse}td,th{padding:2px 8px;text-align:left;white-space:nowrap}"
    ".n{text-align:right;font-variant-numeric:tabular-nums}\n"
    "table.data{margin:6px 0 14px;font-size:13px}table.data thead th{border-bottom:2px solid "
    "#ccd;cursor:pointer;position:sticky;top:0;background:#fff}\n"
    "table.data tbody tr:nth-child(even){background:#f5f7fb}td.stmt,td.sym{white-space:normal;"
    "font-family:ui-monospace,Menlo,monospace;font-size:12px;max-width:420px}\n"
    ".totals th,.fields th{color:#4a5260;font-weight:600}.totals .f{color:#5a6270}\n"
    ".stmts{margin:14px 0 4px;padding-left:22px}.stmts code{font-size:13px}\n"
    ".fields td.f{white-space:normal;max-width:460px;color:#5a6270}\n"
    ".report td.d{white-space:normal;max-width:520px}\n"
    "[title]{cursor:help}.b{font-weight:600}.b-compute{color:#2b6cb0}.b-memory{color:#b35f0c}"
    ".b-comm{color:#c53030}.over{color:#c53030}\n"
    ".keys{list-style:none;padding:0;margin:4px 0;display:flex;flex-wrap:wrap;gap:4px 18px}"
    ".keys i,.name i{display:inline-block;width:10px;height:10px;border-radius:2px;"
    "margin-right:6px}\n"
    ".tree{font-size:13px;overflow-x:auto}.tree .row{display:grid;grid-template-columns:"
    "minmax(15em,2.4fr) 3.4em repeat(6,minmax(5.8em,1fr)) 5.8em 5.2em 5.6em 6.6em;"
    "gap:0 6px;padding:2px 4px;border-bottom:1px solid #eef0f4}\n"
    ".tree .head{font-weight:600;border-bottom:2px solid #ccd;cursor:pointer}"
    ".tree summary{list-style:none;cursor:pointer}.tree summary::-webkit-details-marker"
    "{display:none}\n"
    ".tree summary:hover,.tree .leaf:hover{background:#eef4fc}\n"
    ".tree .name{padding-left:calc(var(--d,0)*1.3em);white-space:nowrap;overflow:hidden;"
    "text-overflow:ellipsis}\n"
    ".tree summary .name::before{content:'\\25B8';display:inline-block;width:1em;color:#667}"
    ".tree details[open]>summary .name::before{content:'\\25BE'}"
    ".tree .leaf .name::before{content:'';display:inline-block;width:1em}\n"
    ".share{background:linear-gradient(to left,#c9dcf3 var(--w),transparent var(--w))}\n";

/* The script only sorts: a table by a heading, the tree's rows within each parent. */
static const char SCRIPT[] =
    "(function(){\n"
    "function key(row,i){var c=row.children[i];if(!c)return '';var v=c.getAttribute('data-v');"
    "return v===null||v===''?c.textContent:parseFloat(v);}\n"
    "function cmp(a,b){return typeof a=='number'&&typeof b=='number'?a-b:"
    "String(a).localeCompare(String(b));}\n"
    "function dir(h){var d=h.getAttribute('aria-sort')=='descending'?1:-1;"
    "Array.prototype.forEach.call(h.parentNode.children,function(x){x.removeAttribute('aria-sort');});"
    "h.setAttribute('aria-sort',d<0?'descending':'ascending');return d;}\n"
    "function rowOf(e){return e.tagName=='DETAILS'?e.firstElementChild:e;}\n"
    "function sort(list,i,d,get){list.sort(function(a,b){return d*cmp(key(get(a),i),key(get(b),i));});"
    "list.forEach(function(e){e.parentNode.appendChild(e);});}\n"
    "document.addEventListener('click',function(e){\n"
    "var th=e.target.closest('th[data-sort]');\n"
    "if(th){var i=Array.prototype.indexOf.call(th.parentNode.children,th),d=dir(th);"
    "sort(Array.from(th.closest('table').tBodies[0].rows),i,d,function(r){return r;});return;}\n"
    "var h=e.target.closest('.tree .head>span');\n"
    "if(h){var j=Array.prototype.indexOf.call(h.parentNode.children,h),dd=dir(h);"
    "h.closest('.tree').querySelectorAll('details').forEach(function(det){"
    "sort(Array.from(det.children).slice(1),j,dd,rowOf);});}\n"
    "});\n"
    "})();\n";

static const char *section_name(const Section *s, char *buf, size_t size)
{
    char lines[64];
    if (s->kind == SEC_SWEEP)
        snprintf(buf, size, "sweep over %s: %s%s (line %d)", s->dim, s->curves[0].label,
                 s->ncurves > 1 ? ", ..." : "", s->curves[0].line);
    else if (s->kind == SEC_STATEMENTS)
        snprintf(buf, size, "%d statement%s (%s)", s->n, s->n == 1 ? "" : "s",
                 lines_of(s, lines, sizeof lines));
    else if (s->kind == SEC_OTHER && s->n > 1)
        snprintf(buf, size, "other results (%d, %s)", s->n, lines_of(s, lines, sizeof lines));
    else if (s->kind == SEC_CHIP)
        snprintf(buf, size, "chip %s%s", json_string(s->records[0], "chip"),
                 s->n > 1 ? ", ..." : "");
    else { /* with its line: one statement written twice is two entries that differ */
        const char *stmt = json_string(s->records[0], "stmt");
        double line = number_or_nan(s->records[0], "line");
        if (isfinite(line))
            snprintf(buf, size, "%s (line %.0f)", stmt ? stmt : "", line);
        else
            snprintf(buf, size, "%s", stmt ? stmt : "");
    }
    return buf;
}

/* The run's title, its first `max` characters and "…" after a cut; where the caller's
 * buffer cut a character short, the title ends before it (no bad UTF-8 on the page). */
static void title_text(FILE *o, const char *title, int max)
{
    char ch[8];
    size_t n = strlen(title);
    for (size_t i = 0, chars = 0; i < n; chars++) {
        int len = utf8_length((const unsigned char *)title + i, n - i);
        if (len == 0)
            return;
        if (chars == (size_t)max) {
            fputs("…", o);
            return;
        }
        snprintf(ch, sizeof ch, "%.*s", len, title + i);
        esc(o, ch);
        i += (size_t)len;
    }
}

enum { TAB_TITLE = 100, HEADING_TITLE = 600 }; /* characters of the title: a tab's, the page's */

static void page_head(const Page *pg, const HtmlOptions *opt, FILE *o)
{
    static const char *const KIND[] = {"model", "statements", "sweep", "search", "chip",
                                       "serve", "fit", "solve", "other"};
    char name[512];
    fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n"
          "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>\n"
          "<title>roofline: ", o);
    title_text(o, opt->title, TAB_TITLE);
    fputs("</title>\n<script>window.onerror=function(m){document.documentElement.setAttribute("
          "'data-script-error',String(m));};</script>\n<style>\n", o);
    fputs(STYLE, o);
    fputs("</style>\n</head>\n<body>\n<header>\n<h1>roofline <small>", o);
    title_text(o, opt->title, HEADING_TITLE);
    fprintf(o, "</small></h1>\n<p class=\"meta\">roofline %s · %d section%s", ROOFLINE_VERSION,
            pg->count, pg->count == 1 ? "" : "s");
    if (opt->status != 0)
        fprintf(o, " · <b class=\"over\">the run stopped with exit status %d: the page shows "
                "what ran before</b>", opt->status);
    fputs("</p>\n<ul class=\"keys\"><li><i style=\"background:#2b6cb0\"></i>compute-bound</li>"
          "<li><i style=\"background:#dd7a1a\"></i>memory-bound</li><li><i style=\"background:"
          "#c53030\"></i>comm-bound</li><li>hover a figure for its formula and exact value</li>"
          "</ul>\n<nav><ol>\n", o);
    int id = 1;
    for (const Section *s = pg->first; s; s = s->next, id++) {
        fprintf(o, "<li><a href=\"#s%d\"><code>", id);
        esc(o, section_name(s, name, sizeof name));
        fprintf(o, "</code></a> <small>%s</small></li>\n", KIND[s->kind]);
    }
    fputs("</ol></nav>\n</header>\n<main>\n", o);
}

static void page_body(const Page *pg, FILE *o)
{
    int id = 1;
    for (const Section *s = pg->first; s; s = s->next, id++)
        switch (s->kind) {
        case SEC_MODEL: write_model(pg, s, id, o); break;
        case SEC_STATEMENTS: write_statements(pg, s, id, o); break;
        case SEC_SWEEP: write_sweep(s, id, o); break;
        case SEC_SEARCH: write_search(pg, s, id, o); break;
        case SEC_CHIP: write_chip(s, id, o); break;
        case SEC_SERVE: write_serve(s, id, o); break;
        case SEC_FIT: write_fit(s, id, o); break;
        case SEC_SOLVE: write_solve(s, id, o); break;
        case SEC_OTHER: write_other(s, id, o); break;
        }
    if (!pg->first)
        fputs("<section><p>The run reported no statement.</p></section>\n", o);
}

static void page_write(const Page *pg, const HtmlOptions *opt, FILE *o)
{
    page_head(pg, opt, o);
    page_body(pg, o);
    fputs("</main>\n<footer><small>Written by roofline from the run's JSON records (the lines "
          "<code>--json</code> prints): figures per chip unless a row says otherwise; "
          "decimal units (1 GB = 1e9 B); a multiply-add is 2 FLOPs.</small></footer>\n<script>\n",
          o);
    fputs(SCRIPT, o);
    fputs("</script>\n</body>\n</html>\n", o);
}

/* Into a temporary file beside the page, renamed over it once whole (outfile.h). */
static bool write_file(const Page *pg, const HtmlOptions *opt, long *bytes, char *why,
                       size_t size)
{
    OutFile file;
    bool ok = outfile_open(&file, opt->path);
    if (ok) {
        page_write(pg, opt, file.f);
        if (nomem_failed()) /* a chart went missing: no page with a hole in it */
            errno = ENOMEM;
        ok = outfile_close(&file, !ferror(file.f) && !nomem_failed());
        *bytes = file.bytes; /* what the page's file or device received */
    }
    if (!ok)
        snprintf(why, size, "cannot write %s: %s", opt->path, strerror(errno));
    return ok;
}

bool html_write(HtmlPage *p, const HtmlOptions *opt, long *bytes, char *why, size_t size)
{
    Page pg = {0};
    bool ok = read_lines(p->chips, add_chip, &pg, why, size) &&
              read_lines(p->records, add_record, &pg, why, size) &&
              write_file(&pg, opt, bytes, why, size);
    page_free(&pg);
    return ok;
}
