/* check_output.c — check-output json|csv [FILE]: the output invariants of output_check.h
 * over a file (stdin without FILE); one line per fault, exit 1 when there is one. A tool
 * for the tests only.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "output_check.h"

static unsigned char *read_all(FILE *f, size_t *len)
{
    size_t cap = 1 << 16;
    unsigned char *buf = malloc(cap);
    *len = 0;
    /* cap - 1: a NUL ends the text, for strtod */
    for (size_t got; buf && (got = fread(buf + *len, 1, cap - 1 - *len, f)) > 0;) {
        *len += got;
        unsigned char *more = *len == cap - 1 ? realloc(buf, cap *= 2) : buf;
        if (!more)
            free(buf);
        buf = more;
    }
    if (buf && !ferror(f)) {
        buf[*len] = '\0';
        return buf;
    }
    free(buf);
    return NULL;
}

int main(int argc, char **argv)
{
    bool json = argc >= 2 && strcmp(argv[1], "json") == 0;
    if (argc < 2 || argc > 3 || (!json && strcmp(argv[1], "csv") != 0)) {
        fputs("usage: check-output json|csv [FILE]\n", stderr);
        return 2;
    }
    const char *name = argc == 3 ? argv[2] : "<stdin>";
    FILE *f = argc == 3 ? fopen(argv[2], "rb") : stdin;
    size_t len;
    unsigned char *text = f ? read_all(f, &len) : NULL;
    if (!text) {
        fprintf(stderr, "check-output: %s: %s\n", name, strerror(errno));
        return 2;
    }
    int faults = output_check(json, name, text, len, stdout);
    free(text);
    return faults > 0;
}
