/* fuzz_run.c — one input through one fresh session, as fuzz.h describes. */
#include "fuzz.h"

#include <stdio.h>
#include <stdlib.h>

int fuzz_run(SessionOptions opt, const uint8_t *data, size_t size, int interactive)
{
    FILE *null = fopen("/dev/null", "w");
    if (!null)
        abort();
    opt.out = null;
    opt.err = null;
    Session *s = session_new(&opt);
    if (!s) {
        fclose(null);
        return 1;
    }
    session_run(s, "<fuzz>", (const char *)data, size, interactive != 0);
    session_free(s);
    fclose(null);
    return 0;
}
