/* test_spell.c — unit tests for spell.c: edit distances worked by hand, and which
 * names count as near. Prints one FAIL line per failure and ends with
 * "N passed, M failed". */
#include "check.h"
#include "spell.h"

#include <stdio.h>
#include <string.h>

#define DISTANCE(a, b, want)                                                                 \
    check(spell_distance(a, b) == (want), __FILE__, __LINE__, "distance " a " to " b " is " #want)

static void test_distances(void)
{
    DISTANCE("", "", 0);
    DISTANCE("v5e", "v5e", 0);
    DISTANCE("v5ee", "v5e", 1);      /* one deletion */
    DISTANCE("v5", "v5e", 1);        /* one insertion */
    DISTANCE("v5p", "v5e", 1);       /* one replacement */
    DISTANCE("--sjon", "--json", 1); /* two neighbours swapped */
    DISTANCE("glue", "gelu", 2);     /* e moved two places: not a swap of neighbours */
    DISTANCE("kitten", "sitting", 3);
    DISTANCE("", "abc", 3);
    char longer[40];
    memset(longer, 'a', sizeof longer - 1);
    longer[sizeof longer - 1] = '\0';
    check(spell_distance(longer, longer) >= 1000, __FILE__, __LINE__,
          "a name over 31 characters is far from everything, itself too");
}

static const char *nearest(const char *word, const char *const *names)
{
    SpellNear near = spell_begin(word);
    for (int i = 0; names[i]; i++)
        spell_offer(&near, names[i]);
    return near.best;
}

static void test_near(void)
{
    static const char *const chips[] = {"v3", "v4p", "v5e", "v5p", "v6e", "H100", NULL};
    const char *got = nearest("v5ee", chips);
    check_got(got && strcmp(got, "v5e") == 0, __FILE__, __LINE__, "v5ee is near v5e",
              got ? got : "none");
    got = nearest("v9", chips); /* 1 edit from v3, but half of a 2-letter name */
    check_got(!got, __FILE__, __LINE__, "v9 is near nothing", got ? got : "none");
    got = nearest("v5e", chips); /* the name itself is not a suggestion */
    check_got(!got || strcmp(got, "v5e") != 0, __FILE__, __LINE__, "v5e does not suggest itself",
              got ? got : "none");
    static const char *const options[] = {"--json", "--csv", "--exact", NULL};
    got = nearest("--jsn", options);
    check_got(got && strcmp(got, "--json") == 0, __FILE__, __LINE__, "--jsn is near --json",
              got ? got : "none");
    got = nearest("--xyzzy", options);
    check_got(!got, __FILE__, __LINE__, "--xyzzy is near nothing", got ? got : "none");
}

int main(void)
{
    test_distances();
    test_near();
    printf("%d passed, %d failed\n", passed, failed);
    return failed != 0;
}
