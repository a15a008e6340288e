/* check.h — the unit tests' tally, shared by every tests/unit/test_*.c (each its own
 * program): one FAIL line per failed check, then the "N passed, M failed" line that
 * tests/run reads. */
#ifndef ROOFLINE_TEST_CHECK_H
#define ROOFLINE_TEST_CHECK_H

#include <stdbool.h>
#include <stdio.h>

static int passed, failed;

/* Counts a check; on failure prints `what` and, when not NULL, what it got. */
static inline void check_got(bool ok, const char *file, int line, const char *what, const char *got)
{
    if (ok) {
        passed++;
        return;
    }
    failed++;
    if (got)
        printf("FAIL %s:%d: %s (got %s)\n", file, line, what, got);
    else
        printf("FAIL %s:%d: %s\n", file, line, what);
}

static inline void check(bool ok, const char *file, int line, const char *what)
{
    check_got(ok, file, line, what, NULL);
}

#endif
