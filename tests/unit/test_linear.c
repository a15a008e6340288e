/* test_linear.c — the paths that once scanned a list per insert stay linear: each runs
 * at n and 4n, and the name-table probes it makes (intern_name_probes, intern.h) must grow at
 * most 1.5 × 4 times, where a scan per insert grows 16 times. Memory the same way: the
 * arenas' high-water mark (arena.h) of long statements at n and 4n, and a parse's
 * arena stops at its limit. Counts, not seconds, so a loaded machine cannot fail it.
 * Prints "N passed, M failed". */
#include "arena.h"
#include "check.h"
#include "intern.h"
#include "repl.h"
#include "session.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { SMALL = 4000, RATIO = 4 };

/* Text made by `write` for n, in a growing buffer. */
typedef void (*Writer)(FILE *out, int n);

static Session *quiet_session(FILE *sink)
{
    SessionOptions opt = {.out = sink, .err = sink};
    return session_new(&opt);
}

/* The probes of running the text for n in a fresh session (its stdlib not counted). */
static unsigned long long probes_of_run(Writer write, int n)
{
    char *text = NULL;
    size_t len = 0;
    FILE *buf = open_memstream(&text, &len);
    write(buf, n);
    fclose(buf);
    FILE *sink = fopen("/dev/null", "w");
    Session *s = quiet_session(sink);
    unsigned long long before = intern_name_probes;
    session_run(s, "linear.roof", text, len, false);
    unsigned long long used = intern_name_probes - before;
    session_free(s);
    fclose(sink);
    free(text);
    return used;
}

static void grows_linearly(const char *what, unsigned long long small, unsigned long long big)
{
    char got[96];
    snprintf(got, sizeof got, "%llu probes at n, %llu at %dn", small, big, RATIO);
    char claim[128];
    snprintf(claim, sizeof claim, "%s: probes grow near-linearly", what);
    check_got(small > 0 && big < 1.5 * RATIO * small, __FILE__, __LINE__, claim, got);
}

static void many_dims(FILE *out, int n)
{
    fputs("x = bf16[", out);
    for (int i = 0; i < n; i++)
        fprintf(out, "d%d, ", i);
    fputs("d0]\n", out); /* repeated at the end: the check walks every dim */
}

static void many_chips(FILE *out, int n)
{
    for (int i = 0; i < n; i++)
        fprintf(out, "chip c%d : v5e { hbm_bw = %d }\nx%d = bf16[8, 8] *_D bf16[8, 8] on C%d\n",
                i, i + 1, i, i / 2);
}

static void many_names(FILE *out, int n)
{
    for (int i = 0; i < n; i++)
        fprintf(out, "let n%d = %d\n", i, i + 1);
}

/* A block whose parameter's shape names n dims, called with a tensor of n dims. */
static void long_shape(FILE *out, int n)
{
    fputs("block f(x: [", out);
    for (int i = 0; i < n; i++)
        fprintf(out, "d%d, ", i);
    fputs("e]) { return x }\ny = f(bf16[", out);
    for (int i = 0; i < n; i++)
        fputs("1, ", out);
    fputs("1])\ny\n", out);
}

static void test_path(const char *what, Writer write)
{
    unsigned long long small = probes_of_run(write, SMALL);
    grows_linearly(what, small, probes_of_run(write, RATIO * SMALL));
}

/* The probes of one Tab press on an empty word, after n names are bound; the matches
 * must be every name once, sorted. */
static unsigned long long probes_of_tab(int n)
{
    FILE *sink = fopen("/dev/null", "w");
    Session *s = quiet_session(sink);
    char *text = NULL;
    size_t len = 0;
    FILE *buf = open_memstream(&text, &len);
    many_names(buf, n);
    fprintf(buf, "chip n0 : v5e { hbm_bw = 1 }\n"); /* a chip and a binding share n0 */
    fclose(buf);
    session_run(s, "names.roof", text, len, true);
    unsigned long long before = intern_name_probes;
    char **m = repl_complete(s, "n", "n", 0);
    unsigned long long used = intern_name_probes - before;
    size_t count = 0;
    bool sorted = m != NULL;
    for (size_t i = 1; m && m[i]; i++, count++)
        sorted = sorted && (i == 1 || strcmp(m[i - 1], m[i]) < 0);
    check(sorted, __FILE__, __LINE__, "completion: the matches are sorted, each once");
    check(count >= (size_t)n && count < (size_t)n + 20, __FILE__, __LINE__,
          "completion: every bound name is offered");
    for (size_t i = 0; m && (i == 0 || m[i]); i++)
        free(m[i]);
    free(m);
    free(text);
    session_free(s);
    fclose(sink);
    return used;
}

/* n lines, each a `let` of a 200-term sum. */
static void long_lets(FILE *out, int n)
{
    for (int i = 0; i < n; i++) {
        fprintf(out, "let x%d = 1", i);
        for (int k = 0; k < 199; k++)
            fputs("+1", out);
        fputc('\n', out);
    }
}

/* The arenas' high-water mark while the text for n runs, less that of an empty run
 * (the stdlib's trees, kept for its blocks). */
static size_t peak_of_run(Writer write, int n)
{
    size_t peak[2];
    for (int k = 0; k < 2; k++) {
        arena_peak_bytes = 0;
        probes_of_run(write, k ? n : 0);
        peak[k] = arena_peak_bytes;
    }
    return peak[1] - peak[0];
}

static void test_memory(void)
{
    size_t small = peak_of_run(long_lets, SMALL / 8);
    size_t big = peak_of_run(long_lets, RATIO * SMALL / 8);
    char got[96];
    snprintf(got, sizeof got, "%zu bytes at n, %zu at %dn", small, big, RATIO);
    check_got(small > 0 && big < 1.5 * RATIO * small, __FILE__, __LINE__,
              "long let lines: the tree's memory grows near-linearly", got);
}

/* A parse's arena refuses past its limit, and says so, having taken no more. */
static void test_arena_limit(void)
{
    Arena a = {.limit = 1 << 20};
    size_t given = 0;
    while (arena_alloc(&a, 48))
        given += 48;
    check(a.oom && a.capped, __FILE__, __LINE__, "an arena at its limit is capped");
    check(a.bytes <= a.limit && given > a.limit / 2, __FILE__, __LINE__,
          "an arena hands out up to its limit and takes no more");
    arena_free(&a);
    Arena small = {0};
    check(arena_alloc(&small, 16) && small.bytes < 4096, __FILE__, __LINE__,
          "an arena's first chunk is small (a REPL line keeps it)");
    arena_free(&small);
}

int main(void)
{
    test_path("dims of one tensor type", many_dims);
    test_path("chip definitions and `on NAME`", many_chips);
    test_path("let statements", many_names);
    test_path("a block's shape of many dims, and a call", long_shape);
    unsigned long long small = probes_of_tab(SMALL);
    grows_linearly("Tab with many names", small, probes_of_tab(RATIO * SMALL));
    test_memory();
    test_arena_limit();
    printf("%d passed, %d failed\n", passed, failed);
    return failed != 0;
}
