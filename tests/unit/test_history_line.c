/* test_history_line.c — a statement of several lines as one history entry that reads
 * the same; each joined line is also run through a session, which must cost it as the
 * lines were. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "history_line.h"
#include "session.h"

static void joins(int line, const char *text, const char *want)
{
    char *got = history_line(text, strlen(text));
    check_got(got && strcmp(got, want) == 0, __FILE__, line, want, got ? got : "NULL");
    free(got);
}

/* The text and its joined line print the same report (their statements cost the same). */
static void runs_the_same(int line, const char *text)
{
    char *joined = history_line(text, strlen(text));
    char *out[2] = {NULL, NULL};
    size_t len[2];
    for (int i = 0; i < 2 && joined; i++) {
        FILE *f = open_memstream(&out[i], &len[i]);
        FILE *null = fopen("/dev/null", "w");
        SessionOptions opt = {.json = true, .out = f, .err = null};
        Session *s = session_new(&opt);
        const char *src = i ? joined : text;
        RunStatus st = s ? session_run(s, "<t>", src, strlen(src), false) : RUN_ERROR;
        session_free(s);
        fclose(f);
        fclose(null);
        check(st == RUN_OK, __FILE__, line, i ? "the joined line runs" : "the lines run");
    }
    /* the statement's text and line differ: compare without them */
    for (int i = 0; i < 2; i++) {
        for (char *k = out[i] ? strstr(out[i], "\"line\":") : NULL; k; k = strstr(k, "\"line\":")) {
            size_t skip = strspn(k + 7, "0123456789,") + 7;
            memmove(k, k + skip, strlen(k + skip) + 1);
        }
        for (char *k = out[i] ? strstr(out[i], "\"stmt\":\"") : NULL; k; k = strstr(k, "\"stmt\":\"")) {
            char *end = strchr(k + 8, '"'); /* these statements hold no quote */
            if (end)
                memmove(k, end + 1, strlen(end + 1) + 1);
        }
    }
    check_got(out[0] && out[1] && out[0][0] && strcmp(out[0], out[1]) == 0, __FILE__, line,
              "same costs", joined);
    free(out[0]);
    free(out[1]);
    free(joined);
}

int main(void)
{
    /* inside brackets and after an operator or a comma: a space */
    joins(__LINE__, "bf16[B,\n    D] *_D\n  bf16[D, F] on v5e", "bf16[B, D] *_D bf16[D, F] on v5e");
    joins(__LINE__, "let a = 1 +\n 2", "let a = 1 + 2");
    /* between the statements of a body: "; "; none after { or before } */
    joins(__LINE__, "block f(x) {\n  y = x * 2\n  return y\n}",
          "block f(x) { y = x * 2; return y }");
    /* comments go, even at the end of an operator's line; a # in a string stays */
    joins(__LINE__, "sweep B in [1, 2] plot \"a#b.svg\" {  # curves\n  a = bf16[B,8] *_K  # x\n"
          "  bf16[8,8] on v5e\n\n}",
          "sweep B in [1, 2] plot \"a#b.svg\" { a = bf16[B,8] *_K bf16[8,8] on v5e }");
    /* one line stays as it was */
    joins(__LINE__, "bf16[8, 8] *_K bf16[8, 8] on v5e", "bf16[8, 8] *_K bf16[8, 8] on v5e");

    runs_the_same(__LINE__, "bf16[8,\n 4096] *_D\n int8[4096, 4096] on v5e");
    runs_the_same(__LINE__, "sweep B in [1, 64] {\n  a = bf16[B,8] *_K bf16[8,8] on v5e  # one\n"
                  "  b = bf16[B,8] *_K\n      bf16[8,16] on v5e\n}");
    runs_the_same(__LINE__, "chip c : v5e {\n  flops_bf16 = 1e14\n  hbm_bw = 1e12\n}\n"
                  "bf16[8,8] *_K bf16[8,8] on c");
    runs_the_same(__LINE__, "block f(x, F) {\n  y = x *_D bf16[D, F]\n  return y\n}\n"
                  "let D = 8\nf(bf16[4, D], 16) on v5e");
    printf("%d passed, %d failed\n", passed, failed);
    return failed != 0;
}
