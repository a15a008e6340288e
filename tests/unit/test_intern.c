/* test_intern.c — the name table and the chip table cut back to an earlier size (what
 * a fuzz target's session_reset does after every input): the names and chips left keep
 * their ids and are found, those dropped are not and come back with fresh ids, and the
 * cut costs probes for what it drops, not for the whole table. */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "chip.h"
#include "intern.h"

static void intern_many(Intern *t, const char *prefix, int n)
{
    char name[32];
    for (int i = 0; i < n; i++) {
        snprintf(name, sizeof name, "%s%d", prefix, i);
        intern_id(t, name, strlen(name));
    }
}

/* How many of n names with the prefix are found, each at first + its index. */
static int found_in_place(const Intern *t, const char *prefix, int n, int first)
{
    char name[32];
    int found = 0;
    for (int i = 0; i < n; i++) {
        snprintf(name, sizeof name, "%s%d", prefix, i);
        found += intern_find(t, name) == first + i;
    }
    return found;
}

/* The probes of dropping `drop` names from a table of `keep` + `drop`. */
static unsigned long long probes_to_drop(int keep, int drop)
{
    Intern *t = intern_new();
    intern_many(t, "k", keep);
    intern_many(t, "d", drop);
    unsigned long long before = intern_name_probes;
    intern_truncate(t, keep);
    unsigned long long used = intern_name_probes - before;
    intern_free(t);
    return used;
}

static void test_names(void)
{
    Intern *t = intern_new();
    intern_many(t, "kept", 5000);
    intern_many(t, "new", 3000); /* the table grows on the way: rehashed */
    intern_truncate(t, 5000);
    check(intern_count(t) == 5000, __FILE__, __LINE__, "5000 names left");
    check(found_in_place(t, "kept", 5000, 0) == 5000, __FILE__, __LINE__,
          "every name left is found under its id");
    check(intern_find(t, "new0") == -1 &&
              intern_find(t, "new2999") == -1,
          __FILE__, __LINE__, "the names dropped are not found");
    intern_many(t, "again", 10);
    check(found_in_place(t, "again", 10, 5000) == 10, __FILE__, __LINE__,
          "names added after the cut take the ids from 5000 on");
    intern_free(t);

    /* 10 names dropped from a table of 40k, against 10 from one of 1k */
    unsigned long long big = probes_to_drop(40000, 10), small = probes_to_drop(1000, 10);
    char got[64];
    snprintf(got, sizeof got, "%llu probes at 40k names, %llu at 1k", big, small);
    check_got(big < 4 * small + 40, __FILE__, __LINE__,
              "dropping 10 names costs about the same in a table 40 times larger", got);
}

static void test_chips(void)
{
    ChipTable t = {0};
    char name[32];
    for (int i = 0; i < 100; i++) {
        snprintf(name, sizeof name, "chip%d", i);
        chip_table_put(&t, chip_new(name, NULL));
    }
    chip_table_truncate(&t, 40);
    int kept = 0, dropped = 0;
    for (int i = 0; i < 100; i++) {
        snprintf(name, sizeof name, "CHIP%d", i); /* chip names are found case folded */
        const Chip *c = chip_find(&t, name);
        kept += i < 40 && c == t.chips[i];
        dropped += i >= 40 && c == NULL;
    }
    check(t.n == 40 && kept == 40, __FILE__, __LINE__, "the 40 chips left are found in place");
    check(dropped == 60, __FILE__, __LINE__, "the 60 dropped are not found");
    chip_table_put(&t, chip_new("chip77", NULL));
    check(t.n == 41 && chip_find(&t, "chip77") == t.chips[40], __FILE__, __LINE__,
          "a chip defined after the cut takes index 40");
    chip_table_free(&t);
}

int main(void)
{
    test_names();
    test_chips();
    printf("%d passed, %d failed\n", passed, failed);
    return failed != 0;
}
