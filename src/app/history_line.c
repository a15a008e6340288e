/* history_line.c — a statement of several lines as one line (history_line.h). */
#include "history_line.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    char *out;
    size_t n;
    int brackets; /* ( and [ open */
} Joined;

static bool name_char(char c)
{
    return c == '_' || isalnum((unsigned char)c);
}

/* Whether the text so far ends where a statement must go on: an open bracket or brace,
 * a comma, an operator, or a contraction `*_D`. */
static bool ends_open(const Joined *j)
{
    if (j->n == 0)
        return false;
    char last = j->out[j->n - 1];
    if (strchr("{([,+-*/=^<>|&:!", last))
        return true;
    size_t i = j->n;
    while (i > 0 && name_char(j->out[i - 1]))
        i--;
    return i < j->n && i > 0 && j->out[i - 1] == '*' && j->out[i] == '_';
}

/* Appends one line: leading space and the comment dropped, brackets counted outside
 * strings; before it a space, or "; " where the line before ended a statement (outside
 * brackets, not open, and this line not the `}` that ends a body). */
static void append_line(Joined *j, const char *line, size_t len)
{
    while (len > 0 && isspace((unsigned char)*line))
        line++, len--;
    size_t end = 0;
    for (bool quoted = false; end < len && (quoted || line[end] != '#'); end++)
        quoted ^= line[end] == '"';
    while (end > 0 && isspace((unsigned char)line[end - 1]))
        end--;
    if (end == 0)
        return;
    if (j->n > 0) {
        bool between = j->brackets == 0 && !ends_open(j) && line[0] != '}';
        if (between)
            j->out[j->n++] = ';';
        j->out[j->n++] = ' ';
    }
    bool quoted = false;
    for (size_t i = 0; i < end; i++) {
        char c = line[i];
        quoted ^= c == '"';
        if (!quoted) {
            j->brackets += (c == '(' || c == '[') - (c == ')' || c == ']');
        }
        j->out[j->n++] = c;
    }
}

char *history_line(const char *text, size_t len)
{
    /* each newline becomes at most "; " */
    Joined j = {.out = malloc(2 * len + 1)};
    if (!j.out)
        return NULL;
    for (size_t at = 0; at < len;) {
        const char *nl = memchr(text + at, '\n', len - at);
        size_t line = nl ? (size_t)(nl - (text + at)) : len - at;
        append_line(&j, text + at, line);
        at += line + 1;
    }
    j.out[j.n] = '\0';
    return j.out;
}
