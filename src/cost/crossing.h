/* crossing.h — the real-valued point where two figures meet between two whole numbers,
 * from each figure's law in the swept size n: t(n) = a + b·n + c/n. Costs that divide
 * over n chips (c/n), collectives' (n−1)/n (a − a/n) and what grows with n (b·n) all
 * take this form while the topology stays the same; further points check it. */
#ifndef CROSSING_H
#define CROSSING_H

#include <stdbool.h>
#include <stddef.h>

typedef struct {
    double a, b, c; /* t(n) = a + b·n + c/n */
} Law;

/* Fits the law through (x[0], y[0])..(x[2], y[2]) and checks it at the other points
 * (n in all) to 1e-9 of the figures' size. False when they do not follow one law. */
bool crossing_fit(const double *x, const double *y, int n, Law *law);
/* The law at n. */
double crossing_at(const Law *law, double n);
/* The n in [lo, hi] where p(n) = q(n); false when there is none. */
bool crossing_root(const Law *p, const Law *q, double lo, double hi, double *n);
/* "234.4 ms/n", "23.86 ms − 23.86 ms/n": the law in seconds, terms under 1e-9 of its
 * value at n left out. */
char *crossing_format(const Law *law, const char *var, double n, char *buf, size_t size);

#endif
