/* fuzz_run.c — one input through one fresh session, as fuzz.h describes. With --json
 * or --csv the output is kept (up to OUTPUT_MAX bytes; past that a write fails, as on a
 * full disk) and must hold the invariants of output_check.h: a fault is a find. */
#include "fuzz.h"

#include <stdio.h>
#include <stdlib.h>

#include "../output/output_check.h"

enum { OUTPUT_MAX = 1 << 20 };

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

int fuzz_run(SessionOptions opt, const uint8_t *data, size_t size, int interactive)
{
    static char kept[OUTPUT_MAX + 1];
    bool formatted = opt.json || opt.csv;
    FILE *null = fopen("/dev/null", "w");
    FILE *out = formatted ? fmemopen(kept, OUTPUT_MAX, "w") : null;
    if (!null || !out)
        abort();
    opt.out = out;
    opt.err = null;
    Session *s = session_new(&opt);
    if (s) {
        session_run(s, "<fuzz>", (const char *)data, size, interactive != 0);
        session_free(s);
        if (formatted)
            check_output(out, &opt, kept);
    }
    if (formatted)
        fclose(out);
    fclose(null);
    return s ? 0 : 1;
}
