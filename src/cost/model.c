/* model.c — whole models: the breakdown tree of block calls and repeats, its totals,
 * and the names of the remat policies and optimizers a step is costed under. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "op.h"
#include "nomem.h"

Op *op_new(const char *label)
{
    Op *op = nomem_note(calloc(1, sizeof *op));
    if (!op)
        return NULL;
    op->label = nomem_note(strdup(label));
    op->runs = 1;
    op->known = true;
    if (!op->label) {
        free(op);
        return NULL;
    }
    return op;
}

void op_free(Op *op)
{
    if (!op)
        return;
    for (int i = 0; i < op->nchildren; i++)
        op_free(op->children[i]);
    free(op->children);
    free(op->label);
    free(op);
}

bool op_add(Op *parent, Op *child)
{
    if (parent->nchildren == parent->cap) {
        int cap = parent->cap ? 2 * parent->cap : 8;
        Op **children = nomem_note(realloc(parent->children, sizeof *children * (size_t)cap));
        if (!children)
            return false;
        parent->children = children;
        parent->cap = cap;
    }
    parent->children[parent->nchildren++] = child;
    return true;
}

/* A child's share of the totals: its own figures times its runs. */
static void add_child(Op *op, const Op *c)
{
    double k = c->runs;
    op->flops += k * c->flops;
    op->bytes += k * c->bytes;
    op->comm_bytes += k * c->comm_bytes;
    op->t_math += k * c->t_math;
    op->t_hbm += k * c->t_hbm;
    op->t_comm += k * c->t_comm;
    op->t_lower += k * c->t_lower;
    op->t_upper += k * c->t_upper;
    op->t_derated += k * c->t_derated;
    op->t_predicted += k * c->t_predicted;
    op->kernels += k * c->kernels;
    op->fallbacks += k * c->fallbacks;
    op->predicted = op->predicted || c->predicted;
    op->recomputed += k * c->recomputed;
    op->params += k * (c->stages > 1 ? c->stages : 1) * c->params;
    op->param_bytes += k * c->param_bytes;
    op->local_params += k * c->local_params;
    op->cache_bytes += k * c->cache_bytes;
    op->act_bytes += k * (c->in_flight > 1 ? c->in_flight : 1) * c->act_bytes;
    op->grad_bytes += k * c->grad_bytes;
    op->master_bytes += k * c->master_bytes;
    op->optim_bytes += k * c->optim_bytes;
    for (int i = 0; i < 4; i++)
        op->t_coll[i] += k * c->t_coll[i];
    op->latency_unset |= c->latency_unset;
    op->known = op->known && c->known;
}

int op_collective(const Op *op)
{
    int best = -1;
    for (int k = 0; k < 4; k++)
        if (op->t_coll[k] > 0 && (best < 0 || op->t_coll[k] > op->t_coll[best]))
            best = k;
    return best;
}

void op_bound_shares(const Op *op, double scale, double *by)
{
    if (op->leaf) {
        by[op->bound] += scale * op->runs * (op->t_lower + op->hidden);
        return;
    }
    for (int i = 0; i < op->nchildren; i++)
        op_bound_shares(op->children[i], scale * op->runs, by);
}

/* A block is bound by whatever bounds most of its operations' time, counted over
 * its leaves (as the report's "by bound" row), not over its sub-blocks' verdicts.
 * Time bound by nothing (a pipeline's bubble, idle) decides nothing: a bubble longer
 * than the work leaves the pipeline bound by what bounds its work and sends. */
static Bound dominant(const Op *op)
{
    double by[4] = {0, 0, 0, 0};
    op_bound_shares(op, 1, by);
    Bound best = BOUND_UNKNOWN;
    for (int b = BOUND_COMPUTE; b <= BOUND_COMM; b++)
        if (by[b] > 0 && (best == BOUND_UNKNOWN || by[b] > by[best]))
            best = (Bound)b;
    return best;
}

void op_total(Op *op)
{
    double *held[OWN_COUNT] = {&op->params, &op->param_bytes, &op->local_params,
                               &op->cache_bytes, &op->act_bytes, &op->grad_bytes,
                               &op->master_bytes, &op->optim_bytes};
    for (int i = 0; i < OWN_COUNT; i++)
        *held[i] = op->own[i];
    if (op->leaf)
        return;
    memset(&op->flops, 0, (size_t)((char *)&op->bound - (char *)&op->flops));
    memset(op->t_coll, 0, sizeof op->t_coll);
    op->latency_unset = 0;
    op->known = true;
    op->predicted = false;
    for (int i = 0; i < op->nchildren; i++) {
        op_total(op->children[i]);
        add_child(op, op->children[i]);
    }
    op->bound = dominant(op);
}

Op op_scaled(const Op *op)
{
    Op all = *op;
    double *figures[] = {&all.flops, &all.bytes, &all.comm_bytes, &all.t_math, &all.t_hbm,
                         &all.t_comm, &all.t_lower, &all.t_upper, &all.t_derated,
                         &all.t_predicted, &all.kernels, &all.fallbacks, &all.recomputed, &all.params,
                         &all.param_bytes, &all.local_params, &all.cache_bytes, &all.act_bytes,
                         &all.grad_bytes, &all.master_bytes, &all.optim_bytes};
    for (size_t i = 0; i < sizeof figures / sizeof figures[0]; i++)
        *figures[i] *= op->runs;
    all.runs = 1;
    return all;
}

bool op_finite(const Op *op)
{
    Op all = op_scaled(op);
    double sum = all.flops + all.bytes + all.comm_bytes + all.t_upper + all.t_derated +
                 all.params + all.param_bytes + all.local_params + all.cache_bytes +
                 all.act_bytes + all.grad_bytes + all.master_bytes + all.optim_bytes;
    return isfinite(sum) && isfinite(op->runs); /* none is negative: a sum tells */
}

/* A repeat's node, or a pipeline's: its units are its body's statements. */
static bool is_loop(const Op *op)
{
    return !op->leaf && (strncmp(op->label, "repeat ", 7) == 0 ||
                         strncmp(op->label, "pipeline, ", 10) == 0);
}

double op_working_set(const Op *block)
{
    double most = 0, own = 0; /* the largest block call; the operations together */
    for (int i = 0; i < block->nchildren; i++) {
        const Op *c = block->children[i];
        double one = is_loop(c) ? op_working_set(c) : c->recomputed;
        if (c->leaf)
            own += c->recomputed;
        else if (one > most)
            most = one;
    }
    return own > most ? own : most;
}

double op_block_memory(const Op *op, bool training)
{
    double state = training ? op->grad_bytes + op->master_bytes + op->optim_bytes +
                              op->act_bytes : 0;
    return op->param_bytes + op->cache_bytes + state;
}

const char *remat_name(RematPolicy p)
{
    static const char *const names[] = {"none", "full", "selective", "save"};
    return names[p];
}

const char *optimizer_name(OptKind k)
{
    static const char *const names[] = {"adam", "momentum", "sgd", "adafactor", "none"};
    return names[k];
}
