/* help.h — `help NAME` (a block or a model) and the models `names` lists. */
#ifndef ROOFLINE_HELP_H
#define ROOFLINE_HELP_H

#include <stdio.h>

#include "eval.h"

/* Prints the help on a block or a model; false when word names neither. */
bool help_on(const World *w, const char *word, FILE *out);
void help_list_models(const World *w, FILE *out);

/* `help WORD` anywhere (a script, -e, stdin, the REPL): "" the overview and the topics;
 * a statement or clause word its syntax, options and an example; a block or a model
 * as help_on; a dtype the dtypes; a chip its card. False when word is none of them. */
bool help_topic(const World *w, const char *word, FILE *out);
/* The topic, block, model or chip nearest a misspelt word, into buf, for "did you
 * mean"; false when none is near. */
bool help_nearest(const World *w, const char *word, char *buf, size_t size);

#endif
