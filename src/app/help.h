/* help.h — `help NAME` (a block or a model) and the models `names` lists. */
#ifndef ROOFLINE_HELP_H
#define ROOFLINE_HELP_H

#include <stdio.h>

#include "eval.h"

/* Prints the help on a block or a model; false when word names neither. */
bool help_on(const World *w, const char *word, FILE *out);
void help_list_models(const World *w, FILE *out);

#endif
