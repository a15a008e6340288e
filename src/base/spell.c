/* spell.c — edit distance between short names (insertions, deletions, replacements
 * and swaps of neighbours), for "did you mean" notes. */
#include "spell.h"

#include <ctype.h>
#include <string.h>

enum { SPELL_LONGEST = 31, SPELL_NEAR = 2 };

/* Characters that read alike count as one: a letter in either case, O and 0, I or l
 * and 1 (H1OO is H100). */
static int plain(char c)
{
    int l = tolower((unsigned char)c);
    return l == 'o' ? '0' : l == 'i' || l == 'l' ? '1' : l;
}

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
            int replace = prev[j - 1] + (plain(a[i - 1]) != plain(b[j - 1]));
            int drop = prev[j] + 1, add = row[j - 1] + 1;
            int best = replace < drop ? replace : drop;
            row[j] = best < add ? best : add;
            /* two neighbours swapped count as one edit: glue, gelu */
            if (i > 1 && j > 1 && plain(a[i - 1]) == plain(b[j - 2]) &&
                plain(a[i - 2]) == plain(b[j - 1]) &&
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
    return (SpellNear){word, NULL, 2 * SPELL_NEAR + 1};
}

void spell_offer(SpellNear *s, const char *name)
{
    /* in half edits: a name that differs only by look-alike characters is nearer than
     * one edit away */
    int d = spell_distance(s->word, name);
    int half = d > 0 ? 2 * d : strcmp(s->word, name) != 0 ? 1 : 0;
    /* near: at most 2 edits, and fewer than half the word (v9 is not near v3) */
    if (half > 0 && half < s->distance && half < (int)strlen(s->word)) {
        s->distance = half;
        s->best = name;
    }
}
