/* replay.c — a main for a fuzz target built without libFuzzer: runs every file named
 * on the command line (directories: every file in them) through
 * LLVMFuzzerTestOneInput, so `make test` replays the corpus and the past crashes.
 * Prints nothing when all is well; a crash is the sanitizer's report, or a signal; an
 * input still running after HANG_SECONDS (libFuzzer's -timeout in `make fuzz`) is a
 * hang. Every input also runs on a fresh session, and must print what it printed on
 * the session reset after the previous input (fuzz_check_reset). Every input of the
 * corpus takes milliseconds. */
#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fuzz.h"

enum { HANG_SECONDS = 10 };

static char hang_message[4200]; /* composed before each input: the handler only writes */

static void hang(int sig)
{
    (void)sig;
    (void)!write(STDERR_FILENO, hang_message, strlen(hang_message));
    _exit(1);
}

static int replay_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "replay: cannot read %s\n", path);
        return 1;
    }
    size_t cap = 4096, n = 0;
    uint8_t *buf = malloc(cap);
    size_t got;
    while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
        n += got;
        if (n == cap) {
            uint8_t *grown = realloc(buf, cap *= 2);
            if (!grown)
                free(buf);
            buf = grown;
        }
    }
    fclose(f);
    if (!buf) {
        fprintf(stderr, "replay: out of memory reading %s\n", path);
        return 1;
    }
    snprintf(hang_message, sizeof hang_message, "replay: a hang: %s still running after %d s\n",
             path, HANG_SECONDS);
    alarm(HANG_SECONDS);
    LLVMFuzzerTestOneInput(buf, n);
    alarm(0);
    free(buf);
    return 0;
}

static int compare_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The files of a directory in name order, so a failure names the same input each
 * time. Dot files (.gitkeep) are not inputs. */
static int replay_dir(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d) {
        fprintf(stderr, "replay: cannot open %s\n", dir);
        return 1;
    }
    char **names = NULL;
    size_t n = 0, cap = 0;
    int failed = 0;
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        if (e->d_name[0] == '.')
            continue;
        if (n == cap) {
            char **grown = realloc(names, (cap = cap ? cap * 2 : 64) * sizeof *names);
            if (!grown) { failed = 1; break; }
            names = grown;
        }
        size_t len = strlen(dir) + strlen(e->d_name) + 2;
        if (!(names[n] = malloc(len))) { failed = 1; break; }
        snprintf(names[n++], len, "%s/%s", dir, e->d_name);
    }
    closedir(d);
    if (n > 0)
        qsort(names, n, sizeof *names, compare_names);
    for (size_t i = 0; i < n; i++) {
        failed |= replay_file(names[i]);
        free(names[i]);
    }
    free(names);
    return failed;
}

int main(int argc, char **argv)
{
    int failed = 0;
    fuzz_check_reset = 1;
    signal(SIGALRM, hang);
    for (int i = 1; i < argc; i++) {
        struct stat st;
        if (stat(argv[i], &st) == 0 && S_ISDIR(st.st_mode))
            failed |= replay_dir(argv[i]);
        else
            failed |= replay_file(argv[i]);
    }
    return failed;
}
