/* mesh.c — meshes of named axes, whether a mesh fits a chip's pod, and how a
 * collective over some axes moves its bytes: over which network, with what factor,
 * bandwidth and latency floor (COSTMODEL §3). The formulas are listed in mesh.h.
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

/* Axis `i` and every axis after it. */
static AxisSet axes_from(const Mesh *m, int i)
{
    return all_axes(m) & ~((1u << i) - 1);
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
    for (int i = 0; i < m->n; i++)
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

int mesh_misfit(const Mesh *m, const Chip *chip, double *limit)
{
    if (!chip->set[CHIP_ICI_BW])
        return -1;
    int dim = 0;
    for (int i = 0; i < m->n; i++) {
        if (m->axes[i].dcn)
            continue;
        if (!fits_dim(chip, dim++, m->axes[i].size, limit))
            return i;
    }
    return -1;
}

/* ---- Collectives ------------------------------------------------------------ */

const char *coll_name(CollKind k)
{
    static const char *const NAMES[] = {
        [COLL_ALLGATHER] = "allgather",
        [COLL_REDUCESCATTER] = "reducescatter",
        [COLL_ALLREDUCE] = "allreduce",
        [COLL_ALLTOALL] = "alltoall",
    };
    return NAMES[k];
}

/* The factor of each kind, given that of an AllGather and of an AllToAll; an
 * AllReduce is a ReduceScatter then an AllGather. */
static double by_kind(CollKind kind, double gather, double alltoall)
{
    if (kind == COLL_ALLTOALL)
        return alltoall;
    return kind == COLL_ALLREDUCE ? 2 * gather : gather;
}

/* The factors of a ring (TPU ICI, DCN, GPUs across nodes). */
static double ring_factor(CollKind kind, const Mesh *m, AxisSet axes)
{
    return by_kind(kind, 1, largest_axis(m, axes) / (4 * mesh_span(m, axes)));
}

static LinkStatus link_ok(LinkCost *out, double factor, double bandwidth, double links,
                          double floor_s, const char *network)
{
    *out = (LinkCost){factor, bandwidth, links, floor_s, network};
    return LINK_OK;
}

/* An axis of at most 2 chips reaches its one neighbour both ways. Without torus_wrap
 * the chip does not say when a longer axis wraps, so it is taken not to. */
static bool wraps(const Chip *chip, int size)
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
    double ici = chip->value[CHIP_ICI_BW], sum = 0, least = INFINITY;
    int wrapping = 0;
    for (int i = 0; i < m->n; i++) {
        if (!in_set(axes, i))
            continue;
        bool wrap = wraps(chip, m->axes[i].size);
        double bw = wrap ? 2 * ici : ici;
        sum += bw;
        least = bw < least ? bw : least;
        wrapping += wrap;
    }
    double floor_s = chip->set[CHIP_HOP_LATENCY]
                         ? chip->value[CHIP_HOP_LATENCY] * largest_axis(m, axes) / 2
                         : 0;
    double bw = kind == COLL_ALLTOALL ? least : sum;
    return link_ok(out, ring_factor(kind, m, axes), bw, bw / ici, floor_s,
                   ici_network(wrapping, mesh_count(axes)));
}

/* The last axes of a GPU mesh are the GPUs of a node; without node_gpus, one node
 * holds them all. */
static bool in_node(const Mesh *m, AxisSet axes, const Chip *chip)
{
    if (!chip->set[CHIP_NODE_GPUS])
        return true;
    for (int i = 0; i < m->n; i++)
        if (in_set(axes, i) && mesh_span(m, axes_from(m, i)) > chip->value[CHIP_NODE_GPUS])
            return false;
    return true;
}

static LinkStatus gpu_cost(CollKind kind, const Mesh *m, AxisSet axes, const Chip *chip,
                           LinkCost *out)
{
    double nvlink = chip->value[CHIP_NVLINK_BW];
    if (in_node(m, axes, chip)) {
        double n = mesh_span(m, axes), gather = (n - 1) / n;
        return link_ok(out, by_kind(kind, gather, gather / n), nvlink, 1, 0, "NVLink");
    }
    if (!chip->set[CHIP_NODE_BW])
        return LINK_NO_NODE_BW;
    double node = chip->value[CHIP_NODE_BW];
    return link_ok(out, ring_factor(kind, m, axes), node < nvlink ? node : nvlink, 1, 0,
                   "InfiniBand");
}

LinkStatus coll_link_cost(CollKind kind, const Mesh *m, AxisSet axes, const Chip *chip,
                          LinkCost *out)
{
    axes &= all_axes(m);
    if (!axes)
        return LINK_EMPTY;
    if (mesh_span(m, axes) <= 1) /* every chip of a group of one already has it all */
        return link_ok(out, 0, 1, 1, 0, "none (one chip)");
    AxisSet dcn = axes & dcn_axes(m);
    if (dcn && dcn != axes)
        return LINK_MIXED;
    if (dcn) {
        if (!chip->set[CHIP_DCN_BW])
            return LINK_NO_DCN;
        return link_ok(out, ring_factor(kind, m, axes), chip->value[CHIP_DCN_BW], 1, 0, "DCN");
    }
    if (chip->set[CHIP_ICI_BW])
        return ici_cost(kind, m, axes, chip, out);
    if (chip->set[CHIP_NVLINK_BW])
        return gpu_cost(kind, m, axes, chip, out);
    return LINK_NO_NETWORK;
}
