/* scan.h — solve and sweep over statements that the compiled curves cannot take:
 * block calls (whole models) and statements whose mesh depends on the dim
 * (`on v5p mesh X = 16, Y = n`). Each value of the dim is costed whole, as the
 * statement would be with `let` binding it: slower than a compiled curve (a model per
 * point), exact at every point it tries.
 *
 * solve tries 1, 2, 4, ... until a value cannot be costed (a mesh larger than the pod,
 * a dim that is no longer whole) or 2^24, then finds each change of the bound between
 * two tries by bisection on whole numbers: a bound that changes and changes back
 * between two powers of two is not seen.
 */
#ifndef ROOFLINE_SCAN_H
#define ROOFLINE_SCAN_H

#include <stdbool.h>

#include "eval.h"

/* Whether the statement calls a block, gives its own mesh, or compares two costs:
 * then it is scanned. */
bool scan_wanted(const Eval *ev, const Stmt *s);
/* The sweep's statements at each of the n values of the dim: numbers, or chips (a
 * sweep over chips, `sweep c in [v5e, v5p] { ... on c }`). */
bool scan_sweep(Eval *ev, const Stmt *sweep, int dim, const Value *x, int n);
/* Where the statement's bound changes as the dim grows. */
bool scan_solve(Eval *ev, const Stmt *s, int dim);

#endif
