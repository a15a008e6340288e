/* timer.c — `make bench`'s clock: runs a command RUNS times (after two warm-up runs),
 * each straight from fork + execvp with no shell and its output to /dev/null, and prints
 * the median wall time in seconds and the median peak resident set in kB:
 *     timer RUNS COMMAND [ARG...]   →   "0.001512 3412"
 * A run that cannot start or exits non-zero stops it with exit status 1. */
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

enum { WARM_UP = 2, MOST_RUNS = 10000 };

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* One run of argv; its wall time in *seconds and peak RSS in *kb. 0 when it exited 0. */
static int run_once(char **argv, double *seconds, long *kb)
{
    double start = now();
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        int null = open("/dev/null", O_WRONLY);
        if (null >= 0) {
            dup2(null, STDOUT_FILENO);
            dup2(null, STDERR_FILENO);
        }
        execvp(argv[0], argv);
        _exit(127);
    }
    int status;
    struct rusage usage;
    if (wait4(pid, &status, 0, &usage) != pid)
        return -1;
    *seconds = now() - start;
    *kb = usage.ru_maxrss;
    return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

static int by_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static int by_long(const void *a, const void *b)
{
    long x = *(const long *)a, y = *(const long *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    int runs = argc > 2 ? atoi(argv[1]) : 0;
    if (runs < 1 || runs > MOST_RUNS) {
        fprintf(stderr, "usage: timer RUNS COMMAND [ARG...]   (RUNS 1..%d)\n", MOST_RUNS);
        return 2;
    }
    double *seconds = malloc(sizeof *seconds * (size_t)runs);
    long *kb = malloc(sizeof *kb * (size_t)runs);
    if (!seconds || !kb)
        return 1;
    for (int i = -WARM_UP; i < runs; i++) {
        double s;
        long k;
        if (run_once(argv + 2, &s, &k) != 0) {
            fprintf(stderr, "timer: %s did not run or failed\n", argv[2]);
            return 1;
        }
        if (i >= 0) {
            seconds[i] = s;
            kb[i] = k;
        }
    }
    qsort(seconds, (size_t)runs, sizeof *seconds, by_double);
    qsort(kb, (size_t)runs, sizeof *kb, by_long);
    printf("%.9f %ld\n", seconds[(runs - 1) / 2], kb[(runs - 1) / 2]);
    free(seconds);
    free(kb);
    return 0;
}
