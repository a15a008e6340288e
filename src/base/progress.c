/* progress.c — the progress line of a long statement (progress.h). */
#include "progress.h"

#include <stdio.h>
#include <time.h>
#include <unistd.h>

enum { PROGRESS_LINE = 96 };

static const double FIRST_AFTER_S = 0.5, EVERY_S = 0.25;

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

void progress_begin(Progress *p, const char *what, const char *items, double total)
{
    *p = (Progress){.what = what, .items = items, .total = total,
                    .tty = isatty(STDERR_FILENO) == 1,
                    .rows_on_tty = isatty(STDOUT_FILENO) == 1};
    if (p->tty)
        p->started = p->drawn = now_s();
}

/* A count with thousands separators, so that a million reads at a glance. */
static void grouped(double x, char *buf, size_t size)
{
    char digits[32];
    int n = snprintf(digits, sizeof digits, "%.0f", x), at = 0;
    for (int i = 0; i < n && (size_t)at + 2 < size; i++) {
        if (i > 0 && (n - i) % 3 == 0)
            buf[at++] = ',';
        buf[at++] = digits[i];
    }
    buf[at] = '\0';
}

/* The time left: "17m32s left", "1h05m left", "3s left". */
static void time_left(double s, char *buf, size_t size)
{
    long whole = (long)(s + 0.5);
    if (whole >= 3600)
        snprintf(buf, size, "%ldh%02ldm left", whole / 3600, whole / 60 % 60);
    else if (whole >= 60)
        snprintf(buf, size, "%ldm%02lds left", whole / 60, whole % 60);
    else
        snprintf(buf, size, "%lds left", whole);
}

static void draw(Progress *p, double elapsed)
{
    char done[32], total[32], left[32], line[PROGRESS_LINE];
    double rate = p->done / elapsed;
    grouped(p->done, done, sizeof done);
    grouped(p->total, total, sizeof total);
    time_left(rate > 0 ? (p->total - p->done) / rate : 0, left, sizeof left);
    int n = snprintf(line, sizeof line, "%s: %s of %s %s, %.0f/s, %s", p->what, done, total,
                     p->items, rate, left);
    n = n < 0 ? 0 : n >= (int)sizeof line ? (int)sizeof line - 1 : n;
    /* pad over a longer line drawn before */
    fprintf(stderr, "\r%s%*s", line, p->width > n ? p->width - n : 0, "");
    fflush(stderr);
    p->width = n > p->width ? n : p->width;
}

void progress_advance(Progress *p, double by)
{
    p->done += by;
    if (!p->tty)
        return;
    double t = now_s();
    if (t - p->started < FIRST_AFTER_S || t - p->drawn < EVERY_S)
        return;
    p->drawn = t;
    draw(p, t - p->started);
}

void progress_hide(Progress *p)
{
    if (p->width == 0)
        return;
    fprintf(stderr, "\r%*s\r", p->width, "");
    fflush(stderr);
    p->width = 0;
}

void progress_before_row(Progress *p)
{
    if (p->rows_on_tty)
        progress_hide(p);
}

void progress_end(Progress *p)
{
    progress_hide(p);
    p->tty = false;
}
