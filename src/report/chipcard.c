/* chipcard.c — `chip v5p`: every field a chip sets, with its meaning and its source,
 * and the figures that follow from them (docs/costmodel.md §5, §6.1): the peak its anatomy
 * implies, its ridges against each memory and network, the message below which an ICI
 * transfer is latency-bound. Text for a person, one JSON object for a program.
 */
#include "chipcard.h"

#include <math.h>
#include <string.h>

#include "json.h"
#include "num.h"

typedef struct {
    const char *key;     /* JSON key */
    const char *what;    /* for a person */
    const char *formula; /* in the chip's field names */
    double value;
    Unit unit;
} Derived;

enum { MAX_DERIVED = 24 };

static bool has(const Chip *c, ChipField f)
{
    return c->set[f];
}

static double v(const Chip *c, ChipField f)
{
    return c->value[f];
}

static void add(Derived *d, int *n, const char *key, const char *what, const char *formula,
                double value, Unit unit)
{
    if (*n < MAX_DERIVED && isfinite(value))
        d[(*n)++] = (Derived){key, what, formula, value, unit};
}

/* The ridges of the bf16 peak against every bandwidth the chip gives. */
static void ridges(const Chip *c, Derived *d, int *n)
{
    if (!has(c, CHIP_FLOPS_BF16))
        return;
    double peak = v(c, CHIP_FLOPS_BF16), hbm_ridge;
    if (chip_ridge(c, CHIP_FLOPS_BF16, &hbm_ridge))
        add(d, n, "ridge_hbm", "ridge against HBM (FLOPs/byte)", "flops_bf16 / hbm_bw",
            hbm_ridge, UNIT_NONE);
    if (has(c, CHIP_VMEM_BW))
        add(d, n, "ridge_vmem", "ridge against VMEM", "flops_bf16 / vmem_bw",
            peak / v(c, CHIP_VMEM_BW), UNIT_NONE);
    if (has(c, CHIP_PCIE_BW))
        add(d, n, "ridge_pcie", "ridge against PCIe: the batch a host-held weight needs",
            "flops_bf16 / pcie_bw", peak / v(c, CHIP_PCIE_BW), UNIT_NONE);
    if (has(c, CHIP_ICI_BW))
        add(d, n, "ridge_ici", "ridge against ICI, per axis both ways (alpha)",
            "flops_bf16 / (2 * ici_bw)", peak / (2 * v(c, CHIP_ICI_BW)), UNIT_NONE);
    if (has(c, CHIP_DCN_BW))
        add(d, n, "ridge_dcn", "ridge against DCN", "flops_bf16 / dcn_bw",
            peak / v(c, CHIP_DCN_BW), UNIT_NONE);
    if (has(c, CHIP_NVLINK_BW))
        add(d, n, "ridge_nvlink", "ridge against NVLink egress", "flops_bf16 / nvlink_bw",
            peak / v(c, CHIP_NVLINK_BW), UNIT_NONE);
    if (has(c, CHIP_NODE_BW) && has(c, CHIP_NODE_GPUS))
        add(d, n, "ridge_node", "ridge against a GPU's share of the node egress",
            "flops_bf16 * node_gpus / node_bw",
            peak * v(c, CHIP_NODE_GPUS) / v(c, CHIP_NODE_BW), UNIT_NONE);
}

/* A GPU's anatomy as the book counts it (ch. 12): its CUDA cores and what they do at
 * each clock, a tensor core's FLOPs a cycle, the shared memory an SM may carve out. */
static void gpu_anatomy(const Chip *c, Derived *d, int *n)
{
    bool lanes = has(c, CHIP_CORES) && has(c, CHIP_SUBPARTITIONS) && has(c, CHIP_FP32_LANES);
    double cuda = v(c, CHIP_CORES) * v(c, CHIP_SUBPARTITIONS) * v(c, CHIP_FP32_LANES);
    if (lanes)
        add(d, n, "cuda_cores", "CUDA cores (FP32 lanes)", "cores * subpartitions * fp32_lanes",
            cuda, UNIT_NONE);
    if (lanes && has(c, CHIP_BASE_CLOCK))
        add(d, n, "vector_flops_base", "FP32 vector FLOPs/s at the base clock (an FMA is 2)",
            "cores * subpartitions * fp32_lanes * 2 * base_clock",
            cuda * 2 * v(c, CHIP_BASE_CLOCK), UNIT_RATE);
    if (lanes && has(c, CHIP_BOOST_CLOCK))
        add(d, n, "vector_flops_boost", "FP32 vector FLOPs/s at the boost clock",
            "cores * subpartitions * fp32_lanes * 2 * boost_clock",
            cuda * 2 * v(c, CHIP_BOOST_CLOCK), UNIT_RATE);
    if (has(c, CHIP_FLOPS_BF16) && has(c, CHIP_CORES) && has(c, CHIP_MXUS) && has(c, CHIP_CLOCK) &&
        !has(c, CHIP_MXU_SIZE)) /* a TPU: peak_anatomy from its MXU side */
        add(d, n, "tc_flops_cycle", "a tensor core's dense bf16 FLOPs a cycle",
            "flops_bf16 / (cores * mxus * clock)",
            v(c, CHIP_FLOPS_BF16) / (v(c, CHIP_CORES) * v(c, CHIP_MXUS) * v(c, CHIP_CLOCK)),
            UNIT_NONE);
    if (has(c, CHIP_VMEM_BYTES) && has(c, CHIP_CORES) && has(c, CHIP_SM_L1_BYTES))
        add(d, n, "smem_per_sm", "shared memory an SM may carve out of its sm_l1_bytes",
            "vmem_bytes / cores", v(c, CHIP_VMEM_BYTES) / v(c, CHIP_CORES), UNIT_BYTES);
}

/* The NVLink node's switches: what they carry, and what crosses the node's middle. */
static void node_switches(const Chip *c, Derived *d, int *n)
{
    if (has(c, CHIP_NVSWITCHES) && has(c, CHIP_NVSWITCH_PORTS) && has(c, CHIP_NVSWITCH_PORT_BW))
        add(d, n, "switch_bw", "the node's NVSwitches together, each way",
            "nvswitches * nvswitch_ports * nvswitch_port_bw",
            v(c, CHIP_NVSWITCHES) * v(c, CHIP_NVSWITCH_PORTS) * v(c, CHIP_NVSWITCH_PORT_BW),
            UNIT_BW);
    if (has(c, CHIP_NODE_GPUS) && has(c, CHIP_NVLINK_BW) && has(c, CHIP_NVSWITCHES))
        add(d, n, "bisection_bw", "the node's bisection, each way: half its GPUs' NVLink",
            "node_gpus / 2 * nvlink_bw", v(c, CHIP_NODE_GPUS) / 2 * v(c, CHIP_NVLINK_BW),
            UNIT_BW);
}

static int derive(const Chip *c, Derived *d)
{
    int n = 0;
    if (has(c, CHIP_CORES) && has(c, CHIP_MXUS) && has(c, CHIP_MXU_SIZE) && has(c, CHIP_CLOCK))
        add(d, &n, "peak_anatomy", "matrix peak from the anatomy",
            "cores * mxus * mxu_size^2 * 2 * clock",
            v(c, CHIP_CORES) * v(c, CHIP_MXUS) * v(c, CHIP_MXU_SIZE) * v(c, CHIP_MXU_SIZE) * 2 *
                v(c, CHIP_CLOCK),
            UNIT_RATE);
    gpu_anatomy(c, d, &n);
    node_switches(c, d, &n);
    ridges(c, d, &n);
    double vpu_ridge;
    if (chip_ridge(c, CHIP_VPU_FLOPS, &vpu_ridge))
        add(d, &n, "ridge_vpu", "vector unit's ridge against HBM", "vpu_flops / hbm_bw",
            vpu_ridge, UNIT_NONE);
    if (has(c, CHIP_HOP_LATENCY) && has(c, CHIP_ICI_BW))
        add(d, &n, "latency_bytes", "an ICI hop is latency-bound below",
            "hop_latency * ici_bw", v(c, CHIP_HOP_LATENCY) * v(c, CHIP_ICI_BW), UNIT_BYTES);
    if (has(c, CHIP_HBM_BYTES) && has(c, CHIP_HBM_BW))
        add(d, &n, "hbm_read_time", "to read all of HBM once", "hbm_bytes / hbm_bw",
            v(c, CHIP_HBM_BYTES) / v(c, CHIP_HBM_BW), UNIT_SECONDS);
    if (has(c, CHIP_HBM_BYTES) && has(c, CHIP_PCIE_BW))
        add(d, &n, "host_fill_time", "to fill HBM from the host", "hbm_bytes / pcie_bw",
            v(c, CHIP_HBM_BYTES) / v(c, CHIP_PCIE_BW), UNIT_SECONDS);
    return n;
}

static const char *number(double value, Unit unit, char *buf, size_t size)
{
    return num_format_unit(value, unit, 0, buf, size);
}

static void text_card(const Chip *c, const Derived *d, int n, FILE *out)
{
    fprintf(out, "chip %s\n", c->name);
    for (int f = 0; f < CHIP_FIELD_COUNT; f++) {
        if (!has(c, f))
            continue;
        char buf[48];
        number(v(c, f), chip_fields[f].unit, buf, sizeof buf);
        fprintf(out, "  %-14s %*s", chip_fields[f].name, num_columns(buf, 13), buf);
        fprintf(out, "  %s\n  %-14s %13s  source: %s\n", chip_fields[f].what, "", "",
                c->source[f] ? c->source[f] : "none given");
    }
    if (n > 0)
        fprintf(out, "derived\n");
    for (int i = 0; i < n; i++) {
        char buf[48];
        if (d[i].unit == UNIT_NONE && d[i].value == floor(d[i].value) && d[i].value < 1e7)
            snprintf(buf, sizeof buf, "%.0f", d[i].value); /* a count: 16896, not 16900 */
        else
            number(d[i].value, d[i].unit, buf, sizeof buf);
        fprintf(out, "  %-14s %*s", d[i].key, num_columns(buf, 13), buf);
        fprintf(out, "  %s = %s\n", d[i].what, d[i].formula);
    }
    fputc('\n', out);
}

static void json_card(const Chip *c, const Derived *d, int n, FILE *out)
{
    fputs("{\"chip\":", out);
    json_write_string(out, c->name, strlen(c->name));
    fputs(",\"fields\":{", out);
    bool first = true;
    for (int f = 0; f < CHIP_FIELD_COUNT; f++) {
        if (!has(c, f))
            continue;
        fprintf(out, "%s\"%s\":{\"value\"", first ? "" : ",", chip_fields[f].name);
        char buf[64];
        fprintf(out, ":%s,\"meaning\":", num_format_json(v(c, f), buf, sizeof buf));
        json_write_string(out, chip_fields[f].what, strlen(chip_fields[f].what));
        fputs(",\"source\":", out);
        if (c->source[f])
            json_write_string(out, c->source[f], strlen(c->source[f]));
        else
            fputs("null", out);
        fputc('}', out);
        first = false;
    }
    fputs("},\"derived\":{", out);
    for (int i = 0; i < n; i++) {
        char buf[64];
        fprintf(out, "%s\"%s\":{\"value\":%s,\"formula\":", i ? "," : "", d[i].key,
                num_format_json(d[i].value, buf, sizeof buf));
        json_write_string(out, d[i].formula, strlen(d[i].formula));
        fputc('}', out);
    }
    fputs("}}\n", out);
}

void chipcard_print(const Chip *c, bool json, FILE *out)
{
    Derived d[MAX_DERIVED];
    int n = derive(c, d);
    if (json)
        json_card(c, d, n, out);
    else
        text_card(c, d, n, out);
}
