/* loop.c — the floor for `make bench`'s sweep: the same formulas as
 *     sweep B in 1 .. 1M plot "..." { q = bf16[B,D] *_D int8[D,F] on v5e }
 * (D = F = 4096) written as a C loop. Per point: flops 2BDF, bytes 2BD + DF + 2BF,
 * attained = flops / max(flops / 1.97e14, bytes / 8.2e11), kept in an array as the
 * sweep keeps its points for the chart. Prints the median time of 11 passes in
 * nanoseconds per point, and a checksum so the work cannot be optimised away. */
#define _POSIX_C_SOURCE 199309L
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

enum { POINTS = 1000000, PASSES = 11 };

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void sweep(double *attained, double d, double f)
{
    for (int i = 0; i < POINTS; i++) {
        double b = i + 1;
        double flops = 2 * b * d * f;
        double bytes = 2 * b * d + d * f + 2 * b * f;
        double t_math = flops / 1.97e14, t_hbm = bytes / 8.2e11;
        attained[i] = flops / (t_math > t_hbm ? t_math : t_hbm);
    }
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    double d = argc > 1 ? atof(argv[1]) : 4096, f = argc > 2 ? atof(argv[2]) : 4096;
    double *attained = malloc(POINTS * sizeof *attained);
    double times[PASSES], sum = 0;
    if (!attained)
        return 1;
    for (int p = 0; p < PASSES; p++) {
        double t0 = now();
        sweep(attained, d, f);
        times[p] = now() - t0;
        sum += attained[p * 7919];
    }
    qsort(times, PASSES, sizeof times[0], by_value);
    printf("%.3f ns/point (median of %d passes of %d points), checksum %.6e\n",
           times[PASSES / 2] / POINTS * 1e9, PASSES, POINTS, sum);
    free(attained);
    return 0;
}
