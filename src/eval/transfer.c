/* transfer.c — `send`: a tensor moved between two chips, from every chip of a slice to
 * one, or from the hosts into HBM (docs/costmodel.md §6.1; the book's chapter 2, questions 5
 * and 6):
 *
 *   send bf16[8, 128, 8192] from (0, 0) to (3, 3) on v5e 4x4
 *     point to point on a TPU mesh: hops = the shortest path, axis by axis (the short
 *     way round on an axis that wraps); it leaves over one link per axis it moves
 *     along (two on a ring axis whose target is half-way round), so
 *     T = bytes / (links · ici_bw) + hops · hop_latency
 *     A chip sends what it holds: of a sharded tensor (bf16[E_Y, F]) its shard.
 *   send T from all to (0, 0)
 *     a gather to one chip: every other chip's share, (N − 1)/N of the bytes, arrives
 *     over the target's links (two per ring axis, one per line axis at an end, two
 *     inside): T = (N − 1)/N · bytes / (links · ici_bw) + hops of the farthest chip
 *   send T from host to all      each chip loads its 1/N over its own PCIe
 *   send T from host to (0, 0)   one chip loads it all
 *
 * On GPUs a chip is its rank, `(9)`: inside a node NVLink (nvlink_bw, nvlink_latency),
 * across nodes the GPU's share of the node egress (node_bw / node_gpus, node_latency).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "evalparts.h"
#include "records.h"

typedef enum { END_CHIP, END_ALL, END_HOST } EndKind;

typedef struct {
    EndKind kind;
    int coord[MESH_MAX_AXES];
} End;

static const char *word(Eval *ev, NameRef n)
{
    return intern_name(ev->world->names, n.name);
}

/* One end: coordinates within the mesh, or `all`, or `host` (`from` only). */
static bool read_end(Eval *ev, const Endpoint *e, const Mesh *m, bool from, End *out)
{
    const char *kw = word(ev, e->keyword);
    if (strcmp(kw, from ? "from" : "to") != 0)
        return eval_fail(ev, e->keyword.span, "send takes `%s` here, not `%s`: send T from "
                         "(0, 0) to (3, 3)", from ? "from" : "to", kw);
    if (e->word.name >= 0) {
        const char *w = word(ev, e->word);
        out->kind = strcmp(w, "all") == 0 ? END_ALL : strcmp(w, "host") == 0 ? END_HOST : -1;
        if ((int)out->kind < 0 || (out->kind == END_HOST && !from))
            return eval_fail(ev, e->word.span, "a send goes %s coordinates like (0, 0)%s, not "
                             "`%s`", from ? "from" : "to", from ? ", `all` or `host`" : " or `all`",
                             w);
        return true;
    }
    out->kind = END_CHIP;
    if (e->ncoords != m->n)
        return eval_fail(ev, e->span, "the slice has %d axes, so a chip has %d coordinates, "
                         "not %d", m->n, m->n, e->ncoords);
    for (int i = 0; i < m->n; i++) {
        double v;
        if (!eval_number(ev, e->coords[i], &v))
            return false;
        if (v < 0 || v >= m->axes[i].size || v != floor(v))
            return eval_fail(ev, e->coords[i]->span, "a coordinate along an axis of %d chips "
                             "is a whole number from 0 to %d", m->axes[i].size,
                             m->axes[i].size - 1);
        out->coord[i] = (int)v;
    }
    return true;
}

/* A chip to a chip on the ICI mesh. */
static void ici_point(Eval *ev, const Chip *chip, const Mesh *m, const End *a, const End *b,
                      Transfer *t)
{
    int used = 0;
    bool any_line = false;
    for (int i = 0; i < m->n; i++) {
        int size = m->axes[i].size, d = abs(b->coord[i] - a->coord[i]);
        bool wrap = mesh_axis_wraps(chip, size);
        int hops = wrap && size - d < d ? size - d : d;
        any_line = any_line || (!wrap && size > 2);
        t->hops += hops;
        t->links += hops > 0 ? (wrap && 2 * d == size && size > 2 ? 2 : 1) : 0;
        if ((size_t)used < sizeof t->path)
            used += snprintf(t->path + used, sizeof t->path - (size_t)used, "%s%d along %s",
                             used ? ", " : "", hops,
                             intern_name(ev->world->names, m->axes[i].name));
    }
    if ((size_t)used < sizeof t->path)
        snprintf(t->path + used, sizeof t->path - (size_t)used, "%s",
                 any_line ? " (no wraparound)" : "");
    if (t->links == 0)
        t->links = 1;
}

/* Every chip to one on the ICI mesh: the links into it, the farthest chip's hops. */
static void ici_gather(const Chip *chip, const Mesh *m, const End *b, Transfer *t)
{
    for (int i = 0; i < m->n; i++) {
        int size = m->axes[i].size, c = b->coord[i];
        if (size < 2)
            continue;
        bool wrap = mesh_axis_wraps(chip, size);
        t->links += wrap || (c > 0 && c < size - 1) ? 2 : 1;
        t->hops += wrap ? size / 2 : (c > size - 1 - c ? c : size - 1 - c);
    }
    double n = mesh_chips(m);
    t->share = (n - 1) / n;
    snprintf(t->path, sizeof t->path, "%.0f chips into one over %g links", n, t->links);
    if (t->links == 0)
        t->links = 1;
}

static double field(const Chip *chip, ChipField f)
{
    return chip->set[f] ? chip->value[f] : 0;
}

/* GPU ranks: the same node over NVLink, else over the GPU's share of the node egress. */
static bool gpu_point(Eval *ev, const Stmt *s, const Chip *chip, const End *a, const End *b,
                      const Mesh *m, Transfer *t)
{
    double node = chip->set[CHIP_NODE_GPUS] ? chip->value[CHIP_NODE_GPUS] : mesh_chips(m);
    bool same = floor(a->coord[0] / node) == floor(b->coord[0] / node);
    if (!same && !chip->set[CHIP_NODE_BW])
        return eval_fail(ev, s->span, "chip %s has no node_bw for a send across nodes",
                         chip->name);
    t->links = 1;
    t->hops = a->coord[0] != b->coord[0];
    t->bandwidth = same ? chip->value[CHIP_NVLINK_BW]
                        : fmin(chip->value[CHIP_NVLINK_BW], chip->value[CHIP_NODE_BW] / node);
    t->latency = field(chip, same ? CHIP_NVLINK_LATENCY : CHIP_NODE_LATENCY);
    t->network = same ? "NVLink" : "InfiniBand";
    snprintf(t->path, sizeof t->path, "%s", same ? "inside a node" : "across nodes");
    return true;
}

/* From the hosts: each chip's share over its PCIe, or all of it into one chip. */
static bool from_host(Eval *ev, const Stmt *s, const Chip *chip, const Mesh *m, const End *to,
                      Transfer *t)
{
    if (!chip->set[CHIP_PCIE_BW])
        return eval_fail(ev, s->span, "chip %s has no pcie_bw for a load from the host",
                         chip->name);
    double chips = to->kind == END_ALL ? mesh_chips(m) : 1;
    t->share = 1 / chips;
    t->links = 1;
    t->bandwidth = chip->value[CHIP_PCIE_BW];
    t->network = "PCIe";
    snprintf(t->path, sizeof t->path, "%s", chips > 1 ? "each chip loads its share"
                                                      : "one chip loads it all");
    return true;
}

static bool plan(Eval *ev, const Stmt *s, const Chip *chip, const Mesh *m, const End *from,
                 const End *to, Transfer *t)
{
    if (from->kind == END_HOST)
        return from_host(ev, s, chip, m, to, t);
    if (to->kind == END_ALL)
        return eval_fail(ev, s->as.send.to->span, "a send to every chip is an allgather or a "
                         "broadcast: write `allgather`, or send from `host` to `all`");
    if (chip->set[CHIP_ICI_BW]) {
        t->bandwidth = chip->value[CHIP_ICI_BW];
        t->latency = field(chip, CHIP_HOP_LATENCY);
        t->network = "ICI";
        if (from->kind == END_ALL)
            ici_gather(chip, m, to, t);
        else
            ici_point(ev, chip, m, from, to, t);
        return true;
    }
    if (chip->set[CHIP_NVLINK_BW] && from->kind == END_CHIP && m->n == 1)
        return gpu_point(ev, s, chip, from, to, m, t);
    return eval_fail(ev, s->span, "chip %s: a send runs on a TPU slice (ici_bw) or between "
                     "two GPU ranks of a one-axis mesh (nvlink_bw)", chip->name);
}

/* The tensor's bytes on one chip of mesh m (with no axes: all of them). */
static double tensor_size(Eval *ev, const Tensor *x, const Mesh *m, Span span, bool *ok)
{
    Poly *p = tensor_local_bytes(x, m), *now = p ? poly_subst(p, world_lookup, ev->world)
                                                 : NULL;
    double v = 0;
    *ok = now && poly_is_const(now, &v);
    poly_free(p);
    poly_free(now);
    if (!*ok)
        eval_fail(ev, span, "send needs the tensor's size as a number: bind its dims");
    return v;
}

/* The record the report writes: the transfer, and where and how it was costed. */
static void report_send(Eval *ev, const Stmt *s, const Chip *chip, const Transfer *t)
{
    SendRecord r = {
        .stmt = records_stmt(ev->src, s->span), .chip = chip->name,
        .mode = ev->world->training, .move = t,
    };
    records_send(ev->out, &r, ev->json);
}

bool transfer_run(Eval *ev, const Stmt *s)
{
    StmtState st;
    eval_stmt_state_init(ev, &st);
    const Clauses *c = &s->as.send.clauses;
    const Chip *chip = NULL;
    ExprValue v = {0};
    End from = {0}, to = {0};
    Transfer t = {.share = 1};
    LayoutEnv lx = eval_layout(ev);
    bool ok = stmt_chip(ev, c, &chip) &&
              layout_from_clauses(&lx, c, chip, s->span, &st.layout);
    if (ok && !chip)
        ok = eval_fail(ev, s->span, "send needs a chip and its slice: ... on v5e 4x4");
    ok = ok && eval_expr(ev, s->as.send.value, &st, -1, &v);
    if (ok && !v.tensor)
        ok = eval_fail(ev, s->as.send.value->span, "send moves a tensor, not a number");
    const Mesh *m = &st.layout.mesh;
    ok = ok && read_end(ev, s->as.send.from, m, true, &from) &&
         read_end(ev, s->as.send.to, m, false, &to);
    /* Point to point a chip sends what it holds; a gather or a load from the hosts moves
     * the whole tensor, each chip's part of it. */
    Mesh whole = {0};
    if (ok)
        t.whole = tensor_size(ev, v.tensor, &whole, s->as.send.value->span, &ok);
    t.bytes = t.whole;
    if (ok && from.kind == END_CHIP && to.kind == END_CHIP)
        t.bytes = tensor_size(ev, v.tensor, m, s->as.send.value->span, &ok);
    ok = ok && plan(ev, s, chip, m, &from, &to, &t);
    if (ok) {
        t.t = t.share * t.bytes / (t.links * t.bandwidth) + t.hops * t.latency;
        /* a field near the largest or the smallest double: an error, never inf or nan */
        if (!isfinite(t.links * t.bandwidth) || !isfinite(t.hops * t.latency) || !isfinite(t.t))
            ok = eval_fail(ev, s->span, "the cost overflows: a figure is too large for a double");
    }
    if (ok) {
        report_send(ev, s, chip, &t);
        check_remember_transfer(ev, s, t.share * t.bytes, t.t, t.hops, mesh_chips(m));
    }
    eval_free(&v);
    cost_free(&st.cost);
    return ok;
}
