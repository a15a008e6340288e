/* mesh.c — meshes of named axes, whether a mesh fits a chip's pod, and how a
 * collective over some axes moves its bytes: over which network, with what factor,
 * bandwidth and latency floor (docs/costmodel.md §3). The formulas are listed in mesh.h.
 */
#include "mesh.h"

#include <math.h>

static bool in_set(AxisSet axes, int i)
{
    return (axes >> i) & 1u;
}

/* Every axis of the mesh. */
static AxisSet all_axes(const Mesh *m)
{
    return (1u << m->n) - 1;
}

static AxisSet dcn_axes(const Mesh *m)
{
    AxisSet s = 0;
    for (int i = 0; i < m->n; i++)
        if (m->axes[i].dcn)
            s |= 1u << i;
    return s;
}

int mesh_find(const Mesh *m, int name)
{
    for (int i = 0; i < m->n; i++)
        if (m->axes[i].name == name)
            return i;
    return -1;
}

int mesh_add(Mesh *m, int name, int size, bool dcn)
{
    if (m->n == MESH_MAX_AXES || mesh_find(m, name) >= 0)
        return -1;
    m->axes[m->n] = (MeshAxis){.name = name, .size = size, .dcn = dcn};
    return m->n++;
}

double mesh_chips(const Mesh *m)
{
    return mesh_span(m, all_axes(m));
}

double mesh_span(const Mesh *m, AxisSet axes)
{
    double n = 1;
    /* up to the highest axis in the set, not the mesh's every axis: most dims are not
     * split at all (axes 0), and a search asks this of every dim it sizes */
    for (int i = 0; i < m->n && (axes >> i) != 0; i++)
        if (in_set(axes, i))
            n *= m->axes[i].size;
    return n;
}

int mesh_count(AxisSet axes)
{
    int n = 0;
    for (; axes; axes &= axes - 1)
        n++;
    return n;
}

static int largest_axis(const Mesh *m, AxisSet axes)
{
    int size = 0;
    for (int i = 0; i < m->n; i++)
        if (in_set(axes, i) && m->axes[i].size > size)
            size = m->axes[i].size;
    return size;
}

/* ---- Pods ------------------------------------------------------------------- */

/* Whether an ICI axis of `size` chips fits along torus dimension `dim`; if not,
 * *limit is the pod's length there (0: the torus has no such dimension). */
static bool fits_dim(const Chip *chip, int dim, int size, double *limit)
{
    static const ChipField POD[] = {CHIP_POD_X, CHIP_POD_Y, CHIP_POD_Z};
    if (chip->set[CHIP_TORUS_DIMS] && dim >= chip->value[CHIP_TORUS_DIMS]) {
        *limit = 0;
        return false;
    }
    if (dim < 3 && chip->set[POD[dim]] && size > chip->value[POD[dim]]) {
        *limit = chip->value[POD[dim]];
        return false;
    }
    return true;
}

double mesh_ici_chips(const Mesh *m)
{
    double chips = 1;
    for (int i = 0; i < m->n; i++)
        if (!m->axes[i].dcn)
            chips *= m->axes[i].size;
    return chips;
}

int mesh_misfit(const Mesh *m, const Chip *chip, double *limit)
{
    if (!chip->set[CHIP_ICI_BW])
        return MESH_FITS;
    int dim = 0;
    for (int i = 0; i < m->n; i++) {
        if (m->axes[i].dcn)
            continue;
        if (!fits_dim(chip, dim++, m->axes[i].size, limit))
            return i;
    }
    if (chip->set[CHIP_POD_CHIPS] && mesh_ici_chips(m) > chip->value[CHIP_POD_CHIPS]) {
        *limit = chip->value[CHIP_POD_CHIPS];
        return MESH_OVER_POD;
    }
    return MESH_FITS;
}

/* ---- Collectives ------------------------------------------------------------ */

/* The factor of each kind, given that of an AllGather and of an AllToAll; an
 * AllReduce is a ReduceScatter then an AllGather. */
static double by_kind(CollKind kind, double gather, double alltoall)
{
    if (kind == COLL_ALLTOALL)
        return alltoall;
    return kind == COLL_ALLREDUCE ? 2 * gather : gather;
}

/* The factors of a ring (TPU ICI, DCN): a bidirectional ring's, or on a line the
 * one-direction ring's (N − 1) / N. */
static double ring_factor(CollKind kind, const Mesh *m, AxisSet axes, bool line)
{
    double n = mesh_span(m, axes);
    return by_kind(kind, line ? (n - 1) / n : 1, largest_axis(m, axes) / (4 * n));
}

static LinkStatus link_ok(LinkCost *out, double factor, double bandwidth, double links,
                          double hops, double latency, const char *network)
{
    *out = (LinkCost){factor, bandwidth, links, hops * latency, hops, network, 0, 0};
    return LINK_OK;
}

/* A latency field of the chip; when it gives none, 0, and the field goes into *unset
 * so that the report says the floor leaves that network out. */
static double latency(const Chip *chip, ChipField f, ChipFieldSet *unset)
{
    if (chip->set[f])
        return chip->value[f];
    *unset |= CHIP_FIELD_BIT(f);
    return 0;
}

/* An AllReduce is a ReduceScatter then an AllGather: its bytes wait through the ring's
 * steps twice. */
static double passes(CollKind kind)
{
    return kind == COLL_ALLREDUCE ? 2 : 1;
}

/* An axis of at most 2 chips reaches its one neighbour both ways. Without torus_wrap
 * the chip does not say when a longer axis wraps, so it is taken not to. */
bool mesh_axis_wraps(const Chip *chip, int size)
{
    if (size <= 2)
        return true;
    return chip->set[CHIP_TORUS_WRAP] && fmod(size, chip->value[CHIP_TORUS_WRAP]) == 0;
}

static const char *ici_network(int wrapping, int count)
{
    if (wrapping == count)
        return "ICI ring";
    return wrapping == 0 ? "ICI line (no wraparound)" : "ICI";
}

static LinkStatus ici_cost(CollKind kind, const Mesh *m, AxisSet axes, const Chip *chip,
                           LinkCost *out)
{
    double ici = chip->value[CHIP_ICI_BW], sum = 0, least = INFINITY, hops = 0;
    int wrapping = 0;
    for (int i = 0; i < m->n; i++) {
        if (!in_set(axes, i))
            continue;
        int size = m->axes[i].size;
        bool wrap = mesh_axis_wraps(chip, size);
        double bw = wrap ? 2 * ici : ici, axis_hops = wrap ? size / 2.0 : size - 1;
        sum += bw;
        least = bw < least ? bw : least;
        hops = axis_hops > hops ? axis_hops : hops;
        wrapping += wrap;
    }
    double bw = kind == COLL_ALLTOALL ? least : sum;
    ChipFieldSet unset = 0;
    double hop = latency(chip, CHIP_HOP_LATENCY, &unset);
    link_ok(out, ring_factor(kind, m, axes, wrapping == 0), bw, bw / ici, passes(kind) * hops,
            hop, ici_network(wrapping, mesh_count(axes)));
    out->unset = unset;
    return LINK_OK;
}

/* A GPU collective's group: D GPUs in each of M nodes, Y groups sharing a node. The
 * node's axes are the last ones whose chips, all together, fit in node_gpus. */
typedef struct {
    double d, m, y;
} GpuGroup;

static GpuGroup gpu_group(const Mesh *m, AxisSet axes, AxisSet sharded, const Chip *chip)
{
    double room = chip->set[CHIP_NODE_GPUS] ? chip->value[CHIP_NODE_GPUS] : INFINITY;
    GpuGroup g = {1, 1, 1};
    for (int i = m->n - 1; i >= 0; i--) {
        double size = m->axes[i].size;
        double inside = size <= room ? size : fmod(size, room) == 0 ? room : 1;
        room = size <= room ? room / size : 1;
        if (in_set(axes, i)) {
            g.d *= inside;
            g.m *= size / inside;
        } else if (in_set(sharded, i)) {
            g.y *= inside;
        }
    }
    return g;
}

/* (n − 1) / n, or for an AllToAll (n − 1) / n². */
static double level_factor(CollKind kind, double n)
{
    return by_kind(kind, (n - 1) / n, (n - 1) / (n * n));
}

/* The slowest level, as a factor over a bandwidth: keeps the larger of factor / bw. */
static void slower(double factor, double bandwidth, const char *network, LinkCost *best)
{
    if (factor > 0 && factor / bandwidth > best->factor / best->bandwidth) {
        best->factor = factor;
        best->bandwidth = bandwidth;
        best->network = network;
    }
}

/* Inside the node, D GPUs of a group of N = D · M: a ring of D (an AllReduce with sharp,
 * V / W). An AllToAll is not hierarchical: each GPU sends V / N² to each of its D − 1
 * node mates over NVLink (the rest leaves through the node egress), (D − 1) / N². */
static double node_factor(CollKind kind, GpuGroup g, bool sharp)
{
    if (sharp)
        return 1;
    double n = g.d * g.m;
    return kind == COLL_ALLTOALL ? (g.d - 1) / (n * n) : level_factor(kind, g.d);
}

/* The fat tree above the node (docs/costmodel.md §6.5, V · max_i (D_i − 1) / (D_i · W_i)): the
 * nodes of a leaf group, D = min(M, leaf_nodes), over each node's share W of the
 * egress; then the G = ceil(M / leaf_nodes) groups over the group's uplink, leaf_nodes
 * nodes × W / oversub. An AllToAll crosses the node egress with all it sends off the
 * node, (M − 1) / M², and the spine with what leaves the group, (G − 1) / (G² · leaf). */
static void tree_levels(CollKind kind, GpuGroup g, const Chip *chip, LinkCost *best,
                        double *node_steps)
{
    double node = chip->value[CHIP_NODE_BW] / g.y;
    double leaf = chip->set[CHIP_LEAF_NODES] && chip->value[CHIP_LEAF_NODES] < g.m
                      ? chip->value[CHIP_LEAF_NODES] : g.m;
    double groups = ceil(g.m / leaf);
    double oversub = chip->set[CHIP_OVERSUB] ? chip->value[CHIP_OVERSUB] : 1;
    slower(level_factor(kind, kind == COLL_ALLTOALL ? g.m : leaf), node, "InfiniBand", best);
    if (groups > 1)
        slower(level_factor(kind, groups) / leaf, node / oversub, "fat tree spine", best);
    *node_steps = leaf - 1 + groups - 1;
}

static LinkStatus gpu_cost(CollKind kind, const Mesh *m, AxisSet axes, AxisSet sharded,
                           const Chip *chip, LinkCost *out)
{
    GpuGroup g = gpu_group(m, axes, sharded, chip);
    if (g.m > 1 && !chip->set[CHIP_NODE_BW])
        return LINK_NO_NODE_BW;
    LinkCost best = {0, 1, 1, 0, 0, "NVLink", 0, 0};
    bool sharp = kind == COLL_ALLREDUCE && chip->set[CHIP_SHARP];
    if (g.d > 1)
        slower(node_factor(kind, g, sharp), chip->value[CHIP_NVLINK_BW],
               sharp ? "NVLink (SHARP)" : "NVLink", &best);
    double node_steps = 0, steps = 0;
    ChipFieldSet unset = 0;
    if (g.m > 1)
        tree_levels(kind, g, chip, &best, &node_steps);
    if (g.d > 1)
        steps += (g.d - 1) * latency(chip, CHIP_NVLINK_LATENCY, &unset);
    if (node_steps > 0)
        steps += node_steps * latency(chip, CHIP_NODE_LATENCY, &unset);
    double hops = g.d - 1 + node_steps;
    link_ok(out, best.factor, best.bandwidth, 1, passes(kind) * hops, hops > 0 ? steps / hops : 0,
            best.network);
    out->unset = unset;
    return LINK_OK;
}

LaneSet mesh_coll_lanes(const Mesh *m, AxisSet axes, const Chip *chip)
{
    axes &= all_axes(m);
    if (mesh_span(m, axes) <= 1)
        return 0;
    if (axes & dcn_axes(m))
        return 1u << LANE_DCN;
    if (chip->set[CHIP_ICI_BW])
        return axes;
    GpuGroup g = gpu_group(m, axes, 0, chip);
    return (g.d > 1 ? 1u << LANE_NVLINK : 0) | (g.m > 1 ? 1u << LANE_NODE : 0);
}

LinkStatus mesh_coll_link_cost(CollKind kind, const Mesh *m, AxisSet axes, AxisSet sharded,
                          const Chip *chip, LinkCost *out)
{
    axes &= all_axes(m);
    if (!axes)
        return LINK_EMPTY;
    if (mesh_span(m, axes) <= 1) /* every chip of a group of one already has it all */
        return link_ok(out, 0, 1, 1, 0, 0, "none (one chip)");
    AxisSet dcn = axes & dcn_axes(m);
    if (dcn && dcn != axes)
        return LINK_MIXED;
    if (dcn) {
        if (!chip->set[CHIP_DCN_BW])
            return LINK_NO_DCN;
        ChipFieldSet unset = 0;
        double step = latency(chip, CHIP_DCN_LATENCY, &unset);
        link_ok(out, ring_factor(kind, m, axes, false), chip->value[CHIP_DCN_BW], 1,
                passes(kind) * (mesh_span(m, axes) - 1), step, "DCN");
        out->unset = unset;
        return LINK_OK;
    }
    if (chip->set[CHIP_ICI_BW])
        return ici_cost(kind, m, axes, chip, out);
    if (chip->set[CHIP_NVLINK_BW])
        return gpu_cost(kind, m, axes, sharded & ~axes, chip, out);
    return LINK_NO_NETWORK;
}
