/* progress.h — a line on the terminal while a statement runs long (a sweep's points, a
 * search's configurations): how many are done, the rate, the time left,
 *
 *   sweep: 41,000 of 1,000,000 points, 912/s, 17m32s left
 *
 * on stderr, rewritten in place with \r. Only when stderr is a terminal (never in a
 * file or a pipe, so outputs and goldens are unchanged), first after half a second (a
 * quick statement shows nothing), then at most four times a second, and cleared before
 * anything else is written to the terminal: before a row (progress_before_row), an
 * error (diag.h) or the results (progress_end).
 */
#ifndef ROOFLINE_PROGRESS_H
#define ROOFLINE_PROGRESS_H

#include <stdbool.h>

typedef struct {
    const char *what;  /* "sweep", "search" */
    const char *items; /* "points", "configurations" */
    double total, done;
    double started, drawn; /* seconds, monotonic */
    int width;             /* of the line on the terminal; 0 when none is shown */
    bool tty;
    bool rows_on_tty;      /* stdout is a terminal as well: rows would break the line */
} Progress;

void progress_begin(Progress *p, const char *what, const char *items, double total);
/* `by` more items done; draws the line when it is due. */
void progress_advance(Progress *p, double by);
/* Clears the line, if shown, so that other output starts at column 0. */
void progress_hide(Progress *p);
/* Before a row goes to stdout: clears the line when stdout is a terminal too. */
void progress_before_row(Progress *p);
void progress_end(Progress *p);

#endif
