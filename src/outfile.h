/* outfile.h — files the tool writes (a chart's SVG, the REPL's history), written whole
 * or not at all.
 *
 * The text goes to a temporary file beside the target (same directory, so the rename is
 * atomic), and replaces the target only when every write, the flush and the close
 * succeeded. On any failure the temporary file is removed and the target is as it was:
 * a full disk never leaves half a chart in place of the one that was there.
 * Ownership: an OutFile borrows its path and owns the temporary file's name.
 */
#ifndef ROOFLINE_OUTFILE_H
#define ROOFLINE_OUTFILE_H

#include <stdbool.h>
#include <stdio.h>

typedef struct {
    FILE *f;          /* write the contents here */
    const char *path; /* the target */
    char *temp;       /* DIR/.NAME.PID-N.tmp beside the target; NULL for a device or a
                       * pipe, written in place */
} OutFile;

/* Creates the temporary file. false (errno says why, *o empty) when it cannot be. */
bool outfile_open(OutFile *o, const char *path);

/* written: whether the caller's own writes succeeded. Closes the temporary file and,
 * when everything succeeded, renames it over the target; else removes it. Returns
 * whether the target now holds the new contents; on false errno says why (EIO when
 * the cause is not known). */
bool outfile_close(OutFile *o, bool written);

#endif
