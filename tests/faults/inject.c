/* inject.c — fault injection, as SQLite's test harness does it (tests/faults/README.md).
 *
 * Linked into the interpreter with `ld -r --wrap=...` (Makefile), so the interpreter's
 * own calls come here first and libc's internal ones do not: the counts are the
 * project's allocations and output operations only, the same on every run.
 *
 *   ROOFLINE_FAIL_ALLOC=N    the Nth allocation (malloc, calloc, realloc, strdup,
 *                            strndup) returns NULL with errno ENOMEM; later ones succeed
 *   ROOFLINE_FAIL_OUTPUT=N   the Nth output operation fails: opening a file to write,
 *                            a write (streams are line-buffered, so one a line), the
 *                            close, the rename that puts a file in place, or the REPL's
 *                            history (cut short, as libedit leaves it on a full disk);
 *                            a stream that failed once keeps failing (the disk stays full)
 *   ROOFLINE_FAIL_ERRNO=EIO  the output error: ENOSPC (the default) or EIO
 *   ROOFLINE_FAIL_SIGNAL=N   instead of failing the Nth output operation, raise signal N
 *                            there (15: a SIGTERM in the middle of writing a file)
 *   ROOFLINE_FAIL_SITE=LO-HI  count only the allocations made from code at addresses
 *                            LO..HI (a function's, from nm) once the first script was
 *                            read (after the stdlib): "the Nth in poly_alloc"
 *   ROOFLINE_FAIL_NAME=TEXT  count only the output operations on files whose name
 *                            holds TEXT ("tmpfile1", the first; ".svg"; "stdout")
 *   ROOFLINE_FAULTS_LOG=FILE at exit, "allocs A" and "outputs W" (how many the run made),
 *                            and "failed alloc SITE" (SITE: the caller's address) or
 *                            "failed output OP NAME" once the fault was injected
 *   ROOFLINE_FAULTS_SITES=FILE  "alloc N SITE CALLER CALLER'S-CALLER" for the first
 *                            allocation of each context, "output N OP NAME" for each
 *                            output operation: what the driver picks its faults from
 *
 * stdout is replaced by a stream to fd 1 through the same checks, so it is an output
 * site like any file.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <execinfo.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void *__real_malloc(size_t size);
void *__real_calloc(size_t n, size_t size);
void *__real_realloc(void *p, size_t size);
char *__real_strdup(const char *s);
char *__real_strndup(const char *s, size_t n);
FILE *__real_fopen(const char *path, const char *mode);
FILE *__real_tmpfile(void);
int __real_rename(const char *from, const char *to);

void *__wrap_malloc(size_t size);
void *__wrap_calloc(size_t n, size_t size);
void *__wrap_realloc(void *p, size_t size);
char *__wrap_strdup(const char *s);
char *__wrap_strndup(const char *s, size_t n);
FILE *__wrap_fopen(const char *path, const char *mode);
FILE *__wrap_tmpfile(void);
int __wrap_rename(const char *from, const char *to);

static long allocs, outputs;       /* made so far */
static long fail_alloc, fail_output; /* the one to fail; 0: none */
static uintptr_t site_lo, site_hi = UINTPTR_MAX; /* ROOFLINE_FAIL_SITE */
static long site_allocs, named_outputs;        /* made there, and on those files */
static bool script_read;                       /* source_read_file was called */
static const char *fail_name;                  /* ROOFLINE_FAIL_NAME */
static int fail_errno = ENOSPC;
static int fail_signal;                        /* ROOFLINE_FAIL_SIGNAL */

static long env_number(const char *name)
{
    const char *v = getenv(name);
    return v ? atol(v) : 0;
}

/* "failed ..." as soon as the fault is injected (a crash after it must not lose it). */
static void log_failed(const char *fmt, const char *op, const char *name)
{
    const char *path = getenv("ROOFLINE_FAULTS_LOG");
    FILE *f = path ? __real_fopen(path, "w") : NULL;
    if (!f)
        return;
    fprintf(f, fmt, op, name);
    fclose(f);
}

/* At exit, after a flush, so output the interpreter left in a buffer counts (and can
 * fail). */
static void log_counts(void)
{
    fflush(NULL);
    const char *path = getenv("ROOFLINE_FAULTS_LOG");
    FILE *f = path ? __real_fopen(path, fail_alloc || fail_output ? "a" : "w") : NULL;
    if (!f)
        return;
    fprintf(f, "allocs %ld\noutputs %ld\n", allocs, outputs);
    fclose(f);
}

/* ---- allocations ------------------------------------------------------------------ */

/* ROOFLINE_FAULTS_SITES: each allocation's context (its site, its caller and theirs),
 * so the driver can fail the first allocation of every context when failing every one
 * would take too long. A context is its hash in a table of the ones already logged. */
enum { CONTEXT_DEPTH = 3, FRAMES = 12, CONTEXT_SLOTS = 1 << 16 };
static FILE *sites;
static uintptr_t *contexts_seen;

static uintptr_t context_hash(void *const *frames, int n)
{
    uintptr_t h = 1469598103934665603u;
    for (int i = 0; i < n; i++)
        h = (h ^ (uintptr_t)frames[i]) * 1099511628211u;
    return h ? h : 1;
}

static bool context_is_new(uintptr_t h)
{
    for (size_t i = h % CONTEXT_SLOTS, tries = 0; tries < CONTEXT_SLOTS;
         i = (i + 1) % CONTEXT_SLOTS, tries++) {
        if (contexts_seen[i] == h)
            return false;
        if (!contexts_seen[i])
            return contexts_seen[i] = h, true;
    }
    return false;
}

/* "INDEX SITE CALLER CALLER'S-CALLER" for the first allocation of each context; the
 * stack is read from the allocation's own site, wherever the compiler inlined. */
static void log_context(const void *site)
{
    void *frames[FRAMES];
    int n = backtrace(frames, FRAMES), at = 0;
    while (at < n && frames[at] != site)
        at++;
    int depth = n - at < CONTEXT_DEPTH ? n - at : CONTEXT_DEPTH;
    if (depth < 1 || !context_is_new(context_hash(frames + at, depth)))
        return;
    fprintf(sites, "alloc %ld", allocs);
    for (int i = at; i < at + depth; i++)
        fprintf(sites, " %#lx", (unsigned long)(uintptr_t)frames[i]);
    fputc('\n', sites);
}

static bool alloc_fails(const void *site)
{
    allocs++;
    if (sites)
        log_context(site);
    bool counted = site_hi == UINTPTR_MAX || (script_read && (uintptr_t)site >= site_lo &&
                                              (uintptr_t)site < site_hi);
    if (!counted || ++site_allocs != fail_alloc)
        return false;
    char at[32];
    snprintf(at, sizeof at, "%#lx", (unsigned long)(uintptr_t)site);
    log_failed("failed %s %s\n", "alloc", at);
    errno = ENOMEM;
    return true;
}

#define CALLER __builtin_extract_return_addr(__builtin_return_address(0))

void *__wrap_malloc(size_t size)
{
    return alloc_fails(CALLER) ? NULL : __real_malloc(size);
}

void *__wrap_calloc(size_t n, size_t size)
{
    return alloc_fails(CALLER) ? NULL : __real_calloc(n, size);
}

/* realloc(p, 0) frees p: not an allocation that can fail. */
void *__wrap_realloc(void *p, size_t size)
{
    return size && alloc_fails(CALLER) ? NULL : __real_realloc(p, size);
}

char *__wrap_strdup(const char *s)
{
    return alloc_fails(CALLER) ? NULL : __real_strdup(s);
}

char *__wrap_strndup(const char *s, size_t n)
{
    return alloc_fails(CALLER) ? NULL : __real_strndup(s, n);
}

/* ---- output ----------------------------------------------------------------------- */

static bool output_fails(const char *op, const char *name)
{
    if (sites)
        fprintf(sites, "output %ld %s %s\n", outputs + 1, op, name);
    outputs++;
    if ((fail_name && !strstr(name, fail_name)) || ++named_outputs != fail_output)
        return false;
    log_failed("failed output %s %s\n", op, name);
    if (fail_signal) {
        raise(fail_signal); /* a signal the run survives: the operation goes on */
        return false;
    }
    errno = fail_errno;
    return true;
}

/* A stream the interpreter writes: to fd 1 (real NULL), or to the real FILE. */
typedef struct {
    FILE *real;
    bool broken; /* a write failed: later ones do too */
    char name[512];
} Sink;

static ssize_t sink_write(void *cookie, const char *buf, size_t n)
{
    Sink *s = cookie;
    if (s->broken || output_fails("write", s->name)) {
        s->broken = true;
        errno = fail_errno;
        return -1;
    }
    if (!s->real)
        return write(STDOUT_FILENO, buf, n);
    return fwrite(buf, 1, n, s->real) == n ? (ssize_t)n : -1;
}

static ssize_t sink_read(void *cookie, char *buf, size_t n)
{
    Sink *s = cookie;
    size_t got = fread(buf, 1, n, s->real);
    return got == 0 && ferror(s->real) ? -1 : (ssize_t)got;
}

static int sink_seek(void *cookie, off64_t *at, int whence)
{
    Sink *s = cookie;
    if (fseeko(s->real, (off_t)*at, whence) != 0)
        return -1;
    *at = ftello(s->real);
    return 0;
}

static int sink_close(void *cookie)
{
    Sink *s = cookie;
    bool fails = output_fails("close", s->name);
    int closed = fclose(s->real);
    free(s);
    if (fails)
        return -1;
    return closed;
}

static FILE *sink_open(FILE *real, const char *mode, const char *name)
{
    Sink *s = real ? __real_calloc(1, sizeof *s) : NULL;
    cookie_io_functions_t io = {sink_read, sink_write, sink_seek, sink_close};
    FILE *f = s ? fopencookie(s, mode, io) : NULL;
    if (!f) {
        if (real)
            fclose(real);
        free(s);
        return NULL;
    }
    s->real = real;
    snprintf(s->name, sizeof s->name, "%s", name);
    setvbuf(f, NULL, _IOLBF, BUFSIZ);
    return f;
}

FILE *__wrap_fopen(const char *path, const char *mode)
{
    if (!strchr(mode, 'w') && !strchr(mode, 'a'))
        return __real_fopen(path, mode);
    if (output_fails("open", path))
        return NULL;
    return sink_open(__real_fopen(path, mode), mode, path);
}

FILE *__wrap_tmpfile(void)
{
    static int made;
    char name[32];
    snprintf(name, sizeof name, "tmpfile%d", ++made);
    if (output_fails("open", name))
        return NULL;
    return sink_open(__real_tmpfile(), "w+", name);
}

int __wrap_rename(const char *from, const char *to)
{
    char name[520];
    snprintf(name, sizeof name, "%s", to);
    return output_fails("rename", name) ? -1 : __real_rename(from, to);
}

/* main.c reads the first script here: what comes after is no longer the stdlib. */
char *__real_source_read_file(const char *path, size_t *len, const char **why);
char *__wrap_source_read_file(const char *path, size_t *len, const char **why);

char *__wrap_source_read_file(const char *path, size_t *len, const char **why)
{
    script_read = true;
    return __real_source_read_file(path, len, why);
}

#ifdef HAVE_LIBEDIT
int __real_write_history(const char *path);
int __wrap_write_history(const char *path);

/* libedit writes the history through its own stdio: cut the file short instead, as a
 * full disk would, and let the caller find out (it must check what was written). */
int __wrap_write_history(const char *path)
{
    int status = __real_write_history(path);
    if (status == 0 && output_fails("history", path) && truncate(path, 7) != 0)
        return -1;
    return status;
}
#endif

static Sink stdout_sink = {.name = "stdout"};

/* Before main: read the settings, and send stdout through a sink. */
__attribute__((constructor)) static void inject_begin(void)
{
    static cookie_io_functions_t io = {NULL, sink_write, NULL, NULL};
    fail_alloc = env_number("ROOFLINE_FAIL_ALLOC");
    fail_output = env_number("ROOFLINE_FAIL_OUTPUT");
    const char *range = getenv("ROOFLINE_FAIL_SITE");
    if (range && strchr(range, '-')) {
        site_lo = (uintptr_t)strtoull(range, NULL, 16);
        site_hi = (uintptr_t)strtoull(strchr(range, '-') + 1, NULL, 16);
    }
    fail_name = getenv("ROOFLINE_FAIL_NAME");
    fail_signal = (int)env_number("ROOFLINE_FAIL_SIGNAL");
    const char *e = getenv("ROOFLINE_FAIL_ERRNO");
    if (e && strcmp(e, "EIO") == 0)
        fail_errno = EIO;
    const char *log = getenv("ROOFLINE_FAULTS_SITES");
    if (log && (contexts_seen = __real_calloc(CONTEXT_SLOTS, sizeof *contexts_seen)) != NULL)
        sites = __real_fopen(log, "w");
    FILE *out = fopencookie(&stdout_sink, "w", io);
    if (out) {
        setvbuf(out, NULL, _IOLBF, BUFSIZ);
        stdout = out;
    }
    atexit(log_counts);
}
