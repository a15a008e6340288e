/* mesh.h — chips in named axes, shardings as sets of axes, and what a collective over
 * some axes costs on a chip's network (docs/costmodel.md §3).
 *
 * A mesh lists its axes outermost first; on a TPU the ICI axes lie along the torus
 * dimensions in that order (X, Y, Z), and DCN axes join whole pods. On a GPU the last
 * axes are the GPUs of a node: an axis is inside a node when its size times the sizes
 * of the axes after it is at most the chip's node_gpus.
 *
 * A collective moves an array of V bytes (the whole array within one group of chips:
 * gathered, or reduced) over a set of axes. Its cost is T = factor · V / bandwidth,
 * and at least the latency floor, hops × the latency of one (docs/costmodel.md §6.2, §6.5):
 *
 *   TPU ICI, per axis: bandwidth 2 · ici_bw when the axis wraps around (its size is a
 *   multiple of the chip's torus_wrap, or it has at most 2 chips, whose one neighbour
 *   is reached both ways), else ici_bw; over several axes the bandwidths add up.
 *     AllGather, ReduceScatter   factor 1; on axes that none wraps (a line: the
 *                                one-direction ring) (N − 1) / N, N the chips
 *     AllReduce                  twice that
 *     AllToAll                   factor 1/4 on one axis; over several axes
 *                                max(axis) / (4 · N), N the chips of those axes, with
 *                                the smallest bandwidth of those axes
 *   A TPU that gives no torus_wrap has rings only on axes of at most 2 chips.
 *   hops: largest axis / 2 on a ring (both ways), axis − 1 on a line; hop_latency each.
 *   DCN (axes marked dcn): bandwidth dcn_bw, the ring's factors; N − 1 steps of
 *   dcn_latency. An AllReduce, a ReduceScatter then an AllGather, waits through the
 *   hops (steps) twice, on every network.
 *   GPU: the last axes of the mesh are the GPUs of a node (an axis longer than what is
 *   left of a node spans nodes). A group of N = D · M GPUs, D in each of M nodes, while
 *   Y groups share each node (the node's axes that shard the array but are not the
 *   collective's: each moves its own part; a replicated array crosses once), runs
 *   level by level and takes the
 *   slowest, each level a ring of its own degree D_i (docs/costmodel.md §6.5): inside the node
 *   D GPUs at W = nvlink_bw; across nodes the L = min(M, leaf_nodes) nodes of a leaf
 *   group at a group's share of the node egress, W = node_bw / Y; above the leaves the
 *   G = ceil(M / L) leaf groups at the group's uplink, L · node_bw / (Y · oversub):
 *     AllGather, ReduceScatter   max over levels of (D_i − 1) / D_i · V / W_i
 *     AllReduce                  twice that; with sharp, V / W inside the node
 *     AllToAll                   not hierarchical: (D − 1) / N² · V / W in the node
 *                                (N = D · M), (M − 1) / M² · V / W across nodes, and
 *                                (G − 1) / (G² · L) · V over each node's share of the
 *                                spine, node_bw / (Y · oversub)
 *   steps: D − 1 of nvlink_latency, L − 1 + G − 1 of node_latency.
 *
 * A latency field the chip lacks counts 0; the LinkCost names it in `unset`, so the
 * report says the floor leaves that network out instead of pricing it at zero.
 *
 * The report splits the bandwidth into `links` link directions of bandwidth / links
 * each (on a TPU one way of one ICI link: a ring axis gives 2, a line 1; elsewhere 1),
 * and calls factor · V / links the comm_bytes: the bytes each chip sends over each
 * link direction it uses. T = comm_bytes / (bandwidth / links). So the book's two
 * chips, each sending its bf16[B,F] partial sums, move 2·B·F bytes at 4.5e10 B/s.
 */
#ifndef ROOFLINE_MESH_H
#define ROOFLINE_MESH_H

#include <stdbool.h>
#include <stddef.h>

#include "chip.h"
#include "coll.h"

enum { MESH_MAX_AXES = 8 };

typedef unsigned AxisSet; /* bit i: axis i of the mesh */

typedef struct {
    int name;  /* interned */
    int size;  /* chips along the axis, >= 1 */
    bool dcn;  /* joins pods over the data-center network */
} MeshAxis;

struct ShardPadding;

typedef struct {
    MeshAxis axes[MESH_MAX_AXES];
    int n;
    /* How a statement's dims bound to numbers its chips do not divide are padded
     * (tensor.h); NULL: not at all. Not owned; the world's. */
    const struct ShardPadding *padding;
} Mesh;

/* The index of the axis with this name, or -1. */
int mesh_find(const Mesh *m, int name);
/* Appends an axis; -1 if the mesh is full or the name is taken, else its index. */
int mesh_add(Mesh *m, int name, int size, bool dcn);
/* The number of chips of the whole mesh, and of the axes in a set. */
double mesh_chips(const Mesh *m);
double mesh_ici_chips(const Mesh *m); /* its ICI axes' chips: a pod's (no DCN axis) */
double mesh_span(const Mesh *m, AxisSet axes);
int mesh_count(AxisSet axes); /* how many axes are in the set */

/* Whether the mesh fits the chip's pod: no more ICI axes than torus_dims, ICI axis i no
 * longer than the pod along torus dimension i (pod_x, pod_y, pod_z, when the chip gives
 * them), and the ICI axes together no more chips than pod_chips (when given: a pod
 * whose axes a mesh axis may span, v5p's). Returns MESH_FITS; the index of the first
 * axis that does not fit, with *limit the pod's length along it (0 when there is no
 * torus dimension left for it); or MESH_OVER_POD, with *limit pod_chips. Only TPUs
 * (chips with ici_bw) are checked. */
enum { MESH_FITS = -1, MESH_OVER_POD = -2 };
int mesh_misfit(const Mesh *m, const Chip *chip, double *limit);

/* Whether a TPU axis of `size` chips wraps around (a ring): at most 2 chips, or a
 * multiple of the chip's torus_wrap. */
bool mesh_axis_wraps(const Chip *chip, int size);

/* The links a collective keeps busy, its lanes: collectives on one lane take turns,
 * on different lanes they run at once (docs/costmodel.md §6.3: "we can fully overlap the comms
 * on the X and Y axis with each other"). A TPU's ICI axis is a lane of its own (its
 * own links along one torus dimension); every DCN axis shares the chip's one DCN
 * egress; on a GPU every axis inside a node shares its NVLink egress and every axis
 * across nodes its node's egress (an axis that spans both uses both). */
enum { LANE_DCN = MESH_MAX_AXES, LANE_NVLINK, LANE_NODE, MESH_LANES };
typedef unsigned LaneSet; /* bit i: lane i (an ICI axis' index, or a LANE_ constant) */

typedef struct {
    double factor;       /* comm_bytes = factor · V */
    double bandwidth;    /* B/s */
    double links;        /* link directions sharing the bytes */
    double floor;        /* seconds: hops × latency; 0 when the chip gives no latency */
    double hops;         /* hops (or ring steps) a byte waits through */
    const char *network; /* "ICI ring", "ICI line (no wraparound)", "ICI", "DCN",
                            "NVLink", "InfiniBand", "fat tree spine" */
    LaneSet lanes;       /* the links it keeps busy (mesh_coll_lanes) */
    ChipFieldSet unset;  /* the latency fields the chip lacks for the networks the
                            collective crosses: their steps count 0 in the floor */
} LinkCost;

typedef enum {
    LINK_OK,
    LINK_NO_NETWORK,   /* the chip has neither ici_bw nor nvlink_bw */
    LINK_NO_DCN,       /* a DCN axis, and the chip has no dcn_bw */
    LINK_NO_NODE_BW,   /* a GPU collective across nodes, and no node_bw */
    LINK_MIXED,        /* the axes mix DCN and ICI */
    LINK_EMPTY         /* no axis in the set */
} LinkStatus;

/* How a collective over `axes` moves its bytes on `chip`; `sharded`, the axes that
 * shard its array besides: on a GPU, groups along those of a node share its egress. */
LinkStatus mesh_coll_link_cost(CollKind kind, const Mesh *m, AxisSet axes, AxisSet sharded,
                          const Chip *chip, LinkCost *out);
/* The lanes a collective over `axes` keeps busy on `chip` (0: a group of one chip). */
LaneSet mesh_coll_lanes(const Mesh *m, AxisSet axes, const Chip *chip);

#endif
