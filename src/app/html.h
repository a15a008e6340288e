/* html.h — the run as one self-contained HTML page (--html FILE).
 *
 * The page is drawn from the run's JSON records, the very lines --json prints: the
 * session writes them to html_records() and the chips' records (--chips --json) to
 * html_chips(); html_write reads them back (json.h) and lays them out, so every figure
 * on the page is a figure of those records, and the data still flows one way (costs →
 * report → page). What it draws, by record:
 *   a block call or repeat (a model)  totals, a roofline chart of its operations, its
 *                                     memory against HBM, the breakdown as a tree
 *   statements                        a roofline chart and a table, formulas on hover
 *   a sweep                           its curves with the crossovers marked; its tables
 *   a search                          the Pareto chart and the ranked table
 *   anything else (solve, fit, serve) its fields
 * The page has inline CSS and SVG and one small script that only sorts; it reads the
 * same with scripting off, and names nothing outside itself.
 * Ownership: an HtmlPage owns its two temporary files; html_free closes them.
 */
#ifndef ROOFLINE_HTML_H
#define ROOFLINE_HTML_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

typedef struct HtmlPage HtmlPage;

/* NULL when no temporary file can be made (why in errno). */
HtmlPage *html_new(void);
void html_free(HtmlPage *p);
FILE *html_records(HtmlPage *p);
FILE *html_chips(HtmlPage *p);

/* The statements' records as they were written, to out (--json beside --html). */
bool html_copy_records(HtmlPage *p, FILE *out);

typedef struct {
    const char *path;   /* where the page goes: a temporary file beside it, renamed */
    const char *title;  /* what ran: the scripts' names */
    int status;         /* the run's exit status: a page of a failed run says so */
} HtmlOptions;

/* Writes the page; false with a message in why (a record that does not read, or the
 * file). On success *bytes is the page's size. */
bool html_write(HtmlPage *p, const HtmlOptions *o, long *bytes, char *why, size_t size);

#endif
