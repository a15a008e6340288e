/* chip.c — the fields a chip may have, and the table of defined chips. */
#include "chip.h"

#include <ctype.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "intern.h"

_Static_assert(CHIP_FIELD_COUNT <= 64, "a ChipFieldSet holds 64 fields");

const ChipFieldInfo chip_fields[CHIP_FIELD_COUNT] = {
    [CHIP_FLOPS_F64] = {"flops_f64", UNIT_RATE, false, "peak f64 FLOPs/s"},
    [CHIP_FLOPS_F32] = {"flops_f32", UNIT_RATE, false, "peak f32 FLOPs/s"},
    [CHIP_FLOPS_BF16] = {"flops_bf16", UNIT_RATE, false, "peak bf16 FLOPs/s (dense)"},
    [CHIP_FLOPS_F16] = {"flops_f16", UNIT_RATE, false, "peak f16 FLOPs/s (dense)"},
    [CHIP_FLOPS_FP8] = {"flops_fp8", UNIT_RATE, false, "peak fp8 FLOPs/s (dense)"},
    [CHIP_FLOPS_INT8] = {"flops_int8", UNIT_RATE, false, "peak int8 OPs/s (dense)"},
    [CHIP_FLOPS_INT4] = {"flops_int4", UNIT_RATE, false, "peak int4 OPs/s (dense)"},
    [CHIP_FLOPS_FP4] = {"flops_fp4", UNIT_RATE, false, "peak fp4 FLOPs/s (dense)"},
    [CHIP_HBM_BYTES] = {"hbm_bytes", UNIT_BYTES, false, "HBM capacity"},
    [CHIP_HBM_BW] = {"hbm_bw", UNIT_BW, false, "HBM bandwidth"},
    [CHIP_VMEM_BYTES] = {"vmem_bytes", UNIT_BYTES, false, "on-chip memory for a kernel's tiles (VMEM; a GPU's shared memory, all SMs)"},
    [CHIP_VMEM_BW] = {"vmem_bw", UNIT_BW, false, "VMEM bandwidth"},
    [CHIP_VPU_FLOPS] = {"vpu_flops", UNIT_RATE, false, "vector unit FLOPs/s"},
    [CHIP_ICI_BW] = {"ici_bw", UNIT_BW, false, "ICI bandwidth, one way, per link"},
    [CHIP_ICI_LINKS] = {"ici_links", UNIT_NONE, true, "ICI links per mesh axis"},
    [CHIP_HOP_LATENCY] = {"hop_latency", UNIT_SECONDS, false, "ICI latency per hop"},
    [CHIP_TORUS_DIMS] = {"torus_dims", UNIT_NONE, true, "dimensions of the ICI torus"},
    [CHIP_TORUS_WRAP] = {"torus_wrap", UNIT_NONE, true,
                         "an ICI axis wraps around when its size is a multiple of this"},
    [CHIP_POD_X] = {"pod_x", UNIT_NONE, true, "chips along X in a pod"},
    [CHIP_POD_Y] = {"pod_y", UNIT_NONE, true, "chips along Y in a pod"},
    [CHIP_POD_Z] = {"pod_z", UNIT_NONE, true, "chips along Z in a pod"},
    [CHIP_POD_CHIPS] = {"pod_chips", UNIT_NONE, true,
                        "chips in a pod: a mesh's ICI axes together hold at most this many"},
    [CHIP_PCIE_BW] = {"pcie_bw", UNIT_BW, false, "PCIe bandwidth to the host"},
    [CHIP_DCN_BW] = {"dcn_bw", UNIT_BW, false, "DCN egress per chip"},
    [CHIP_NVLINK_BW] = {"nvlink_bw", UNIT_BW, false, "NVLink egress per GPU"},
    [CHIP_NODE_GPUS] = {"node_gpus", UNIT_NONE, true, "GPUs per NVLink node"},
    [CHIP_NODE_BW] = {"node_bw", UNIT_BW, false, "node egress (InfiniBand)"},
    [CHIP_FLOPS_EFF] = {"flops_eff", UNIT_NONE, false, "achievable fraction of peak FLOPs"},
    [CHIP_HBM_EFF] = {"hbm_eff", UNIT_NONE, false, "achievable fraction of HBM bandwidth"},
    [CHIP_NET_EFF] = {"net_eff", UNIT_NONE, false, "achievable fraction of network bandwidth"},
    [CHIP_PRICE] = {"price", UNIT_NONE, false, "list price, USD per chip-hour (serve's cost)"},
    [CHIP_CORES] = {"cores", UNIT_NONE, true, "TensorCores per chip (SMs on an NVIDIA GPU, CUs on AMD)"},
    [CHIP_MXUS] = {"mxus", UNIT_NONE, true, "matrix units per core (MXUs; tensor cores per SM)"},
    [CHIP_MXU_SIZE] = {"mxu_size", UNIT_NONE, true,
                       "a matrix unit's side (128: 128 x 128); a weight's dims pad to multiples of it"},
    [CHIP_CLOCK] = {"clock", UNIT_NONE, false, "clock, cycles per second"},
    [CHIP_L2_BYTES] = {"l2_bytes", UNIT_BYTES, false, "L2 cache (AMD: Infinity Cache)"},
    [CHIP_HOST_CHIPS] = {"host_chips", UNIT_NONE, true, "chips per host (sharing its PCIe and DCN)"},
    [CHIP_NVLINK_LATENCY] = {"nvlink_latency", UNIT_SECONDS, false, "NVLink latency per transfer"},
    [CHIP_NODE_LATENCY] = {"node_latency", UNIT_SECONDS, false, "latency between nodes (InfiniBand)"},
    [CHIP_DCN_LATENCY] = {"dcn_latency", UNIT_SECONDS, false, "DCN latency between pods"},
    [CHIP_NVSWITCHES] = {"nvswitches", UNIT_NONE, true, "NVSwitch chips in a node"},
    [CHIP_SHARP] = {"sharp", UNIT_NONE, true, "1: the NVSwitches reduce in the network (AllReduce V / W)"},
    [CHIP_LEAF_NODES] = {"leaf_nodes", UNIT_NONE, true,
                         "nodes under one group of leaf switches (a fat tree's scalable unit)"},
    [CHIP_OVERSUB] = {"oversub", UNIT_NONE, false,
                      "fat tree oversubscription above a leaf group (1: full bisection)"},
    [CHIP_TILE_M] = {"tile_m", UNIT_NONE, true,
                     "calibrated: rows of a matmul's output tile (one tile an SM at a time)"},
    [CHIP_TILE_N] = {"tile_n", UNIT_NONE, true, "calibrated: columns of a matmul's output tile"},
    [CHIP_MM_EFF] = {"mm_eff", UNIT_NONE, false,
                     "calibrated: fraction of the bf16/f16 peak a matmul's full waves reach"},
    [CHIP_MM_EFF_FP8] = {"mm_eff_fp8", UNIT_NONE, false,
                         "calibrated: fraction of the fp8 peak a matmul's full waves reach"},
    [CHIP_MM_EFF_INT8] = {"mm_eff_int8", UNIT_NONE, false,
                          "calibrated: fraction of the int8 peak a matmul's full waves reach"},
    [CHIP_MM_HBM_EFF] = {"mm_hbm_eff", UNIT_NONE, false,
                         "calibrated: fraction of HBM bandwidth a memory-bound matmul reaches"},
    [CHIP_MM_T0] = {"mm_t0", UNIT_SECONDS, false,
                    "calibrated: a memory-bound matmul's fixed cost beyond kernel_floor"},
    [CHIP_MM_FLOPS_MIN] = {"mm_flops_min", UNIT_FLOPS, false,
                           "calibrated: the smallest matmul measured (FLOPs)"},
    [CHIP_MM_FLOPS_MAX] = {"mm_flops_max", UNIT_FLOPS, false,
                           "calibrated: the largest matmul measured (FLOPs)"},
    [CHIP_ATTN_EFF] = {"attn_eff", UNIT_NONE, false,
                       "calibrated: fraction of peak flash attention's full waves reach"},
    [CHIP_ATTN_SM_BW] = {"attn_sm_bw", UNIT_BW, false,
                         "calibrated: bytes/s one SM streams in decode attention"},
    [CHIP_KERNEL_FLOOR] = {"kernel_floor", UNIT_SECONDS, false,
                           "calibrated: what a kernel costs at least (in a CUDA graph)"},
    [CHIP_LAUNCH_EAGER] = {"launch_eager", UNIT_SECONDS, false,
                           "calibrated: what a kernel launched eagerly costs at least"},
    [CHIP_SUBPARTITIONS] = {"subpartitions", UNIT_NONE, true,
                            "subpartitions per SM (a warp scheduler, a tensor core and FP32 lanes each)"},
    [CHIP_FP32_LANES] = {"fp32_lanes", UNIT_NONE, true,
                         "FP32 lanes (CUDA cores) per subpartition"},
    [CHIP_SM_L1_BYTES] = {"sm_l1_bytes", UNIT_BYTES, false,
                          "L1 cache and shared memory per SM, together (vmem_bytes: the shared-memory carve-out, all SMs)"},
    [CHIP_BASE_CLOCK] = {"base_clock", UNIT_NONE, false, "base clock, cycles per second"},
    [CHIP_BOOST_CLOCK] = {"boost_clock", UNIT_NONE, false, "boost clock, cycles per second"},
    [CHIP_NVSWITCH_PORTS] = {"nvswitch_ports", UNIT_NONE, true, "NVLink ports per NVSwitch"},
    [CHIP_NVSWITCH_PORT_BW] = {"nvswitch_port_bw", UNIT_BW, false,
                               "an NVSwitch port's bandwidth, each way"},
};

int chip_field_lookup(const char *name)
{
    for (int f = 0; f < CHIP_FIELD_COUNT; f++)
        if (strcmp(chip_fields[f].name, name) == 0)
            return f;
    return -1;
}

ChipField chip_peak_field(DType t)
{
    static const ChipField peak[DT_COUNT] = {
        [DT_F64] = CHIP_FLOPS_F64,       [DT_F32] = CHIP_FLOPS_F32,
        [DT_BF16] = CHIP_FLOPS_BF16,     [DT_F16] = CHIP_FLOPS_F16,
        [DT_FP8_E4M3] = CHIP_FLOPS_FP8,  [DT_FP8_E5M2] = CHIP_FLOPS_FP8,
        [DT_INT8] = CHIP_FLOPS_INT8,     [DT_INT4] = CHIP_FLOPS_INT4,
        [DT_FP4] = CHIP_FLOPS_FP4,       [DT_INT32] = CHIP_FLOPS_F32, /* dtype.h */
    };
    return peak[t];
}

bool chip_ridge(const Chip *c, ChipField peak, double *ridge)
{
    if (!c->set[peak] || !c->set[CHIP_HBM_BW])
        return false;
    *ridge = c->value[peak] / c->value[CHIP_HBM_BW];
    return true;
}

/* The fields that are fractions of a peak or a bandwidth. */
static bool chip_field_fraction(ChipField f)
{
    switch (f) {
    case CHIP_FLOPS_EFF: case CHIP_HBM_EFF: case CHIP_NET_EFF: case CHIP_MM_EFF:
    case CHIP_MM_EFF_FP8: case CHIP_MM_EFF_INT8: case CHIP_MM_HBM_EFF: case CHIP_ATTN_EFF:
        return true;
    default:
        return false;
    }
}

const char *chip_field_check(ChipField f, double value)
{
    if (!isfinite(value) || value <= 0)
        return "must be a positive number";
    if (chip_fields[f].whole && value != floor(value))
        return "must be a whole number";
    if (chip_field_fraction(f) && value > 1)
        return "is a fraction: at most 1 (0.8 for 80%)";
    if (f == CHIP_SHARP && value != 1)
        return "is 1 when the switches reduce in the network (leave it out when they do not)";
    if (f == CHIP_OVERSUB && value < 1)
        return "is at least 1 (1: full bisection; 2: half the bandwidth above a leaf group)";
    return NULL;
}

Chip *chip_new(const char *name, const Chip *parent)
{
    Chip *c = parent ? malloc(sizeof *c) : calloc(1, sizeof *c);
    if (!c)
        return NULL;
    if (parent)
        *c = *parent;
    c->lent = 0;
    c->name = strdup(name);
    bool good = c->name != NULL;
    for (int f = 0; f < CHIP_FIELD_COUNT; f++) {
        const char *from = c->source[f];
        c->source[f] = from ? strdup(from) : NULL;
        good = good && (!from || c->source[f]);
    }
    if (!good) {
        chip_free(c);
        return NULL;
    }
    return c;
}

/* Its source gone: freed unless lent. */
static void source_drop(Chip *c, ChipField f)
{
    if (!(c->lent & CHIP_FIELD_BIT(f)))
        free(c->source[f]);
    c->lent &= ~CHIP_FIELD_BIT(f);
    c->source[f] = NULL;
}

bool chip_set(Chip *c, ChipField f, double value, const char *source, size_t len)
{
    source_drop(c, f);
    c->source[f] = source ? strndup(source, len) : NULL;
    c->value[f] = value;
    c->set[f] = true;
    return !source || c->source[f];
}

void chip_lend(Chip *c, ChipField f, double value, const char *source)
{
    source_drop(c, f);
    c->source[f] = (char *)source; /* never written or freed: lent */
    c->lent |= source ? CHIP_FIELD_BIT(f) : 0;
    c->value[f] = value;
    c->set[f] = true;
}

void chip_free(Chip *c)
{
    if (!c)
        return;
    free(c->name);
    for (int f = 0; f < CHIP_FIELD_COUNT; f++)
        source_drop(c, (ChipField)f);
    free(c);
}

/* FNV-1a over the name with ASCII letters folded, as strcasecmp compares them. */
static size_t name_hash(const char *name)
{
    uint64_t h = 1469598103934665603u;
    for (const unsigned char *p = (const unsigned char *)name; *p; p++)
        h = (h ^ (uint64_t)tolower(*p)) * 1099511628211u;
    return (size_t)h;
}

/* The slot that holds the chip called `name`, or the empty slot where it would go. */
static size_t chip_slot(const ChipTable *t, const char *name)
{
    size_t i = name_hash(name) & (t->nslots - 1);
    for (; t->slots[i]; i = (i + 1) & (t->nslots - 1)) {
        intern_name_probes++;
        if (strcasecmp(t->chips[t->slots[i] - 1]->name, name) == 0)
            break;
    }
    return i;
}

Chip *chip_find(const ChipTable *t, const char *name)
{
    if (!t->nslots)
        return NULL;
    size_t i = chip_slot(t, name);
    return t->slots[i] ? t->chips[t->slots[i] - 1] : NULL;
}

/* `a100-80gb`: the memory is read off the end ("-80gb", "_80GB"); the chip is the one
 * named by the rest whose HBM holds that many GB. */
const Chip *chip_by_memory(const ChipTable *t, const char *name)
{
    size_t len = strlen(name);
    if (len < 4 || strcasecmp(name + len - 2, "gb") != 0)
        return NULL;
    size_t digits = len - 2;
    while (digits > 0 && isdigit((unsigned char)name[digits - 1]))
        digits--;
    if (digits == len - 2 || digits < 2 || !strchr("-_", name[digits - 1]))
        return NULL;
    char stem[64];
    snprintf(stem, sizeof stem, "%.*s", (int)(digits - 1), name);
    const Chip *c = chip_find(t, stem);
    double gb = strtod(name + digits, NULL) * 1e9;
    return c && c->set[CHIP_HBM_BYTES] && c->value[CHIP_HBM_BYTES] == gb ? c : NULL;
}

/* Room for one more chip: the array, and the index at most half full. */
static bool reserve(ChipTable *t)
{
    if (t->n == t->cap) {
        int cap = t->cap ? t->cap * 2 : 16;
        Chip **chips = realloc(t->chips, sizeof *chips * (size_t)cap);
        if (!chips)
            return false;
        t->chips = chips;
        t->cap = cap;
    }
    if (2 * ((size_t)t->n + 1) <= t->nslots)
        return true;
    size_t n = t->nslots ? 2 * t->nslots : 64;
    int *slots = calloc(n, sizeof *slots);
    if (!slots)
        return false;
    free(t->slots);
    t->slots = slots;
    t->nslots = n;
    for (int k = 0; k < t->n; k++)
        t->slots[chip_slot(t, t->chips[k]->name)] = k + 1;
    return true;
}

bool chip_table_put(ChipTable *t, Chip *c)
{
    if (!reserve(t))
        return false;
    size_t i = chip_slot(t, c->name);
    if (t->slots[i]) {
        chip_free(t->chips[t->slots[i] - 1]);
        t->chips[t->slots[i] - 1] = c;
        t->replaced++;
        return true;
    }
    t->chips[t->n++] = c;
    t->slots[i] = t->n;
    return true;
}

void chip_table_truncate(ChipTable *t, int n)
{
    if (n >= t->n)
        return;
    /* Chips enter the index in table order (a rebuild too), so emptying the newest
     * first leaves it as it was before they came (intern_truncate does the same). */
    for (int i = t->n - 1; i >= n; i--) {
        t->slots[chip_slot(t, t->chips[i]->name)] = 0;
        chip_free(t->chips[i]);
    }
    t->n = n;
}

void chip_table_free(ChipTable *t)
{
    for (int i = 0; i < t->n; i++)
        chip_free(t->chips[i]);
    free(t->chips);
    free(t->slots);
    t->chips = NULL;
    t->slots = NULL;
    t->n = t->cap = 0;
    t->nslots = 0;
}

static void print_field(const Chip *c, ChipField f, FILE *out)
{
    char buf[32];
    if (!c->set[f])
        fprintf(out, " %13s", "-");
    else
        fprintf(out, " %13s", num_format_unit(c->value[f], chip_fields[f].unit, 0, buf,
                                               sizeof buf));
}

/* The list price in USD per chip-hour, or - when no price is set. */
static void print_price(const Chip *c, FILE *out)
{
    if (!c->set[CHIP_PRICE])
        fprintf(out, " %9s", "-");
    else
        fprintf(out, " %9.4g", c->value[CHIP_PRICE]);
}

void chip_price_value(const char *chip, double price, char *value, size_t size)
{
    char usd[32];
    snprintf(value, size, "$%s, %s's `price` (`chip %s` shows its source; set `price` to what "
             "you pay)", num_format_unit(price, UNIT_NONE, 0, usd, sizeof usd), chip, chip);
}

/* Whether a chip has any of the table's figures: `tpu` has none, only the fields its
 * children share, and a row of dashes would read as a chip with nothing known. */
static bool headline_set(const Chip *c, const ChipField *cols, size_t n)
{
    for (size_t k = 0; k < n; k++)
        if (c->set[cols[k]])
            return true;
    return c->set[CHIP_PRICE];
}

void chip_table_print(const ChipTable *t, FILE *out)
{
    static const ChipField cols[] = {CHIP_FLOPS_BF16, CHIP_FLOPS_INT8, CHIP_FLOPS_FP8,
                                     CHIP_HBM_BYTES, CHIP_HBM_BW};
    fprintf(out, "%-12s %13s %13s %13s %13s %13s %7s %9s\n", "chip", "bf16", "int8", "fp8",
            "HBM", "HBM BW", "ridge", "$/chip-h");
    for (int i = 0; i < t->n; i++) {
        const Chip *c = t->chips[i];
        fprintf(out, "%-12s", c->name);
        if (!headline_set(c, cols, sizeof cols / sizeof cols[0])) {
            fprintf(out, " (a parent, no figures of its own: `chip %s` shows what its chips "
                    "share)\n", c->name);
            continue;
        }
        for (size_t k = 0; k < sizeof cols / sizeof cols[0]; k++)
            print_field(c, cols[k], out);
        double ridge;
        if (chip_ridge(c, CHIP_FLOPS_BF16, &ridge))
            fprintf(out, " %7.1f", ridge);
        else
            fprintf(out, " %7s", "-");
        print_price(c, out);
        fputc('\n', out);
    }
}
