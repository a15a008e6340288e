/* remat.h — what a training step's backward pass keeps of the forward pass: the
 * `remat` statement's policy and the paths `save` names.
 * Ownership: a Remat owns its paths and their names (remat_free).
 */
#ifndef ROOFLINE_REMAT_H
#define ROOFLINE_REMAT_H

/* What a training step's backward pass keeps of the forward pass (`remat`):
 *   none       every operation's result (the default)
 *   full       only what the outermost block's own statements bind (a layer's output,
 *              one checkpoint a layer); everything inside the blocks they call is
 *              recomputed
 *   selective  the contractions' results; elementwise ops and reductions recomputed
 *   save       the results the paths name (`layer.x`: x as block layer binds it) */
typedef enum { REMAT_NONE, REMAT_FULL, REMAT_SELECTIVE, REMAT_SAVE } RematPolicy;

typedef struct {
    int *names;  /* interned: blocks, outermost first, then the name a statement binds */
    int n;
} RematPath;

typedef struct {
    RematPolicy policy;
    RematPath *paths;  /* REMAT_SAVE's, owned */
    int npaths;
} Remat;

void remat_free(Remat *r);
/* "none", "full", "selective", "save": the policy as a statement writes it. */
const char *remat_name(RematPolicy p);

#endif
