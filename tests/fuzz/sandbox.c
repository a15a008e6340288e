/* sandbox.c — keeps fuzzed programs from touching the machine. Linked into the
 * interpreter with `ld -r --wrap=fopen` (Makefile), so its every fopen comes here first
 * (but not the fuzzer's own, which writes the corpus and the crashes):
 *   - a file opened for writing (`plot "PATH"`) goes to /dev/null instead, so a
 *     mutated path cannot overwrite anything; rename and remove (outfile.c puts a
 *     written file in place with them) do nothing;
 *   - a file opened for reading (`include "PATH"`) must be a regular file, or
 *     /dev/null or /dev/zero; a terminal, a pipe or /dev/stdin could block forever.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

FILE *__real_fopen(const char *path, const char *mode);
FILE *__wrap_fopen(const char *path, const char *mode);
int __wrap_rename(const char *from, const char *to);
int __wrap_remove(const char *path);

static int readable(const char *path)
{
    struct stat st;
    if (strcmp(path, "/dev/null") == 0 || strcmp(path, "/dev/zero") == 0)
        return 1;
    return stat(path, &st) != 0 || S_ISREG(st.st_mode); /* missing: let fopen say so */
}

FILE *__wrap_fopen(const char *path, const char *mode)
{
    if (strchr(mode, 'w') || strchr(mode, 'a') || strchr(mode, '+'))
        return __real_fopen("/dev/null", "w");
    if (!readable(path)) {
        errno = EACCES;
        return NULL;
    }
    return __real_fopen(path, mode);
}

int __wrap_rename(const char *from, const char *to)
{
    (void)from;
    (void)to;
    return 0;
}

int __wrap_remove(const char *path)
{
    (void)path;
    return 0;
}
