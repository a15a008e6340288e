/* chip.h — hardware: peaks per dtype, memory, bandwidths, topology.
 *
 * A chip is a set of named numeric fields, each optional; chips are defined in the
 * language (stdlib/chips.roof) and a definition may derive from another and override
 * any field. This module knows the fields and their units, nothing of syntax.
 * Ownership: a Chip owns its name; a ChipTable owns its chips.
 */
#ifndef ROOFLINE_CHIP_H
#define ROOFLINE_CHIP_H

#include <stdbool.h>
#include <stdio.h>

#include "dtype.h"
#include "num.h"

typedef enum {
    CHIP_FLOPS_F64,
    CHIP_FLOPS_F32,
    CHIP_FLOPS_BF16,
    CHIP_FLOPS_F16,
    CHIP_FLOPS_FP8,
    CHIP_FLOPS_INT8,
    CHIP_FLOPS_INT4,
    CHIP_FLOPS_FP4,
    CHIP_HBM_BYTES,
    CHIP_HBM_BW,
    CHIP_VMEM_BYTES,
    CHIP_VMEM_BW,
    CHIP_VPU_FLOPS,
    CHIP_ICI_BW,
    CHIP_ICI_LINKS,
    CHIP_HOP_LATENCY,
    CHIP_TORUS_DIMS,
    CHIP_TORUS_WRAP,
    CHIP_POD_X,
    CHIP_POD_Y,
    CHIP_POD_Z,
    CHIP_POD_CHIPS,
    CHIP_PCIE_BW,
    CHIP_DCN_BW,
    CHIP_NVLINK_BW,
    CHIP_NODE_GPUS,
    CHIP_NODE_BW,
    CHIP_FLOPS_EFF,
    CHIP_HBM_EFF,
    CHIP_NET_EFF,
    CHIP_PRICE,
    CHIP_CORES,
    CHIP_MXUS,
    CHIP_MXU_SIZE,
    CHIP_CLOCK,
    CHIP_L2_BYTES,
    CHIP_HOST_CHIPS,
    CHIP_NVLINK_LATENCY,
    CHIP_NODE_LATENCY,
    CHIP_DCN_LATENCY,
    CHIP_NVSWITCHES,
    CHIP_SHARP,
    CHIP_LEAF_NODES,
    CHIP_OVERSUB,
    /* A calibration (calibrate.c writes them from measured kernels; predict.c reads them) */
    CHIP_TILE_M,
    CHIP_TILE_N,
    CHIP_MM_EFF,
    CHIP_MM_EFF_FP8,
    CHIP_MM_EFF_INT8,
    CHIP_MM_HBM_EFF,
    CHIP_MM_T0,
    CHIP_MM_FLOPS_MIN,
    CHIP_MM_FLOPS_MAX,
    CHIP_ATTN_EFF,
    CHIP_ATTN_SM_BW,
    CHIP_KERNEL_FLOOR,
    CHIP_LAUNCH_EAGER,
    /* a GPU's anatomy (book ch. 12), for its card: no cost reads them */
    CHIP_SUBPARTITIONS,
    CHIP_FP32_LANES,
    CHIP_SM_L1_BYTES,
    CHIP_BASE_CLOCK,
    CHIP_BOOST_CLOCK,
    CHIP_NVSWITCH_PORTS,
    CHIP_NVSWITCH_PORT_BW,
    CHIP_FIELD_COUNT
} ChipField;

/* A set of fields, bit f for field f (CHIP_FIELD_COUNT fits in 64). */
typedef unsigned long long ChipFieldSet;
#define CHIP_FIELD_BIT(f) (1ull << (f))

typedef struct {
    const char *name; /* as written in a chip definition: "hbm_bw" */
    Unit unit;
    bool whole;       /* a count: must be a whole number */
    const char *what; /* one line for `chips` and errors */
} ChipFieldInfo;

typedef struct {
    char *name;
    double value[CHIP_FIELD_COUNT];
    bool set[CHIP_FIELD_COUNT];
    char *source[CHIP_FIELD_COUNT]; /* where a figure comes from (its comment), or NULL */
    ChipFieldSet lent; /* fields whose source is lent (chip_lend), not the chip's to free */
} Chip;

/* The chips in the order defined, and a hash index on their names (case folded, as
 * names are compared) so a definition or an `on NAME` is one lookup. */
typedef struct {
    Chip **chips;
    int n, cap;
    int *slots; /* index + 1 into chips, 0 when empty */
    size_t nslots;
    int replaced; /* how many definitions replaced a chip in place (a reset looks) */
} ChipTable;

extern const ChipFieldInfo chip_fields[CHIP_FIELD_COUNT];

/* The field a name spells, or -1. */
int chip_field_lookup(const char *name);
/* The field that holds the peak for a dtype (fp8 variants share one). */
ChipField chip_peak_field(DType t);
/* The ridge point of a peak against HBM: the FLOPs per byte above which the math takes
 * longer than the memory traffic, peak / hbm_bw; false when the chip lacks either. */
bool chip_ridge(const Chip *c, ChipField peak, double *ridge);
/* Why a value cannot go in a field (NULL if it can): not positive, not whole. */
const char *chip_field_check(ChipField f, double value);

/* A new chip with `name`, copying the fields of `parent` (and their sources) when not
 * NULL. */
Chip *chip_new(const char *name, const Chip *parent);
/* Sets field f, with the text that says where the figure comes from (NULL: none given).
 * False if out of memory. */
bool chip_set(Chip *c, ChipField f, double value, const char *source, size_t len);
/* Sets field f with a source that outlives the chip, not copied: the prebuilt stdlib's
 * (prebuilt.h), hundreds of strings at every start. A copy of the chip (chip_new) owns
 * copies of them. */
void chip_lend(Chip *c, ChipField f, double value, const char *source);
void chip_free(Chip *c);

Chip *chip_find(const ChipTable *t, const char *name);
/* The chip a vendor's name with its memory means (`a100-80gb`: A100, 80 GB of HBM), or
 * NULL; for "did you mean". */
const Chip *chip_by_memory(const ChipTable *t, const char *name);
/* Adds or replaces (a chip may be redefined); takes ownership. False if out of memory. */
bool chip_table_put(ChipTable *t, Chip *c);
/* Drops the chips from index n on, and their names from the index. */
void chip_table_truncate(ChipTable *t, int n);
void chip_table_free(ChipTable *t);
/* The `chips` command: one row per chip with its headline figures. */
void chip_table_print(const ChipTable *t, FILE *out);
/* The value of the `price` row under a cost in dollars (serve's, a training run's): the
 * price the cost used and whose it is ("$1.2, v5e's `price` (...)"). */
void chip_price_value(const char *chip, double price, char *value, size_t size);

#endif
