#!/bin/sh
# The serving pool of the book's ch. 8 ("Serving LLaMA 3-70B on TPUs", section "What
# about prefill?" and the QPS questions before it), from serve's figures on the stdlib's
# decode: sequences finishing and tokens evicted a step, queries per second a chip
# serves, and the prefill:generate ratio of a disaggregated deployment. Exact figures
# derived by hand first; then the book's, with the gap its rounded step times leave.
. "$(dirname "$0")/lib.shinc"

# got KEY: a number of the last run, for checks of how one figure follows from others
got() { _book_get "$1" | cut -f2; }

L70='let D = 8192, F = 28672, N = 64, K = 8, H = 128, L = 80, V = 128256'
P=70553706496   # LLaMA-3 70B's parameters (ch8_quantized_serving.sh derives them)

# "Assume we have a median prefill length of 8192 tokens and a median decode length of
# 4096 tokens. Say we have a generate batch size of 32. On average how many sequences
# finish decoding per step? ... how many tokens are evicted from our KV cache each step?"
# — "32 / 4096 sequences evicted per step ... 32 * (8192 + 4096) / 4096 = 96 tokens".
# int8 weights and KV on a 4x4 so the batch fits: 163,840 B of KV a token (2·K·H·L).
run -e "$L70" -e 'serve B, S: decode(B, S, D, F, N, K, H, L, V, tp = {X, Y}, wdtype = int8, kvdtype = int8) on v5e 4x4 with prompt = 8192, output = 4096, batch = 32'
check finishing finishing '32/4096'                 # 0.0078125
check evicted_tokens evicted_tokens '32*(8192+4096)/4096'   # 96
check evicted_bytes evicted_bytes '96*2*8*128*80'   # 15,728,640 B on the 16 chips

# "what throughput per chip does this give us (in terms of queries / chip)? ... median
# decode length is 512 tokens": B / (step · 512 · N) ≈ 43 / (0.019 · 512 · N), bf16 on
# a 4x4 at 8k context: 0.27 QPS a chip. Here prompt 7680 + output 512 = 8192.
# The largest batch by hand, per chip: the weights 2·(P − norms)/16 + 2·norms (161
# norms of D kept whole) = 8,819,048,448 + 2,637,824 = 8,821,686,272 B; a sequence's
# KV 8192 · 327,680 / 16 = 167,772,160 B. 42 sequences: 15,868,116,992 B ≤ 16e9; 43:
# 16,035,889,152 B > 16e9. So 42 (the book's 43 takes 140e9 for the weights).
run -e "$L70" -e 'serve B, S: decode(B, S, D, F, N, K, H, L, V, tp = {X, Y}) on v5e 4x4 with prompt = 7680, output = 512'
check qps_batch batch 42
check qps_memory memory '2*(70553706496 - 161*8192)/16 + 2*161*8192 + 42*8192*327680/16'
# qps is B / (tpot · output · chips) of serve's own tpot
check qps_formula qps "42/($(got tpot)*512*16)"
check qps_prefill_formula qps_prefill "$(got tokens_per_s)/512"
# The book's 0.27 (43 / (0.019 · 512 · 16) = 0.2762). The tool's step at the mean context
# S = 7936 reads (8,821,686,272 + 42 · 7936 · 327,680 / 16) / 8.2e11 = 19.08 ms of HBM a
# chip; it is 20.38 ms with the activations each chip reads and the all-reduces' latency:
# 0.2516, 9% under the book's figure (batch 42 not 43: -2.3%; step +7%).
check qps_book qps '43/(0.019*512*16)' 0.1

# "Assume we do disaggregated serving with a median prefill length of 8192 and a median
# decode length of 512 ... What ratio of prefill:generate servers will you need ...
# P / 0.91 = 32 * G / (0.019 * 512) or P = 3G". The book's prefill, 2 · 70e9 · 8192 /
# (16 · 1.97e14 · 0.4) = 0.91 s, is at 40% of the peak: a chip at 40% of v5e's.
run -e "$L70" -e 'chip v5e_mfu40 : v5e { flops_bf16 = 0.4 * 1.97e14 }' -e 'serve B, S: decode(B, S, D, F, N, K, H, L, V, tp = {X, Y}) on v5e_mfu40 4x4 with prompt = 8192, output = 512, batch = 32'
# a prefill server makes 1/ttft caches a second; a generate server takes in 32 /
# (tpot · 512): the ratio is ttft · 32 / (tpot · 512)
check ratio_formula prefill_ratio "$(got ttft)*32/($(got tpot)*512)"
# The decode step is the book's (18.26 ms at batch 32 against its 19 ms at batch 43:
# memory-bound, (8,821,686,272 + 32 · 8448 · 327,680/16) / 8.2e11 = 17.51 ms of HBM);
check ratio_tpot_book tpot '0.019' 0.05
# the prefill is not: 1.32 s against 0.91 s, since the tool counts what the book leaves
# out: attention's 4·T·S·N·H·L FLOPs at T = S (+15%) and, with 16-way tensor parallelism, the
# activations' all-reduces, which bound some of a layer's operations. So 4.5 prefill
# servers a generate server, not 3: the ratio scales with the prefill's time.
check ratio_book prefill_ratio '0.91*32/(0.019*512)' 0.55
finish
