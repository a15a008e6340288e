#!/bin/sh
# Precision is a parameter of the stdlib's blocks: each matmul is priced at the chip's
# peak for the pair of dtypes it multiplies (docs/costmodel.md §1: the wider input's), and a
# quantized weight's bytes count its scales. Checked on gated_mlp's up projection
# x[B, T, D] *_D W[D, M, J] (F = M·J), whose FLOPs are 2·B·T·D·F whatever the dtypes.
# B = 128, T = 1, D = 8192, F = 28672 throughout; every figure below by hand.
. "$(dirname "$0")/../book/lib.shinc"

mlp() { # wdtype adtype chip: x comes in the activations' dtype, as from embed
    run -e "gated_mlp($2[128, 1, 8192], 28672, wdtype = $1, adtype = $2) on $3"
}
flops='2*128*8192*28672'            # 60,129,542,144

# bf16 x bf16 on v5e: the bf16 peak 1.97e14. Bytes 2BD + 2DF + 2BF
# = 2,097,152 + 469,762,048 + 7,340,032 = 479,199,232.
mlp bf16 bf16 v5e
check bf16_flops ops.0.flops "$flops"
check bf16_bytes ops.0.bytes '2*128*8192 + 2*8192*28672 + 2*128*28672'
check bf16_t_math ops.0.t_math "$flops / 1.97e14"

# int8 weights x bf16 activations (weight-only int8, the book's ch. 7 "int8 params but
# bf16 FLOPs"): the weights are upcast on chip and multiplied at the bf16 peak, 1.97e14
# (no cost of its own: the book counts none). Bytes: DF int8 weights plus one bf16 scale
# per output column (per channel: F of them, 2F B) = 2BD + DF + 2F + 2BF
# = 2,097,152 + 234,881,024 + 57,344 + 7,340,032 = 244,375,552.
mlp int8 bf16 v5e
check int8w_bytes ops.0.bytes '2*128*8192 + 8192*28672 + 2*28672 + 2*128*28672'
check int8w_t_math ops.0.t_math "$flops / 1.97e14"
check_str int8w_bound ops.0.bound compute
# the model's weights in memory: up, gate and down with their scales (down's output
# columns are D): 3·D·F + 2·(F + F + D) = 704,643,072 + 131,072 = 704,774,144 B
check int8w_memory memory_params '3*8192*28672 + 2*(28672 + 28672 + 8192)'

# int8 x int8 (activations quantized too): the int8 peak 3.94e14; the output int8.
# Bytes BD + DF + 2F + BF = 1,048,576 + 234,881,024 + 57,344 + 3,670,016 = 239,656,960.
mlp int8 int8 v5e
check int8x8_bytes ops.0.bytes '128*8192 + 8192*28672 + 2*28672 + 128*28672'
check int8x8_t_math ops.0.t_math "$flops / 3.94e14"

# int4 weights x bf16 activations: bf16 peak; the weights half a byte each plus one bf16
# scale for every group of 128 along D: DF·(0.5 + 2/128) = 117,440,512 + 3,670,016.
# Bytes 2BD + 121,110,528 + 2BF = 130,547,712.
mlp int4 bf16 v5e
check int4w_bytes ops.0.bytes '2*128*8192 + 8192*28672*(0.5 + 2/128) + 2*128*28672'
check int4w_t_math ops.0.t_math "$flops / 1.97e14"
check int4w_memory memory_params '3*8192*28672*(0.5 + 2/128)'

# fp8 x fp8 on H100: the fp8 peak 1.98e15 (dense); fp8's per-tensor scale is a few bytes,
# not counted. Bytes BD + DF + BF = 1,048,576 + 234,881,024 + 3,670,016 = 239,599,616.
mlp fp8 fp8 H100
check fp8_bytes ops.0.bytes '128*8192 + 8192*28672 + 128*28672'
check fp8_t_math ops.0.t_math "$flops / 1.98e15"
# fp8 weights x bf16 activations: the bf16 peak 9.89e14
mlp fp8 bf16 H100
check fp8w_t_math ops.0.t_math "$flops / 9.89e14"

# The KV cache's dtype: decode's cache is 2·S·L·K·H elements a sequence; with B = 4,
# S = 4096, L = 2, K = 8, H = 128: 16,777,216 elements, 1 B each in fp8 and int8 (no
# scales: the book counts a byte an element), half a byte in int4, 2 in bf16.
dec() { # kvdtype
    run -e "decode(4, 4096, 1024, 4096, 16, 8, 128, 2, 1000, kvdtype = $1) on H100"
}
dec fp8
check kv_fp8 memory_cache '2*4*4096*2*8*128'
dec int4
check kv_int4 memory_cache '2*4*4096*2*8*128 / 2'
dec bf16
check kv_bf16 memory_cache '2*4*4096*2*8*128 * 2'

# A dtype bound by `let` stands for it in a tensor type, and a call passes it on.
run -e 'let w = int8, B = 16, D = 4096, F = 4096' -e 'bf16[B, D] *_D w[D, F] on v5e'
check_str let_dtype dtype bf16
check let_bytes bytes '2*16*4096 + 4096*4096 + 2*16*4096'
finish
