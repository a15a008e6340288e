/* session.h — the one entry point: run a buffer of roofline source.
 *
 * A Session holds everything that outlives one buffer: bindings, chips, the default
 * chip, the interned names. The CLI, the REPL, `include` and tests all run text
 * through session_run. It never calls exit(); errors are printed to the session's
 * error stream and reported in the return value.
 *
 * Ownership: the session owns all it allocates; session_free releases it.
 */
#ifndef ROOFLINE_SESSION_H
#define ROOFLINE_SESSION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "chip.h"

#define ROOFLINE_VERSION "0.1.0"

typedef struct Session Session;

/* How a session gets the stdlib (prebuilt.h). */
typedef enum {
    STDLIB_PREBUILT, /* the build's table of names and chips; the blocks and models run
                      * the first time a source names one */
    STDLIB_PARSED,   /* every file parsed and run at start (the build's first stage) */
} StdlibStart;

typedef struct {
    bool json;   /* JSON Lines instead of the text report */
    bool csv;    /* one CSV table of the JSON records (csv.h) */
    bool exact;  /* out·(2K-1) FLOPs per contraction instead of 2·out·K */
    bool ast;    /* print the syntax tree of each statement instead of running it */
    bool color;  /* ANSI colour in diagnostics and the report */
    int jobs;    /* --jobs N: processes a search may use (0 or 1: this one only) */
    FILE *out;   /* reports */
    FILE *err;   /* diagnostics */
    StdlibStart stdlib;
} SessionOptions;

/* Exit statuses, as documented: 0 fine, 1 runtime error or failed check, 2 syntax or
 * usage error. RUN_INCOMPLETE only comes back when `interactive` is set and the text
 * ended in the middle of a statement (the REPL then asks for another line); nothing
 * is printed in that case. */
typedef enum { RUN_OK = 0, RUN_ERROR = 1, RUN_SYNTAX = 2, RUN_INCOMPLETE = 3 } RunStatus;

/* Loads the embedded stdlib (the chips). NULL if out of memory. */
Session *session_new(const SessionOptions *opt);
void session_free(Session *s);
/* The build's first stage (tools/prebuild.c): runs the stdlib's files one by one and
 * writes build/stdlib_prebuilt.c (prebuilt.h) to out. False, said on err, when a file has an
 * error, a file defines chips and blocks or models both, or the write failed. */
bool session_prebuild(FILE *out, FILE *err);
/* The session's world, for the test that compares a prebuilt start with a parsed one
 * (tests/unit/test_prebuilt.c). */
struct World *session_world(Session *s);

/* For the fuzz targets, which run millions of inputs on one session: session_snapshot
 * remembers the session as it is (right after session_new: the stdlib loaded);
 * session_reset puts it back exactly (names, values, chips, blocks, modes: nothing an
 * input did survives) and gives it new options. Snapshot fails, returning false, when
 * out of memory or when the session has bound values; reset only when out of memory,
 * and only after a snapshot. */
bool session_snapshot(Session *s);
bool session_reset(Session *s, const SessionOptions *opt);

/* Parse and run `len` bytes of `text` (need not be NUL-terminated). `name` is used in
 * diagnostics ("<stdin>", "model.roof", "<repl>") and to resolve `include` paths
 * relative to it. In interactive mode a statement that stops early returns
 * RUN_INCOMPLETE instead of an error, and the bindings of earlier statements in the
 * buffer are kept even when a later one fails. */
RunStatus session_run(Session *s, const char *name, const char *text, size_t len,
                      bool interactive);

/* The names the user can type right now, of the kinds asked: calls fn once per name.
 * For tab completion, which asks for what fits where the cursor is. */
enum {
    NAMES_WORDS = 1,   /* statement and clause words: let, sweep, on, ... */
    NAMES_BLOCKS = 2,  /* the blocks defined (the stdlib's too) */
    NAMES_DTYPES = 4,
    NAMES_CHIPS = 8,
    NAMES_FIELDS = 16, /* a chip's fields: flops_bf16, hbm_bw, ... */
    NAMES_BOUND = 32,  /* names bound to a number or a tensor */
    NAMES_EXPECT = 64, /* what `expect` checks: flops, t_lower, ... */
};
void session_each_name(Session *s, unsigned kinds, void (*fn)(const char *name, void *ctx),
                       void *ctx);
/* The dims of the tensor bound to a name (len bytes of it), for completing `x *_`. */
void session_each_dim(Session *s, const char *name, size_t len,
                      void (*fn)(const char *name, void *ctx), void *ctx);

/* The REPL's `chips` and `names` commands: a table of chips with their peaks and
 * bandwidths; the bound names with their values or shapes. */
void session_list_chips(Session *s, FILE *out);
/* The chip of that name the session knows (the stdlib's, or one a script defined). */
const Chip *session_chip(Session *s, const char *name);
/* The same as JSON Lines or as the table, whatever the session's format (--html runs a
 * session that writes JSON records whatever --json says). */
void session_list_chips_as(Session *s, FILE *out, bool json);
void session_list_names(Session *s, FILE *out);

/* True when the last session_run could not even read its text (out of memory): nothing
 * of it ran, and in interactive mode nothing was said. */
bool session_unread(const Session *s);

/* True when the output stream has failed (closed pipe, full disk). */
bool session_output_failed(Session *s);

#endif
