/* test_mesh.c — unit tests for mesh.c: axes, pods, and the cost of a collective on
 * each network, against values derived by hand from the chip figures of
 * stdlib/chips.roof (docs/costmodel.md §3, §5). Prints one FAIL line per failure and ends
 * with "N passed, M failed". */
#include "check.h"
#include "mesh.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


static bool near(double got, double want)
{
    return fabs(got - want) <= 1e-12 * fabs(want);
}

#define CHECK(cond) check_got(cond, __FILE__, __LINE__, #cond, "false")

/* ---- Chips, by hand, with the figures of stdlib/chips.roof ---------------------- */

typedef struct {
    ChipField field;
    double value;
} Figure;

static Chip *chip_of(int n, const Figure *figures)
{
    Chip *c = calloc(1, sizeof *c);
    if (!c) {
        perror("calloc");
        exit(2);
    }
    for (int i = 0; i < n; i++) {
        c->value[figures[i].field] = figures[i].value;
        c->set[figures[i].field] = true;
    }
    return c;
}

#define CHIP(...) chip_of(sizeof((Figure[]){__VA_ARGS__}) / sizeof(Figure), (Figure[]){__VA_ARGS__})

static Chip *v5e, *v5p, *h100, *b200, *bare;

static void make_chips(void)
{
    v5e = CHIP({CHIP_ICI_BW, 4.5e10}, {CHIP_TORUS_WRAP, 16}, {CHIP_TORUS_DIMS, 2},
               {CHIP_POD_X, 16}, {CHIP_POD_Y, 16}, {CHIP_HOP_LATENCY, 1e-6},
               {CHIP_DCN_BW, 3.125e9});
    v5p = CHIP({CHIP_ICI_BW, 9e10}, {CHIP_TORUS_WRAP, 4}, {CHIP_TORUS_DIMS, 3});
    h100 = CHIP({CHIP_NVLINK_BW, 450e9}, {CHIP_NODE_GPUS, 8}, {CHIP_NODE_BW, 400e9});
    b200 = CHIP({CHIP_NVLINK_BW, 900e9}, {CHIP_NODE_GPUS, 8});
    bare = CHIP({CHIP_HBM_BW, 8.2e11});
}

static void free_chips(void)
{
    free(v5e);
    free(v5p);
    free(h100);
    free(b200);
    free(bare);
}

/* ---- Meshes ----------------------------------------------------------------- */

enum { FIRST_NAME = 100 }; /* axis i is named FIRST_NAME + i */

/* A mesh of n axes of these sizes, outermost first; bit i of `dcn` marks axis i. */
static Mesh mesh_of(int n, const int *sizes, AxisSet dcn)
{
    Mesh m = {.n = 0};
    for (int i = 0; i < n; i++)
        mesh_add(&m, FIRST_NAME + i, sizes[i], (dcn >> i) & 1u);
    return m;
}

#define MESH(dcn, ...) \
    mesh_of(sizeof((int[]){__VA_ARGS__}) / sizeof(int), (int[]){__VA_ARGS__}, dcn)

enum { A0 = 1u, A1 = 2u, A2 = 4u }; /* axis sets */

static void test_add_find(void)
{
    Mesh m = {.n = 0};
    CHECK(mesh_add(&m, 7, 16, false) == 0);
    CHECK(mesh_add(&m, 9, 4, true) == 1);
    CHECK(mesh_find(&m, 7) == 0);
    CHECK(mesh_find(&m, 9) == 1);
    CHECK(mesh_find(&m, 8) == -1);
    CHECK(m.axes[1].size == 4 && m.axes[1].dcn && !m.axes[0].dcn);
    CHECK(mesh_add(&m, 7, 2, false) == -1); /* the name is taken */
    CHECK(m.n == 2);
    for (int name = 10; name < 16; name++)
        CHECK(mesh_add(&m, name, 1, false) == name - 8);
    CHECK(m.n == MESH_MAX_AXES);
    CHECK(mesh_add(&m, 16, 2, false) == -1); /* a 9th axis */
    CHECK(m.n == MESH_MAX_AXES);
}

static void test_counts(void)
{
    Mesh empty = {.n = 0};
    Mesh m = MESH(0, 4, 16, 2);
    CHECK(mesh_chips(&empty) == 1);
    CHECK(mesh_chips(&m) == 128); /* 4·16·2 */
    CHECK(mesh_span(&m, A1) == 16);
    CHECK(mesh_span(&m, A0 | A2) == 8);
    CHECK(mesh_span(&m, 0) == 1);
    CHECK(mesh_count(0) == 0);
    CHECK(mesh_count(A0 | A2) == 2);
    CHECK(mesh_count(0xffu) == 8);
}

/* ---- Pods ------------------------------------------------------------------- */

static void misfit_is(const char *file, int line, const Mesh *m, const Chip *chip, int want,
                      double want_limit)
{
    double limit = -1;
    int got = mesh_misfit(m, chip, &limit);
    char what[96], gotten[64];
    snprintf(what, sizeof what, "mesh_misfit == %d, limit %g", want, want_limit);
    snprintf(gotten, sizeof gotten, "%d, limit %g", got, limit);
    check_got(got == want && (want < 0 || limit == want_limit), file, line, what, gotten);
}

#define MISFIT(m, chip, want, limit) misfit_is(__FILE__, __LINE__, m, chip, want, limit)

static void test_misfit(void)
{
    Mesh pod = MESH(0, 16, 16), wide = MESH(0, 32, 4), tall = MESH(0, 4, 32);
    Mesh cube = MESH(0, 2, 2, 2), pods = MESH(A0, 4, 16, 16), big = MESH(0, 64, 64, 64);
    Mesh four = MESH(0, 2, 2, 2, 2);
    MISFIT(&pod, v5e, -1, 0);   /* 16 ≤ pod_x, 16 ≤ pod_y */
    MISFIT(&wide, v5e, 0, 16);  /* 32 > pod_x = 16 */
    MISFIT(&tall, v5e, 1, 16);  /* 32 > pod_y = 16 */
    MISFIT(&cube, v5e, 2, 0);   /* a 3rd ICI axis on a 2D torus */
    MISFIT(&pods, v5e, -1, 0);  /* the DCN axis takes no torus dimension */
    MISFIT(&big, v5p, -1, 0);   /* v5p gives no pod lengths */
    MISFIT(&four, v5p, 3, 0);   /* a 4th ICI axis on a 3D torus */
    MISFIT(&big, h100, -1, 0);  /* GPUs are not checked */
}

/* ---- Collectives ------------------------------------------------------------ */

static const char *status_name(LinkStatus s)
{
    static const char *const NAMES[] = {"LINK_OK",         "LINK_NO_NETWORK", "LINK_NO_DCN",
                                        "LINK_NO_NODE_BW", "LINK_MIXED",      "LINK_EMPTY"};
    return NAMES[s];
}

static void link_is(const char *file, int line, CollKind kind, const Mesh *m, AxisSet axes,
                    AxisSet sharded, const Chip *chip, double factor, double bw,
                    double floor_s, const char *network)
{
    LinkCost c = {0};
    LinkStatus s = mesh_coll_link_cost(kind, m, axes, sharded, chip, &c);
    char what[160], got[160];
    snprintf(what, sizeof what, "%s over %#x: factor %.6g, bandwidth %.6g, floor %.6g, %s",
             coll_name(kind), axes, factor, bw, floor_s, network);
    snprintf(got, sizeof got, "%s: factor %.6g, bandwidth %.6g, floor %.6g, %s",
             status_name(s), c.factor, c.bandwidth, c.floor, c.network ? c.network : "NULL");
    check_got(s == LINK_OK && near(c.factor, factor) && near(c.bandwidth, bw) &&
              near(c.floor, floor_s) && c.network && strcmp(c.network, network) == 0,
          file, line, what, got);
}

static void link_fails(const char *file, int line, CollKind kind, const Mesh *m, AxisSet axes,
                       const Chip *chip, LinkStatus want)
{
    LinkCost c = {0};
    LinkStatus s = mesh_coll_link_cost(kind, m, axes, 0, chip, &c);
    char what[96];
    snprintf(what, sizeof what, "%s over %#x is %s", coll_name(kind), axes, status_name(want));
    check_got(s == want, file, line, what, status_name(s));
}

#define LINK(kind, m, axes, chip, factor, bw, floor_s, network) \
    link_is(__FILE__, __LINE__, kind, m, axes, 0, chip, factor, bw, floor_s, network)
/* The array also sharded over `sharded` (other groups of a GPU node share its egress). */
#define LINK_S(kind, m, axes, sharded, chip, factor, bw, floor_s, network) \
    link_is(__FILE__, __LINE__, kind, m, axes, sharded, chip, factor, bw, floor_s, network)
#define LINK_FAILS(kind, m, axes, chip, status) \
    link_fails(__FILE__, __LINE__, kind, m, axes, chip, status)

static void test_coll_names(void)
{
    CHECK(strcmp(coll_name(COLL_ALLGATHER), "allgather") == 0);
    CHECK(strcmp(coll_name(COLL_REDUCESCATTER), "reducescatter") == 0);
    CHECK(strcmp(coll_name(COLL_ALLREDUCE), "allreduce") == 0);
    CHECK(strcmp(coll_name(COLL_ALLTOALL), "alltoall") == 0);
}

/* The book's two-chip example (ch. 1): v5e, D sharded over 2, B = 512, F = 16384.
 * The partial sums bf16[B,F] are V = 2·512·16384 = 16777216 bytes, AllReduced over
 * the axis of 2: it wraps (2 chips reach each other both ways), so the bandwidth is
 * 2·4.5e10 = 9e10 and T = 2V/9e10 = 33554432/9e10 = 372.83 µs = 2BF/4.5e10.
 * T_math = BDF/1.97e14 equals it at D = 1.97e14·T/(BF) = 1.97e14/2.25e10 = 8755.6.
 * Floor: the ReduceScatter's 2/2 = 1 hop, then the AllGather's 1: 2 · 1e-6. */
static void test_two_chips(void)
{
    Mesh m = MESH(0, 2);
    LINK(COLL_ALLREDUCE, &m, A0, v5e, 2, 9e10, 2e-6, "ICI ring");
    LinkCost c;
    double v = 2.0 * 512 * 16384;
    CHECK(mesh_coll_link_cost(COLL_ALLREDUCE, &m, A0, 0, v5e, &c) == LINK_OK);
    double t = c.factor * v / c.bandwidth;
    CHECK(fabs(t * 1e6 - 372.8) < 0.05);
    CHECK(near(t, 2 * 512 * 16384 / 4.5e10));
    CHECK(fabs(1.97e14 * t / (512.0 * 16384) - 8755.6) < 0.05);
}

/* v5e: ici_bw 4.5e10, an axis wraps only at 16 (or at ≤ 2 chips); a ring doubles it.
 * Floor: 1e-6 · hops, (largest axis) / 2 on a ring, axis − 1 on a line, twice for an
 * AllReduce (a ReduceScatter, then an AllGather: both passes wait through the hops);
 * a line's AllGather is the one-direction ring's (N − 1)/N (docs/costmodel.md §6.2). */
static void test_v5e_ici(void)
{
    Mesh x16 = MESH(0, 16), x8 = MESH(0, 8), m84 = MESH(0, 8, 4), m1616 = MESH(0, 16, 16);
    Mesh m168 = MESH(0, 16, 8);
    LINK(COLL_ALLGATHER, &x16, A0, v5e, 1, 9e10, 8e-6, "ICI ring");        /* 16·1e-6/2 */
    LINK(COLL_REDUCESCATTER, &x16, A0, v5e, 1, 9e10, 8e-6, "ICI ring");
    LINK(COLL_ALLREDUCE, &x16, A0, v5e, 2, 9e10, 16e-6, "ICI ring");       /* 2 · 8 hops */
    LINK(COLL_ALLTOALL, &x16, A0, v5e, 0.25, 9e10, 8e-6, "ICI ring");      /* 16/(4·16) */
    LINK(COLL_ALLGATHER, &x8, A0, v5e, 7.0 / 8, 4.5e10, 7e-6, "ICI line (no wraparound)");
    /* allreduce int8[64, 8192] over X on a line of 8: 7 hops a pass, 14 in all */
    LINK(COLL_ALLREDUCE, &x8, A0, v5e, 14.0 / 8, 4.5e10, 14e-6, "ICI line (no wraparound)");
    /* over Y = 4 of 8x4: no wraparound, one way: 4.5e10, 3/4; floor 3 hops */
    LINK(COLL_ALLGATHER, &m84, A1, v5e, 3.0 / 4, 4.5e10, 3e-6, "ICI line (no wraparound)");
    /* over X and Y of 16x16: two rings, 9e10 + 9e10 = 1.8e11 */
    LINK(COLL_ALLGATHER, &m1616, A0 | A1, v5e, 1, 1.8e11, 8e-6, "ICI ring");
    LINK(COLL_ALLREDUCE, &m1616, A0 | A1, v5e, 2, 1.8e11, 16e-6, "ICI ring");
    /* a ring and a line: 9e10 + 4.5e10 = 1.35e11 */
    LINK(COLL_ALLGATHER, &m168, A0 | A1, v5e, 1, 1.35e11, 8e-6, "ICI");
}

/* AllToAll over several axes: factor max(axis)/(4·N), the smallest axis bandwidth. */
static void test_v5e_alltoall(void)
{
    Mesh m44 = MESH(0, 4, 4), m28 = MESH(0, 2, 8), m1616 = MESH(0, 16, 16);
    /* 4x4: 4/(4·16) = 1/16; both lines, 4.5e10 (not the sum 9e10); floor 3 hops */
    LINK(COLL_ALLTOALL, &m44, A0 | A1, v5e, 1.0 / 16, 4.5e10, 3e-6, "ICI line (no wraparound)");
    /* 2x8: 8/(4·16) = 1/8; X = 2 wraps (9e10), Y = 8 does not (4.5e10): 4.5e10; the
     * line's 7 hops */
    LINK(COLL_ALLTOALL, &m28, A0 | A1, v5e, 1.0 / 8, 4.5e10, 7e-6, "ICI");
    /* 16x16: 16/(4·256) = 1/64, each ring 9e10 */
    LINK(COLL_ALLTOALL, &m1616, A0 | A1, v5e, 1.0 / 64, 9e10, 8e-6, "ICI ring");
}

/* v5p: ici_bw 9e10, wraps on multiples of 4; no hop_latency here, so no floor. */
static void test_v5p_ici(void)
{
    Mesh x8 = MESH(0, 8), x6 = MESH(0, 6), x2 = MESH(0, 2), cube = MESH(0, 4, 4, 4);
    LINK(COLL_ALLGATHER, &x8, A0, v5p, 1, 1.8e11, 0, "ICI ring");           /* 2·9e10 */
    LINK(COLL_ALLGATHER, &x6, A0, v5p, 5.0 / 6, 9e10, 0, "ICI line (no wraparound)");
    LINK(COLL_ALLGATHER, &x2, A0, v5p, 1, 1.8e11, 0, "ICI ring");
    /* 4x4x4 over all three: 3 · 1.8e11 = 5.4e11 */
    LINK(COLL_ALLREDUCE, &cube, A0 | A1 | A2, v5p, 2, 5.4e11, 0, "ICI ring");
}

/* A TPU that gives no torus_wrap: only axes of at most 2 chips count as rings. */
static void test_no_wrap_figure(void)
{
    Chip *v3 = CHIP({CHIP_ICI_BW, 1e11}, {CHIP_TORUS_DIMS, 2});
    Mesh x4 = MESH(0, 4), x2 = MESH(0, 2);
    LINK(COLL_ALLGATHER, &x4, A0, v3, 3.0 / 4, 1e11, 0, "ICI line (no wraparound)");
    LINK(COLL_ALLGATHER, &x2, A0, v3, 1, 2e11, 0, "ICI ring");
    free(v3);
}

/* DCN: dcn_bw per chip, the ring factors; no dcn_latency on this v5e, so no floor
 * (and the report says so). With dcn_latency 1e-4: N − 1 = 3 steps over pods = 4,
 * twice for an AllReduce. */
static void test_dcn(void)
{
    Mesh m = MESH(A0, 4, 16, 16), two = MESH(A0 | A1, 2, 4, 16);
    LINK(COLL_ALLGATHER, &m, A0, v5e, 1, 3.125e9, 0, "DCN");
    LINK(COLL_ALLREDUCE, &m, A0, v5e, 2, 3.125e9, 0, "DCN");
    LINK(COLL_ALLTOALL, &m, A0, v5e, 0.25, 3.125e9, 0, "DCN");
    /* two DCN axes of 2 and 4: AllToAll 4/(4·8) = 1/8 */
    LINK(COLL_ALLTOALL, &two, A0 | A1, v5e, 1.0 / 8, 3.125e9, 0, "DCN");
    Chip *far = CHIP({CHIP_ICI_BW, 4.5e10}, {CHIP_DCN_BW, 3.125e9}, {CHIP_DCN_LATENCY, 1e-4});
    LINK(COLL_ALLGATHER, &m, A0, far, 1, 3.125e9, 3e-4, "DCN");
    LINK(COLL_ALLREDUCE, &m, A0, far, 2, 3.125e9, 6e-4, "DCN");
    free(far);
    /* the ICI axes of the same mesh are still ICI */
    LINK(COLL_ALLGATHER, &m, A1 | A2, v5e, 1, 1.8e11, 8e-6, "ICI ring");
    LINK_FAILS(COLL_ALLGATHER, &m, A0 | A1, v5e, LINK_MIXED);
    LINK_FAILS(COLL_ALLGATHER, &m, A0, v5p, LINK_NO_DCN); /* this v5p has no dcn_bw */
    LINK_FAILS(COLL_ALLGATHER, &m, A0, h100, LINK_NO_DCN);
}

/* H100 in a node of 8: nvlink 450e9; N = 8 gives AllGather 7/8, AllReduce 14/8,
 * AllToAll 7/64. */
static void test_gpu_in_node(void)
{
    Mesh g8 = MESH(0, 8), m24 = MESH(0, 2, 4), x64 = MESH(0, 64);
    LINK(COLL_ALLGATHER, &g8, A0, h100, 7.0 / 8, 450e9, 0, "NVLink");
    LINK(COLL_REDUCESCATTER, &g8, A0, h100, 7.0 / 8, 450e9, 0, "NVLink");
    LINK(COLL_ALLREDUCE, &g8, A0, h100, 14.0 / 8, 450e9, 0, "NVLink");
    LINK(COLL_ALLTOALL, &g8, A0, h100, 7.0 / 64, 450e9, 0, "NVLink");
    /* 2x4: the outer axis of 2 holds 2·4 = 8 ≤ 8 GPUs, so it is inside the node; N = 2 */
    LINK(COLL_ALLGATHER, &m24, A0, h100, 1.0 / 2, 450e9, 0, "NVLink");
    LINK(COLL_ALLGATHER, &m24, A0 | A1, h100, 7.0 / 8, 450e9, 0, "NVLink");
    LINK(COLL_ALLGATHER, &g8, A0, b200, 7.0 / 8, 900e9, 0, "NVLink");
    /* without node_gpus every axis is inside one node: N = 64, 63/64 */
    Chip *nvl = CHIP({CHIP_NVLINK_BW, 900e9});
    LINK(COLL_ALLGATHER, &x64, A0, nvl, 63.0 / 64, 900e9, 0, "NVLink");
    free(nvl);
}

/* H100, 4 nodes of 8 (docs/costmodel.md §6.5): the nodes axis holds 4·8 = 32 > 8 GPUs, so it
 * crosses nodes. Over it alone, D = 1, M = 4: AllGather (M − 1)/M = 3/4 of V over the
 * 400e9 node egress, AllReduce 3/2, AllToAll (M − 1)/M² = 3/16. When the array is
 * also sharded over the node's axis of 8 (Y = 8), the 8 groups share the egress, 5e10
 * each: the book's V_total / W_node with V = V_total / 8. */
static void test_gpu_across_nodes(void)
{
    Mesh m = MESH(0, 4, 8), x16 = MESH(0, 16);
    LINK(COLL_ALLGATHER, &m, A0, h100, 3.0 / 4, 400e9, 0, "InfiniBand");
    LINK(COLL_ALLREDUCE, &m, A0, h100, 3.0 / 2, 400e9, 0, "InfiniBand");
    LINK(COLL_ALLTOALL, &m, A0, h100, 3.0 / 16, 400e9, 0, "InfiniBand");
    LINK_S(COLL_ALLGATHER, &m, A0, A1, h100, 3.0 / 4, 5e10, 0, "InfiniBand");
    LINK_S(COLL_ALLREDUCE, &m, A0, A1, h100, 3.0 / 2, 5e10, 0, "InfiniBand");
    /* both axes, 32 GPUs: in the node 7/64 at 450e9 = 2.43e-13 s/B, across 3/16 at
     * 400e9 = 4.69e-13 s/B: the nodes' egress decides */
    LINK(COLL_ALLTOALL, &m, A0 | A1, h100, 3.0 / 16, 400e9, 0, "InfiniBand");
    /* AllGather over all 32: 7/8 at 450e9 = 1.944e-12 beats 3/4 at 400e9 = 1.875e-12 */
    LINK(COLL_ALLGATHER, &m, A0 | A1, h100, 7.0 / 8, 450e9, 0, "NVLink");
    LINK(COLL_ALLGATHER, &m, A1, h100, 7.0 / 8, 450e9, 0, "NVLink");
    /* one axis of 16 spans 2 nodes of 8: D = 8, M = 2; 7/8 at 450e9 = 1.944e-12 beats
     * 1/2 at 400e9 = 1.25e-12 */
    LINK(COLL_ALLGATHER, &x16, A0, h100, 7.0 / 8, 450e9, 0, "NVLink");
    /* its AllToAll: 7/64 at 450e9 = 2.43e-13 in the node, (M − 1)/M² = 1/4 at 400e9 =
     * 6.25e-13 across: the egress decides */
    LINK(COLL_ALLTOALL, &x16, A0, h100, 1.0 / 4, 400e9, 0, "InfiniBand");
    /* a node egress of 3.6e12 shared by 8 groups: 4.5e11 each */
    Chip *fast = CHIP({CHIP_NVLINK_BW, 450e9}, {CHIP_NODE_GPUS, 8}, {CHIP_NODE_BW, 3.6e12});
    LINK_S(COLL_ALLGATHER, &m, A0, A1, fast, 3.0 / 4, 4.5e11, 0, "InfiniBand");
    free(fast);
    LINK_FAILS(COLL_ALLGATHER, &m, A0, b200, LINK_NO_NODE_BW); /* this B200 has no node_bw */
}

/* SHARP: an AllReduce in the node is V / W (factor 1), not 2 (N − 1)/N. */
static void test_gpu_sharp(void)
{
    Chip *nvls = CHIP({CHIP_NVLINK_BW, 450e9}, {CHIP_NODE_GPUS, 8}, {CHIP_SHARP, 1});
    Mesh g8 = MESH(0, 8);
    LINK(COLL_ALLREDUCE, &g8, A0, nvls, 1, 450e9, 0, "NVLink (SHARP)");
    LINK(COLL_ALLGATHER, &g8, A0, nvls, 7.0 / 8, 450e9, 0, "NVLink");
    free(nvls);
}

/* A fat tree (docs/costmodel.md §6.5; the book's ch. 12, "a more precise derivation"): each
 * level a ring of its own degree, V · max_i (D_i − 1) / (D_i · W_i). The book's H100
 * SuperPod: 128 nodes, leaf groups (SUs) of 32, 4 groups under the spine. Over the
 * nodes axis and the node's 8 GPUs (nothing else shards the array): node 7/8 at 450e9
 * = 1.944e-12 s/B (514 GB/s); leaf 31/32 at 400e9 = 2.422e-12 s/B (the book's
 * 400e9 · 32/31 = 413 GB/s); spine 3/4 over the SU's uplink 32 · 400e9 = 12.8e12
 * (as 3/(4·32) over one node's 400e9) = 5.9e-14 s/B (17.1 TB/s): the leaf decides.
 * One ring over all 128 nodes would give 127/128 at 400e9 (403 GB/s). */
static void test_gpu_fat_tree(void)
{
    Chip *pod = CHIP({CHIP_NVLINK_BW, 450e9}, {CHIP_NODE_GPUS, 8}, {CHIP_NODE_BW, 400e9},
                     {CHIP_LEAF_NODES, 32});
    Mesh book = MESH(0, 128, 8), m = MESH(0, 64, 8);
    LINK(COLL_ALLGATHER, &book, A0 | A1, pod, 31.0 / 32, 400e9, 0, "InfiniBand");
    LINK(COLL_ALLREDUCE, &book, A0 | A1, pod, 31.0 / 16, 400e9, 0, "InfiniBand");
    /* 64 nodes, Y = 8 groups share each node's egress (5e10 each): leaf 31/32 at 5e10
     * = 1.9375e-11 s/B. Oversubscribed 2:1 above the leaves, 2 groups: 1/2 over the
     * SU's 32 · 5e10 / 2 = 8e11, or 1/(2·32) over 2.5e10: 6.25e-13 s/B: the leaf still
     * decides (hierarchically the spine carries a 32nd of what each node sends). */
    Chip *over2 = CHIP({CHIP_NVLINK_BW, 450e9}, {CHIP_NODE_GPUS, 8}, {CHIP_NODE_BW, 400e9},
                       {CHIP_LEAF_NODES, 32}, {CHIP_OVERSUB, 2});
    LINK_S(COLL_ALLGATHER, &m, A0, A1, over2, 31.0 / 32, 5e10, 0, "InfiniBand");
    /* 64:1: the spine 1/64 over 5e10 / 64 = 7.8125e8: 2e-11 s/B beats the leaf's */
    Chip *over64 = CHIP({CHIP_NVLINK_BW, 450e9}, {CHIP_NODE_GPUS, 8}, {CHIP_NODE_BW, 400e9},
                        {CHIP_LEAF_NODES, 32}, {CHIP_OVERSUB, 64});
    LINK_S(COLL_ALLGATHER, &m, A0, A1, over64, 1.0 / 64, 7.8125e8, 0, "fat tree spine");
    /* An AllToAll is not hierarchical: all a node sends off it crosses its egress,
     * (M − 1)/M² = 63/4096 at 5e10 = 3.08e-13 s/B; what leaves the SU crosses the spine,
     * (G − 1)/(G² · leaf) = 1/128 at 7.8125e8 = 1e-11 s/B: the spine decides. At 2:1,
     * 1/128 at 2.5e10 = 3.125e-13 s/B still does; at full bisection, 1/128 at 5e10 =
     * 1.5625e-13 s/B, the node egress does. */
    LINK_S(COLL_ALLTOALL, &m, A0, A1, over64, 1.0 / 128, 7.8125e8, 0, "fat tree spine");
    LINK_S(COLL_ALLTOALL, &m, A0, A1, over2, 1.0 / 128, 2.5e10, 0, "fat tree spine");
    LINK_S(COLL_ALLTOALL, &m, A0, A1, pod, 63.0 / 4096, 5e10, 0, "InfiniBand");
    /* no leaf_nodes: one level over the 64 nodes, 63/64 */
    LINK_S(COLL_ALLGATHER, &m, A0, A1, h100, 63.0 / 64, 5e10, 0, "InfiniBand");
    free(pod);
    free(over2);
    free(over64);
}

/* The book's AllToAll (ch. 12): in a node of N = 8, (N − 1)/N² · V / 450e9, the
 * effective bandwidth 450e9 · 64/7 = 4.11e12 (the book's ≈ 8 · 450e9 = 3.6e12); over
 * M = 2 nodes (M − 1)/M² = 1/4 of V over the node's 400e9, 1.6e12 (the book's worked
 * "B / (2 · 400e9)" is its ≈ B / (M · W) form, which at M = 2 is twice the exact).
 * Across nodes NVLink carries only what goes to node mates, V / N² to each of D − 1:
 * with D = 8, N = 16, 7/256 (not the 8-GPU AllToAll's 7/64). A node egress of 4e13
 * shows it: across, 1/4 at 4e13 = 6.25e-15 s/B; in the node 7/256 at 450e9 = 6.08e-14. */
static void test_gpu_alltoall_levels(void)
{
    Mesh g8 = MESH(0, 8), x16 = MESH(0, 16);
    LinkCost c;
    CHECK(mesh_coll_link_cost(COLL_ALLTOALL, &g8, A0, 0, h100, &c) == LINK_OK &&
          near(c.bandwidth / c.factor, 450e9 * 64 / 7));
    CHECK(mesh_coll_link_cost(COLL_ALLTOALL, &x16, A0, 0, h100, &c) == LINK_OK &&
          near(c.bandwidth / c.factor, 1.6e12));
    Chip *wide = CHIP({CHIP_NVLINK_BW, 450e9}, {CHIP_NODE_GPUS, 8}, {CHIP_NODE_BW, 4e13});
    LINK(COLL_ALLTOALL, &x16, A0, wide, 7.0 / 256, 450e9, 0, "NVLink");
    free(wide);
}

/* Latency: D − 1 steps of nvlink_latency and M − 1 of node_latency, twice for an
 * AllReduce: 4x8 over both, 7·3e-6 + 3·1e-5 = 5.1e-5 s. */
static void test_gpu_latency(void)
{
    Chip *slow = CHIP({CHIP_NVLINK_BW, 450e9}, {CHIP_NODE_GPUS, 8}, {CHIP_NODE_BW, 400e9},
                      {CHIP_NVLINK_LATENCY, 3e-6}, {CHIP_NODE_LATENCY, 1e-5});
    Mesh m = MESH(0, 4, 8);
    LINK(COLL_ALLGATHER, &m, A0 | A1, slow, 7.0 / 8, 450e9, 5.1e-5, "NVLink");
    LINK(COLL_ALLREDUCE, &m, A0 | A1, slow, 7.0 / 4, 450e9, 1.02e-4, "NVLink");
    LinkCost c;
    CHECK(mesh_coll_link_cost(COLL_ALLREDUCE, &m, A0 | A1, 0, slow, &c) == LINK_OK && c.hops == 20);
    free(slow);
}

/* A network whose latency field the chip lacks is named in `unset`: its steps count 0
 * in the floor, and the report says so. */
static void test_latency_unset(void)
{
    Mesh x8 = MESH(0, 8), m = MESH(0, 4, 8), pods = MESH(A0, 4, 16);
    LinkCost c;
    CHECK(mesh_coll_link_cost(COLL_ALLREDUCE, &x8, A0, 0, v5e, &c) == LINK_OK && c.unset == 0);
    CHECK(mesh_coll_link_cost(COLL_ALLREDUCE, &x8, A0, 0, v5p, &c) == LINK_OK &&
          c.unset == CHIP_FIELD_BIT(CHIP_HOP_LATENCY));
    CHECK(mesh_coll_link_cost(COLL_ALLGATHER, &pods, A0, 0, v5e, &c) == LINK_OK &&
          c.unset == CHIP_FIELD_BIT(CHIP_DCN_LATENCY));
    CHECK(mesh_coll_link_cost(COLL_ALLGATHER, &x8, A0, 0, h100, &c) == LINK_OK &&
          c.unset == CHIP_FIELD_BIT(CHIP_NVLINK_LATENCY));
    CHECK(mesh_coll_link_cost(COLL_ALLGATHER, &m, A0 | A1, 0, h100, &c) == LINK_OK &&
          c.unset == (CHIP_FIELD_BIT(CHIP_NVLINK_LATENCY) | CHIP_FIELD_BIT(CHIP_NODE_LATENCY)));
    /* over the nodes only: NVLink is not crossed */
    CHECK(mesh_coll_link_cost(COLL_ALLGATHER, &m, A0, 0, h100, &c) == LINK_OK &&
          c.unset == CHIP_FIELD_BIT(CHIP_NODE_LATENCY));
    Chip *nv = CHIP({CHIP_NVLINK_BW, 450e9}, {CHIP_NODE_GPUS, 8}, {CHIP_NODE_BW, 400e9},
                    {CHIP_NVLINK_LATENCY, 6e-7});
    CHECK(mesh_coll_link_cost(COLL_ALLGATHER, &m, A0 | A1, 0, nv, &c) == LINK_OK &&
          c.unset == CHIP_FIELD_BIT(CHIP_NODE_LATENCY) && near(c.floor, 7 * 6e-7));
    free(nv);
}

static void test_link_errors(void)
{
    Mesh m = MESH(0, 4, 4);
    LINK_FAILS(COLL_ALLGATHER, &m, 0, v5e, LINK_EMPTY);
    LINK_FAILS(COLL_ALLGATHER, &m, 1u << 5, v5e, LINK_EMPTY); /* no such axis */
    LINK_FAILS(COLL_ALLGATHER, &m, A0, bare, LINK_NO_NETWORK);
    LINK_FAILS(COLL_ALLGATHER, &m, 0, bare, LINK_EMPTY);
}

int main(void)
{
    make_chips();
    test_add_find();
    test_counts();
    test_misfit();
    test_coll_names();
    test_two_chips();
    test_v5e_ici();
    test_v5e_alltoall();
    test_v5p_ici();
    test_no_wrap_figure();
    test_dcn();
    test_gpu_in_node();
    test_gpu_across_nodes();
    test_gpu_sharp();
    test_gpu_fat_tree();
    test_gpu_alltoall_levels();
    test_latency_unset();
    test_gpu_latency();
    test_link_errors();
    free_chips();
    printf("%d passed, %d failed\n", passed, failed);
    return failed != 0;
}
