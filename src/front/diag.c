/* diag.c — located error messages with the source line and a caret. */
#include "diag.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "nomem.h"
#include "utf8.h"

enum { WINDOW_BEFORE = 50, WINDOW_CHARS = 110, MESSAGE_MAX = 400 };

static const char *paint(const Diag *d, const char *code)
{
    return d->color ? code : "";
}

/* Writes one character of a line; returns the bytes consumed, *width the columns. */
static int put_char(FILE *out, const unsigned char *s, size_t n, int *width)
{
    int len = utf8_length(s, n);
    if (len == 1 && s[0] == '\t') {
        fputc(' ', out);
        *width = 1;
    } else if (len == 3 && s[0] == 0xEF && s[1] == 0xBB && s[2] == 0xBF) {
        fputs("\\uFEFF", out); /* a byte-order mark shows nothing: name it */
        *width = 6;
    } else if (len == 0 || (len == 1 && (s[0] < 0x20 || s[0] == 0x7F))) {
        fprintf(out, "\\x%02X", s[0]);
        *width = 4;
        return 1;
    } else {
        fwrite(s, 1, (size_t)len, out);
        *width = 1;
    }
    return len;
}

void diag_escaped(FILE *out, const char *text, size_t len)
{
    const unsigned char *s = (const unsigned char *)text;
    int width;
    for (size_t i = 0; i < len;)
        i += (size_t)put_char(out, s + i, len - i, &width);
}

/* The line holding the span, clipped to a window around it, then the caret line. */
static void show_span(Diag *d, const Source *src, Span span, int line, int col)
{
    size_t len;
    const unsigned char *text = (const unsigned char *)source_line(src, line, &len);
    size_t start = (size_t)(span.begin) - (size_t)(text - (const unsigned char *)src->text);
    size_t end = span.end > span.begin ? (size_t)span.end - (size_t)(text - (const unsigned char *)src->text) : start + 1;
    int skip = col - 1 > WINDOW_BEFORE ? col - 1 - WINDOW_BEFORE : 0;
    int caret_at = -1, caret_len = 0, column = 0, chars = 0, width;
    fputs("  ", d->err);
    if (skip)
        fputs("...", d->err), column = 3;
    for (size_t i = 0; i < len && chars < skip + WINDOW_CHARS; chars++) {
        if (chars < skip) {
            int n = utf8_length(text + i, len - i);
            i += n ? (size_t)n : 1;
            continue;
        }
        if (i == start)
            caret_at = column;
        size_t before = i;
        i += (size_t)put_char(d->err, text + i, len - i, &width);
        column += width;
        if (before >= start && before < end)
            caret_len += width;
    }
    if (caret_at < 0)
        caret_at = column;
    fprintf(d->err, "\n  %*s%s^", caret_at, "", paint(d, "\033[1;32m"));
    for (int i = 1; i < caret_len; i++)
        fputc('~', d->err);
    fprintf(d->err, "%s\n", paint(d, "\033[0m"));
}

/* The message, escaped like the source line (it may quote user text: a string with
 * control bytes, a 10 MB name) and cut at a length a person can read. */
static void put_message(Diag *d, const char *fmt, va_list ap)
{
    char msg[MESSAGE_MAX];
    int n = vsnprintf(msg, sizeof msg, fmt, ap);
    size_t len = n < 0 ? 0 : (size_t)n < sizeof msg ? (size_t)n : sizeof msg - 1;
    while (len > 0 && (size_t)n >= sizeof msg && ((unsigned char)msg[len] & 0xC0) == 0x80)
        len--; /* do not cut a UTF-8 character in two */
    diag_escaped(d->err, msg, len);
    fputs((size_t)n >= sizeof msg ? "...\n" : "\n", d->err);
}

static bool count_error(Diag *d)
{
    if (d->capped)
        return false;
    if (++d->errors > LIMIT_ERRORS) {
        d->capped = true;
        fprintf(d->err, "roofline: %serror:%s too many errors (%d), stopping here\n",
                paint(d, "\033[1;31m"), paint(d, "\033[0m"), LIMIT_ERRORS);
        return false;
    }
    return true;
}

void diag_error(Diag *d, const Source *src, Span span, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    diag_verror(d, src, span, fmt, ap);
    va_end(ap);
}

/* What went to stdout before a message comes before it when both go to one pipe; a
 * progress line is cleared so that the message starts its own line. */
static void flush_output(Diag *d)
{
    fflush(stdout);
    if (d->progress)
        progress_hide(d->progress);
}

void diag_verror(Diag *d, const Source *src, Span span, const char *fmt, va_list ap)
{
    if (!count_error(d))
        return;
    flush_output(d);
    int line, col;
    source_position(src, span.begin, &line, &col);
    fprintf(d->err, "%s%s:%d:%d:%s %serror:%s ", paint(d, "\033[1m"), src->name, line, col,
            paint(d, "\033[0m"), paint(d, "\033[1;31m"), paint(d, "\033[0m"));
    put_message(d, fmt, ap);
    show_span(d, src, span, line, col);
}

void diag_frame_verror(Diag *d, const DiagFrame *f, Span span, const char *fmt, va_list ap)
{
    if (nomem_failed())
        fmt = "out of memory";
    diag_verror(d, f->user, f->library ? f->call : span, fmt, ap);
    if (f->library) {
        int line, col;
        source_position(f->library, span.begin, &line, &col);
        diag_note(d, "raised in the stdlib, at %s:%d:%d", f->library->name, line, col);
    }
}

void diag_note(Diag *d, const char *fmt, ...)
{
    if (d->capped)
        return;
    fprintf(d->err, "  %snote:%s ", paint(d, "\033[1;36m"), paint(d, "\033[0m"));
    va_list ap;
    va_start(ap, fmt);
    put_message(d, fmt, ap);
    va_end(ap);
}

void diag_plain(Diag *d, const char *fmt, ...)
{
    d->errors++;
    flush_output(d);
    fprintf(d->err, "roofline: %serror:%s ", paint(d, "\033[1;31m"), paint(d, "\033[0m"));
    va_list ap;
    va_start(ap, fmt);
    put_message(d, fmt, ap);
    va_end(ap);
}

void diag_interrupted(Diag *d)
{
    d->errors++;
    flush_output(d);
    fputs("interrupted\n", d->err);
}

bool diag_hold(DiagHold *h)
{
    *h = (DiagHold){.diag = {.err = NULL}};
    h->diag.err = open_memstream(&h->text, &h->len);
    return h->diag.err != NULL;
}

char *diag_release(DiagHold *h)
{
    fclose(h->diag.err);
    char *first = NULL;
    if (h->text && h->len) {
        char *end = strchr(h->text, '\n'), *msg = strstr(h->text, "error: ");
        if (end)
            *end = '\0';
        first = nomem_note(strdup(msg && (!end || msg < end) ? msg + 7 : h->text));
    }
    free(h->text);
    return first;
}
