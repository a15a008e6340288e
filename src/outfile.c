/* outfile.c — files written whole or not at all (outfile.h). */
#include "outfile.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum { TEMP_TRIES = 100 };

/* DIR/.NAME.PID-N.tmp for the target DIR/NAME: hidden, and never a name the tool writes. */
static char *temp_name(const char *path, int attempt)
{
    const char *slash = strrchr(path, '/');
    int dir = slash ? (int)(slash - path + 1) : 0;
    size_t size = strlen(path) + 48;
    char *name = malloc(size);
    if (name)
        snprintf(name, size, "%.*s.%s.%ld-%d.tmp", dir, path, path + dir, (long)getpid(),
                 attempt);
    return name;
}

/* A device or a pipe (/dev/stdout, a FIFO) is written in place: it holds no old
 * contents to keep, and renaming a file over it would replace the device itself. */
static bool special(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode);
}

bool outfile_open(OutFile *o, const char *path)
{
    *o = (OutFile){.path = path};
    if (special(path))
        return (o->f = fopen(path, "w")) != NULL;
    for (int attempt = 0; attempt < TEMP_TRIES; attempt++) {
        o->temp = temp_name(path, attempt);
        if (!o->temp) {
            errno = ENOMEM;
            return false;
        }
        o->f = fopen(o->temp, "wx"); /* x: never one that is there already */
        if (o->f)
            return true;
        int why = errno;
        free(o->temp);
        o->temp = NULL;
        if (why != EEXIST) {
            errno = why;
            return false;
        }
    }
    errno = EEXIST;
    return false;
}

/* The errno of a step that failed, or EIO when it set none. */
static int cause(int why)
{
    return why ? why : EIO;
}

/* The first failure among the caller's writes, the flush and the close, or 0. */
static int close_temp(FILE *f, bool written)
{
    int why = written ? 0 : cause(errno); /* the caller's failed write set errno */
    errno = 0;
    if (!why && (fflush(f) != 0 || ferror(f)))
        why = cause(errno);
    errno = 0;
    if (fclose(f) != 0 && !why)
        why = cause(errno);
    return why;
}

bool outfile_close(OutFile *o, bool written)
{
    int why = close_temp(o->f, written);
    errno = 0;
    if (!why && o->temp && rename(o->temp, o->path) != 0)
        why = cause(errno);
    if (why && o->temp)
        remove(o->temp);
    free(o->temp);
    o->f = NULL;
    o->temp = NULL;
    errno = why;
    return why == 0;
}
