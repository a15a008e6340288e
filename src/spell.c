/* spell.c — edit distance between short names (insertions, deletions, replacements
 * and swaps of neighbours), for "did you mean" notes. */
#include "spell.h"

#include <string.h>

enum { SPELL_LONGEST = 31, SPELL_NEAR = 2 };

int spell_distance(const char *a, const char *b)
{
    size_t n = strlen(a), m = strlen(b);
    if (n > SPELL_LONGEST || m > SPELL_LONGEST)
        return 1000;
    int older[SPELL_LONGEST + 1], prev[SPELL_LONGEST + 1], row[SPELL_LONGEST + 1];
    for (size_t j = 0; j <= m; j++)
        prev[j] = (int)j;
    for (size_t i = 1; i <= n; i++) {
        row[0] = (int)i;
        for (size_t j = 1; j <= m; j++) {
            int replace = prev[j - 1] + (a[i - 1] != b[j - 1]);
            int drop = prev[j] + 1, add = row[j - 1] + 1;
            int best = replace < drop ? replace : drop;
            row[j] = best < add ? best : add;
            /* two neighbours swapped count as one edit: glue, gelu */
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
                older[j - 2] + 1 < row[j])
                row[j] = older[j - 2] + 1;
        }
        memcpy(older, prev, sizeof prev);
        memcpy(prev, row, sizeof row);
    }
    return prev[m];
}

SpellNear spell_begin(const char *word)
{
    return (SpellNear){word, NULL, SPELL_NEAR + 1};
}

void spell_offer(SpellNear *s, const char *name)
{
    int d = spell_distance(s->word, name);
    /* near: at most 2 edits, and fewer than half the word (v9 is not near v3) */
    if (d > 0 && d < s->distance && 2 * d < (int)strlen(s->word)) {
        s->distance = d;
        s->best = name;
    }
}
