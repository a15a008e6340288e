/* outfile.h — files the tool writes (a chart's SVG, the REPL's history), written whole
 * or not at all, as a careful tool writes them.
 *
 * The text goes to a temporary file beside the target (same directory, so the rename is
 * atomic), and replaces the target only when every write, the flush and the close
 * succeeded. On any failure the temporary file is removed and the target is as it was:
 * a full disk never leaves half a chart in place of the one that was there. A signal
 * that ends the run (SIGTERM, SIGHUP, SIGINT, SIGXFSZ) while the temporary file exists
 * removes it too.
 * - A symbolic link is written through: the file it names (link after link) is the
 *   target, so the link stays a link, as editors and shells keep it.
 * - A target that exists keeps its permissions (a 0600 page stays 0600).
 * - A device or a pipe (a FIFO, /dev/null, /dev/stdout) is written in place: it holds no
 *   old contents to keep, and renaming a file over it would replace the device itself.
 *   The text is gathered in an anonymous temporary file first, so what the device got
 *   can be counted.
 * Ownership: an OutFile borrows its path and owns the other names and streams.
 */
#ifndef ROOFLINE_OUTFILE_H
#define ROOFLINE_OUTFILE_H

#include <stdbool.h>
#include <stdio.h>

typedef struct {
    FILE *f;          /* write the contents here */
    const char *path; /* the target as named */
    char *target;     /* the file replaced: path with its links followed */
    char *temp;       /* DIR/.NAME.PID-N.tmp beside the target; NULL for a device or a
                       * pipe, written in place */
    FILE *device;     /* the device or pipe, opened to write; NULL for a file */
    long bytes;       /* after outfile_close: what the target received */
} OutFile;

/* Creates the temporary file. false (errno says why, *o empty) when it cannot be. */
bool outfile_open(OutFile *o, const char *path);

/* written: whether the caller's own writes succeeded. Closes the temporary file and,
 * when everything succeeded, renames it over the target (a device: copies it there);
 * else removes it. Returns whether the target now holds the new contents; on false
 * errno says why (EIO when the cause is not known). */
bool outfile_close(OutFile *o, bool written);

#endif
