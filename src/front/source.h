/* source.h — one loaded text: its name, its bytes, where its lines start.
 *
 * Spans are byte offsets into the text; source_position turns an offset into the
 * line and column a person reads (columns count characters, not bytes).
 * Ownership: a Source owns a copy of its name and its text.
 */
#ifndef ROOFLINE_SOURCE_H
#define ROOFLINE_SOURCE_H

#include <stdbool.h>
#include <stddef.h>

#include "caps.h"

typedef struct {
    int begin, end; /* byte offsets, end exclusive */
} Span;

typedef struct Source {
    char *name;
    char *text; /* NUL-terminated copy */
    size_t len;
    size_t *line_starts;
    int nlines;
    const struct Source *parent; /* the file that included this one, for cycles */
    bool library; /* the stdlib's: an error in it is located at the user's call */
} Source;

Source *source_new(const char *name, const char *text, size_t len);
void source_free(Source *src);

/* 1-based line and column of a byte offset. */
void source_position(const Source *src, int offset, int *line, int *col);
/* The bytes of line `line` (1-based), without its newline. */
const char *source_line(const Source *src, int line, size_t *len);


/* The `#` comment that ends the line holding byte `offset`, continued by comment-only
 * lines whose `#` is in the same column, joined by spaces and trimmed, into buf (at most
 * cap − 1 bytes, NUL-terminated). Its length; 0 when the line has no comment. */
size_t source_trailing_comment(const Source *src, int offset, char *buf, size_t cap);

/* The whole of a file (or stdin when path is NULL), NUL-terminated, in a new heap
 * buffer; NULL with *why set ("is a directory", strerror, "larger than 64 MiB"). */
char *source_read_file(const char *path, size_t *len, const char **why);

/* `path` as seen from the file `from`: a relative path starts in from's directory (in
 * the current one for <stdin> and -e). A new heap string; NULL if out of memory. */
char *source_resolve(const Source *from, const char *path);

/* Where the `#` comment lines just above offset `at` of text begin (a definition's doc
 * comment); `at` when there are none. */
int source_doc_comment(const char *text, int at);

#endif
