/* records.h — the records of the explore statements (solve, a sweep's points and
 * tables, fit, send, serve, search), built by the statement and written here, as text
 * or as JSON (which session.c turns into CSV rows), so that each record has one writer.
 *
 * Ownership: a record borrows every string it points to for the call that writes it.
 */
#ifndef ROOFLINE_RECORDS_H
#define ROOFLINE_RECORDS_H

#include <stdbool.h>
#include <stdio.h>

#include "chip.h"
#include "cost.h"
#include "crossing.h"
#include "num.h"
#include "roof.h"
#include "source.h"

/* What every record says of its statement: its text, and where it stands. */
typedef struct {
    const char *text; /* not NUL-terminated: len bytes */
    size_t len;
    int line;
    const char *file;
} RecordStmt;

/* The statement at span of src, as a record holds it. */
RecordStmt records_stmt(const Source *src, Span span);
/* A record's JSON line begins: {"stmt":TEXT,"line":N,"file":NAME (no closing brace). */
void records_json_head(FILE *out, const RecordStmt *s);

/* What a point of a sweep holds: either as a statement's roofline (`roof`: chips,
 * intensity, ridge and attained, as `plot`'s points) or as a block call's memory
 * (`memory`: memory, hbm and fits). */
typedef struct {
    const char *stmt;  /* the curve's label, or its statement's text */
    const char *dim;   /* the swept name */
    const char *at;      /* its value here as JSON text (256) */
    const char *at_chip; /* or, in a sweep over chips, the chip's name (then at is NULL) */
    int line;
    const char *file;
    const char *chip;  /* NULL: the point has no chip, and no "chip" key */
    CostMode mode;
    bool roof, memory;
    double chips, flops, bytes, intensity, ridge;
    double t_math, t_hbm, t_comm, comm_bytes, t_lower, t_upper, t_derated;
    Bound bound;
    double attained;
    double memory_bytes, hbm; /* hbm 0: the chip gives no capacity */
    int fits;                 /* -1: unknown (no capacity) */
} SweepPoint;

/* One point as a JSON line. */
void records_sweep_point(FILE *out, const SweepPoint *p);

/* A sweep's table of a compiled statement: its header (label, then the step's tag of
 * mode and microbatches; comm: a t_comm column), and a row per value x of the dim. */
void records_sweep_header(FILE *out, const char *label, CostMode mode, double microbatches,
                          const char *dim, bool comm);
void records_sweep_row(FILE *out, double x, const RoofPoint *p, bool comm);

/* A sweep's table of a statement costed whole at each value (a block call): its header,
 * and a row per point (x, or at_chip in a sweep over chips) with its memory. */
void records_scan_header(FILE *out, const char *label, CostMode mode, const char *dim);
void records_scan_row(FILE *out, double x, const SweepPoint *p);

/* A fit: the largest value of the dim whose memory per chip fits the HBM. */
typedef struct {
    RecordStmt stmt;
    const char *dim;
    CostMode mode;
    double largest;
    double memory;      /* at largest */
    double hbm;
    double next_memory; /* at largest + 1: too much */
} FitRecord;

/* A fit's report: its row as text, or one JSON line. */
void records_fit(FILE *out, const FitRecord *r, bool json);

/* Bytes in four digits ("15.99 GB"), or in full when those read the same as `beside`
 * (the capacity), so "16 GB of 16 GB" does not hide which side of it they are. */
char *records_bytes_beside(double v, const char *beside, char *buf, size_t size);

/* A send's figures: what moves, the path it takes, its time (transfer.c derives each). */
typedef struct {
    double bytes;     /* what moves, all of it */
    double whole;     /* the tensor's bytes, when a chip sends only its shard of them */
    double share;     /* of it that crosses the links: (N − 1)/N for a gather, else 1 */
    double hops;
    double links;
    double bandwidth; /* of one link */
    double latency;   /* of one hop */
    double t;
    const char *network;
    char path[160];   /* "(0, 0) → (0, 1)", as the text report reads it */
} Transfer;

/* A send: its figures, and where and how it was costed. */
typedef struct {
    RecordStmt stmt;
    const char *chip;
    CostMode mode;
    const Transfer *move;
} SendRecord;

/* A send's report: its rows as text, or one JSON line. */
void records_send(FILE *out, const SendRecord *r, bool json);

/* Where along a solved dim one bound holds: from < X < to (to = INFINITY: no end). */
typedef struct {
    double from;
    double to;
    Bound bound;
} SolveSegment;

/* The book's reading of the intensity as the other dims grow: "as D, F grow, the
 * intensity → 2·B: compute-bound when B > 120.12". */
typedef struct {
    const char *label;  /* "asymptote", "asymptote (HBM)" or "asymptote (network)" */
    const char *lead;   /* the intensity's leading terms, "2·B" (then " = B/8" valued) */
    const char *others; /* the dims that grow, "D, F"; "" when none */
    const char *dim;    /* the solved one */
    bool whatever_dim;  /* the lead holds other dims but not dim: it is the intensity */
    int sense;          /* compute-bound when cross_dim > at (1), < at (-1), always (2),
                           never (0); SOLVE_NO_VERDICT: no reading */
    const char *cross_dim;
    double at;
    double ridge;       /* a number's verdict against it: " (ridge R)"; NAN otherwise */
} SolveAsymptote;
enum { SOLVE_NO_VERDICT = 3 };

/* A solve of a compiled statement: the bound's segments along the dim, and the
 * intensity's formulas that decide them. */
typedef struct {
    RecordStmt stmt;
    CostMode mode;
    double microbatches;
    const char *dim;
    const char *chip;
    bool computes;       /* the statement has FLOPs: the ratios below mean something */
    const char *intensity;      /* its formula, as text */
    const char *intensity_now;  /* with the bound names put in (the same: shown once) */
    const char *intensity_json; /* as the JSON record's "formula" holds it */
    double intensity_value;     /* NAN while it depends on dim */
    double ridge;
    const char *compute;        /* the dtype the ridge is of */
    bool network;               /* the statement moves bytes over a link: net_ rows */
    const char *net_intensity;  /* with the bound names put in, as text */
    const char *net_pass;       /* which pass it is of (" (backward)"), or "" */
    const char *net_json;
    double net_intensity_value;
    double net_ridge;
    const SolveSegment *seg;
    int n;
    int plans;    /* more than one: each point the faster of the plans */
    double limit; /* the intensity as dim grows; NAN: none */
    const SolveAsymptote *asymptotes;
    int nasymptotes;
} SolveRecord;

/* A solve's report: its rows as text, or one JSON line. */
void records_solve(FILE *out, const SolveRecord *r, bool json);

/* One costing of a serve's call: its time and what a chip holds. */
typedef struct {
    double t_lower, memory, cache_bytes, params, param_bytes;
    Bound bound;
} ServeStep;

/* The serving pool a batch keeps busy (the book's ch. 8), per decode step and chip. */
typedef struct {
    double finishing;       /* sequences that finish a step: B / G */
    double evicted_tokens;  /* cache tokens freed a step: B·(P + G)/G */
    double evicted_bytes;   /* those tokens' KV bytes, on all the chips */
    double qps_decode, qps; /* queries/s per chip, decoding alone; with the prefills */
    double prefill_ratio;   /* prefill servers a generate server: TTFT · B / (TPOT · G) */
} ServePool;

/* A mix's figures (serve.c derives each). */
typedef struct {
    const Chip *chip;
    double chips, hbm, context, mid;
    double kv_per_seq;      /* one sequence's cache at the longest context, on all chips */
    double batch, next_memory;
    bool largest;           /* the batch is the largest that fits (no `batch = N`) */
    ServeStep at_batch;     /* the decode step at the batch and the longest context */
    ServeStep ttft, tpot, first, last;
    double per_round;       /* with a draft: tokens a round yields on average */
    ServeStep draft, verify; /* with a draft, at the TPOT's context: its step, the target's
                              * pass over k + 1 tokens */
    double decode_rate, rate, usd_decode, usd; /* tokens/s per chip; USD per 1M tokens */
    ServePool pool;
} Served;

/* A serve statement's report of one mix: the statement, the mix, its figures. */
typedef struct {
    RecordStmt stmt;
    int number, of;         /* the mix's place among the statement's `with`s */
    const char *batch_name; /* B */
    double prompt, output;
    bool draft;             /* speculative decoding: k and accept */
    double k, accept;
    const Served *served;
} ServeRecord;

/* A mix's report: its rows as text (the statement above the first), or one JSON line. */
void records_serve(FILE *out, const ServeRecord *r, bool json);

/* A solve over a statement costed whole at each value (scan.c): whole numbers
 * from..to of the dim with one bound, and each fitting the chip's HBM (fits 1) or each
 * not (0; -1: the chip gives no capacity). */
typedef struct {
    double from, to;
    Bound bound;
    int fits;
} ScanRun;

/* Where the bound changes between whole k and k + 1: the real value at which the two
 * times that decide it meet, each time's law a + b·n + c/n fitted through first .. last
 * (alone: one operation's t_math, t_hbm, t_comm; else a block's time bounded by each). */
typedef struct {
    double at, first, last;
    Bound from, to;
    Law from_law, to_law;
    bool alone;
} ScanCrossing;

typedef struct {
    RecordStmt stmt;
    CostMode mode;
    const char *dim;
    const ScanRun *runs;
    int nruns;
    double hbm;      /* the chip's capacity; 0: it gives none */
    double top;      /* the values costed: 1, 2, 4, ..., top */
    const char *why; /* why 2·top could not be costed; NULL: it was not tried */
    const ScanCrossing *crossings;
    int ncrossings;
} ScanSolveRecord;

/* The solve's report: its rows as text, or one JSON line. */
void records_scan_solve(FILE *out, const ScanSolveRecord *r, bool json);

/* A split of N chips into whole axes, X = n, Y = N/n: n and its figures. */
typedef struct {
    double x;
    double t_comm;
    double summed; /* t_comm with the axes' collectives added up */
    double t_lower;
    Bound bound;
} ScanSplitPoint;

/* A solve over the splits: the runs and the HBM (solve's, of the best split), each
 * split, the best, and the real optimum of the collectives' law when it holds. */
typedef struct {
    ScanSolveRecord solve; /* its top, why and crossings unused */
    double chips;
    const ScanSplitPoint *points;
    int n, best;
    int ninterior;      /* the splits with every axis in use: 4 are needed to fit the law */
    bool fitted;        /* the law holds at each of them */
    double first, last; /* their least and greatest n */
    Law law;
    bool has_least;
    double least;       /* √(c/b) */
} ScanSplitRecord;

void records_scan_split(FILE *out, const ScanSplitRecord *r, bool json);

/* `solve B: a == b`: the compared figure of each side at a whole number (known false:
 * it could not be costed again, and the row is left out). */
typedef struct {
    double x, left, right;
    bool known;
} ScanEqualRow;

/* Where the two sides meet: between from and from + 1, or, when exact, equal at every
 * whole number from..to; rows: at its first and (unless a tie at one number) its last. */
typedef struct {
    double from, to;
    bool exact;
    ScanEqualRow rows[2];
} ScanMeet;

typedef struct {
    RecordStmt stmt;
    CostMode mode;
    const char *dim;
    const char *figure; /* its name */
    Unit unit;
    double top;         /* the values costed: 1, 2, 4, ..., top */
    const char *why;    /* why 2·top could not be costed, or NULL */
    int first_side;     /* at 1, the left side is less (-1), more (1) or equal (0) */
    const ScanMeet *meets;
    int n;
} ScanEqualRecord;

void records_scan_equal(FILE *out, const ScanEqualRecord *r, bool json);

/* A search configuration's plan, as its row shows it (searchplan.c fills it). */
typedef struct {
    double microbatches;
    const char *remat;      /* the policy's name (the column) */
    const char *remat_text; /* as the plan clause spells it (JSON) */
    bool pipelined;         /* a pipeline's axes have chips: the column shows the schedule */
    bool gpipe;             /* else one_f_one_b */
    int zero;
} SearchPlanPick;

/* The plan's choices a search ranges over (training): each dim's values. */
typedef struct {
    const double *microbatches;
    int nmicrobatches;
    const char *const *remats; /* as the plan clause spells them */
    int nremats;
    const bool *gpipe;         /* each schedule: gpipe, else one_f_one_b */
    int nschedules;
    const int *zeros;
    int nzeros;
    double global_batch;       /* the sequences of a step; NAN: the call gives no batch */
} SearchPlanChoices;

/* A search's report opens: the statement, the tally of its configurations, the plan's
 * choices (training) and the column heads. */
typedef struct {
    RecordStmt stmt;
    bool training;
    bool derated;          /* the chip derates: t_step is derated */
    int configurations, fit, unfit;
    int dropped, uneven;   /* dropped before costing: by the memory bound, by the layers */
    int failed;
    const char *why;       /* the first failure's reason */
    int oversplit;
    const char *split;     /* the first dim split too finely: "K = 8 over 64 chips" */
    int twins;
    double hbm;            /* NAN: the chip gives no capacity */
    SearchPlanChoices plan; /* training */
} SearchHead;

/* The settings that re-cost a search's plan: "mode training microbatches 4; remat full; "
 * (then the optimizer with its ZeRO stage when the search ranges over it). */
typedef struct {
    bool overlap_step;      /* mode training overlap step */
    double microbatches;
    bool gpipe, axes_add, launch_graph, sends_overlap;
    double run_tokens;      /* 0: none given */
    const char *remat;      /* as the plan clause spells it */
    const char *optimizer;  /* its name; NULL: the search does not range over zero */
    const char *moments, *master, *gradients; /* their dtypes; NULL: the default */
    int zero;
} SearchSettings;

/* An argument of the reproduced call: "name = value" (name NULL: positional); value
 * NULL: the batch of one microbatch, as a number. */
typedef struct {
    const char *name;
    const char *value;      /* not NUL-terminated: len bytes */
    int len;
    double batch;
} SearchArg;

/* A searched parameter's axes as the call takes them: "tp = {X, Z}", "fsdp = Y". */
typedef struct {
    const char *name;
    const char *axes;       /* "X, Z" */
    bool braces;            /* not exactly one axis */
} SearchAxesArg;

/* The statement that costs one configuration alone. */
typedef struct {
    bool training;
    SearchSettings settings; /* training */
    const char *callee;
    const SearchArg *args;
    int nargs;
    const SearchAxesArg *axes;
    int naxes_args;
    const char *chip;
    const char *compute;     /* its dtype; NULL: none given */
    const int *sizes;        /* the mesh */
    int naxes;
} SearchReproduce;

/* One configuration of a search: its figures and the texts the search formats. */
typedef struct {
    RecordStmt stmt;        /* JSON */
    const char *chip;       /* JSON */
    bool training;          /* the plan's columns and JSON */
    SearchPlanPick plan;
    const int *sizes;       /* each mesh axis (X, Y, Z) */
    const unsigned char *owner; /* the searched parameter each axis goes to */
    int naxes;
    const char *const *params; /* the searched parameters' names */
    int nparams;
    const char *mesh;       /* "2x4" */
    const char *strategy;   /* "fsdp=X tp=Y" */
    const SearchReproduce *reproduce;
    int rank;               /* 0: not ranked */
    double chips, t_step, t_derated, mfu, flops, memory;
    double hbm;             /* NAN: the chip gives no capacity */
    bool fits, oversplit, pareto;
    Bound bound;
    const char *collective; /* the collective with the most time; NULL: none */
} SearchRow;

/* The search's opening rows (text only). */
void records_search_head(FILE *out, const SearchHead *h);
/* A configuration's rows as text (with its reproduce line), or one JSON line. */
void records_search_row(FILE *out, const SearchRow *r, bool json);
/* A section's title: "  the Pareto front: ...". */
void records_search_title(FILE *out, const char *title);
/* The report's end: how many ranked were not shown (0: none), then a blank line. */
void records_search_more(FILE *out, int more);
/* The report's last line: a blank one. */
void records_search_end(FILE *out);

/* A chart's line after its SVG file is written: "wrote PATH: title". */
void records_chart_written(FILE *out, const char *path, const char *title);

#endif
