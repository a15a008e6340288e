#!/bin/sh
# Regression test; the defect was: in --json, the object of a statement whose breakdown is a
# repeat gives the figures of one run, while the text report's totals and `expect`
# give all runs:
#   - a top-level `repeat 4 { ... }`: "runs":4 and flops, bytes, params and memory of one
#     run (1/4 of the totals);
#   - `out = model(x)` where the block model is only a repeat: the statement's object is
#     the repeat itself (the model level is gone from the tree) with one layer's
#     figures, 1/L of the model's.
# Expected: a statement's object has the whole statement's figures, as the README's key
# table says ("flops: FLOPs per chip (the whole statement's on one chip)").
#
# One body: up = bf16[B,T,D] *_D param bf16[D,F], down = up *_F param bf16[F,D] with
# B·T = 1024, D = 512, F = 2048 on v5e: 2·2^31 FLOPs, 2·7340032 bytes, 2·D·F = 2097152
# params (see repeat.roof).
. "$(dirname "$0")/../book/lib.shinc"

dims='let B = 4, T = 256, D = 512, F = 2048'
run -e 'use v5e' -e "$dims" \
    -e 'repeat 4 { up = bf16[B, T, D] *_D param bf16[D, F]; down = up *_F param bf16[F, D] }'
check repeat_flops flops '4 * 2 * 2147483648'
check repeat_bytes bytes '4 * 2 * 7340032'
check repeat_t_lower t_lower '4 * 2 * 2147483648 / 1.97e14'
check repeat_params params '4 * 2097152'
check repeat_memory memory '4 * 2 * 2097152'
# The objects below count one run each, with `runs` per run of their parent; the top
# counts all 4 runs as one, so its operations run 4 times (they said 1: a quarter).
check repeat_up_runs ops.0.runs 4
check repeat_up_flops ops.0.flops 2147483648
check repeat_down_runs ops.1.runs 4

run -e 'use v5e' -e "$dims" \
    -e 'block layer(x) { up = x *_D param bf16[D, F]; return up *_F param bf16[F, D] }' \
    -e 'block model(x, n) { repeat n { x = layer(x) }; return x }' \
    -e 'out = model(bf16[B, T, D], 4)'
check model_flops flops '4 * 2 * 2147483648'
check model_params params '4 * 2097152'
check model_memory memory '4 * 2 * 2097152'
check model_repeat_runs ops.0.runs 4
check model_repeat_flops ops.0.flops '2 * 2147483648'
check model_layer_runs ops.0.ops.0.runs 1

finish
