#!/bin/sh
# The book's int8 and int4 serving questions (How to Scale Your Model, ch. 7 "All About
# Transformer Inference" and ch. 8 "Serving LLaMA 3-70B on TPUs"), run on the stdlib's
# decode and gated_mlp with their precision parameters, no block written here.
# Expected values: first the tool's exact figure derived by hand, then the book's own
# figure, with the tolerance that the book's rounding (70e9 params, 160e3 B a token,
# HBM 8.1e11) and what the tool adds (the activations every chip reads, scales) need.
. "$(dirname "$0")/lib.shinc"

# LLaMA-3 70B (the book's ch. 6/8): D 8192, F 28672, N 64, K 8, H 128, L 80, V 128256.
# Parameters, by hand: a layer 2·D·(N+K)·H + 3·D·F + 2·D = 150,994,944 + 704,643,072
# + 16,384 = 855,654,400; × 80 = 68,452,352,000; untied embeddings 2·V·D =
# 2,101,346,304; the final norm D: P = 70,553,706,496.
L70='let D = 8192, F = 28672, N = 64, K = 8, H = 128, L = 80, V = 128256'
P=70553706496
NORMS='(161*8192)'          # 2 norms a layer × 80 + the final one: kept whole on every chip
# int8 scales, one bf16 (2 B) an output column: a layer's Q 8192 + K 1024 + V 1024 +
# O 8192 + up 28672 + gate 28672 + down 8192 + its two norms 1 each = 83,970 scales,
# 167,940 B; × 80 = 13,435,200; the embedding table (not contracted where it is
# declared: along its first dim V, D = 8192 scales) 16,384; the output matrix [D, V]
# 2·V = 256,512; the final norm 2. In all S8 = 13,708,098 B.
S8=13708098

# ch. 8: "How large are LLaMA 3-70B's KV caches per token? You can assume we store them
# in int8." — "2 * K * H * L = 2 * 8 * 128 * 80 = 160kB". Exactly 163,840 B.
run -e "$L70" -e 'decode(1, 1, D, F, N, K, H, L, V, kvdtype = int8) on v5e'
check kv_token_int8 memory_cache '2*8*128*80'
check kv_token_int8_book memory_cache '160e3' 0.025

# ch. 8: "serve L3 70B at batch size 32 and 8192 sequence length with everything (params
# and KVs) in int8 ... our total memory usage is 41.9e9 + 70e9 = 112GB ... TPU v5e 4x2";
# "our step time is basically (KV size + param size) / (8 * HBM bandwidth) = 112e9 /
# (8 * 8.1e11) = 17ms". Fully sharded: the weights and the cache's heads over all 8.
run -e "$L70" -e 'decode(32, 8192, D, F, N, K, H, L, V, tp = {X, Y}, wdtype = int8, kvdtype = int8) on v5e 4x2'
# per chip: the sharded weights and their scales / 8, the norms and theirs whole:
# (P - norms)/8 + norms + 2·161 + (S8 - 2·161)/8 = 8,822,081,154 B
check int8_4x2_params memory_params "($P - $NORMS)/8 + $NORMS + 2*161 + ($S8 - 2*161)/8"
# KV: 32 · 8192 · 163,840 / 8 = 5,368,709,120 B a chip (the book: 41.9e9 in all)
check int8_4x2_kv memory_cache '32*8192*2*8*128*80/8'
check int8_4x2_kv_book memory_cache '41.9e9/8' 0.03
# 14.19 GB a chip against the book's 112e9 / 8 = 14 GB
check int8_4x2_memory_book memory '112e9/8' 0.02
check_str int8_4x2_bound bound memory
# 18.13 ms against the book's 112e9 / (8 · 8.1e11) = 17.28 ms: +4.9%, of which HBM at
# 8.2e11 -1.2%, the KV cache at 163,840 B a token +1.1%, the parameters +0.8%, and the
# activations each chip reads whole (tp keeps x on every chip) +4.5%
check int8_4x2_step_book t_lower '112e9/(8*8.1e11)' 0.06

# "If we were to run on a 4x4 ... our latency would drop to 17 / 2 = 8.5ms": what each
# chip holds halves (the norms aside). The step is 9.89 ms, not 8.5: the activations
# each chip reads and the all-reduces' latency do not shrink with more chips.
run -e "$L70" -e 'decode(32, 8192, D, F, N, K, H, L, V, tp = {X, Y}, wdtype = int8, kvdtype = int8) on v5e 4x4'
check int8_4x4_params memory_params "($P - $NORMS)/16 + $NORMS + 2*161 + ($S8 - 2*161)/16"
check int8_4x4_kv memory_cache '32*8192*2*8*128*80/16'

# ch. 8: "What is the smallest TPU v5e topology we could serve LLaMA 3-70B on using
# bfloat16, int8, and int4?" — param size 140GB, 70GB (4x2) and, by its own formula
# ceil(70e9 * sizeof(dtype) / 16e9), 35GB for int4 (2x2; the table prints 45GB, which
# its min-chips column 2.81 = 45/16 follows, not the formula). On one chip, whole:
run -e "$L70" -e 'decode(1, 1, D, F, N, K, H, L, V) on v5e'
check min_bf16_params memory_params "2*$P"
check min_bf16_params_book memory_params '140e9' 0.01
run -e "$L70" -e 'decode(1, 1, D, F, N, K, H, L, V, wdtype = int8) on v5e'
check min_int8_params memory_params "$P + $S8"
check min_int8_params_book memory_params '70e9' 0.01
# int4: half a byte and 2/128 B of scale a weight: 0.515625 · P = 36,379,255,537.5
run -e "$L70" -e 'decode(1, 1, D, F, N, K, H, L, V, wdtype = int4) on v5e'
check min_int4_params memory_params "$P*(0.5 + 2/128)"
check min_int4_params_book memory_params '35e9' 0.04

# "if we only looked at model parameters in int4 our minimum latency is about 10ms /
# step": 35e9 / (4 · 8.2e11) = 10.67 ms on the 2x2. The tool: 11.17 ms, +4.7% (the
# scales +3.1%, the parameters +0.8%, one sequence's 8k int4 cache +1.4%).
run -e "$L70" -e 'decode(1, 8192, D, F, N, K, H, L, V, tp = {X, Y}, wdtype = int4, kvdtype = int4) on v5e 2x2'
check int4_2x2_step_book t_lower '35e9/(4*8.2e11)' 0.06
check int4_2x2_kv memory_cache '8192*2*8*128*80*0.5/4'

# ch. 8: "using bfloat16 weights and activations, how large do our batch sizes need to
# be for us to be compute-bound in our matmuls? [240] What if we do int8 weights but
# perform our FLOPs in bfloat16? [B > 120] What about int8 weights with int8 FLOPs?
# [back where we started at about B > 240]". gated_mlp's up projection on v5e with
# D = F = 2^20 (B << D, F): it turns compute-bound where 2BDF / bytes passes the ridge
# r = 1.97e14 / 8.2e11 = 240.24 (3.94e14 / 8.2e11 = 480.49 for int8 x int8):
#   int8 weights, bf16: B > r(DF + 2F)/(2DF - 2r(D + F))  = 120.18
#   bf16:               B > r·2DF/(2DF - 2r(D + F))       = 240.35
#   int8 x int8:        B > r8(DF + 2F)/(2DF - r8(D + F)) = 240.35
up() { # B wdtype adtype
    run -e "gated_mlp($3[$1, 1, 1048576], 1048576, wdtype = $2, adtype = $3) on v5e"
}
up 120 int8 bf16; check_str crit_int8w_120 ops.0.bound memory
up 121 int8 bf16; check_str crit_int8w_121 ops.0.bound compute
up 240 bf16 bf16; check_str crit_bf16_240 ops.0.bound memory
up 241 bf16 bf16; check_str crit_bf16_241 ops.0.bound compute
up 240 int8 int8; check_str crit_int8x8_240 ops.0.bound memory
up 241 int8 int8; check_str crit_int8x8_241 ops.0.bound compute

# ch. 7 pop quiz: "a generate step with a batch size of 4 tokens from a 30B parameter
# dense model on TPU v5e 4x4 slice in int8 with bf16 FLOPs, 8192 context and 100 kB /
# token KV caches ... (4 * 819e6 + 30e9) / (16 * 8.1e11) = 2.5 ms ... At 256 tokens, we'll
# be well into the compute-bound regime for our MLP blocks ... (256 * 819e6) / (16 *
# 8.1e11) + (2 * 256 * 30e9) / (16 * 1.97e14) = 21ms". A model of that size: D 6000,
# F 28672, N 48, K 8, H 125, L 50, V 32000: 2·L·K·H = 100,000 B a token in int8, and
# 50·(2·6000·56·125 + 3·6000·28672 + 12000) + 2·32000·6000 + 6000 (the final norm)
# = 30,389,406,000 params.
M30='let D = 6000, F = 28672, N = 48, K = 8, H = 125, L = 50, V = 32000'
run -e "$M30" -e 'decode(4, 8192, D, F, N, K, H, L, V, tp = {X, Y}, wdtype = int8, kvdtype = int8) on v5e 4x4'
check quiz_params params '50*(2*6000*56*125 + 3*6000*28672 + 12000) + 2*32000*6000 + 6000'
check quiz_kv memory_cache '4*8192*100000/16'
# the memory-bound step: every chip's HBM traffic, 2.605 ms against the book's 2.57
# (+1.5%: 8.2e11, the scales, the activations); t_lower adds the latency of 100 small
# all-reduces, 0.16 ms more
check quiz_b4_hbm_book t_hbm '(4*819e6 + 30e9)/(16*8.1e11)' 0.03
# B = 256: the attention reads the cache, memory-bound, a layer's fused region
# 256 · 8192 · 2·K·H / 16 = 262,144,000 B of cache + q and o 192,000 B each, against the book's 256 · 819e6 /
# (16 · 8.1e11) / 50 a layer (1.1% apart); the MLP compute-bound, its up projection
# 2 · 256 · 6000 · 28672 / 16 FLOPs a chip at the bf16 peak (int8 weights, bf16 FLOPs)
run -e "$M30" -e 'decode(256, 8192, D, F, N, K, H, L, V, tp = {X, Y}, wdtype = int8, kvdtype = int8) on v5e 4x4'
att='ops.1.ops.0.ops.1.ops.3'
mlp='ops.1.ops.0.ops.3.ops.0'
check quiz_b256_attention "$att.bytes" '256*8192*2*8*125/16 + 2*256*6000*2/16'
check quiz_b256_attention_book "$att.t_lower" '256*819e6/(16*8.1e11)/50' 0.02
check_str quiz_b256_attention_bound "$att.bound" memory
check quiz_b256_mlp_up "$mlp.t_math" '2*256*6000*28672/16/1.97e14'
check_str quiz_b256_mlp_bound "$mlp.bound" compute
finish
