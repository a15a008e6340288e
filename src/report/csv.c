/* csv.c — --csv: the JSON records of a run, read back (json.c) and written as rows of
 * one table under a fixed header, as csv.h describes. */
#include "csv.h"

#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "nomem.h"
#include "num.h"
#include "utf8.h"

const char *const csv_columns[] = {
    "kind", "line", "stmt", "path", "depth", "chip", "chips", "dim", "at", "dtype",
    "shape", "mesh", "strategy",
    /* the cost of a statement, a block or an operation */
    "flops", "bytes", "bytes_read", "bytes_written", "intensity", "ridge", "unit",
    "padding_flops", "t_math", "t_hbm", "t_comm", "comm_bytes", "collective", "hops",
    "latency_bound", "latency_unset", "microbatches", "stages", "in_flight", "runs", "t_lower", "t_upper", "t_derated", "bound",
    "attained",
    /* memory per chip */
    "params", "memory", "memory_params", "memory_gradients", "memory_master",
    "memory_optimizer", "memory_activations", "memory_working_set", "memory_cache", "hbm",
    /* search */
    "t_step", "mfu", "fits", "oversplit", "pareto", "rank",
    /* solve and fit */
    "solve", "from", "to", "limit_intensity", "equal", "equal_to", "exact", "fit", "largest",
    /* serve */
    "mix", "prompt", "output", "context", "kv_per_seq", "batch", "ttft", "tpot",
    "tpot_context", "tpot_first", "tpot_last", "decode_tokens_per_s", "tokens_per_s",
    "price", "usd_per_mtok", "usd_per_mtok_decode", "k", "accept", "tokens_per_round",
    "t_draft", "t_verify", "ttft_bound", "tpot_bound",
    /* send */
    "network", "links", "bandwidth", "t_latency",
    /* chips */
    "field", "value", "meaning", "source", "in_use", "notes", "formula",
    /* a statement's figures as formulas of its unbound dims */
    "formula_flops", "formula_bytes", "formula_bytes_read", "formula_bytes_written",
    "formula_intensity", "formula_t_math", "formula_t_hbm", "formula_t_comm",
    "formula_comm_bytes", "formula_t_lower", "formula_t_upper", "formula_bound",
    /* after the rest, so that no column before them moves: each link's time, as JSON
     * text; a whole-model statement's summary (mfu and tokens_per_s are above) */
    "t_comm_links",
    /* on a calibrated chip (predict.h), after the columns before them */
    "t_predicted", "kernels", "kernels_derated", "derated_why",
    "tokens", "model_flops", "tokens_per_s_all", "run_tokens", "run_steps", "run_time",
    "chip_hours", "run_usd",
    /* and after those, a solve's real-valued crossings (JSON text), the figure a solve's
     * == compares, and the shard of a sharded result one chip holds */
    "crossings", "figure", "local_shape",
    /* what a statement was costed as (the dims as JSON text), and its one link */
    "mode", "remat", "dims", "link_bw",
    /* serve's pool (the book's ch. 8) */
    "finishing", "evicted_tokens", "evicted_bytes", "qps", "qps_prefill", "prefill_ratio",
    /* a lone collective's bandwidth time in the book's form and exactly */
    "t_comm_book", "t_comm_exact",
    /* a solve over a split (N chips as X = n, Y = N/n): the best whole n, the continuous
     * optimum and each split's times (JSON text) */
    "best", "optimum", "splits",
    /* a search's plan in training (JSON text) and the statement that costs a row alone */
    "plan", "reproduce",
    /* the source a record's line is in; a fit's memory at largest + 1; a solve's ridge
     * and intensity against the network (its HBM ones are the columns above) */
    "file", "next_memory", "net_ridge", "net_intensity", "formula_net_intensity",
    NULL,
};

void csv_field(FILE *out, const char *text)
{
    fputc('"', out);
    for (const unsigned char *c = (const unsigned char *)text; *c;) {
        int len = utf8_length(c, 4); /* a NUL ends a cut sequence before 4 bytes */
        if (len == 0)
            fputs(UTF8_REPLACEMENT, out);
        else
            fwrite(c, 1, (size_t)len, out);
        if (*c == '"')
            fputc('"', out);
        c += len ? len : 1;
    }
    fputc('"', out);
}

enum { CSV_MAX_COLUMNS = 192 };
/* a row holds every column (129 columns overran 128 slots: a crash in --csv) */
_Static_assert(sizeof csv_columns / sizeof *csv_columns - 1 <= CSV_MAX_COLUMNS,
               "CSV_MAX_COLUMNS must hold every column");

/* One row: each column's value, a JSON value or a text of the row's own. */
typedef struct {
    const Json *json[CSV_MAX_COLUMNS];
    const char *text[CSV_MAX_COLUMNS];
} Row;

typedef struct {
    CsvStream *c;
    FILE *err;
    Arena *arena;
    bool ok;
} Convert;

/* ---- Columns ----------------------------------------------------------------------- */

static int ncolumns(void)
{
    static int n = -1;
    if (n < 0)
        for (n = 0; csv_columns[n];)
            n++;
    return n;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(csv_columns[*(const int *)a], csv_columns[*(const int *)b]);
}

/* The column of a name, by binary search over the columns sorted once; -1 when none. */
static int column(const char *name)
{
    static int sorted[CSV_MAX_COLUMNS], n;
    if (!n) {
        for (int i = 0; i < ncolumns(); i++)
            sorted[i] = i;
        qsort(sorted, (size_t)ncolumns(), sizeof *sorted, by_name);
        n = ncolumns();
    }
    int lo = 0, hi = n - 1;
    while (lo <= hi) {
        int mid = (lo + hi) / 2, cmp = strcmp(name, csv_columns[sorted[mid]]);
        if (cmp == 0)
            return sorted[mid];
        if (cmp < 0)
            hi = mid - 1;
        else
            lo = mid + 1;
    }
    return -1;
}

/* Puts a record's member into the row; a key without a column is a fault of ours: the
 * tests run every example through --csv and look for this message. */
static void put(Convert *cv, Row *row, const char *key, const Json *value)
{
    int col = column(key);
    if (col >= 0) {
        row->json[col] = value;
        return;
    }
    fprintf(cv->err, "roofline: internal error: --csv has no column for \"%s\"\n", key);
    cv->ok = false;
}

static void put_text(Row *row, const char *key, const char *text)
{
    int col = column(key);
    if (col >= 0)
        row->text[col] = text;
}

/* ---- Writing ----------------------------------------------------------------------- */

static void json_text(FILE *out, const Json *v);

static void json_members(FILE *out, const Json *v)
{
    bool object = v->kind == JSON_OBJECT;
    fputc(object ? '{' : '[', out);
    for (int i = 0; i < v->n; i++) {
        if (i)
            fputc(',', out);
        if (object) {
            json_write_string(out, v->keys[i], strlen(v->keys[i]));
            fputc(':', out);
        }
        json_text(out, &v->items[i]);
    }
    fputc(object ? '}' : ']', out);
}

/* A value as the JSON text --json wrote for it. */
static void json_text(FILE *out, const Json *v)
{
    char buf[64];
    switch (v->kind) {
    case JSON_NULL: fputs("null", out); break;
    case JSON_BOOL: fputs(v->truth ? "true" : "false", out); break;
    case JSON_NUMBER: fputs(num_format_json(v->number, buf, sizeof buf), out); break;
    case JSON_STRING: json_write_string(out, v->string, strlen(v->string)); break;
    default: json_members(out, v); break;
    }
}

/* A list or an object as one field: its JSON text, quoted. */
static void field_of_json(FILE *out, const Json *v)
{
    char *text = NULL;
    size_t len = 0;
    FILE *buf = nomem_note(open_memstream(&text, &len));
    if (buf) {
        json_text(buf, v);
        fclose(buf);
    }
    csv_field(out, text ? text : "");
    free(text);
}

static void field(FILE *out, const Json *v)
{
    char buf[64];
    switch (v->kind) {
    case JSON_NULL: break;
    case JSON_BOOL: fputs(v->truth ? "true" : "false", out); break;
    case JSON_NUMBER: fputs(num_format_json(v->number, buf, sizeof buf), out); break;
    case JSON_STRING: csv_field(out, v->string); break;
    default: field_of_json(out, v); break;
    }
}

static void write_header(CsvStream *c)
{
    for (int i = 0; csv_columns[i]; i++)
        fprintf(c->out, "%s%s", i ? "," : "", csv_columns[i]);
    fputc('\n', c->out);
    c->header = true;
}

static void write_row(Convert *cv, const char *kind, Row *row)
{
    if (!cv->c->header)
        write_header(cv->c);
    put_text(row, "kind", kind);
    FILE *out = cv->c->out;
    for (int i = 0; i < ncolumns(); i++) {
        if (i)
            fputc(',', out);
        if (row->text[i])
            csv_field(out, row->text[i]);
        else if (row->json[i])
            field(out, row->json[i]);
    }
    fputc('\n', out);
}

/* ---- Records to rows --------------------------------------------------------------- */

/* The members of a record into the row, but for the named ones (handled apart). */
static void put_members(Convert *cv, Row *row, const Json *record, const char *const *skip)
{
    for (int i = 0; i < record->n; i++) {
        bool skipped = false;
        for (int k = 0; skip && skip[k]; k++)
            skipped |= strcmp(record->keys[i], skip[k]) == 0;
        if (!skipped)
            put(cv, row, record->keys[i], &record->items[i]);
    }
}

/* "formula": {"flops": "...", ...} as the formula_* columns. */
static void put_formulas(Convert *cv, Row *row, const Json *formula)
{
    for (int i = 0; formula && formula->kind == JSON_OBJECT && i < formula->n; i++) {
        char key[64];
        snprintf(key, sizeof key, "formula_%s", formula->keys[i]);
        put(cv, row, key, &formula->items[i]);
    }
}

/* A sweep's "at": {"B": 64} as dim = B, at = 64. */
static void put_at(Row *row, const Json *at)
{
    if (!at || at->kind != JSON_OBJECT || at->n < 1)
        return;
    put_text(row, "dim", at->keys[0]);
    row->json[column("at")] = &at->items[0];
}

static const char *join_path(Convert *cv, const char *parent, const char *name)
{
    size_t a = parent ? strlen(parent) : 0, b = strlen(name);
    char *path = nomem_note(arena_alloc(cv->arena, a + b + 2));
    if (!path)
        return name; /* the statement fails: out of memory */
    if (parent)
        memcpy(path, parent, a);
    if (parent)
        path[a++] = '/';
    memcpy(path + a, name, b + 1);
    return path;
}

/* The operations of a breakdown, depth first: each an `op` row under the statement's
 * stmt and line, named by its path. */
static void write_ops(Convert *cv, const Json *top, const Json *ops, const char *parent,
                      int depth)
{
    static const char *const skip[] = {"stmt", "ops", NULL};
    for (int i = 0; ops && ops->kind == JSON_ARRAY && i < ops->n; i++) {
        const Json *op = &ops->items[i];
        const char *name = json_string(op, "stmt");
        const char *path = join_path(cv, parent, name ? name : "?");
        char level[16];
        snprintf(level, sizeof level, "%d", depth);
        Row row = {0};
        put_members(cv, &row, op, skip);
        put(cv, &row, "stmt", json_get(top, "stmt"));
        put(cv, &row, "line", json_get(top, "line"));
        put(cv, &row, "file", json_get(top, "file"));
        put(cv, &row, "chip", json_get(top, "chip"));
        put_text(&row, "path", path);
        put_text(&row, "depth", level);
        write_row(cv, "op", &row);
        write_ops(cv, top, json_get(op, "ops"), path, depth + 1);
    }
}

/* A solve: one row per range it found (or one row when it found none). */
static void write_solve(Convert *cv, const Json *r)
{
    static const char *const skip[] = {"segments", "formula", NULL};
    const Json *segments = json_get(r, "segments");
    int n = segments && segments->kind == JSON_ARRAY ? segments->n : 0;
    for (int i = 0; i < (n ? n : 1); i++) {
        Row row = {0};
        put_members(cv, &row, r, skip);
        if (n)
            put_members(cv, &row, &segments->items[i], NULL);
        put_formulas(cv, &row, json_get(r, "formula"));
        write_row(cv, "solve", &row);
    }
}

/* A chip: `chip NAME`'s card ({"fields": {...}, "derived": {...}}) or a --chips record
 * (its fields as members): one row per field. */
static void write_chip_field(Convert *cv, const Json *name, const char *field,
                             const Json *value)
{
    Row row = {0};
    put(cv, &row, "chip", name);
    put_text(&row, "field", field);
    if (value->kind == JSON_OBJECT)
        put_members(cv, &row, value, NULL);
    else
        put(cv, &row, "value", value);
    write_row(cv, "chip", &row);
}

static void write_chip(Convert *cv, const Json *r)
{
    const Json *name = json_get(r, "chip");
    const Json *fields = json_get(r, "fields"), *derived = json_get(r, "derived");
    if (fields || derived) {
        for (int i = 0; fields && i < fields->n; i++)
            write_chip_field(cv, name, fields->keys[i], &fields->items[i]);
        for (int i = 0; derived && i < derived->n; i++)
            write_chip_field(cv, name, derived->keys[i], &derived->items[i]);
        return;
    }
    for (int i = 0; i < r->n; i++)
        if (strcmp(r->keys[i], "chip") != 0)
            write_chip_field(cv, name, r->keys[i], &r->items[i]);
}

/* What a record is, from the members only its kind has. */
static const char *kind_of(const Json *r)
{
    static const struct { const char *key, *kind; } marks[] = {
        {"at", "sweep"}, {"rank", "search"}, {"solve", "solve"}, {"fit", "fit"},
        {"mix", "serve"}, {"network", "send"}, {"ops", "block"}, {"stmt", "statement"},
    };
    for (size_t i = 0; i < sizeof marks / sizeof marks[0]; i++)
        if (json_get(r, marks[i].key))
            return marks[i].kind;
    return json_get(r, "chip") ? "chip" : NULL;
}

static void write_record(Convert *cv, const Json *r)
{
    static const char *const skip[] = {"at", "formula", "ops", NULL};
    const char *kind = kind_of(r);
    if (!kind) {
        fputs("roofline: internal error: --csv met a record of no known kind\n", cv->err);
        cv->ok = false;
    } else if (strcmp(kind, "solve") == 0) {
        write_solve(cv, r);
    } else if (strcmp(kind, "chip") == 0) {
        write_chip(cv, r);
    } else {
        Row row = {0};
        put_members(cv, &row, r, skip);
        put_at(&row, json_get(r, "at"));
        put_formulas(cv, &row, json_get(r, "formula"));
        write_row(cv, kind, &row);
        write_ops(cv, r, json_get(r, "ops"), NULL, 1);
    }
}

/* ---- The stream -------------------------------------------------------------------- */

FILE *csv_begin(CsvStream *c, FILE *out)
{
    *c = (CsvStream){.out = out};
    c->records = open_memstream(&c->text, &c->len);
    return c->records;
}

bool csv_flush(CsvStream *c, FILE *err)
{
    bool enough = !nomem_failed();
    if (!c->records || fflush(c->records) != 0)
        return false;
    Convert cv = {.c = c, .err = err, .ok = true};
    for (size_t at = 0; at < c->len;) {
        const char *line = c->text + at, *end = memchr(line, '\n', c->len - at);
        size_t len = end ? (size_t)(end - line) : c->len - at;
        Arena arena = {0};
        const char *why = NULL;
        const Json *r = json_parse(line, len, &arena, &why);
        cv.arena = &arena;
        if (r)
            write_record(&cv, r);
        else if (arena.oom)
            nomem_note(NULL); /* the session says "out of memory" at the statement */
        else
            fprintf(err, "roofline: internal error: --csv cannot read a record: %s\n", why);
        cv.ok &= r != NULL;
        arena_free(&arena);
        at += len + 1;
    }
    rewind(c->records);
    c->len = 0;
    /* memory that ran out while converting (a path, a list's text) fails the statement */
    return cv.ok && !ferror(c->out) && !(enough && nomem_failed());
}

void csv_end(CsvStream *c)
{
    if (c->records)
        fclose(c->records);
    free(c->text);
    *c = (CsvStream){0};
}
