/* dtype.h — element types: names, bytes per element, which peak runs them. */
#ifndef ROOFLINE_DTYPE_H
#define ROOFLINE_DTYPE_H

#include <stddef.h>

typedef enum {
    DT_F64,
    DT_F32,
    DT_BF16,
    DT_F16,
    DT_FP8_E4M3,
    DT_FP8_E5M2,
    DT_INT8,
    DT_INT4,
    DT_FP4,
    DT_INT32, /* accumulators and indices: 4 bytes; no matrix unit runs it, so a peak
                 for it is f32's (chip_peak_field) */
    DT_COUNT
} DType;

/* The dtype a name spells ("bf16", "f32" or "fp32", "fp8" = e4m3), or -1. */
int dtype_lookup(const char *name, size_t len);
const char *dtype_name(DType t);
/* Bytes per element (docs/costmodel.md §1): f64 8, f32/int32 4, bf16/f16 2, fp8/int8 1,
 * int4/fp4 0.5. */
double dtype_bytes(DType t);
/* A quantized weight's scales: one bf16 (DTYPE_SCALE_BYTES) for every group of weights
 * along the dims its matmul contracts. int4: a group of 128 (as GPTQ and AWQ store it),
 * 2/128 B more a weight; int8: per channel, one scale for each output column, the
 * group the whole contracted length (returns 0); -1 for a dtype stored without scales
 * (bf16, and fp8's per-tensor scale, a few bytes in all). */
enum { DTYPE_SCALE_BYTES = 2, DTYPE_INT4_GROUP = 128 };
double dtype_weight_group(DType t);
/* The wider of two dtypes (the first on a tie): the output and compute dtype. */
DType dtype_wider(DType a, DType b);
/* The spelling of every dtype, for completion; NULL-terminated. */
extern const char *const dtype_spellings[];

#endif
