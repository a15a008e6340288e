/* diag.h — one error format for every phase:
 *
 *   file:line:col: error: message
 *     the source line
 *     ^~~~ under the span
 *
 * Ownership: a Diag only borrows its stream.
 */
#ifndef ROOFLINE_DIAG_H
#define ROOFLINE_DIAG_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>

#include "caps.h"
#include "progress.h"
#include "source.h"


typedef struct {
    FILE *err;
    bool color;
    int errors;  /* reported so far */
    bool capped; /* LIMIT_ERRORS reached: later errors are dropped */
    Progress *progress; /* a long statement's line on the terminal, cleared before a
                           message; NULL when none runs (borrowed) */
} Diag;

#if defined(__GNUC__)
#define DIAG_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define DIAG_PRINTF(f, a)
#endif

void diag_error(Diag *d, const Source *src, Span span, const char *fmt, ...)
    DIAG_PRINTF(4, 5);
void diag_verror(Diag *d, const Source *src, Span span, const char *fmt, va_list ap);
/* Where the errors of code being run are shown: in the user's source. An error in a
 * library's code (the stdlib) is the user's call's: it points there, and a note gives
 * the library's line. */
typedef struct {
    const Source *user;    /* the user's source */
    Span call;             /* in it, the call into the library; when library is set */
    const Source *library; /* the library's source the code is in, or NULL */
} DiagFrame;
/* An error of the code a frame runs, at span in its own source. Once memory ran out,
 * that is the reason, whatever failed for want of it (nomem.h). */
void diag_frame_verror(Diag *d, const DiagFrame *f, Span span, const char *fmt, va_list ap);
/* An indented "note: ..." under the last error; dropped with it when capped. */
void diag_note(Diag *d, const char *fmt, ...) DIAG_PRINTF(2, 3);
/* An error with no place in a source: usage, files that cannot be read. */
void diag_plain(Diag *d, const char *fmt, ...) DIAG_PRINTF(2, 3);

/* Ctrl-C stopped a statement: "interrupted", which is what the user asked for, not an
 * error of the input; it still counts as one, so the statement fails. */
void diag_interrupted(Diag *d);

/* Messages kept out of the report, for a try whose failure is an answer, not an
 * error (a search's configuration that cannot be costed): diag_hold points `into` at
 * memory; diag_release gives back the first message, without its place (malloc'd;
 * NULL when there was none or memory ran out). */
typedef struct {
    Diag diag;
    char *text;
    size_t len;
} DiagHold;
bool diag_hold(DiagHold *h);
char *diag_release(DiagHold *h);

/* Write `len` bytes for a person to read: control characters and invalid UTF-8 as
 * \xNN, so an error message never sends raw bytes to a terminal. */
void diag_escaped(FILE *out, const char *text, size_t len);

#endif
