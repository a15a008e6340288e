#!/bin/sh
# The JSON breakdown of nested blocks (tests/model/nested.roof: op → attention → layer →
# model), checked node by node against figures derived by hand. See nested.roof for the
# dims: B·T = 2^13 tokens, D = E = 2^12, F = 2^14, V = 32000, L = 4, bf16 on v5e
# (1.97e14 FLOP/s, 8.2e11 B/s).
. "$(dirname "$0")/../book/lib.shinc"

run "$(dirname "$0")/nested.roof"

# the root is the statement `out = model(...)`: the model's totals
check_str root_stmt stmt 'out = model(bf16[B, T, D])'
check root_line line 40
check_str root_chip chip v5e
check root_chips chips 1
check root_runs runs 1
check root_flops flops '4 * 2748779069440 + 2147483648000'     # 13142599925760
check root_params params '4 * 167772160 + 4096 * 32000'        # 802160640
check root_memory memory '2 * 802160640'                       # bf16 params, inference
check_str root_bound bound compute

# ops.0: the repeat, counted 4 times; its figures are for one run
check_str repeat_stmt ops.0.stmt 'repeat 4'
check repeat_runs ops.0.runs 4
check repeat_flops ops.0.flops 2748779069440                   # one layer: 2^39 + 2^41
# ops.0.ops.0: the layer
check_str layer_stmt ops.0.ops.0.stmt layer
check layer_flops ops.0.ops.0.flops '2^39 + 2^41'
check layer_params ops.0.ops.0.params '2*4096*4096 + 2*4096*16384'   # 167772160
# ops.0.ops.0.ops.0: attention, and its first operation q = x *_D param bf16[D,E]
check_str attn_stmt ops.0.ops.0.ops.0.stmt attention
check attn_flops ops.0.ops.0.ops.0.flops '2 * 2^38'
check attn_params ops.0.ops.0.ops.0.params '2 * 4096 * 4096'
check_str q_stmt ops.0.ops.0.ops.0.ops.0.stmt attention.q
check q_flops ops.0.ops.0.ops.0.ops.0.flops '2 * 8192 * 4096 * 4096'          # 2^38
check q_bytes ops.0.ops.0.ops.0.ops.0.bytes '2*8192*4096 + 2*4096*4096 + 2*8192*4096'  # 167772160
check q_t_math ops.0.ops.0.ops.0.ops.0.t_math '2^38 / 1.97e14'
check q_t_hbm ops.0.ops.0.ops.0.ops.0.t_hbm '167772160 / 8.2e11'
check q_t_lower ops.0.ops.0.ops.0.ops.0.t_lower '2^38 / 1.97e14'   # compute-bound
check_str q_bound ops.0.ops.0.ops.0.ops.0.bound compute
check q_runs ops.0.ops.0.ops.0.ops.0.runs 1
# ops.0.ops.0.ops.1: the mlp, with its return statement as its second operation
check_str mlp_stmt ops.0.ops.0.ops.1.stmt mlp
check mlp_flops ops.0.ops.0.ops.1.flops '2 * 2^40'
check_str mlp_return_stmt ops.0.ops.0.ops.1.ops.1.stmt 'return h *_F param bf16[F, D]'
check mlp_return_flops ops.0.ops.0.ops.1.ops.1.flops '2 * 8192 * 16384 * 4096'
# ops.1: the unembedding, after the repeat
check_str logits_stmt ops.1.stmt model.logits
check logits_flops ops.1.flops '2 * 8192 * 4096 * 32000'       # 2147483648000
check logits_bytes ops.1.bytes '2*8192*4096 + 2*4096*32000 + 2*8192*32000'   # 853540864

finish
