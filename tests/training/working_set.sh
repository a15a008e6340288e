#!/bin/sh
# The peak working set (JSON memory_working_set; the report's `working set` row): under
# remat, the results the backward pass recomputes for one layer at a time. LLaMA-3 70B,
# one microbatch of 8192 tokens, H100 node of 8, remat full; the figures are derived
# by hand in tests/training/megatron_sp.roof:
#   plain tp: six [T, D] results whole (6 · 134,217,728), q and o [T, N/8·H] (2 ·
#     16,777,216), kn and vn [T, K/8·H] (2 · 2,097,152), up, gate, h [T, F/8] (3 ·
#     58,720,256): 1,019,215,872 B
#   tsp: four of the six on shards (4 · 16,777,216), the O and down projections'
#     partial sums whole before their ReduceScatter (2 · 134,217,728), the rest as in
#     tp: 549,453,824 B
# and remat none recomputes nothing: 0.
. "$(dirname "$0")/../book/lib.shinc"

size='let B = 1, T = 8192, D = 8192, F = 28672, N = 64, K = 8, H = 128, L = 80, V = 128256'
call='model(B, T, D, F, N, K, H, L, V'
on='on H100 mesh X = 8'

run -e 'mode training' -e 'remat full' -e "$size" -e "$call, tp = X) $on"
check tp_full memory_working_set '6*134217728 + 2*16777216 + 2*2097152 + 3*58720256'
run -e 'mode training' -e 'remat full' -e "$size" -e "$call, tsp = X) $on"
check tsp_full memory_working_set '4*16777216 + 2*134217728 + 2*16777216 + 2*2097152 + 3*58720256'
run -e 'mode training' -e "$size" -e "$call, tsp = X) $on"
check tsp_none memory_working_set '0'

run_text -e 'mode training' -e 'remat full' -e "$size" -e "$call, tp = X) $on"
if printf '%s\n' "$_book_text" | grep -q '^    working set    1.019 GB  transient: the largest block recomputed'; then
    echo "ok text_row"
else
    echo "FAIL text_row: no working set row of 1.019 GB"; _book_failed=1
fi

finish
