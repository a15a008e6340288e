/* summary.c — MFU, tokens per second and the whole run of a whole-model statement
 * (summary.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "evalparts.h"
#include "nomem.h"
#include "num.h"
#include "report.h"
#include "summary.h"

/* ---- The model's FLOPs --------------------------------------------------------- */

/* The call's arguments, but none for an axis parameter; then every axis parameter
 * given no axes ({}): the block whole on one chip. Positional arguments stay positional
 * (a model given first takes no place: its fields go by name) until one is left out;
 * those after it go by their parameters' names. */
static Binding *one_chip_args(const Eval *ev, const BlockDef *b, const Node *call,
                              const Node *none, int *n)
{
    const Stmt *def = b->def;
    Binding *args = calloc((size_t)(call->as.call.nargs + def->as.block.nparams + 1), sizeof *args);
    bool shifted = false;
    int first = arch_of_arg(ev, call) ? 1 : 0, next = 0;
    *n = 0;
    for (int i = 0; args && i < call->as.call.nargs; i++) {
        int at = i < first ? -1 : call_arg_param(b, &call->as.call.args[i], &next);
        if (at >= def->as.block.nparams)
            at = -1;
        if (at >= 0 && call_block_axis_param(&def->as.block.params[at])) {
            shifted = shifted || call->as.call.args[i].name.name < 0;
            continue;
        }
        args[*n] = call->as.call.args[i];
        if (at >= 0 && shifted)
            args[*n].name = def->as.block.params[at].name;
        ++*n;
    }
    for (int i = 0; args && i < def->as.block.nparams; i++)
        if (call_block_axis_param(&def->as.block.params[i]))
            args[(*n)++] = (Binding){.name = def->as.block.params[i].name, .value = (Node *)none};
    return args;
}

/* The dtype whose peak runs most of a breakdown's matrix-unit FLOPs (bf16 when none). */
static void flops_by_dtype(const Op *op, double scale, double *by)
{
    if (op->leaf && !op->vector)
        by[op->compute] += scale * op->runs * op->flops;
    for (int i = 0; i < op->nchildren; i++)
        flops_by_dtype(op->children[i], scale * op->runs, by);
}

static DType main_dtype(const Op *root)
{
    double by[DT_COUNT] = {0};
    flops_by_dtype(root, 1, by);
    DType best = DT_BF16;
    for (int t = 0; t < DT_COUNT; t++)
        if (by[t] > by[best])
            best = (DType)t;
    return best;
}

/* Costs the one-chip statement quietly, nothing recomputed, its errors held back. */
static bool cost_alone(Eval *ev, const Stmt *probe, ModelFlops *out)
{
    World *w = ev->world;
    /* what the quiet costing changes in the world, put back after it */
    UnderWay under_way = w->under_way;
    Remat remat = w->remat;
    bool unfused = w->unfused;
    DiagHold hold;
    Op *root = op_new("model");
    if (!root || !diag_hold(&hold)) {
        op_free(root);
        return eval_oom(ev, probe->span);
    }
    w->remat = (Remat){REMAT_NONE, NULL, 0};
    w->unfused = true;
    Diag *loud = ev->diag;
    ev->diag = &hold.diag;
    bool ok = eval_work_quietly(ev, probe, root);
    ev->diag = loud;
    free(diag_release(&hold));
    w->under_way = under_way;
    w->remat = remat;
    w->unfused = unfused;
    if (nomem_failed()) { /* not a call that cannot be costed: the run cannot go on */
        op_free(root);
        return eval_oom(ev, probe->span);
    }
    if (ok) {
        op_total(root);
        ok = root->known && op_finite(root);
    }
    out->flops = ok ? root->flops : NAN;
    out->dtype = ok ? main_dtype(root) : DT_BF16;
    op_free(root);
    return true;
}

bool summary_model_flops(Eval *ev, const Stmt *s, const Mesh *mesh, ModelFlops *out)
{
    const Node *call = s->as.expr.value;
    const BlockDef *b = call->kind == NODE_CALL ? arch_call_target(ev, call)
                                                : NULL;
    *out = (ModelFlops){NAN, DT_BF16};
    if (!b)
        return true;
    Node none = {.kind = NODE_AXES, .span = call->span, .depth = 1};
    none.as.axes.dim = -1;
    /* the statement's axes, each of one chip: a block that names them still runs */
    Node one = {.kind = NODE_NUMBER, .span = call->span, .depth = 1, .as.number = 1};
    MeshAxisDef axes[MESH_MAX_AXES];
    int naxes = mesh ? mesh->n : 0;
    for (int i = 0; i < naxes; i++)
        axes[i] = (MeshAxisDef){{mesh->axes[i].name, call->span}, &one, {-1, call->span}};
    int n;
    Binding *args = one_chip_args(ev, b, call, &none, &n);
    if (!args)
        return eval_oom(ev, s->span);
    Node alone = *call;
    alone.as.call.args = args;
    alone.as.call.nargs = n;
    Stmt probe = *s;
    probe.kind = STMT_EXPR;
    probe.as.expr.value = &alone;
    probe.as.expr.clauses.chip.shape = NULL;
    probe.as.expr.clauses.mesh = axes;
    probe.as.expr.clauses.nmesh = naxes;
    probe.as.expr.clauses.shards = NULL;
    probe.as.expr.clauses.out_type = NULL;
    bool ok = cost_alone(ev, &probe, out);
    free(args);
    return ok;
}

/* ---- The figures ------------------------------------------------------------------ */

static void run_figures(const World *w, const Chip *chip, Summary *sm)
{
    sm->run_tokens = w->training ? w->run_tokens : 0;
    if (sm->run_tokens <= 0)
        return;
    sm->steps = sm->run_tokens / sm->tokens;
    sm->run_time = sm->steps * sm->t_lower;
    sm->chip_hours = sm->chips * sm->run_time / 3600;
    sm->price = chip->set[CHIP_PRICE] ? chip->value[CHIP_PRICE] : NAN;
    sm->run_usd = sm->chip_hours * sm->price;
}

bool summary_measure(Eval *ev, const Stmt *s, const Op *root, const Chip *chip, const Mesh *mesh,
                     Summary *out)
{
    double chips = mesh_chips(mesh);
    const World *w = ev->world;
    const Node *call = s->as.expr.value;
    StepTokens st = w->step_tokens;
    memset(out, 0, sizeof *out);
    const BlockDef *target = call->kind == NODE_CALL ? arch_call_target(ev, call) : NULL;
    if (!chip || !root->known || !target || st.block < 0 || st.block != target->name)
        return true;
    Op all = op_scaled(root);
    if (!(all.t_lower > 0))
        return true;
    *out = (Summary){.whole = true, .chip = chip->name, .batch = st.batch, .seq = st.seq,
                     .microbatches = w->training ? w->microbatches : 1, .chips = chips,
                     .t_lower = all.t_lower};
    out->tokens = out->batch * out->seq * out->microbatches;
    if (!summary_model_flops(ev, s, mesh, &out->model))
        return false;
    ChipField peak = chip_peak_field(out->model.dtype);
    out->peak = chip->set[peak] ? chip->value[peak] : NAN;
    out->mfu = out->model.flops / (out->t_lower * chips * out->peak);
    out->tokens_per_s = out->tokens / out->t_lower;
    out->tokens_per_s_chip = out->tokens_per_s / chips;
    run_figures(w, chip, out);
    bool finite = isfinite(out->tokens) && isfinite(out->tokens_per_s) &&
                  (out->run_tokens <= 0 || (isfinite(out->run_time) && isfinite(out->chip_hours) &&
                                            (isnan(out->price) || isfinite(out->run_usd))));
    return finite || eval_fail(ev, s->span, "the summary overflows: a figure is too large for a "
                               "double");
}

static void set(LastReport *last, ExpectField f, double v)
{
    last->known[f] = isfinite(v);
    last->value[f] = v;
}

void summary_remember(LastReport *last, const Summary *sm)
{
    last->whole = sm->whole;
    if (!sm->whole)
        return;
    bool run = sm->run_tokens > 0;
    set(last, FIELD_TOKENS, sm->tokens);
    set(last, FIELD_MODEL_FLOPS, sm->model.flops);
    set(last, FIELD_MFU, sm->mfu);
    set(last, FIELD_TOKENS_PER_S, sm->tokens_per_s_chip);
    set(last, FIELD_TOKENS_PER_S_ALL, sm->tokens_per_s);
    set(last, FIELD_RUN_TIME, run ? sm->run_time : NAN);
    set(last, FIELD_CHIP_HOURS, run ? sm->chip_hours : NAN);
    set(last, FIELD_RUN_USD, run ? sm->run_usd : NAN);
}
