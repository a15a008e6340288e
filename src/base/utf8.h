/* utf8.h — well-formed UTF-8, for every writer that must not pass a bad byte on (JSON
 * strings, CSV fields, error messages). */
#ifndef ROOFLINE_UTF8_H
#define ROOFLINE_UTF8_H

#include <stddef.h>

/* The length (1 to 4) of the well-formed UTF-8 character at s, of at most n bytes, or 0
 * when it is not one: a stray continuation byte, a cut sequence, an overlong form, a
 * surrogate or a code point above U+10FFFF (Unicode's table 3-7). n must be >= 1. */
int utf8_length(const unsigned char *s, size_t n);

/* U+FFFD, the replacement character, as UTF-8: what stands for a byte that is not. */
#define UTF8_REPLACEMENT "\xEF\xBF\xBD"

#endif
