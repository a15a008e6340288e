/* fuzz_run.c — one input through the process's one session, as fuzz.h describes. The
 * session loads the stdlib once and takes a snapshot; each input starts from it
 * (session_reset), which is what lets a target run thousands of inputs a second.
 * With --json or --csv the output is kept (up to OUTPUT_MAX bytes; past that a write
 * fails, as on a full disk) and must hold the invariants of output_check.h: a fault is
 * a find. With fuzz_check_reset set (replay.c sets it), each input also runs on a
 * fresh session, and the two must print the same: a reset that leaks is a find too. */
#include "fuzz.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../output/output_check.h"

enum { OUTPUT_MAX = 1 << 20 };

int fuzz_check_reset;

static FILE *null_stream(void)
{
    static FILE *null;
    if (!null && !(null = fopen("/dev/null", "w")))
        abort();
    return null;
}

/* The session every input starts from, reset to the stdlib just loaded. */
static Session *prepared(const SessionOptions *opt)
{
    static Session *s;
    if (!s) {
        SessionOptions quiet = {.out = null_stream(), .err = null_stream()};
        if (!(s = session_new(&quiet)) || !session_snapshot(s))
            abort(); /* the embedded stdlib must always load */
    }
    if (!session_reset(s, opt))
        abort();
    return s;
}

/* The input through the session: whole, or with FUZZ_PIECES each piece between form
 * feeds in its own run, as the REPL runs lines, so one failing statement does not stop
 * the rest. */
static void run(Session *s, const uint8_t *data, size_t size, int how)
{
    const char *text = (const char *)data, *end = text + size;
    if (!(how & FUZZ_PIECES)) {
        session_run(s, "<fuzz>", text, size, (how & FUZZ_INTERACTIVE) != 0);
        return;
    }
    while (text < end) {
        const char *cut = memchr(text, '\f', (size_t)(end - text));
        if (!cut)
            cut = end;
        session_run(s, "<fuzz>", text, (size_t)(cut - text), (how & FUZZ_INTERACTIVE) != 0);
        text = cut + 1;
    }
}

/* Frees what the input allocated: libFuzzer counts mallocs and frees per input, and
 * where they differ it looks for a leak, which is slow. */
static void forget(void)
{
    prepared(&(SessionOptions){.out = null_stream(), .err = null_stream()});
}

/* The output the session wrote, when all of it fitted; abort() on a fault. */
static void check_output(FILE *out, const SessionOptions *opt, char *buf)
{
    long len = ftell(out);
    if (fflush(out) != 0 || ferror(out) || len < 0)
        return;
    buf[len] = '\0';
    if (output_check(opt->json, "<fuzz>", (const unsigned char *)buf, (size_t)len, stderr) > 0)
        abort();
}

/* What a session prints for the input, output then diagnostics; freed by the caller. */
static char *printed(Session *s, SessionOptions opt, const uint8_t *data, size_t size,
                     int how, size_t *len)
{
    char *text = NULL;
    FILE *both = open_memstream(&text, len);
    if (!both)
        abort();
    opt.out = opt.err = both;
    Session *fresh = s ? NULL : session_new(&opt);
    Session *session = s ? prepared(&opt) : fresh;
    if (!session)
        abort();
    run(session, data, size, how);
    session_free(fresh);
    if (s)
        forget();
    fclose(both);
    return text;
}

static void check_reset(SessionOptions opt, const uint8_t *data, size_t size, int how)
{
    size_t reset_len, fresh_len;
    char *reset = printed(prepared(&opt), opt, data, size, how, &reset_len);
    char *fresh = printed(NULL, opt, data, size, how, &fresh_len);
    if (reset_len != fresh_len || memcmp(reset, fresh, reset_len) != 0) {
        fprintf(stderr, "fuzz: after a reset the session printed\n%s\n"
                "where a fresh one printed\n%s\n", reset, fresh);
        abort();
    }
    free(reset);
    free(fresh);
}

Session *fuzz_session(void)
{
    return prepared(&(SessionOptions){.out = null_stream(), .err = null_stream()});
}

void fuzz_forget(void)
{
    forget();
}

Session *fuzz_fresh_session(void)
{
    Session *fresh = session_new(&(SessionOptions){.out = null_stream(), .err = null_stream()});
    if (!fresh)
        abort();
    return fresh;
}

void fuzz_run_on(SessionOptions opt, FILE *out, const uint8_t *data, size_t size, int how)
{
    if (fuzz_check_reset)
        check_reset(opt, data, size, how);
    opt.out = out;
    opt.err = null_stream();
    run(prepared(&opt), data, size, how);
    forget();
}

void fuzz_run(SessionOptions opt, const uint8_t *data, size_t size, int how)
{
    static char kept[OUTPUT_MAX + 1];
    bool formatted = opt.json || opt.csv;
    FILE *out = formatted ? fmemopen(kept, OUTPUT_MAX, "w") : null_stream();
    if (!out)
        abort();
    fuzz_run_on(opt, out, data, size, how);
    if (formatted) {
        check_output(out, &opt, kept);
        fclose(out);
    }
}
