/* pipeline.h — pipeline parallelism: `repeat L over pp { ... }` splits the L layers
 * of a repeat into P stages over the mesh axes pp, which the step's M microbatches
 * (`mode training microbatches M`) go through one after another (pipeline.c).
 */
#ifndef ROOFLINE_PIPELINE_H
#define ROOFLINE_PIPELINE_H

#include <stdbool.h>

#include "evalparts.h"

typedef struct {
    double stages;  /* P: the chips of the axes; 1 is no pipeline */
    AxisSet axes;   /* of mesh */
    Mesh mesh;      /* the one the repeat's body runs on */
} Pipeline;

/* The stages of a repeat of `layers`: 1 without `over` or over one chip. An error
 * (reported) for axes not in the mesh, a pipeline outside training, or stages that
 * do not divide the layers. */
bool pipeline_stages(Eval *ev, const Stmt *repeat, double layers, Pipeline *out);
/* The breakdown node of a pipelined repeat whose body has run into `repeat` (its runs
 * already the layers of one stage): the stage's layers, the sends to the next stage,
 * the bubble. Takes `repeat`; NULL when memory ran out or the sends cannot be priced
 * (reported). */
Op *pipeline_node(Eval *ev, const Stmt *s, Op *repeat, const Pipeline *p);

#endif
