/* shapes.h — a block's shaped parameters, `x: [B, T, D]`: the call binds B, T and D
 * from the tensor it passes, whatever the caller named its dims.
 *
 * Inside the call the argument's dims carry the shape's names (their sizes the names,
 * bound to the caller's numbers; their shardings kept), so the body contracts over D
 * whether the caller wrote `bf16[b, t, 4096]` or `bf16[B, T, D]`. A name in several
 * shapes must get one number. The tensor the call returns gets the caller's dims back:
 * its D is the caller's 4096 again.
 *
 * A shape's dim may say how the block wants it split, `keys: [B, S, K_{tp}, H]`: an
 * argument passed whole is sliced so (free: each chip keeps its part), one split the
 * same way passes, one split another way is an error at the call.
 *
 * Ownership: ShapeBinds owns the caller's sizes it keeps.
 */
#ifndef ROOFLINE_SHAPES_H
#define ROOFLINE_SHAPES_H

#include <stdbool.h>

#include "eval.h"

typedef struct {
    int name;          /* the shape's name: B */
    double value;      /* its number at this call */
    int caller_name;   /* the argument's dim it came from: its name, or -1 */
    Poly *caller_size; /* and its size as the caller wrote it */
} ShapeName;

/* The names a call's shapes bound, with a hash index on the names (each one lookup). */
typedef struct {
    ShapeName *items;
    int n, cap;
    int *slots; /* index + 1 into items, 0 when empty */
    size_t nslots;
} ShapeBinds;

/* "[B, S, K_{tp}, H]": a shaped parameter's shape. Returns buf. */
char *shapes_text(const Intern *names, const Binding *p, char *buf, size_t size);
/* At the definition: each shape names a dim once, and never a parameter. */
bool shapes_check_def(Eval *ev, const Stmt *def);
/* Whether a name is one that some shape of the block binds. */
bool shapes_bind_name(const Stmt *def, int name);
/* At the call, with vals by parameter and `where` the span of each argument: every
 * shaped parameter got a tensor of its rank, and a name bound twice got one number.
 * Renames those tensors' dims to the shape's names. False (reported) when not. */
bool shapes_bind(Eval *ev, const Stmt *def, BoundValue *vals, const Span *where, ShapeBinds *out);
/* The returned tensor's dims named by a shape go back to the caller's. */
bool shapes_give_back(const ShapeBinds *sb, Tensor *t);
void shapes_free(ShapeBinds *sb);

#endif
