/* prebuilt.h — the stdlib as the build parsed and checked it, for a fast start.
 *
 * The build's first stage (tools/prebuild.c, session_prebuild) runs the stdlib's files
 * the way a session used to at every start, and writes build/stdlib_prebuilt.c: the names
 * they intern, in order (so every id is what parsing gives); the chips of the files
 * that define only chips, every field with its value and source; and, for the files
 * that define blocks and models, the names they define. A session starts from that:
 * it interns the names, puts the chips in its table and watches the defined names; the
 * block files run (as before, parsed from the embedded text) the first time a source
 * names one of them or something lists them (session.c).
 *
 * tests/unit/test_prebuilt.c compares a session started this way with one that parsed
 * the stdlib, field by field.
 */
#ifndef ROOFLINE_PREBUILT_H
#define ROOFLINE_PREBUILT_H

#include <stdbool.h>
#include <stdio.h>

#include "eval.h"

typedef struct {
    int field;          /* a ChipField */
    double value;
    const char *source; /* its comment in the stdlib, or NULL */
} PrebuiltField;

typedef struct {
    const char *name;
    const PrebuiltField *fields; /* every field it sets, a parent's too */
    int nfields;
} PrebuiltChip;

typedef struct {
    bool ready;                /* false in the first stage, which parses the stdlib */
    const char *const *names;  /* interned, by id */
    int nnames;
    const PrebuiltChip *chips; /* in the order defined */
    int nchips;
    const int *defined;        /* ids of the blocks and models the other files define */
    int ndefined;
    const char *const *files;  /* those files, in the order they run */
    int nfiles;
} Prebuilt;

/* build/stdlib_prebuilt.c's; in the first stage, tools/prebuilt_none.c's (not ready). */
extern const Prebuilt prebuilt;

/* The world as the stdlib's chip files leave it, its block files' names watched
 * (intern_watch). False when out of memory. */
bool prebuilt_load(World *w, const Prebuilt *p);

/* Writes build/stdlib_prebuilt.c from a world that ran the whole stdlib, given the files
 * that define blocks and models and how many chips the others defined. False when a
 * write failed. */
bool prebuilt_write(const World *w, const char *const *files, int nfiles, FILE *out);

#endif
