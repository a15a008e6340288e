/* pipeline.c — pipeline parallelism (issue 12; How to Scale Your Model, ch. 5,
 * "Pipelining"; docs/costmodel.md §6.3).
 *
 * `repeat L over pp { x = layer(x) }` with P chips on the axes pp: each chip runs L/P
 * of the layers for every one of the step's M microbatches and holds their params
 * only (the model's `params` still counts all L). The figures are one stage's, per
 * chip, in a breakdown node of three rows:
 *
 *   the repeat       L/P layers, M microbatches each (the statements are one
 *                    microbatch; cost_accumulate runs them M times)
 *   send             per microbatch the body's result goes to the next stage and, in
 *                    training, its gradient comes back: point to point over one link,
 *                    bytes / link bandwidth (one way) + the hop latency, each way
 *   bubble           idle: a stage's M slots are (P − 1) slots short of the step's
 *                    M + P − 1, so it waits (P − 1)/M of its work and sends, which is
 *                    (P − 1)/(M + P − 1) of the pipeline's time, the book's bubble
 *
 * The sends are not overlapped with the work (the book's total 2BD/(W·M) per hop),
 * unless `mode training ... sends overlap`: each microbatch's send then runs while the
 * stage works on the next one, so a slot takes the larger of the two and the send row
 * keeps only what the work does not cover, max(0, sends − work); the rest counts in
 * the comm share of the time (Op.hidden), so the pipeline is comm-bound exactly while
 * its sends outgrow its work: the critical batch (ch. 12) `solve` finds.
 * Memory: GPipe keeps the activations of all M microbatches of its layers until their
 * backward passes, 1F1B at most P (the first stage's). A pipeline is costed in
 * training only, where microbatches are defined.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "pipeline.h"

bool pipeline_stages(Eval *ev, const Stmt *repeat, double layers, Pipeline *out)
{
    const NameRef *over = &repeat->as.repeat.over;
    Layout layout;
    out->stages = 1;
    out->axes = 0;
    if (over->name < 0)
        return true;
    LayoutEnv lx = eval_layout(ev);
    layout_inherit(&lx, &layout);
    out->mesh = layout.mesh;
    if (!layout_axes(&lx, &layout, over, &out->axes))
        return false;
    out->stages = mesh_span(&layout.mesh, out->axes);
    for (int a = 0; a < layout.mesh.n; a++) /* the stages use them */
        if (out->axes & 1u << a)
            world_use_axis(ev->world, layout.mesh.axes[a].name);
    if (out->stages == 1)
        return true;
    if (ev->world->training == COST_INFERENCE)
        return eval_fail(ev, over->span, "a pipeline is costed in training only: say `mode "
                         "training microbatches M` first (or repeat without `over`)");
    if (fmod(layers, out->stages) != 0)
        return eval_fail(ev, repeat->as.repeat.value->span, "%g layers do not split evenly "
                         "into %g pipeline stages over %s", layers, out->stages,
                         eval_spelling(ev, over->name));
    return true;
}

/* The bytes a chip sends per microbatch: its share of the body's result, the value
 * of its last statement, an assignment. NaN while a dim is unbound. */
static bool result_bytes(Eval *ev, const Stmt *s, const Pipeline *p, double *out)
{
    const AstList *body = s->as.repeat.body;
    const Stmt *last = body && body->n ? body->items[body->n - 1] : NULL;
    const BoundValue *v = last && last->kind == STMT_ASSIGN
                         ? world_value(ev->world, last->as.expr.target.name) : NULL;
    if (!v || !v->tensor)
        return eval_fail(ev, s->span, "a pipeline stage sends its result to the next one: "
                         "end the body with the assignment of a tensor (x = layer(x))");
    Poly *bytes = tensor_local_bytes(v->tensor, &p->mesh);
    Poly *now = bytes ? poly_subst(bytes, world_lookup, ev->world) : NULL;
    if (!now || !poly_is_const(now, out))
        *out = NAN;
    poly_free(bytes);
    poly_free(now);
    return true;
}

/* One transfer's bandwidth and latency over the pipeline's axes: the data-center
 * network between pods, else one ICI link one way (with the hop latency), else the
 * GPU's NVLink. False (reported) when the chip gives none. */
static bool link_of(Eval *ev, const Stmt *s, const Chip *chip, const Pipeline *p,
                    double *bandwidth, double *latency)
{
    bool dcn = false;
    for (int i = 0; i < p->mesh.n; i++)
        dcn = dcn || ((p->axes >> i & 1u) && p->mesh.axes[i].dcn);
    ChipField f = dcn ? CHIP_DCN_BW : chip->set[CHIP_ICI_BW] ? CHIP_ICI_BW : CHIP_NVLINK_BW;
    if (!chip->set[f])
        return eval_fail(ev, s->as.repeat.over.span, "%s has no %s to send a stage's "
                         "result over", chip->name, dcn ? "dcn_bw" : "ici_bw or nvlink_bw");
    *bandwidth = chip->value[f];
    *latency = !dcn && chip->set[CHIP_HOP_LATENCY] ? chip->value[CHIP_HOP_LATENCY] : 0;
    return true;
}

static double net_fraction(const Chip *chip)
{
    return chip->set[CHIP_NET_EFF] ? chip->value[CHIP_NET_EFF] : 1;
}

/* The sends of one stage in a step: M microbatches' results forward and their
 * gradients back. Unknown (not an error) without a chip or while a dim is unbound. */
static bool fill_send(Eval *ev, const Stmt *s, const Pipeline *p, Op *send)
{
    const Chip *chip = ev->world->use_chip >= 0
                           ? chip_find(&ev->world->chips, eval_spelling(ev, ev->world->use_chip))
                           : NULL;
    double bytes, bandwidth = 0, latency = 0;
    send->leaf = true;
    send->known = false;
    if (!result_bytes(ev, s, p, &bytes))
        return false;
    if (!chip || isnan(bytes))
        return true;
    if (!link_of(ev, s, chip, p, &bandwidth, &latency))
        return false;
    double transfers = 2 * ev->world->microbatches;
    send->known = true;
    send->comm_bytes = transfers * bytes;
    send->t_comm = transfers * (bytes / bandwidth + latency);
    send->t_lower = send->t_upper = send->t_comm;
    send->t_derated = transfers * (bytes / (bandwidth * net_fraction(chip)) + latency);
    send->bound = BOUND_COMM;
    return true;
}

/* With the sends overlapped: only what the stage's work does not cover stays in the
 * send's lower bound (and its derated time); t_upper, no overlap, keeps them all. */
static void overlap_send(const Op *repeat, Op *send)
{
    Op work = op_scaled(repeat);
    double exposed = fmax(0, send->t_lower - work.t_lower);
    send->hidden = send->t_lower - exposed;
    send->t_lower = exposed;
    send->t_derated = fmax(0, send->t_derated - work.t_derated);
}

/* The idle slots: (P − 1)/M of the stage's time, in each of its measures. */
static void fill_bubble(const Op *repeat, const Op *send, double stages, double microbatches,
                        Op *bubble)
{
    Op stage = op_scaled(repeat);
    double idle = (stages - 1) / microbatches;
    bubble->leaf = true;
    bubble->known = stage.known && send->known;
    bubble->t_lower = idle * (stage.t_lower + send->t_lower);
    bubble->t_upper = idle * (stage.t_upper + send->t_upper);
    bubble->t_derated = idle * (stage.t_derated + send->t_derated);
    bubble->bound = BOUND_UNKNOWN;
}

static const char *schedule_name(Schedule s)
{
    return s == SCHEDULE_GPIPE ? "GPipe" : "1F1B";
}

/* Adds child to node, or frees it: false when memory ran out. */
static bool adopt(Op *node, Op *child)
{
    if (child && op_add(node, child))
        return true;
    op_free(child);
    return false;
}

Op *pipeline_node(Eval *ev, const Stmt *s, Op *repeat, const Pipeline *p)
{
    char label[96];
    double m = ev->world->microbatches;
    repeat->stages = p->stages;
    repeat->in_flight = ev->world->schedule == SCHEDULE_GPIPE ? m : fmin(m, p->stages);
    op_total(repeat);
    snprintf(label, sizeof label, "pipeline, %g stages, %s", p->stages,
             schedule_name(ev->world->schedule));
    Op *node = op_new(label);
    if (!node)
        op_free(repeat);
    const char *send = ev->world->sends_overlap ? "overlapped send to the next stage"
                                                : "send to the next stage";
    bool made = node && adopt(node, repeat) && adopt(node, op_new(send));
    snprintf(label, sizeof label, "bubble (%g/%g idle)", p->stages - 1, m + p->stages - 1);
    if (!made || !adopt(node, op_new(label))) {
        op_free(node);
        eval_oom(ev, s->span);
        return NULL;
    }
    if (!fill_send(ev, s, p, node->children[1])) {
        op_free(node);
        return NULL;
    }
    if (ev->world->sends_overlap && node->children[1]->known)
        overlap_send(node->children[0], node->children[1]);
    fill_bubble(node->children[0], node->children[1], p->stages, m, node->children[2]);
    return node;
}
