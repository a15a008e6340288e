/* source.c — loaded texts and offset-to-line:column mapping. */
#include "source.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "nomem.h"

static int count_lines(const char *text, size_t len)
{
    int n = 1;
    for (size_t i = 0; i < len; i++)
        n += text[i] == '\n';
    return n;
}

Source *source_new(const char *name, const char *text, size_t len)
{
    Source *src = nomem_note(calloc(1, sizeof *src));
    if (!src)
        return NULL;
    src->name = nomem_note(strdup(name));
    src->text = nomem_note(malloc(len + 1));
    src->nlines = count_lines(text, len);
    src->line_starts = nomem_note(malloc(sizeof *src->line_starts * (size_t)src->nlines));
    if (!src->name || !src->text || !src->line_starts) {
        source_free(src);
        return NULL;
    }
    memcpy(src->text, text, len);
    src->text[len] = '\0';
    src->len = len;
    int line = 0;
    src->line_starts[line++] = 0;
    for (size_t i = 0; i < len; i++)
        if (text[i] == '\n')
            src->line_starts[line++] = i + 1;
    return src;
}

void source_free(Source *src)
{
    if (!src)
        return;
    free(src->name);
    free(src->text);
    free(src->line_starts);
    free(src);
}

static int line_of(const Source *src, size_t offset)
{
    int lo = 0, hi = src->nlines - 1;
    while (lo < hi) {
        int mid = lo + (hi - lo + 1) / 2;
        if (src->line_starts[mid] <= offset)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

/* UTF-8 continuation bytes do not start a character. */
static int is_char_start(unsigned char c)
{
    return (c & 0xC0) != 0x80;
}

void source_position(const Source *src, int offset, int *line, int *col)
{
    size_t off = offset < 0 ? 0 : (size_t)offset > src->len ? src->len : (size_t)offset;
    int l = line_of(src, off);
    int c = 1;
    for (size_t i = src->line_starts[l]; i < off; i++)
        c += is_char_start((unsigned char)src->text[i]);
    *line = l + 1;
    *col = c;
}

const char *source_line(const Source *src, int line, size_t *len)
{
    size_t start = src->line_starts[line - 1];
    size_t end = line < src->nlines ? src->line_starts[line] - 1 : src->len;
    if (end > start && src->text[end - 1] == '\r')
        end--;
    *len = end - start;
    return src->text + start;
}

static char *read_stream(FILE *f, size_t *len, const char **why)
{
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    while (buf) {
        n += fread(buf + n, 1, cap - n - 1, f);
        if (ferror(f) || n < cap - 1)
            break;
        if (cap >= LIMIT_SOURCE_BYTES) {
            *why = "larger than 64 MiB";
            free(buf);
            return NULL;
        }
        char *grown = realloc(buf, cap * 2);
        if (!grown)
            free(buf);
        buf = grown;
        cap *= 2;
    }
    if (!buf || ferror(f)) {
        *why = buf ? strerror(errno) : "out of memory";
        free(buf);
        return NULL;
    }
    buf[n] = '\0';
    *len = n;
    return buf;
}

char *source_read_file(const char *path, size_t *len, const char **why)
{
    if (!path)
        return read_stream(stdin, len, why);
    struct stat st;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
        *why = "is a directory";
        return NULL;
    }
    FILE *f = fopen(path, "rb");
    if (!f) {
        *why = strerror(errno);
        return NULL;
    }
    char *text = read_stream(f, len, why);
    fclose(f);
    return text;
}

/* Where the `#` of line `line`'s comment is (an offset in the line), or -1. Comments
 * are the only place a `#` can be outside a string. */
static int comment_column(const Source *src, int line)
{
    size_t len;
    const char *text = source_line(src, line, &len);
    bool quoted = false;
    for (size_t i = 0; i < len; i++) {
        if (text[i] == '"')
            quoted = !quoted;
        else if (text[i] == '#' && !quoted)
            return (int)i;
    }
    return -1;
}

/* Appends the comment of `line` from its column `at`, trimmed, to buf. */
static size_t append_comment(const Source *src, int line, int at, char *buf, size_t used,
                             size_t cap)
{
    size_t len;
    const char *text = source_line(src, line, &len);
    size_t b = (size_t)at + 1, e = len;
    while (b < e && (text[b] == ' ' || text[b] == '\t'))
        b++;
    while (e > b && (text[e - 1] == ' ' || text[e - 1] == '\t' || text[e - 1] == '\r'))
        e--;
    if (used > 0 && used + 1 < cap)
        buf[used++] = ' ';
    size_t n = e - b < cap - 1 - used ? e - b : cap - 1 - used;
    memcpy(buf + used, text + b, n);
    buf[used + n] = '\0';
    return used + n;
}

/* True when line `line` holds nothing but a comment starting at column `at`. */
static bool continues_comment(const Source *src, int line, int at)
{
    size_t len;
    const char *text = source_line(src, line, &len);
    if ((size_t)at >= len || text[at] != '#')
        return false;
    for (int i = 0; i < at; i++)
        if (text[i] != ' ' && text[i] != '\t')
            return false;
    return true;
}

size_t source_trailing_comment(const Source *src, int offset, char *buf, size_t cap)
{
    int line, col;
    if (cap == 0)
        return 0;
    buf[0] = '\0';
    source_position(src, offset, &line, &col);
    int at = comment_column(src, line);
    if (at < 0 || (size_t)at < (size_t)(offset - (int)src->line_starts[line - 1]))
        return 0;
    size_t used = append_comment(src, line, at, buf, 0, cap);
    while (++line <= src->nlines && continues_comment(src, line, at))
        used = append_comment(src, line, at, buf, used, cap);
    return used;
}

char *source_resolve(const Source *from, const char *path)
{
    const char *slash = strrchr(from->name, '/');
    if (path[0] == '/' || from->name[0] == '<' || !slash)
        return strdup(path);
    size_t dir = (size_t)(slash - from->name) + 1;
    char *full = malloc(dir + strlen(path) + 1);
    if (full) {
        memcpy(full, from->name, dir);
        strcpy(full + dir, path);
    }
    return full;
}

int source_doc_comment(const char *text, int at)
{
    int start = at, line = at;
    while (line > 0) { /* back over the lines above that start with # */
        int prev = line - 1;
        while (prev > 0 && text[prev - 1] != '\n')
            prev--;
        int p = prev;
        while (text[p] == ' ' || text[p] == '\t')
            p++;
        if (text[p] != '#')
            break;
        start = line = prev;
    }
    return start;
}
