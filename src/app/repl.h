/* repl.h — the interactive loop: line editing, continuation, history, completion. */
#ifndef ROOFLINE_REPL_H
#define ROOFLINE_REPL_H

#include "session.h"

/* Read statements from stdin until EOF or `quit`, running each through the session.
 * With a terminal: a banner, prompts, Ctrl-C drops an unfinished statement, and with
 * libedit also history in ~/.roofline_history and tab completion. Without a terminal:
 * plain lines, no prompts, no history. quit and exit (quit(), exit()) end it when a line
 * holds only the word; help, names and chips are statements, run by the session.
 * Returns the exit status: on a terminal 0, since errors there end nothing; otherwise
 * the highest status of any statement (a piped script fails like a file would). A
 * failed write to stdout or the session's output makes it at least 1. */
int repl_run(Session *s, bool interactive_terminal);

/* What Tab offers for the word `text` that starts at `start` in `line`: a
 * NULL-terminated array, [0] the matches' common prefix, then each match once, sorted;
 * NULL when none. The caller frees each string and the array (libedit does). */
char **repl_complete(Session *s, const char *line, const char *text, int start);

/* What Tab does with the cursor at byte `cursor` of `line`, as libedit wants it when it
 * hands over the line up to the cursor as the word: the word that ends at the cursor
 * is completed in the context of the text before it, and [0] is what replaces
 * line[0, cursor): that text, then the matches' common prefix; then each match once,
 * sorted (the word only); a single match is [1] too. NULL when none. Reads `line` no
 * further than the cursor or a NUL, and only before it returns; needs no terminal.
 * The caller frees each string and the array. */
char **repl_complete_line(Session *s, const char *line, size_t cursor);

#endif
