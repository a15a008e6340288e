/* optimizer.h — how training memory is counted: the `optimizer` statement's
 * choices.
 */
#ifndef ROOFLINE_OPTIMIZER_H
#define ROOFLINE_OPTIMIZER_H

/* How training memory is counted (`optimizer`): the optimizer's moments, master
 * weights and gradients, in bytes per parameter, and the ZeRO stage that shards them
 * over the chips that hold copies of each parameter (1: moments and master weights,
 * 2: gradients too). The defaults are the book's: Adam, fp32 moments, no master weights
 * or gradients counted (10 B a parameter with bf16 weights). */
typedef enum { OPT_ADAM, OPT_MOMENTUM, OPT_SGD, OPT_ADAFACTOR, OPT_NONE } OptKind;

typedef struct {
    OptKind kind;
    double moment_bytes, master_bytes, grad_bytes;
    int zero;
} Optimizer;

/* "adam", "momentum", ...: the optimizer as a statement writes it. */
const char *optimizer_name(OptKind k);

#endif
