/* scan.c — solve and sweep by costing the whole statement at each value (scan.h). */
#include "scan.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crossing.h"
#include "interrupt.h"
#include "jobs.h"
#include "json.h"
#include "num.h"
#include "records.h"
#include "report.h"
#include "spell.h"

enum { SCAN_MAX_DOUBLINGS = 24, SCAN_MAX_CHANGES = 64, SCAN_MAX_SPLITS = 256 };
/* --jobs: a sweep's process costs at least this many points (fewer are quicker costed
 * than a process is started). */
enum { SCAN_JOB_POINTS = 32 };

static bool calls_block(const World *w, const Node *n)
{
    if (!n)
        return false;
    switch (n->kind) {
    case NODE_CALL:
        if (n->as.call.callee.name < w->nblock_of && w->block_of[n->as.call.callee.name] > 0)
            return true;
        for (int i = 0; i < n->as.call.nargs; i++)
            if (calls_block(w, n->as.call.args[i].value))
                return true;
        return false;
    case NODE_BINARY:
        return calls_block(w, n->as.binary.lhs) || calls_block(w, n->as.binary.rhs);
    case NODE_CONTRACT:
        return calls_block(w, n->as.contract.lhs) || calls_block(w, n->as.contract.rhs);
    case NODE_NEGATE:
    case NODE_PARAM:
    case NODE_CACHE:
        return calls_block(w, n->as.operand);
    default:
        return false;
    }
}

bool scan_wanted(const Eval *ev, const Stmt *s)
{
    bool expression = s->kind == STMT_EXPR || s->kind == STMT_ASSIGN ||
                      s->kind == STMT_COLLECTIVE || s->kind == STMT_SOLVE;
    /* In training a statement with a `param` is a step with its optimizer update, as
     * it is reported alone: no formula of the statement has that row. */
    bool step = eval_is_step(ev, s->as.expr.value);
    return expression && (s->as.expr.clauses.mesh || calls_block(ev->world, s->as.expr.value) ||
                          step || (s->kind == STMT_SOLVE && s->as.expr.equal));
}

/* A statement's figures at one value of the dim: its totals, per chip. */
typedef struct {
    double flops, bytes, comm_bytes, t_math, t_hbm, t_comm, t_lower, t_upper, t_derated;
    double memory;
    double hbm; /* the chip's HBM capacity; 0 when it gives none */
    Bound bound;
    /* By Bound, the times that decide it: an operation's t_math, t_hbm and t_comm; a
     * block's time bounded by each (what bounds most of its time bounds the block). */
    double decides[4];
    bool alone; /* one operation (its three times decide), not a block */
} Figures;

/* 1 when what a chip holds fits its HBM, 0 when not, -1 when the chip gives no
 * capacity. */
static int fits_of(const Figures *f)
{
    return f->hbm > 0 ? f->memory <= f->hbm : -1;
}

static void figures_of(const Op *root, bool training, Figures *f)
{
    bool alone = root->nchildren == 1 && root->children[0]->leaf;
    *f = (Figures){root->flops, root->bytes, root->comm_bytes, root->t_math, root->t_hbm,
                   root->t_comm, root->t_lower, root->t_upper, root->t_derated,
                   alone ? root->children[0]->held : op_block_memory(root, training), 0,
                   root->bound, {0, 0, 0, 0}, alone};
    if (alone) {
        f->decides[BOUND_COMPUTE] = root->t_math;
        f->decides[BOUND_MEMORY] = root->t_hbm;
        f->decides[BOUND_COMM] = root->t_comm;
    } else {
        op_bound_shares(root, 1, f->decides);
    }
}

/* A value the dim takes, as a row shows it: a number, or a chip's name. */
static const char *point_text(const BoundValue *at, char *buf, size_t size)
{
    if (at->kind == VAL_CHIP)
        return at->chip->name;
    return num_format_plain(at->number, buf, size);
}

/* Costs the statement with the dim at `at`. False after an error (reported to ev's
 * diag). */
static bool cost_at_value(Eval *ev, const Stmt *s, int dim, BoundValue at, Figures *f)
{
    Op *root = op_new("scan");
    if (!root)
        return eval_oom(ev, s->span);
    ev->world->values[dim] = at;
    bool ok = eval_quietly(ev, s, root);
    const Chip *chip = ok ? eval_chip_of(ev, s) : NULL; /* the point's, in a sweep over chips */
    ev->world->values[dim] = (BoundValue){.kind = VAL_UNBOUND};
    if (ok) {
        op_total(root);
        figures_of(root, ev->world->training, f);
        if (chip && chip->set[CHIP_HBM_BYTES])
            f->hbm = chip->value[CHIP_HBM_BYTES];
        char buf[32];
        if (!root->known || root->bound == BOUND_UNKNOWN)
            ok = eval_fail(ev, s->span, "with %s = %s its times are not numbers: every other "
                           "dim must be bound, and it needs a chip", eval_spelling(ev, dim),
                           point_text(&at, buf, sizeof buf));
        else if (!op_finite(root))
            ok = eval_fail(ev, s->span, "with %s = %s a figure overflows", eval_spelling(ev, dim),
                           point_text(&at, buf, sizeof buf));
    }
    op_free(root);
    return ok;
}

static bool cost_at(Eval *ev, const Stmt *s, int dim, double x, Figures *f)
{
    return cost_at_value(ev, s, dim, (BoundValue){.kind = VAL_NUMBER, .number = x}, f);
}

/* Errors kept out of the report while probing a value that may not be costed (a mesh
 * longer than the pod): hold_quiet returns the report's diag for hold_end, which gives
 * *why the first line of the error when !ok (the caller frees it). */
static Diag *hold_quiet(Eval *ev, DiagHold *hold)
{
    Diag *loud = ev->diag;
    ev->diag = &hold->diag;
    return loud;
}

static bool hold_end(Eval *ev, DiagHold *hold, Diag *loud, bool ok, char **why)
{
    ev->diag = loud;
    char *first = diag_release(hold);
    if (!ok)
        *why = first;
    else
        free(first);
    return ok;
}

/* Costs at `at` with errors kept out of the report. */
static bool try_at_value(Eval *ev, const Stmt *s, int dim, BoundValue at, Figures *f,
                         char **why)
{
    DiagHold hold;
    if (!diag_hold(&hold))
        return eval_oom(ev, s->span);
    Diag *loud = hold_quiet(ev, &hold);
    return hold_end(ev, &hold, loud, cost_at_value(ev, s, dim, at, f), why);
}

/* ---- sweep ------------------------------------------------------------------------ */

static void label_of(Eval *ev, const Stmt *s, char *buf, size_t size)
{
    if (s->kind == STMT_ASSIGN)
        snprintf(buf, size, "%s", eval_spelling(ev, s->as.expr.target.name));
    else
        snprintf(buf, size, "%.*s", s->span.end - s->span.begin, ev->src->text + s->span.begin);
}

/* One point of the sweep, as its row and its JSON line give it. */
static void point_of(Eval *ev, const Stmt *s, const char *label, int dim, const BoundValue *at,
                     const Figures *f, char *buf, size_t size, SweepPoint *out)
{
    int line, col;
    bool on_chip = at->kind == VAL_CHIP;
    source_position(ev->src, s->span.begin, &line, &col);
    ev->world->values[dim] = *at; /* the chip of `on c`, which only the JSON line names */
    const Chip *chip = ev->json ? eval_chip_of(ev, s) : NULL;
    *out = (SweepPoint){
        .stmt = label, .dim = eval_spelling(ev, dim), .at_chip = on_chip ? at->chip->name : NULL,
        .at = on_chip ? NULL : num_format_json(at->number, buf, size),
        .line = line, .file = ev->src->name, .chip = chip ? chip->name : NULL,
        .mode = ev->world->training, .memory = true, .flops = f->flops, .bytes = f->bytes,
        .t_math = f->t_math, .t_hbm = f->t_hbm, .t_comm = f->t_comm,
        .comm_bytes = f->comm_bytes, .t_lower = f->t_lower, .t_upper = f->t_upper,
        .t_derated = f->t_derated, .bound = f->bound, .memory_bytes = f->memory,
        .hbm = f->hbm, .fits = fits_of(f),
    };
    ev->world->values[dim] = (BoundValue){.kind = VAL_UNBOUND};
}

/* The point as a row of the table, or (--json, --csv) as a JSON line. */
static void point_row(Eval *ev, const Stmt *s, const char *label, int dim, const BoundValue *at,
                      const Figures *f)
{
    char buf[40];
    SweepPoint point;
    point_of(ev, s, label, dim, at, f, buf, sizeof buf, &point);
    if (ev->json)
        records_sweep_point(ev->out, &point);
    else
        records_scan_row(ev->out, at->number, &point);
}

/* Attained FLOP/s, as a statement's report and a sweep's chart give it: flops / t_lower. */
static double attained(const Figures *f)
{
    return f->t_lower > 0 ? f->flops / f->t_lower : 0;
}

/* One statement of the sweep: its label, and with a chart its points (x, attained). */
typedef struct {
    char label[256];
    double *x, *y; /* NULL without a chart */
} ScanCurve;

/* ---- A sweep's points costed in several processes (--jobs, jobs.h) ----------------- *
 * Each run of points but the first is costed in a forked process, quietly, up to its
 * first point that cannot be costed; the first run is costed here, quietly too. The
 * sweep then writes its rows in order from the figures got, and costs here, loudly,
 * any point not got: the first that cannot be costed says so, as one process does. */

/* What each process is handed. */
typedef struct {
    Eval *ev;
    const Stmt *s;
    int dim;
    const BoundValue *x;
    Figures *f;
} Points;

/* Points [begin, end) costed quietly into p->f, up to the first that cannot be (or
 * Ctrl-C); how many were. */
static int cost_points(const Points *p, int begin, int end)
{
    int i = begin;
    for (char *why = NULL; i < end && !interrupt_pending(); i++, free(why), why = NULL) {
        memset(&p->f[i], 0, sizeof p->f[i]); /* the padding too: all of it is sent */
        if (!try_at_value(p->ev, p->s, p->dim, p->x[i], &p->f[i], &why)) {
            free(why);
            break;
        }
    }
    return i - begin;
}

/* In the forked process: how many of its points were costed, then their figures. */
static bool cost_points_work(void *ctx, const JobsWorker *w, int fd)
{
    const Points *p = ctx;
    int got = cost_points(p, w->begin, w->end);
    return jobs_send(fd, &got, sizeof got) &&
           jobs_send(fd, p->f + w->begin, sizeof *p->f * (size_t)got);
}

/* A worker's figures taken in: how many of its points it costed (0 when it failed). */
static int gather_points(const Points *p, JobsWorker *w)
{
    int got = 0;
    bool ok = w->pid > 0 && jobs_receive(w->fd, &got, sizeof got) && got >= 0 &&
              got <= w->end - w->begin &&
              jobs_receive(w->fd, p->f + w->begin, sizeof *p->f * (size_t)got);
    return jobs_end(w, ok) ? got : 0;
}

/* The figures of every point that `jobs` processes could cost: got[i] says which. */
static void cost_ahead(const Points *p, int n, int jobs, bool *got, Progress *progress)
{
    JobsWorker workers[JOBS_MAX];
    for (int k = 1; k < jobs; k++) {
        workers[k] = (JobsWorker){.begin = (int)((long long)n * k / jobs),
                                  .end = (int)((long long)n * (k + 1) / jobs)};
        jobs_start(&workers[k], cost_points_work, (void *)p);
    }
    int first = (int)((long long)n / jobs);
    int done = cost_points(p, 0, first);
    for (int i = 0; i < done; i++)
        got[i] = true;
    progress_advance(progress, done);
    for (int k = 1; k < jobs; k++) {
        done = gather_points(p, &workers[k]);
        for (int i = workers[k].begin; i < workers[k].begin + done; i++)
            got[i] = true;
        progress_advance(progress, done);
    }
}

/* The rows of s at every x, from the figures got ahead, or costed here. */
static bool sweep_rows(Eval *ev, const Stmt *s, int dim, const BoundValue *x, int n,
                       ScanCurve *c, const Figures *ahead, const bool *got, Progress *progress)
{
    bool table = !ev->json && !c->x;
    if (table)
        records_scan_header(ev->out, c->label, ev->world->training, eval_spelling(ev, dim));
    for (int i = 0; i < n; i++) {
        Figures f;
        if (interrupt_pending()) /* Ctrl-C in the REPL: the session goes on */
            return eval_interrupted(ev);
        if (got && got[i])
            f = ahead[i];
        else if (!cost_at_value(ev, s, dim, x[i], &f))
            return false;
        if (c->x) {
            c->x[i] = x[i].number;
            c->y[i] = attained(&f);
        }
        if (ev->json || table)
            progress_before_row(progress);
        if (ev->json || table)
            point_row(ev, s, c->label, dim, &x[i], &f);
        if (ev->json && !eval_rows_written(ev)) /* --csv: each row as it is made */
            return false;
        if (!got || !got[i])
            progress_advance(progress, 1);
    }
    if (table)
        fputc('\n', ev->out);
    return true;
}

/* Costs s at every x: a table, JSON lines, and the chart's points, as asked; with a
 * chart, text mode draws instead of printing a table, as a sweep of statements does. */
static bool sweep_statement(Eval *ev, const Stmt *s, int dim, const BoundValue *x, int n,
                            ScanCurve *c, Progress *progress)
{
    label_of(ev, s, c->label, sizeof c->label);
    int jobs = jobs_count(ev->jobs, n, SCAN_JOB_POINTS);
    Figures *ahead = jobs > 1 ? malloc(sizeof *ahead * (size_t)n) : NULL;
    bool *got = ahead ? calloc((size_t)n, sizeof *got) : NULL;
    if (got)
        cost_ahead(&(Points){ev, s, dim, x, ahead}, n, jobs, got, progress);
    bool ok = sweep_rows(ev, s, dim, x, n, c, ahead, got, progress);
    free(ahead);
    free(got);
    return ok;
}

static void free_scan_curves(ScanCurve *curves, int n)
{
    for (int i = 0; curves && i < n; i++) {
        free(curves[i].x);
        free(curves[i].y);
    }
    free(curves);
}

/* Every statement at every x, then their curves on one chart. The chart's options are
 * checked first: a model per point takes a while. */
static bool sweep_plotted(Eval *ev, const Stmt *sweep, int dim, const BoundValue *x, int n,
                          bool logx)
{
    const AstList *body = sweep->as.sweep.body;
    if (x[0].kind == VAL_CHIP)
        return eval_fail(ev, sweep->as.sweep.plot_span, "a sweep over chips has no axis to "
                         "draw: its points are names, not numbers; without `plot` it prints "
                         "its table");
    SweepChart chart;
    if (!explore_sweep_chart_begin(ev, sweep, logx, &chart))
        return false;
    ScanCurve *curves = calloc((size_t)body->n + 1, sizeof *curves);
    PlotSeries *series = calloc((size_t)body->n + 1, sizeof *series);
    bool ok = curves && series;
    for (int i = 0; ok && i < body->n; i++) {
        curves[i].x = malloc(sizeof *curves[i].x * (size_t)n);
        curves[i].y = malloc(sizeof *curves[i].y * (size_t)n);
        ok = curves[i].x && curves[i].y;
    }
    if (!ok)
        ok = eval_oom(ev, sweep->span);
    Progress progress;
    eval_progress_begin(ev, &progress, "sweep", "points", (double)n * body->n);
    for (int i = 0; ok && i < body->n; i++) {
        ok = sweep_statement(ev, body->items[i], dim, x, n, &curves[i], &progress);
        series[i] = (PlotSeries){curves[i].label, curves[i].x, curves[i].y, n, NULL};
    }
    eval_progress_end(ev, &progress);
    ok = ok && explore_sweep_chart_draw(ev, sweep, &chart, series, body->n);
    free_scan_curves(curves, body->n);
    free(series);
    return ok;
}

bool scan_sweep(Eval *ev, const Stmt *sweep, int dim, const BoundValue *x, int n, bool logx)
{
    const AstList *body = sweep->as.sweep.body;
    for (int i = 0; i < body->n; i++) {
        const Stmt *s = body->items[i];
        if (s->kind != STMT_EXPR && s->kind != STMT_ASSIGN && s->kind != STMT_COLLECTIVE)
            return eval_fail(ev, s->span, "a sweep's body holds expression statements, one per "
                             "curve");
    }
    if (sweep->as.sweep.plot)
        return sweep_plotted(ev, sweep, dim, x, n, logx);
    Progress progress;
    eval_progress_begin(ev, &progress, "sweep", "points", (double)n * body->n);
    bool ok = true;
    for (int i = 0; ok && i < body->n; i++) {
        ScanCurve table = {.x = NULL};
        ok = sweep_statement(ev, body->items[i], dim, x, n, &table, &progress);
    }
    eval_progress_end(ev, &progress);
    return ok;
}

/* ---- solve ------------------------------------------------------------------------ */

static bool in_run(const Figures *f, const ScanRun *r)
{
    return f->bound == r->bound && fits_of(f) == r->fits;
}

/* Costs at x with errors kept out of the report. */
static bool try_at(Eval *ev, const Stmt *s, int dim, double x, Figures *f, char **why)
{
    return try_at_value(ev, s, dim, (BoundValue){.kind = VAL_NUMBER, .number = x}, f, why);
}

/* The last whole number in [lo, hi) in run r, hi being in another. */
static bool bisect(Eval *ev, const Stmt *s, int dim, double lo, double hi, const ScanRun *r,
                   double *last)
{
    while (hi - lo > 1) {
        double mid = floor(lo + (hi - lo) / 2);
        Figures f;
        if (!cost_at(ev, s, dim, mid, &f))
            return false;
        if (in_run(&f, r))
            lo = mid;
        else
            hi = mid;
    }
    *last = lo;
    return true;
}

/* The runs from x, in the last run, to `to`, whose figures are g: each change between
 * them bisected (the bound and the fit may both change between two powers of two). */
static bool runs_to(Eval *ev, const Stmt *s, int dim, double x, double to, const Figures *g,
                    ScanRun *runs, int *n)
{
    while (!in_run(g, &runs[*n - 1])) {
        double last;
        Figures f = *g;
        if (*n == SCAN_MAX_CHANGES)
            return eval_fail(ev, s->span, "the bound or the fit changes more than %d times",
                             SCAN_MAX_CHANGES);
        if (!bisect(ev, s, dim, x, to, &runs[*n - 1], &last) ||
            (last + 1 < to && !cost_at(ev, s, dim, last + 1, &f)))
            return false;
        runs[*n - 1].to = last;
        runs[(*n)++] = (ScanRun){last + 1, last + 1, f.bound, fits_of(&f)};
        x = last + 1;
    }
    runs[*n - 1].to = to;
    return true;
}

/* Runs i.. that share the bound (or the fit): the index past them. */
/* ---- solve n: the real-valued crossings ------------------------------------------- */

static bool crossing_between(Eval *ev, const Stmt *s, int dim, double k, Bound from, Bound to,
                             ScanCrossing *c)
{
    /* Fitted through k, k + 1 and one more, checked at three others: padded shards and a
     * change of topology break the law, and then no crossing is claimed. */
    double first = k > 2 ? k - 2 : 1;
    double x[6] = {k, k + 1, 0, 0, 0, 0};
    for (int i = 2, j = 0; i < 6; j++)
        if (first + j != k && first + j != k + 1)
            x[i++] = first + j;
    double yf[6], yt[6];
    for (int i = 0; i < 6; i++) {
        Figures f;
        char *why = NULL;
        if (!try_at(ev, s, dim, x[i], &f, &why)) {
            free(why);
            return false;
        }
        yf[i] = f.decides[from], yt[i] = f.decides[to];
        c->alone = f.alone;
    }
    c->first = first, c->last = first + 5, c->from = from, c->to = to;
    return crossing_fit(x, yf, 6, &c->from_law) && crossing_fit(x, yt, 6, &c->to_law) &&
           crossing_root(&c->from_law, &c->to_law, k, k + 1, &c->at);
}

/* The crossings of the runs' bound changes that follow one law on both sides. */
static int crossings_of(Eval *ev, const Stmt *s, int dim, const ScanRun *runs, int n, ScanCrossing *out)
{
    int m = 0;
    for (int i = 0; i + 1 < n; i++)
        if (runs[i].bound != runs[i + 1].bound &&
            crossing_between(ev, s, dim, runs[i].to, runs[i].bound, runs[i + 1].bound, &out[m]))
            m++;
    return m;
}

/* ---- solve B: a == b --------------------------------------------------------------- */

/* A figure two statements can be compared on: `solve B: a == b in t_comm`. */
typedef struct {
    const char *name;
    size_t offset; /* in Figures */
    Unit unit;
} FigureField;

static const FigureField figure_fields[] = {
    {"t_lower", offsetof(Figures, t_lower), UNIT_SECONDS},
    {"t_upper", offsetof(Figures, t_upper), UNIT_SECONDS},
    {"t_derated", offsetof(Figures, t_derated), UNIT_SECONDS},
    {"t_math", offsetof(Figures, t_math), UNIT_SECONDS},
    {"t_hbm", offsetof(Figures, t_hbm), UNIT_SECONDS},
    {"t_comm", offsetof(Figures, t_comm), UNIT_SECONDS},
    {"flops", offsetof(Figures, flops), UNIT_FLOPS},
    {"bytes", offsetof(Figures, bytes), UNIT_BYTES},
    {"comm_bytes", offsetof(Figures, comm_bytes), UNIT_BYTES},
    {"memory", offsetof(Figures, memory), UNIT_BYTES},
};
enum { FIGURE_FIELDS = sizeof figure_fields / sizeof figure_fields[0] };

static double figure_of(const Figures *f, const FigureField *field)
{
    return *(const double *)(const void *)((const char *)f + field->offset);
}

/* The figure `in NAME` names (t_lower when none); NULL after a located error. */
static const FigureField *figure_named(Eval *ev, NameRef ref)
{
    if (ref.name < 0)
        return &figure_fields[0];
    const char *name = eval_spelling(ev, ref.name);
    SpellNear near = spell_begin(name);
    for (int i = 0; i < FIGURE_FIELDS; i++) {
        if (strcmp(name, figure_fields[i].name) == 0)
            return &figure_fields[i];
        spell_offer(&near, figure_fields[i].name);
    }
    eval_fail(ev, ref.span, "solve compares no figure named %s", name);
    if (near.best)
        diag_note(ev->diag, "did you mean %s?", near.best);
    diag_note(ev->diag, "the figures: t_lower (without `in`) t_upper t_derated t_math t_hbm "
              "t_comm flops bytes comm_bytes memory");
    return NULL;
}

typedef struct {
    Stmt lhs;        /* the left side as a statement of its own */
    const Stmt *rhs;
    int dim;
    const FigureField *figure; /* what is compared */
} Equal;

/* Where the two costs meet: between `from` and from + 1, or, when exact, equal at every
 * whole number from..to (a tie is one answer, not a crossing on each side of it). */
typedef struct {
    double from, to;
    bool exact;
} Meet;

/* figure(a) − figure(b) at x (t_lower unless named), with the two figures. */
static bool gap_at(Eval *ev, const Equal *q, double x, Figures *a, Figures *b, double *gap)
{
    if (!cost_at(ev, &q->lhs, q->dim, x, a) || !cost_at(ev, q->rhs, q->dim, x, b))
        return false;
    *gap = figure_of(a, q->figure) - figure_of(b, q->figure);
    return true;
}

static int sign(double v)
{
    return (v > 0) - (v < 0);
}

static bool sign_at(Eval *ev, const Equal *q, double x, int *out)
{
    Figures a, b;
    double gap;
    if (!gap_at(ev, q, x, &a, &b, &gap))
        return false;
    *out = sign(gap);
    return true;
}

/* sign_at with errors kept out of the report (try_at). */
static bool try_sign_at(Eval *ev, const Equal *q, double x, int *out, char **why)
{
    DiagHold hold;
    if (!diag_hold(&hold))
        return eval_oom(ev, q->rhs->span);
    Diag *loud = hold_quiet(ev, &hold);
    return hold_end(ev, &hold, loud, sign_at(ev, q, x, out), why);
}

/* The last whole number in [lo, hi) where the gap has lo's sign. */
static bool bisect_gap(Eval *ev, const Equal *q, double lo, double hi, int side, double *last)
{
    while (hi - lo > 1) {
        double mid = floor(lo + (hi - lo) / 2);
        int at;
        if (!sign_at(ev, q, mid, &at))
            return false;
        if (at == side)
            lo = mid;
        else
            hi = mid;
    }
    *last = lo;
    return true;
}

/* Each side's figure at x, for the text's row (not known: it could not be costed). */
static ScanEqualRow equal_row(Eval *ev, const Equal *q, double x)
{
    Figures a, b;
    double gap;
    ScanEqualRow row = {x, 0, 0, gap_at(ev, q, x, &a, &b, &gap)};
    if (row.known) {
        row.left = figure_of(&a, q->figure);
        row.right = figure_of(&b, q->figure);
    }
    return row;
}

static bool report_equal(Eval *ev, const Stmt *s, const Equal *q, const Meet *meets, int n,
                         double top, int first_side, const char *why)
{
    ScanMeet rows[SCAN_MAX_CHANGES];
    for (int i = 0; i < n; i++) {
        const Meet *m = &meets[i];
        rows[i] = (ScanMeet){.from = m->from, .to = m->to, .exact = m->exact};
        if (ev->json) /* the JSON line gives where they meet, not the figures there */
            continue;
        rows[i].rows[0] = equal_row(ev, q, m->from);
        if (!m->exact || m->to != m->from)
            rows[i].rows[1] = equal_row(ev, q, m->exact ? m->to : m->from + 1);
    }
    ScanEqualRecord r = {
        .stmt = records_stmt(ev->src, s->span), .mode = ev->world->training,
        .dim = eval_spelling(ev, q->dim), .figure = q->figure->name, .unit = q->figure->unit,
        .top = top, .why = why, .first_side = first_side, .meets = rows, .n = n,
    };
    records_scan_equal(ev->out, &r, ev->json);
    return true;
}

/* The gap's sign went from `side` at x to `next` at 2x: where it changed, as a new meet
 * or (leaving a tie) the end of the last one. */
static bool meet_in(Eval *ev, const Equal *q, double x, int side, int next, Meet *meets, int *n)
{
    double last;
    if (!bisect_gap(ev, q, x, 2 * x, side, &last))
        return false;
    if (side == 0) { /* a tie since meets[n-1].from ends at last */
        meets[*n - 1].to = last;
        return true;
    }
    int after = next;
    if (last + 1 < 2 * x && !sign_at(ev, q, last + 1, &after))
        return false;
    meets[(*n)++] = after == 0 ? (Meet){last + 1, last + 1, true} : (Meet){last, last, false};
    return true;
}

static bool scan_equal(Eval *ev, const Stmt *s, int dim)
{
    if (s->as.expr.cmp != CMP_EQ)
        return eval_fail(ev, s->span, "solve compares two costs with ==: `solve B: a == b`");
    Equal q = {*s, s->as.expr.equal, dim, figure_named(ev, s->as.expr.figure)};
    if (!q.figure)
        return false;
    q.lhs.kind = STMT_EXPR;
    q.lhs.as.expr.equal = NULL;
    q.lhs.span = (Span){s->as.expr.value->span.begin, s->as.expr.value->span.end};
    Meet meets[SCAN_MAX_CHANGES];
    double x = 1;
    int n = 0, first, side;
    if (!sign_at(ev, &q, 1, &first))
        return false;
    side = first;
    if (first == 0)
        meets[n++] = (Meet){1, 1, true};
    char *why = NULL;
    for (int i = 0; i < SCAN_MAX_DOUBLINGS && !why; i++) {
        int next;
        if (!try_sign_at(ev, &q, 2 * x, &next, &why))
            break;
        if (next != side && side != 0 && n == SCAN_MAX_CHANGES)
            return eval_fail(ev, s->span, "the two costs cross more than %d times",
                             SCAN_MAX_CHANGES);
        if (next != side && !meet_in(ev, &q, x, side, next, meets, &n))
            return false;
        if (next == 0 && meets[n - 1].exact)
            meets[n - 1].to = 2 * x;
        side = next;
        x *= 2;
    }
    bool ok = report_equal(ev, s, &q, meets, n, x, first, why);
    free(why);
    return ok;
}

/* ---- solve n over a split: N chips as X = n, Y = N/n ------------------------------- */

/* `mesh X = n, Y = 64/n` keeps the statement on the same chips while n moves them from
 * one axis to another: only the n that divide the chips into whole axes exist, so each
 * is costed, none bisected. Beside the whole-number best split, the real one: the
 * book's X_opt = √((B/F)·(M_X/M_Y)·N) (ch. 5, mixed FSDP and tensor parallelism) is the
 * least of the collectives' times added up, T_FSDP + T_TP = a + b·n + c/n, at
 * n = √(c/b); with the axes' collectives at once (max) the two balance there too. */
enum { SPLIT_MAX_AXES = MESH_MAX_AXES };

typedef struct {
    double x;       /* n */
    Figures f;      /* as the statement is priced */
    double summed;  /* t_comm with the axes' collectives added up (`axes add`) */
    bool interior;  /* every axis n moves has 2 chips or more: each collective runs */
} SplitPoint;

typedef struct {
    double one[SPLIT_MAX_AXES]; /* the axes' sizes at n = 1 */
    bool moves[SPLIT_MAX_AXES]; /* the axes n changes */
    int naxes;
    double chips;
    SplitPoint *points;
    int n, best;    /* best: the least t_comm (then t_lower), the smaller n on a tie */
    Law law;        /* of `summed` through the interior points, when it holds at each */
    int ninterior;
    double first, last; /* the interior points' least and greatest n */
    bool fitted, has_least;
    double least;   /* √(c/b) */
} Split;

/* The sizes of the statement's own mesh with the dim at x, as numbers (not checked
 * whole). False when it has none or a size is not a number. */
static bool mesh_sizes_at(Eval *ev, const Stmt *s, int dim, double x, double *sizes)
{
    const Clauses *c = &s->as.expr.clauses;
    if (!c->mesh || c->nmesh > SPLIT_MAX_AXES)
        return false;
    DiagHold hold;
    if (!diag_hold(&hold))
        return false;
    Diag *loud = hold_quiet(ev, &hold);
    ev->world->values[dim] = (BoundValue){.kind = VAL_NUMBER, .number = x};
    bool ok = true;
    for (int i = 0; ok && i < c->nmesh; i++)
        ok = eval_number(ev, c->mesh[i].size, &sizes[i]);
    ev->world->values[dim] = (BoundValue){.kind = VAL_UNBOUND};
    char *why = NULL;
    hold_end(ev, &hold, loud, ok, &why);
    free(why);
    return ok;
}

static double product(const double *v, int n)
{
    double p = 1;
    for (int i = 0; i < n; i++)
        p *= v[i];
    return p;
}

/* A split: the statement's mesh has as many chips at n = 1 as at n = 2, a whole number,
 * while some axis changes. */
static bool split_of(Eval *ev, const Stmt *s, int dim, Split *sp)
{
    double two[SPLIT_MAX_AXES];
    if (!mesh_sizes_at(ev, s, dim, 1, sp->one) || !mesh_sizes_at(ev, s, dim, 2, two))
        return false;
    sp->naxes = s->as.expr.clauses.nmesh;
    bool moves = false;
    for (int i = 0; i < sp->naxes; i++)
        moves |= sp->moves[i] = sp->one[i] != two[i];
    sp->chips = product(sp->one, sp->naxes);
    return moves && sp->chips == product(two, sp->naxes) && sp->chips >= 2 &&
           sp->chips <= LIMIT_MESH_CHIPS && sp->chips == floor(sp->chips);
}

/* Whether every axis is whole at x; *interior when each axis n moves has 2 chips or
 * more (on one chip an axis' collectives vanish, and their law with them). */
static bool split_whole_at(Eval *ev, const Stmt *s, int dim, const Split *sp, double x,
                           bool *interior)
{
    double at[SPLIT_MAX_AXES];
    if (!mesh_sizes_at(ev, s, dim, x, at))
        return false;
    *interior = true;
    for (int i = 0; i < sp->naxes; i++) {
        if (at[i] < 1 || at[i] != floor(at[i]))
            return false;
        if (sp->moves[i] && at[i] < 2)
            *interior = false;
    }
    return true;
}

/* Costs the split at x as priced, and with the axes' collectives added up. */
static bool split_point(Eval *ev, const Stmt *s, int dim, SplitPoint *p, char **why)
{
    if (!try_at(ev, s, dim, p->x, &p->f, why))
        return false;
    p->summed = p->f.t_comm;
    if (!p->interior || ev->world->axes_add)
        return true;
    Figures g;
    ev->world->axes_add = true;
    bool ok = try_at(ev, s, dim, p->x, &g, why);
    ev->world->axes_add = false;
    p->summed = g.t_comm;
    return ok;
}

/* Every n that splits the chips into whole axes, costed; those that cannot be (a mesh
 * the pod does not hold) left out. */
static bool split_points(Eval *ev, const Stmt *s, int dim, Split *sp, char **why)
{
    sp->points = NULL, sp->n = 0;
    for (double x = 1; x <= sp->chips; x++) {
        SplitPoint p = {.x = x};
        if (fmod(sp->chips, x) != 0 || !split_whole_at(ev, s, dim, sp, x, &p.interior))
            continue;
        char *no = NULL;
        if (!split_point(ev, s, dim, &p, &no)) {
            if (!*why)
                *why = no;
            else
                free(no);
            continue;
        }
        SplitPoint *grown = realloc(sp->points, (size_t)(sp->n + 1) * sizeof *grown);
        if (!grown)
            return eval_oom(ev, s->span);
        sp->points = grown;
        sp->points[sp->n++] = p;
    }
    return true;
}

static int split_best(const Split *sp)
{
    int best = 0;
    for (int i = 1; i < sp->n; i++) {
        const Figures *f = &sp->points[i].f, *b = &sp->points[best].f;
        if (f->t_comm < b->t_comm || (f->t_comm == b->t_comm && f->t_lower < b->t_lower))
            best = i;
    }
    return best;
}

/* The law of the summed collectives through the three interior points nearest the
 * best split, checked at the next three (as a crossing is: the law must hold where it
 * is claimed; a change of topology or a padded shard further off breaks it there);
 * then its least, √(c/b), when it falls among them. */
static void split_fit(Split *sp)
{
    double x[6], y[6];
    int idx[SCAN_MAX_SPLITS], m = 0, near = 0;
    for (int i = 0; i < sp->n && m < SCAN_MAX_SPLITS; i++)
        if (sp->points[i].interior) {
            if (i <= sp->best)
                near = m;
            idx[m++] = i;
        }
    int size = m < 6 ? m : 6;
    sp->ninterior = size;
    sp->fitted = sp->has_least = false;
    if (size < 4) /* three to fit, one at least to check */
        return;
    int w0 = near - 2 < 0 ? 0 : near - 2 > m - size ? m - size : near - 2;
    int lo = near - 1 < w0 ? w0 : near - 1 > w0 + size - 3 ? w0 + size - 3 : near - 1;
    sp->first = sp->points[idx[w0]].x, sp->last = sp->points[idx[w0 + size - 1]].x;
    for (int k = w0, j = 3; k < w0 + size; k++) { /* the three first, then the others */
        int slot = k >= lo && k < lo + 3 ? k - lo : j++;
        x[slot] = sp->points[idx[k]].x, y[slot] = sp->points[idx[k]].summed;
    }
    sp->fitted = crossing_fit(x, y, size, &sp->law);
    if (sp->fitted && sp->law.b > 0 && sp->law.c > 0) {
        sp->least = sqrt(sp->law.c / sp->law.b);
        sp->has_least = sp->least >= sp->first && sp->least <= sp->last;
    }
}

/* Consecutive points with one bound and one fit, as runs. */
static int split_runs(const Split *sp, ScanRun *runs)
{
    int n = 0;
    for (int i = 0; i < sp->n; i++) {
        const Figures *f = &sp->points[i].f;
        if (n && in_run(f, &runs[n - 1]))
            runs[n - 1].to = sp->points[i].x;
        else if (n < SCAN_MAX_CHANGES)
            runs[n++] = (ScanRun){sp->points[i].x, sp->points[i].x, f->bound, fits_of(f)};
        else
            return -1;
    }
    return n;
}

/* "n = 2, 4, 8, 16, 32, 64", the first and last few when there are many. */
/* The record's head: the statement, the dim, and the runs (of the bound and the fit). */
static ScanSolveRecord solve_record(Eval *ev, const Stmt *s, int dim, const ScanRun *runs,
                                    int n, double hbm)
{
    return (ScanSolveRecord){
        .stmt = records_stmt(ev->src, s->span), .mode = ev->world->training,
        .dim = eval_spelling(ev, dim), .runs = runs, .nruns = n, .hbm = hbm,
    };
}

static bool report_split(Eval *ev, const Stmt *s, int dim, const Split *sp, const ScanRun *runs,
                         int nruns)
{
    ScanSplitPoint *points = malloc((size_t)sp->n * sizeof *points);
    if (!points)
        return eval_oom(ev, s->span);
    for (int i = 0; i < sp->n; i++) {
        const SplitPoint *p = &sp->points[i];
        points[i] = (ScanSplitPoint){p->x, p->f.t_comm, p->summed, p->f.t_lower, p->f.bound};
    }
    ScanSplitRecord r = {
        .solve = solve_record(ev, s, dim, runs, nruns, sp->points[sp->best].f.hbm),
        .chips = sp->chips, .points = points, .n = sp->n, .best = sp->best,
        .ninterior = sp->ninterior, .fitted = sp->fitted, .first = sp->first, .last = sp->last,
        .law = sp->law, .has_least = sp->has_least, .least = sp->least,
    };
    records_scan_split(ev->out, &r, ev->json);
    free(points);
    return true;
}

static bool solve_split(Eval *ev, const Stmt *s, int dim, Split *sp)
{
    char *why = NULL;
    if (!split_points(ev, s, dim, sp, &why)) {
        free(why);
        free(sp->points);
        return false;
    }
    bool ok = sp->n > 0 || eval_fail(ev, s->span, "no split of the mesh's %.0f chips can be "
                                     "costed%s%s", sp->chips, why ? ": " : "", why ? why : "");
    free(why);
    ScanRun runs[SCAN_MAX_CHANGES];
    int nruns = ok ? split_runs(sp, runs) : 0;
    if (ok && nruns < 0)
        ok = eval_fail(ev, s->span, "the bound or the fit changes more than %d times",
                       SCAN_MAX_CHANGES);
    if (ok) {
        sp->best = split_best(sp);
        split_fit(sp);
        ok = report_split(ev, s, dim, sp, runs, nruns);
    }
    free(sp->points);
    return ok;
}

bool scan_solve(Eval *ev, const Stmt *s, int dim)
{
    if (dim < 0)
        return eval_fail(ev, s->span, "solve over a block call names its dim: `solve B: ...`");
    if (s->as.expr.equal)
        return scan_equal(ev, s, dim);
    Split split;
    if (split_of(ev, s, dim, &split))
        return solve_split(ev, s, dim, &split);
    ScanRun runs[SCAN_MAX_CHANGES];
    int n = 0;
    char *why = NULL;
    Figures f;
    if (!cost_at(ev, s, dim, 1, &f))
        return false;
    runs[n++] = (ScanRun){1, 1, f.bound, fits_of(&f)};
    double x = 1;
    bool ok = true;
    for (int i = 0; ok && i < SCAN_MAX_DOUBLINGS && !why; i++) {
        Figures g;
        if (!try_at(ev, s, dim, 2 * x, &g, &why))
            break;
        ok = runs_to(ev, s, dim, x, 2 * x, &g, runs, &n);
        x *= 2;
    }
    ScanCrossing crossings[SCAN_MAX_CHANGES];
    int m = ok ? crossings_of(ev, s, dim, runs, n, crossings) : 0;
    if (ok) {
        ScanSolveRecord r = solve_record(ev, s, dim, runs, n, f.hbm);
        r.top = x, r.why = why, r.crossings = crossings, r.ncrossings = m;
        records_scan_solve(ev->out, &r, ev->json);
    }
    free(why);
    return ok;
}
