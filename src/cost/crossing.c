/* crossing.c — the laws of figures in a swept size, and where two of them meet
 * (crossing.h). */
#include "crossing.h"

#include <math.h>
#include <stdio.h>

#include "num.h"

double crossing_at(const Law *law, double n)
{
    return law->a + law->b * n + law->c / n;
}

static double det3(double m[3][3])
{
    return m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) -
           m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0]) +
           m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]);
}

/* Cramer's rule on the rows [1, x, 1/x]: three unknowns, no pivoting to go wrong. */
bool crossing_fit(const double *x, const double *y, int n, Law *law)
{
    double m[3][3], k[3];
    for (int i = 0; i < 3; i++) {
        m[i][0] = 1, m[i][1] = x[i], m[i][2] = 1 / x[i];
        k[i] = y[i];
    }
    double d = det3(m);
    if (d == 0 || !isfinite(d))
        return false;
    double coef[3];
    for (int j = 0; j < 3; j++) {
        double mj[3][3];
        for (int i = 0; i < 3; i++)
            for (int c = 0; c < 3; c++)
                mj[i][c] = c == j ? k[i] : m[i][c];
        coef[j] = det3(mj) / d;
    }
    *law = (Law){coef[0], coef[1], coef[2]};
    double size = 0;
    for (int i = 0; i < n; i++)
        size += fabs(y[i]);
    for (int i = 3; i < n; i++)
        if (fabs(crossing_at(law, x[i]) - y[i]) > 1e-9 * size)
            return false;
    return true;
}

/* Both roots of b·n² + a·n + c = 0 (p − q, times n > 0); the one in [lo, hi]. */
bool crossing_root(const Law *p, const Law *q, double lo, double hi, double *n)
{
    double a = p->a - q->a, b = p->b - q->b, c = p->c - q->c;
    double scale = fabs(a) * hi + fabs(b) * hi * hi + fabs(c);
    double roots[2];
    int nroots = 0;
    if (fabs(b) * hi * hi <= 1e-12 * scale) {
        if (a != 0)
            roots[nroots++] = -c / a;
    } else {
        double disc = a * a - 4 * b * c;
        if (disc < 0)
            return false;
        double r = -(a + copysign(sqrt(disc), a)) / 2; /* no cancellation */
        roots[nroots++] = r / b;
        if (r != 0)
            roots[nroots++] = c / r;
    }
    for (int i = 0; i < nroots; i++)
        if (roots[i] >= lo - 1e-9 * hi && roots[i] <= hi + 1e-9 * hi) {
            *n = roots[i];
            return true;
        }
    return false;
}

char *crossing_format(const Law *law, const char *var, double n, char *buf, size_t size)
{
    double term[3] = {law->a, law->b * n, law->c / n};
    double whole = fabs(term[0]) + fabs(term[1]) + fabs(term[2]);
    double coef[3] = {law->a, law->b, law->c};
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < 3 && used < size; i++) {
        if (fabs(term[i]) <= 1e-9 * whole)
            continue;
        char t[32];
        num_format_unit(fabs(coef[i]), UNIT_SECONDS, 0, t, sizeof t);
        const char *sign = coef[i] < 0 ? (used ? " − " : "−") : (used ? " + " : "");
        used += (size_t)snprintf(buf + used, size - used, "%s%s%s%s", sign, t,
                                 i == 1 ? "·" : i == 2 ? "/" : "", i ? var : "");
    }
    if (!used)
        snprintf(buf, size, "0 s");
    return buf;
}
