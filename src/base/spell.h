/* spell.h — the nearest of some names to a misspelt one, for "did you mean" notes. */
#ifndef ROOFLINE_SPELL_H
#define ROOFLINE_SPELL_H

/* Edits (insert, delete or replace a character, or swap two neighbours) from a to b,
 * characters that read alike (either case, O and 0, I or l and 1) counting as equal;
 * names longer than 31 characters count as far from everything. */
int spell_distance(const char *a, const char *b);

/* Keeps the nearest name seen so far within 2 edits of `word`, and fewer than half its
 * length (not `word` itself). */
typedef struct {
    const char *word;
    const char *best; /* NULL until one is near enough */
    int distance;     /* in half edits (a look-alike difference is half of one) */
} SpellNear;
SpellNear spell_begin(const char *word);
void spell_offer(SpellNear *s, const char *name);

#endif
