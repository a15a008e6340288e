/* value.h — what a name is bound to, as the evaluator's world holds it and layout
 * reads it (layout.h: LayoutEnv).
 *
 * Ownership: the world that binds a value owns it, its tensor too (eval.h); its chip is
 * the world's table's.
 */
#ifndef ROOFLINE_VALUE_H
#define ROOFLINE_VALUE_H

#include "chip.h"
#include "dtype.h"
#include "mesh.h"
#include "tensor.h"

typedef enum { VAL_UNBOUND, VAL_NUMBER, VAL_TENSOR, VAL_AXES, VAL_CHIP, VAL_DTYPE } ValueKind;

/* A name's value: a number, a tensor, (a block's axis parameter) mesh axes, (the
 * name a sweep over chips ranges over, `on c`) a chip of the world's table, or a dtype
 * (`wdtype = int8`: what a tensor type wdtype[D, F] is made of). */
typedef struct {
    ValueKind kind;
    double number;
    Tensor *tensor;
    int axes[MESH_MAX_AXES]; /* VAL_AXES: interned axis names; none for {} */
    int naxes;
    const Chip *chip;        /* VAL_CHIP */
    DType dtype;             /* VAL_DTYPE */
} BoundValue;

#endif
