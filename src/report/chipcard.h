/* chipcard.h — a chip in full (`chip v5p`): each field, its meaning and its source,
 * and the figures derived from them; as text or as one JSON object. */
#ifndef ROOFLINE_CHIPCARD_H
#define ROOFLINE_CHIPCARD_H

#include <stdbool.h>
#include <stdio.h>

#include "chip.h"

void chipcard_print(const Chip *c, bool json, FILE *out);

#endif
