/* check_output.c — a tool for the tests only:
 *
 *   check-output json|csv [FILE...]
 *                                  the output invariants of output_check.h over each
 *                                  file (stdin without FILE); one line per fault, each
 *                                  naming its file, exit 1 when there is one (many
 *                                  files in one run: a process per file was most of
 *                                  the time of tests/output/json_lines.sh)
 *   check-output select COLUMN [NAME=VALUE ...] < CSV
 *                                  a CSV reader: the value of COLUMN, one a line, in
 *                                  each row whose fields NAME equal VALUE (quotes
 *                                  undone); exit 1 when no row matches or a column is
 *                                  not in the header
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

/* ---- select: a small RFC 4180 reader --------------------------------------------- */

enum { FIELDS_MAX = 256 };

/* The fields of the record at *p (quotes undone, in place: a field never grows), each
 * NUL-terminated; *p moves past the record. The number of fields. */
static int read_record(char **p, char *end, char **fields)
{
    int n = 0;
    char *c = *p;
    for (;;) {
        char *to = c, *start = c;
        if (c < end && *c == '"') {
            for (c++; c < end && !(*c == '"' && (c + 1 >= end || c[1] != '"')); c++)
                *to++ = *c == '"' ? *c++ : *c;
            c += c < end; /* the closing quote */
        } else {
            while (c < end && *c != ',' && *c != '\n')
                *to++ = *c++;
        }
        bool last = c >= end || *c == '\n';
        *to = '\0';
        if (n < FIELDS_MAX)
            fields[n++] = start;
        c++;
        if (last)
            break;
    }
    *p = c;
    return n;
}

static int column_of(char **header, int n, const char *name)
{
    for (int i = 0; i < n; i++)
        if (strcmp(header[i], name) == 0)
            return i;
    fprintf(stderr, "check-output: no column \"%s\"\n", name);
    return -1;
}

static int select_rows(int argc, char **argv, char *text, size_t len)
{
    char *p = text, *end = text + len, *header[FIELDS_MAX], *row[FIELDS_MAX];
    int n = read_record(&p, end, header), want = column_of(header, n, argv[2]), found = 0;
    int match[FIELDS_MAX];
    const char *value[FIELDS_MAX];
    for (int i = 3; i < argc && i - 3 < FIELDS_MAX; i++) {
        char *eq = strchr(argv[i], '=');
        if (!eq)
            return fprintf(stderr, "check-output: %s is not NAME=VALUE\n", argv[i]), 2;
        *eq = '\0';
        match[i - 3] = column_of(header, n, argv[i]);
        value[i - 3] = eq + 1;
        if (match[i - 3] < 0)
            return 1;
    }
    while (want >= 0 && p < end) {
        bool ok = read_record(&p, end, row) == n;
        for (int i = 0; ok && i < argc - 3; i++)
            ok = strcmp(row[match[i]], value[i]) == 0;
        if (ok)
            printf("%s\n", row[want]), found++;
    }
    return found == 0;
}

/* The invariants over one file (NULL: it did not open); 0 when it holds them, 1 when
 * not, 2 when it cannot be read. */
static int check_file(bool json, const char *name, FILE *f)
{
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

int main(int argc, char **argv)
{
    if (argc >= 3 && strcmp(argv[1], "select") == 0) {
        size_t len;
        unsigned char *text = read_all(stdin, &len);
        int status = text ? select_rows(argc, argv, (char *)text, len) : 2;
        free(text);
        return status;
    }
    bool json = argc >= 2 && strcmp(argv[1], "json") == 0;
    if (argc < 2 || (!json && strcmp(argv[1], "csv") != 0)) {
        fputs("usage: check-output json|csv [FILE...]\n", stderr);
        return 2;
    }
    if (argc == 2)
        return check_file(json, "<stdin>", stdin);
    int status = 0;
    for (int i = 2; i < argc; i++) {
        FILE *f = fopen(argv[i], "rb");
        int one = check_file(json, argv[i], f);
        status = one > status ? one : status;
        if (f)
            fclose(f);
    }
    return status;
}
