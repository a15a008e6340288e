/* outfile.c — files written whole or not at all (outfile.h). */
#include "outfile.h"

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum { TEMP_TRIES = 100, LINK_HOPS = 40 };

/* ---- the temporary file's name, for a signal handler ------------------------------ */

/* The temporary file that exists now, in static storage: a handler may only unlink() a
 * name it already has. One at a time: the tool writes its files one after another. */
static char temp_pending[PATH_MAX + 64];
static volatile sig_atomic_t temp_recorded;
static const int ending_signals[] = {SIGHUP, SIGINT, SIGTERM, SIGXFSZ};
enum { ENDING_SIGNALS = sizeof ending_signals / sizeof ending_signals[0] };
static struct sigaction ending_old[ENDING_SIGNALS];
static bool ending_caught[ENDING_SIGNALS];

/* unlink, signal and raise are async-signal-safe: the run ends as the signal says,
 * without the half-written file beside the target. */
static void on_ending_signal(int signo)
{
    if (temp_recorded)
        unlink(temp_pending);
    signal(signo, SIG_DFL);
    raise(signo); /* delivered on return: the status says which signal ended it */
}

/* Catches the signals whose default ends the run; one the program handles itself (the
 * REPL's Ctrl-C) or ignores stays as it is. */
static void temp_record(const char *name)
{
    size_t n = strlen(name);
    if (temp_recorded || n >= sizeof temp_pending)
        return;
    memcpy(temp_pending, name, n + 1);
    temp_recorded = 1;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_ending_signal;
    sigemptyset(&sa.sa_mask);
    for (int i = 0; i < ENDING_SIGNALS; i++) {
        ending_caught[i] = sigaction(ending_signals[i], NULL, &ending_old[i]) == 0 &&
                           ending_old[i].sa_handler == SIG_DFL &&
                           sigaction(ending_signals[i], &sa, NULL) == 0;
    }
}

static void temp_forget(void)
{
    if (!temp_recorded)
        return;
    for (int i = 0; i < ENDING_SIGNALS; i++)
        if (ending_caught[i])
            sigaction(ending_signals[i], &ending_old[i], NULL);
    temp_recorded = 0;
}

/* ---- where the text goes ---------------------------------------------------------- */

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

/* DIR/NAME for the link text NAME read from the link DIR/LINK (an absolute NAME as is). */
static char *link_join(const char *link, const char *name)
{
    const char *slash = strrchr(link, '/');
    int dir = name[0] == '/' || !slash ? 0 : (int)(slash - link + 1);
    size_t size = (size_t)dir + strlen(name) + 1;
    char *joined = malloc(size);
    if (joined)
        snprintf(joined, size, "%.*s%s", dir, link, name);
    return joined;
}

/* Whether PATH lies in /proc (after its directory's links): /dev/stdout and /dev/fd/N
 * lead there, to links that name what a descriptor is open on, which is written in
 * place (a shell's `> /dev/stdout`), never replaced. */
static bool in_proc(const char *path)
{
    const char *slash = strrchr(path, '/');
    char *dir = slash ? strndup(path, (size_t)(slash - path) + 1) : strdup(".");
    char *real = dir ? realpath(dir, NULL) : NULL;
    bool proc = real && strncmp(real, "/proc/", 6) == 0;
    free(real);
    free(dir);
    return proc;
}

/* PATH with its symbolic links followed to the file they name (which need not exist),
 * or PATH itself where a link leads into /proc; NULL with errno set (ELOOP: a cycle). */
static char *link_follow(const char *path, bool *proc)
{
    char *at = strdup(path);
    char text[PATH_MAX];
    *proc = false;
    for (int hop = 0; at; hop++) {
        struct stat st;
        if (lstat(at, &st) != 0 || !S_ISLNK(st.st_mode))
            return at;
        if ((*proc = in_proc(at))) {
            free(at);
            return strdup(path);
        }
        ssize_t n = hop < LINK_HOPS ? readlink(at, text, sizeof text - 1) : -1;
        if (n < 0) {
            int why = hop < LINK_HOPS ? errno : ELOOP;
            free(at);
            errno = why;
            return NULL;
        }
        text[n] = '\0';
        char *next = link_join(at, text);
        free(at);
        at = next;
    }
    errno = ENOMEM;
    return NULL;
}

/* A device or a pipe: anything but a file or a directory (which fails as a file would). */
static bool special(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode);
}

/* Opened now, so a device that cannot be written fails before any work; written at
 * close from an anonymous file that counts the bytes. */
static bool device_open(OutFile *o, bool proc)
{
    /* A descriptor's file (`--html /dev/stdout > out`) grows at its end, as the run's
     * other output does, rather than being cut to nothing under it. */
    o->device = fopen(o->target, proc ? "a" : "w");
    if (!o->device)
        return false;
    o->f = tmpfile();
    if (o->f)
        return true;
    int why = errno;
    fclose(o->device);
    o->device = NULL;
    errno = why;
    return false;
}

static bool temp_open(OutFile *o)
{
    for (int attempt = 0; attempt < TEMP_TRIES; attempt++) {
        o->temp = temp_name(o->target, attempt);
        if (!o->temp) {
            errno = ENOMEM;
            return false;
        }
        temp_record(o->temp); /* before it exists: no moment when a signal leaves it */
        o->f = fopen(o->temp, "wx"); /* x: never one that is there already */
        if (o->f)
            return true;
        int why = errno;
        temp_forget();
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

bool outfile_open(OutFile *o, const char *path)
{
    *o = (OutFile){.path = path};
    bool proc;
    o->target = link_follow(path, &proc);
    if (!o->target)
        return false;
    bool ok = proc || special(o->target) ? device_open(o, proc) : temp_open(o);
    if (!ok) {
        int why = errno;
        free(o->target);
        o->target = NULL;
        errno = why;
    }
    return ok;
}

/* ---- putting it in place ---------------------------------------------------------- */

/* The errno of a step that failed, or EIO when it set none. */
static int cause(int why)
{
    return why ? why : EIO;
}

/* The first failure among the caller's writes, the flush and the close, or 0; *size
 * (when asked) the bytes written, taken once flushed (the flush reports a failed write). */
static int close_temp(FILE *f, bool written, long *size)
{
    int why = written ? 0 : cause(errno); /* the caller's failed write set errno */
    errno = 0;
    if (!why && (fflush(f) != 0 || ferror(f)))
        why = cause(errno);
    if (!why && size && (*size = ftell(f)) < 0)
        why = cause(errno);
    errno = 0;
    if (fclose(f) != 0 && !why)
        why = cause(errno);
    return why;
}

/* The gathered text to the device, counted; the first failure, or 0. */
static int device_copy(OutFile *o)
{
    char buf[8192];
    size_t n;
    errno = 0;
    if (fflush(o->f) != 0 || fseek(o->f, 0, SEEK_SET) != 0)
        return cause(errno);
    while ((n = fread(buf, 1, sizeof buf, o->f)) > 0) {
        if (fwrite(buf, 1, n, o->device) != n)
            return cause(errno);
        o->bytes += (long)n;
    }
    return ferror(o->f) ? cause(errno) : 0;
}

static int device_close(OutFile *o, bool written)
{
    int why = written ? 0 : cause(errno);
    if (!why)
        why = device_copy(o);
    fclose(o->f);
    int closed = close_temp(o->device, why == 0, NULL); /* a device's own error shows here */
    return why ? why : closed;
}

/* The target's permissions on the new file, when there was one: libedit makes the
 * history 0600 and fopen 0666 less the umask, whatever the file they replace had. */
static int keep_mode(const char *temp, const char *target)
{
    struct stat st;
    errno = 0;
    if (stat(target, &st) != 0)
        return errno == ENOENT ? 0 : cause(errno);
    return chmod(temp, st.st_mode & 0777) == 0 ? 0 : cause(errno);
}

static int file_close(OutFile *o, bool written)
{
    int why = close_temp(o->f, written, &o->bytes);
    if (!why)
        why = keep_mode(o->temp, o->target);
    errno = 0;
    if (!why && rename(o->temp, o->target) != 0)
        why = cause(errno);
    if (why)
        remove(o->temp);
    temp_forget();
    return why;
}

bool outfile_close(OutFile *o, bool written)
{
    int why = o->device ? device_close(o, written) : file_close(o, written);
    free(o->temp);
    free(o->target);
    o->f = o->device = NULL;
    o->temp = o->target = NULL;
    errno = why;
    return why == 0;
}
