/* check_programs.c — a tool for the tests only:
 *
 *   check-programs json|csv DIR FILE...
 *
 * Runs each FILE as `roofline --json FILE` (or --csv) runs it, on a session of its own
 * in this one process, with DIR as the working directory (a chart a script draws is
 * written there), and checks what it printed: the output invariants of output_check.h,
 * and no "internal error" among its diagnostics (--csv says one when a record has a key
 * it has no column for). One line per fault, each beginning "FILE --FORMAT", nothing
 * when all is well; exit 1 on a fault, 2 on a usage or read error.
 *
 * Why not the binary: tests/output/json_lines.sh and csv_rows.sh check every program
 * the suite has, some 700 each, and a process of its own for each was most of their
 * time (and of the suite's). The session is what writes the records; main.c adds only
 * its options and the exit status, which the goldens and tests/cli check. A FILE with a
 * .args or .stdin beside it is run by the binary instead (lib.shinc).
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "output_check.h"
#include "session.h"
#include "source.h"

/* The first line of err holding "internal error", printed as a fault of the run. */
static int internal_errors(const char *run, const char *err)
{
    const char *at = strstr(err, "internal error");
    if (!at)
        return 0;
    while (at > err && at[-1] != '\n')
        at--;
    const char *end = strchr(at, '\n');
    printf("%s: %.*s\n", run, (int)(end ? end - at : (long)strlen(at)), at);
    return 1;
}

/* Runs the script at `path` on a new session; its output and diagnostics in *out and
 * *err (freed by the caller). False when it cannot be read or memory ran out. */
static bool run_script(const char *path, bool json, char **out, char **err)
{
    size_t out_len = 0, err_len = 0, len = 0;
    const char *why = NULL;
    char *text = source_read_file(path, &len, &why);
    FILE *o = open_memstream(out, &out_len), *e = open_memstream(err, &err_len);
    SessionOptions opt = {.json = json, .csv = !json, .jobs = 1, .out = o, .err = e};
    Session *s = text && o && e ? session_new(&opt) : NULL;
    if (s)
        session_run(s, path, text, len, false);
    session_free(s);
    free(text);
    if (o)
        fclose(o);
    if (e)
        fclose(e);
    if (!s)
        fprintf(stderr, "check-programs: cannot run %s: %s\n", path, why ? why : "no memory");
    return s != NULL;
}

/* The faults of one script's run (2: it did not run), named as given. */
static int check_script(const char *name, const char *path, bool json)
{
    char *out = NULL, *err = NULL, run[PATH_MAX + 16];
    int faults = 2;
    snprintf(run, sizeof run, "%s --%s", name, json ? "json" : "csv");
    if (run_script(path, json, &out, &err)) {
        faults = output_check(json, run, (const unsigned char *)out, strlen(out), stdout) > 0;
        faults |= internal_errors(run, err);
    }
    free(out);
    free(err);
    return faults;
}

int main(int argc, char **argv)
{
    bool json = argc >= 4 && strcmp(argv[1], "json") == 0;
    if (argc < 4 || (!json && strcmp(argv[1], "csv") != 0)) {
        fputs("usage: check-programs json|csv DIR FILE...\n", stderr);
        return 2;
    }
    char **paths = calloc((size_t)argc, sizeof *paths);
    if (!paths)
        return 2;
    int status = 0;
    for (int i = 3; i < argc && status == 0; i++) /* absolute, before leaving for DIR */
        if (!(paths[i] = realpath(argv[i], NULL)))
            perror(argv[i]), status = 2;
    if (status == 0 && chdir(argv[2]) != 0)
        perror(argv[2]), status = 2;
    for (int i = 3; i < argc && status != 2; i++) {
        int one = check_script(argv[i], paths[i], json);
        status = one > status ? one : status;
    }
    for (int i = 3; i < argc; i++)
        free(paths[i]);
    free(paths);
    fflush(stdout);
    return status;
}
