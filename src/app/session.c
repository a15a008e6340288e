/* session.c — the one entry point: a buffer goes through parse, then eval, statement
 * by statement; `include` comes back here with the included file. */
#include "session.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "csv.h"
#include "embedded.h"
#include "eval.h"
#include "help.h"
#include "json.h"
#include "nomem.h"
#include "parse.h"
#include "prebuilt.h"

struct Session {
    SessionOptions opt;
    World world;
    Diag diag;
    RunStatus worst;                       /* of the runs nested in the current one */
    struct {
        char *real;       /* the file's real path, to find include cycles */
        const char *name; /* as it was named, for messages */
    } running[LIMIT_INCLUDE_DEPTH + 1];     /* the files being run, outermost first */
    int depth;
    struct Snapshot *snapshot; /* from session_snapshot, or NULL */
    CsvStream csv; /* --csv: the records, turned into rows statement by statement */
    bool loading_library; /* running the stdlib's files */
    bool unread;          /* the last run's text could not be read: out of memory */
};

static RunStatus run_source(Session *s, Source *src, bool interactive);
static void snapshot_free(struct Snapshot *snap);
static bool library_if_named(Session *s);

/* ---- include --------------------------------------------------------------------- */

static bool include_cycle(const Session *s, const char *real)
{
    for (int i = 0; i < s->depth; i++)
        if (s->running[i].real && strcmp(s->running[i].real, real) == 0)
            return true;
    return false;
}

/* Runs a loaded file, with its real path on the stack of files being run; takes the
 * source. */
static RunStatus run_pushed(Session *s, Source *src, bool interactive)
{
    s->running[s->depth].real = src->name[0] == '<' ? NULL : realpath(src->name, NULL);
    s->running[s->depth].name = src->name;
    s->depth++;
    RunStatus status = run_source(s, src, interactive);
    s->depth--;
    free(s->running[s->depth].real);
    return status;
}

static RunStatus run_file(Session *s, const Source *from, const char *path, Span span)
{
    const char *why = NULL;
    size_t len = 0;
    char *text = source_read_file(path, &len, &why);
    if (!text) {
        diag_error(&s->diag, from, span, "cannot include \"%s\": %s", path, why);
        return RUN_ERROR;
    }
    Source *src = source_new(path, text, len);
    free(text);
    if (!src) {
        diag_error(&s->diag, from, span, "out of memory");
        return RUN_ERROR;
    }
    RunStatus status = run_pushed(s, src, false);
    if (status != RUN_OK)
        diag_note(&s->diag, "in \"%s\", included from %s", path, from->name);
    return status;
}

static void cycle_error(Session *s, const Source *from, const char *path, Span span)
{
    diag_error(&s->diag, from, span, "cannot include \"%s\": it is already running (an "
               "include cycle)", path);
    char chain[1024];
    size_t used = 0;
    for (int i = 0; i < s->depth && used < sizeof chain; i++)
        used += (size_t)snprintf(chain + used, sizeof chain - used, "%s -> ",
                                 s->running[i].name);
    if (used < sizeof chain)
        snprintf(chain + used, sizeof chain - used, "%s", path);
    diag_note(&s->diag, "the chain: %s", chain);
}

static bool include_file(void *ctx, const Source *from, const char *path, Span span)
{
    Session *s = ctx;
    char *full = path[0] ? source_resolve(from, path) : NULL;
    char *real = full ? realpath(full, NULL) : NULL;
    RunStatus status = RUN_ERROR;
    if (!path[0])
        diag_error(&s->diag, from, span, "include needs a file name");
    else if (s->depth > LIMIT_INCLUDE_DEPTH)
        diag_error(&s->diag, from, span, "includes nested more than %d deep",
                   LIMIT_INCLUDE_DEPTH);
    else if (real && include_cycle(s, real))
        cycle_error(s, from, full, span);
    else if (full)
        status = run_file(s, from, full, span);
    else
        diag_error(&s->diag, from, span, "out of memory");
    if (status > s->worst)
        s->worst = status;
    free(full);
    free(real);
    return status == RUN_OK;
}

/* ---- help, names, chips ---------------------------------------------------------- */

/* Text for a person: the report, when it is text; with --json or --csv the records
 * stay readable and the text goes to the diagnostics' stream. */
static FILE *text_stream(const Session *s)
{
    return s->opt.json || s->opt.csv ? s->opt.err : s->opt.out;
}

/* `help WORD`: the word without the parentheses of help(WORD); an unknown one is an
 * error at the word, with the nearest topic. */
static bool run_help(Session *s, const Source *src, Span topic)
{
    int begin = topic.begin, end = topic.end;
    while (begin < end && strchr("( \t\r\n", src->text[begin]))
        begin++;
    while (end > begin && strchr(") \t\r\n", src->text[end - 1]))
        end--;
    char word[128], near[128];
    snprintf(word, sizeof word, "%.*s", end - begin < 127 ? end - begin : 127,
             src->text + begin);
    if (help_topic(&s->world, word, text_stream(s)))
        return true;
    diag_error(&s->diag, src, (Span){begin, end}, "no help on %s: `help` lists the topics, "
               "`names` the blocks and models", word);
    if (help_nearest(&s->world, word, near, sizeof near))
        diag_note(&s->diag, "did you mean %s?", near);
    return false;
}

static bool run_command(void *ctx, const Source *src, const Stmt *stmt)
{
    Session *s = ctx;
    if (stmt->as.command.word != COMMAND_CHIPS && !world_library(&s->world))
        return false; /* help and names tell of the stdlib's blocks and models */
    switch ((CommandWord)stmt->as.command.word) {
    case COMMAND_HELP:
        return run_help(s, src, stmt->as.command.topic);
    case COMMAND_NAMES:
        session_list_names(s, text_stream(s));
        return true;
    case COMMAND_CHIPS:
        session_list_chips(s, s->opt.out);
        return true;
    }
    return false;
}

/* ---- Running --------------------------------------------------------------------- */

static bool csv_rows(void *ctx)
{
    Session *s = ctx;
    return csv_flush(&s->csv, s->opt.err);
}

static RunStatus eval_all(Session *s, const Source *src, const AstList *stmts, bool *keep)
{
    Eval ev = {
        .keep = keep,
        .world = &s->world,
        .src = src,
        .diag = &s->diag,
        .exact = s->opt.exact,
        .json = s->opt.json || s->opt.csv,
        .out = s->opt.csv ? s->csv.records : s->opt.out,
        .include = include_file,
        .command = run_command,
        .include_ctx = s,
        .rows_written = s->opt.csv ? csv_rows : NULL,
        .rows_ctx = s,
        .block = -1,
        .stages = 1,
    };
    for (int i = 0; stmts && i < stmts->n; i++) {
        const Stmt *stmt = stmts->items[i];
        int errors = s->diag.errors;
        bool ok = stmt_run(&ev, stmt);
        /* a figure went missing on the way, or a failure went unsaid (nomem.h) */
        if (nomem_failed() && (ok || s->diag.errors == errors)) {
            eval_oom(&ev, stmt->span);
            return RUN_ERROR;
        }
        if (s->opt.csv && !csv_flush(&s->csv, s->opt.err)) {
            if (nomem_failed()) /* a record could not be read back */
                eval_oom(&ev, stmt->span);
            return RUN_ERROR;
        }
        if (!ok || session_output_failed(s))
            return RUN_ERROR;
    }
    return RUN_OK;
}

/* Parses and runs a source, which it takes: freed after, or kept with its tree when it
 * defines blocks, which outlive the run. */
static RunStatus run_source(Session *s, Source *src, bool interactive)
{
    Arena arena = {.limit = LIMIT_TREE_BYTES};
    ParseState st = {
        .src = src,
        .arena = &arena,
        .names = s->world.names,
        .diag = &s->diag,
        .interactive = interactive,
    };
    ParseResult parsed = parse_source(&st);
    RunStatus status = parsed == PARSE_INCOMPLETE ? RUN_INCOMPLETE : RUN_SYNTAX;
    if (parsed == PARSE_ERROR && arena.capped) {
        diag_plain(&s->diag, "%s is too large to run whole: its syntax tree passes %d MiB; "
                   "split it into files that include each other", src->name,
                   LIMIT_TREE_BYTES >> 20);
        status = RUN_ERROR;
    } else if (parsed == PARSE_ERROR && arena.oom) {
        diag_plain(&s->diag, "out of memory while reading %s", src->name);
        status = RUN_ERROR; /* not the input's fault: not a syntax error */
    }
    bool keep = false;
    if (parsed == PARSE_OK && s->opt.ast) {
        ast_dump(s->opt.out, st.stmts, s->world.names);
        status = RUN_OK;
    } else if (parsed == PARSE_OK && !library_if_named(s)) {
        status = RUN_ERROR;
    } else if (parsed == PARSE_OK && !world_keep_room(&s->world)) {
        diag_plain(&s->diag, "out of memory");
        status = RUN_ERROR;
    } else if (parsed == PARSE_OK) {
        status = eval_all(s, src, st.stmts, &keep);
        if (keep)
            world_keep(&s->world, src, &arena);
        else
            world_keep_unneeded(&s->world);
    }
    if (!keep) {
        arena_free(&arena);
        source_free(src);
    }
    return status;
}

RunStatus session_run(Session *s, const char *name, const char *text, size_t len,
                      bool interactive)
{
    if (len > LIMIT_SOURCE_BYTES) {
        diag_plain(&s->diag, "%s is larger than 64 MiB", name);
        return RUN_ERROR;
    }
    Source *src = source_new(name, text, len);
    s->unread = !src;
    if (!src) { /* interactive: the REPL says it, and ends (repl.c) */
        if (!interactive)
            diag_plain(&s->diag, "out of memory");
        return RUN_ERROR;
    }
    src->library = s->loading_library;
    s->diag.errors = 0;
    s->diag.capped = false;
    nomem_clear();
    s->worst = RUN_OK;
    RunStatus status = run_pushed(s, src, interactive);
    if (status != RUN_INCOMPLETE && s->worst > status)
        status = s->worst;
    return status;
}

/* ---- Snapshot: the world right after the stdlib, for the fuzz targets ----------- */

/* What session_reset needs to put the world back. The stdlib binds no values and sets
 * no remat paths (session_snapshot checks), so those go back to empty; chips and blocks
 * it defined are kept as copies, since a later input may replace them. */
typedef struct Snapshot {
    World base;        /* every plain field; its pointers are not used */
    int names;         /* interned then */
    Chip **chips;      /* copies of the chips then */
    BlockDef *blocks;  /* the blocks then, with copies of their params */
    int *block_of;     /* base.nblock_of of them */
} Snapshot;

static void snapshot_free(Snapshot *snap)
{
    if (!snap)
        return;
    for (int i = 0; snap->chips && i < snap->base.chips.n; i++)
        chip_free(snap->chips[i]);
    for (int i = 0; snap->blocks && i < snap->base.nblocks; i++)
        free(snap->blocks[i].params);
    free(snap->chips);
    free(snap->blocks);
    free(snap->block_of);
    free(snap);
}

static void *copy_of(const void *from, size_t size)
{
    void *to = malloc(size ? size : 1);
    if (to && size)
        memcpy(to, from, size);
    return to;
}

static ParamName *params_copy(const BlockDef *b)
{
    return copy_of(b->params, sizeof *b->params * (size_t)(b->def->as.block.nparams + 1));
}

static bool snapshot_take(Snapshot *snap, const World *w)
{
    snap->base = *w;
    snap->names = intern_count(w->names);
    snap->chips = calloc((size_t)w->chips.n + 1, sizeof *snap->chips);
    snap->blocks = calloc((size_t)w->nblocks + 1, sizeof *snap->blocks);
    snap->block_of = copy_of(w->block_of, sizeof *w->block_of * (size_t)w->nblock_of);
    if (!snap->chips || !snap->blocks || !snap->block_of)
        return false;
    for (int i = 0; i < w->chips.n; i++)
        if (!(snap->chips[i] = chip_new(w->chips.chips[i]->name, w->chips.chips[i])))
            return false;
    for (int i = 0; i < w->nblocks; i++) {
        snap->blocks[i] = w->blocks[i];
        if (!(snap->blocks[i].params = params_copy(&w->blocks[i])))
            return false;
    }
    return true;
}

bool session_snapshot(Session *s)
{
    if (!world_library(&s->world))
        return false;
    const World *w = &s->world;
    for (int i = 0; i < w->nvalues; i++)
        if (w->values[i].kind != VAL_UNBOUND || w->local_in[i])
            return false;
    if (w->remat.npaths || w->calling)
        return false;
    snapshot_free(s->snapshot);
    s->snapshot = calloc(1, sizeof *s->snapshot);
    if (s->snapshot && snapshot_take(s->snapshot, w))
        return true;
    snapshot_free(s->snapshot);
    s->snapshot = NULL;
    return false;
}

static bool chip_same(const Chip *a, const Chip *b)
{
    if (strcmp(a->name, b->name) != 0 || memcmp(a->set, b->set, sizeof a->set) != 0)
        return false;
    for (int f = 0; f < CHIP_FIELD_COUNT; f++)
        if ((a->set[f] && a->value[f] != b->value[f]) || !a->source[f] != !b->source[f] ||
            (a->source[f] && strcmp(a->source[f], b->source[f]) != 0))
            return false;
    return true;
}

/* The chips back to the snapshot's: those added since dropped, those replaced put back.
 * False if out of memory. */
static bool chips_reset(ChipTable *t, const Snapshot *snap)
{
    chip_table_truncate(t, snap->base.chips.n);
    bool any = t->replaced != snap->base.chips.replaced; /* most inputs replace none */
    for (int i = 0; any && i < t->n; i++) {
        const Chip *was = snap->chips[i];
        if (chip_same(t->chips[i], was))
            continue;
        Chip *c = chip_new(was->name, was);
        if (!c)
            return false;
        chip_free(t->chips[i]);
        t->chips[i] = c;
    }
    t->replaced = snap->base.chips.replaced;
    return true;
}

/* The blocks back to the snapshot's; a stdlib block an input redefined gets its
 * definition back (its tree is still kept). False if out of memory. */
static bool blocks_reset(World *w, const Snapshot *snap)
{
    for (int i = snap->base.nblocks; i < w->nblocks; i++)
        free(w->blocks[i].params);
    w->nblocks = snap->base.nblocks;
    for (int i = 0; i < w->nblocks; i++) {
        if (w->blocks[i].def == snap->blocks[i].def)
            continue;
        ParamName *params = params_copy(&snap->blocks[i]);
        if (!params)
            return false;
        free(w->blocks[i].params);
        w->blocks[i] = snap->blocks[i];
        w->blocks[i].params = params;
    }
    memcpy(w->block_of, snap->block_of, sizeof *w->block_of * (size_t)snap->base.nblock_of);
    memset(w->block_of + snap->base.nblock_of, 0,
           sizeof *w->block_of * (size_t)(w->nblock_of - snap->base.nblock_of));
    return true;
}

/* What runs defined, dropped: values, chart points, kept sources, remat paths. */
static void dynamic_reset(World *w, const Snapshot *snap)
{
    for (int i = 0; i < w->nvalues; i++)
        if (w->values[i].kind != VAL_UNBOUND)
            world_restore(w, i, (BoundValue){.kind = VAL_UNBOUND});
    if (w->nvalues)
        memset(w->local_in, 0, sizeof *w->local_in * (size_t)w->nvalues);
    for (int i = snap->base.nchart; i < w->nchart; i++)
        world_chart_point_free(&w->chart[i]);
    for (int i = snap->base.nkept; i < w->nkept; i++) {
        arena_free(&w->kept[i].arena);
        source_free(w->kept[i].src);
    }
    remat_free(&w->remat);
}

bool session_reset(Session *s, const SessionOptions *opt)
{
    const Snapshot *snap = s->snapshot;
    World *w = &s->world;
    dynamic_reset(w, snap);
    if (!chips_reset(&w->chips, snap) || !blocks_reset(w, snap))
        return false;
    intern_truncate(w->names, snap->names);
    World now = *w;
    *w = snap->base; /* the plain fields; the owned arrays stay the session's */
    w->names = now.names;
    w->values = now.values;
    w->local_in = now.local_in;
    w->nvalues = now.nvalues;
    w->chips = now.chips;
    w->chart = now.chart;
    w->chart_cap = now.chart_cap;
    w->blocks = now.blocks;
    w->blocks_cap = now.blocks_cap;
    w->block_of = now.block_of;
    w->nblock_of = now.nblock_of;
    w->kept = now.kept;
    w->kept_cap = now.kept_cap;
    w->padded = now.padded;
    w->npadded = now.npadded;
    world_padded_truncate(w, snap->names);
    s->opt = *opt;
    s->diag.err = opt->err;
    s->diag.color = opt->color;
    csv_end(&s->csv); /* as a new session's: no header written yet */
    return !opt->csv || csv_begin(&s->csv, opt->out);
}

/* ---- The stdlib ------------------------------------------------------------------ */

/* Runs one of the stdlib's files at start, as its own run. */
static RunStatus run_library(Session *s, const StdlibFile *f)
{
    s->loading_library = true;
    RunStatus status = session_run(s, f->name, f->text, f->len, false);
    s->loading_library = false;
    return status;
}

/* Runs one of the stdlib's block files inside the run that needed it. */
static RunStatus run_library_file(Session *s, const char *name)
{
    const StdlibFile *f = stdlib_files;
    while (f->name && strcmp(f->name, name) != 0)
        f++;
    if (!f->name) { /* a table from another build */
        diag_plain(&s->diag, "the stdlib has no file %s", name);
        return RUN_ERROR;
    }
    Source *src = source_new(f->name, f->text, f->len);
    if (!src) {
        diag_plain(&s->diag, "out of memory");
        return RUN_ERROR;
    }
    src->library = true;
    return run_source(s, src, false);
}

/* World.define_library: the block files, run as they were at start before they were
 * prebuilt (no syntax tree printed, no CSV rows). When one fails (out of memory) they
 * run again at the next need; what they defined is defined again, in place. */
static bool define_library(void *ctx)
{
    Session *s = ctx;
    World *w = &s->world;
    SessionOptions opt = s->opt;
    s->opt.ast = false;
    s->opt.csv = false;
    w->library_pending = false; /* the files name their own blocks */
    bool ok = true;
    for (int i = 0; ok && i < prebuilt.nfiles; i++)
        ok = run_library_file(s, prebuilt.files[i]) == RUN_OK;
    s->opt = opt;
    if (ok)
        intern_unwatch(w->names);
    w->library_pending = !ok;
    return ok;
}

/* Before a source runs: when it names one of the stdlib's blocks or models (a watched
 * name), they are defined first. False when that failed (said). */
static bool library_if_named(Session *s)
{
    return !s->world.library_pending || !intern_seen(s->world.names) ||
           world_library(&s->world);
}

static bool start_prebuilt(Session *s)
{
    s->world.define_library = define_library;
    s->world.library_ctx = s;
    return prebuilt_load(&s->world, &prebuilt);
}

static bool start_parsed(Session *s)
{
    for (const StdlibFile *f = stdlib_files; f->name; f++)
        if (run_library(s, f) != RUN_OK)
            return false;
    return true;
}

/* ---- Set-up and queries ---------------------------------------------------------- */

/* A session with no stdlib yet. */
static Session *session_open(const SessionOptions *opt)
{
    Session *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->opt = *opt;
    if (opt->csv && !csv_begin(&s->csv, opt->out)) {
        free(s);
        return NULL;
    }
    s->diag.err = opt->err;
    s->diag.color = opt->color;
    if (!world_init(&s->world)) {
        session_free(s);
        return NULL;
    }
    return s;
}

Session *session_new(const SessionOptions *opt)
{
    Session *s = session_open(opt);
    if (!s)
        return NULL;
    s->opt.ast = false;
    bool parsed = opt->stdlib == STDLIB_PARSED || !prebuilt.ready;
    if (!(parsed ? start_parsed(s) : start_prebuilt(s))) {
        session_free(s);
        return NULL;
    }
    s->opt.ast = opt->ast;
    return s;
}

World *session_world(Session *s)
{
    return &s->world;
}

/* What a stdlib file defined, from the counts before and after it ran. */
typedef struct {
    int chips, replaced, blocks, archs, bound;
} Defined;

static Defined defined_now(const World *w)
{
    Defined d = {w->chips.n, w->chips.replaced, w->nblocks, w->archs.n, 0};
    for (int i = 0; i < w->nvalues; i++)
        d.bound += w->values[i].kind != VAL_UNBOUND;
    return d;
}

bool session_prebuild(FILE *out, FILE *err)
{
    Session *s = session_open(&(SessionOptions){.out = err, .err = err});
    const char *files[64];
    int nfiles = 0;
    bool ok = s != NULL;
    for (const StdlibFile *f = stdlib_files; ok && f->name; f++) {
        Defined was = defined_now(&s->world);
        ok = run_library(s, f) == RUN_OK;
        Defined now = defined_now(&s->world);
        bool chips = now.chips != was.chips || now.replaced != was.replaced;
        bool blocks = now.blocks != was.blocks || now.archs != was.archs;
        if (ok && (now.bound || s->world.use_chip >= 0 || (chips && blocks))) {
            fprintf(err, "prebuild: %s: a stdlib file defines either chips or blocks and "
                    "models, and binds no names\n", f->name);
            ok = false;
        }
        if (ok && blocks && nfiles < (int)(sizeof files / sizeof files[0]))
            files[nfiles++] = f->name;
    }
    ok = ok && prebuilt_write(&s->world, files, nfiles, out);
    if (!ok)
        fputs("prebuild: the stdlib could not be prebuilt\n", err);
    session_free(s);
    return ok;
}

void session_free(Session *s)
{
    if (!s)
        return;
    snapshot_free(s->snapshot);
    world_free(&s->world);
    csv_end(&s->csv);
    free(s);
}

void session_each_name(Session *s, unsigned kinds, void (*fn)(const char *name, void *ctx),
                       void *ctx)
{
    static const char *const words[] = {
        "let", "use", "chip", "include", "on", "shard", "over", "compute", "mesh", "solve",
        "sweep", "search", "fit", "arch", "serve", "with", "send", "from", "to", "all", "host",
        "plot", "block", "return", "repeat", "expect", "within", "mode", "param", "cache",
        "fused", "remat", "optimizer", "in", "help", "names", "chips", "quit", "exit",
        "allgather", "allreduce", "reducescatter", "alltoall", NULL};
    if ((kinds & NAMES_BLOCKS) && !world_library(&s->world))
        kinds &= ~(unsigned)NAMES_BLOCKS;
    for (int i = 0; (kinds & NAMES_WORDS) && words[i]; i++)
        fn(words[i], ctx);
    for (int i = 0; (kinds & NAMES_BLOCKS) && i < s->world.nblocks; i++)
        fn(intern_name(s->world.names, s->world.blocks[i].name), ctx);
    for (int i = 0; (kinds & NAMES_BLOCKS) && i < s->world.archs.n; i++)
        fn(intern_name(s->world.names, s->world.archs.items[i].name), ctx);
    for (int i = 0; (kinds & NAMES_DTYPES) && dtype_spellings[i]; i++)
        fn(dtype_spellings[i], ctx);
    for (int i = 0; (kinds & NAMES_CHIPS) && i < s->world.chips.n; i++)
        fn(s->world.chips.chips[i]->name, ctx);
    for (int f = 0; (kinds & NAMES_FIELDS) && f < CHIP_FIELD_COUNT; f++)
        fn(chip_fields[f].name, ctx);
    for (int i = 0; (kinds & NAMES_EXPECT) && check_expect_fields[i]; i++)
        fn(check_expect_fields[i], ctx);
    for (int i = 0; (kinds & NAMES_BOUND) && i < intern_count(s->world.names); i++)
        if (world_value(&s->world, i)->kind != VAL_UNBOUND)
            fn(intern_name(s->world.names, i), ctx);
}

void session_each_dim(Session *s, const char *name, size_t len,
                      void (*fn)(const char *name, void *ctx), void *ctx)
{
    char word[128];
    snprintf(word, sizeof word, "%.*s", (int)(len < sizeof word ? len : sizeof word - 1), name);
    const BoundValue *v = world_value(&s->world, intern_find(s->world.names, word));
    for (int i = 0; v->kind == VAL_TENSOR && i < v->tensor->ndims; i++)
        if (v->tensor->dims[i].name >= 0)
            fn(intern_name(s->world.names, v->tensor->dims[i].name), ctx);
}

/* --chips --json: one object per chip, its name and every field it sets (base units),
 * the bf16 ridge when it has one. */
static void chips_json(Session *s, FILE *out)
{
    const char *in_use = s->world.use_chip >= 0 ? intern_name(s->world.names, s->world.use_chip)
                                                : "";
    for (int i = 0; i < s->world.chips.n; i++) {
        const Chip *c = s->world.chips.chips[i];
        fputs("{\"chip\":", out);
        json_write_string(out, c->name, strlen(c->name));
        for (int f = 0; f < CHIP_FIELD_COUNT; f++)
            if (c->set[f])
                json_write_field(out, chip_fields[f].name, c->value[f]);
        double ridge;
        if (chip_ridge(c, CHIP_FLOPS_BF16, &ridge))
            json_write_field(out, "ridge", ridge);
        fprintf(out, ",\"in_use\":%s}\n", strcasecmp(c->name, in_use) == 0 ? "true" : "false");
    }
}

const Chip *session_chip(Session *s, const char *name)
{
    return chip_find(&s->world.chips, name);
}

void session_list_chips(Session *s, FILE *out)
{
    session_list_chips_as(s, out, s->opt.json);
}

void session_list_chips_as(Session *s, FILE *out, bool json)
{
    if (s->opt.csv && out == s->opt.out && s->csv.records) {
        chips_json(s, s->csv.records);
        csv_flush(&s->csv, s->opt.err);
        return;
    }
    if (json) {
        chips_json(s, out);
        return;
    }
    chip_table_print(&s->world.chips, out);
    if (s->world.use_chip >= 0)
        fprintf(out, "in use: %s\n", intern_name(s->world.names, s->world.use_chip));
}

void session_list_names(Session *s, FILE *out)
{
    int shown = 0;
    for (int i = 0; i < intern_count(s->world.names); i++) {
        const BoundValue *v = world_value(&s->world, i);
        char buf[512];
        if (v->kind == VAL_NUMBER)
            fprintf(out, "%-12s = %s\n", intern_name(s->world.names, i),
                    num_format_plain(v->number, buf, sizeof buf));
        else if (v->kind == VAL_TENSOR)
            fprintf(out, "%-12s : %s\n", intern_name(s->world.names, i),
                    tensor_format(v->tensor, world_namer, &s->world, buf, sizeof buf));
        else if (v->kind == VAL_DTYPE)
            fprintf(out, "%-12s = %s\n", intern_name(s->world.names, i), dtype_name(v->dtype));
        shown += v->kind != VAL_UNBOUND;
    }
    if (!shown)
        fputs("no names bound yet: `let B = 256` binds one\n", out);
    for (int i = 0; i < s->world.nblocks; i++) {
        char sig[1024];
        call_block_signature(&s->world, &s->world.blocks[i], sig, sizeof sig);
        fprintf(out, "%s%s\n", i ? "             " : "blocks       ", sig);
    }
    help_list_models(&s->world, out);
}

bool session_unread(const Session *s)
{
    return s->unread;
}

bool session_output_failed(Session *s)
{
    return ferror(s->opt.out) != 0;
}
