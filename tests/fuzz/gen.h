/* gen.h — what the statement generators share (fuzz_gen.c, which libFuzzer steers, and
 * tests/unit/test_props.c, which a seeded generator steers): a program is built from a
 * string of choices, one byte each, appended to a text buffer. Choices past the end of
 * the string are zeros, so every string makes a program.
 * Ownership: a Gen owns its text; the choices belong to the caller. */
#ifndef ROOFLINE_GEN_H
#define ROOFLINE_GEN_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum { GEN_TEXT_MAX = 1 << 16 };

typedef struct {
    const uint8_t *choice; /* the next choice; zeros when used up */
    size_t left;
    char text[GEN_TEXT_MAX];
    size_t len;
} Gen;

/* One of n (n > 0), from the next choice. */
static inline unsigned gen_pick(Gen *g, size_t n)
{
    if (!g->left)
        return 0;
    g->left--;
    return (unsigned)(*g->choice++ % n);
}

/* One word of a static array. */
#define GEN_PICK(g, words) (words)[gen_pick((g), sizeof(words) / sizeof *(words))]

/* Appends to the text; what does not fit is cut. */
static inline void gen_emit(Gen *g, const char *format, ...)
    __attribute__((format(printf, 2, 3)));

static inline void gen_emit(Gen *g, const char *format, ...)
{
    va_list ap;
    va_start(ap, format);
    int n = vsnprintf(g->text + g->len, sizeof g->text - g->len, format, ap);
    va_end(ap);
    if (n > 0)
        g->len += (size_t)n < sizeof g->text - g->len ? (size_t)n : sizeof g->text - g->len - 1;
}

#endif
