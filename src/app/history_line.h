/* history_line.h — a statement typed on several lines, as one line that reads the same,
 * for the REPL's history.
 *
 * A statement goes on past a newline inside brackets or braces, or after an operator or
 * a comma. Inside brackets and after an operator the newline is only space; between
 * two statements (of a body in braces) it separates them, so it becomes `; `. Comments
 * go (on one line they would hide what follows); strings stay as written.
 */
#ifndef ROOFLINE_HISTORY_LINE_H
#define ROOFLINE_HISTORY_LINE_H

#include <stddef.h>

/* The len bytes of text on one line, NUL-terminated, to free; NULL when out of memory. */
char *history_line(const char *text, size_t len);

#endif
