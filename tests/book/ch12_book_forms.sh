#!/bin/sh
# The book's approximations beside the exact forms (How to Scale Your Model, ch. 12,
# "Intra-node collectives"): an AllGather of B bytes in a node of N GPUs takes
# B·(N − 1)/(N·W) "≈ B / W", an AllReduce twice that. roofline costs the exact form and
# shows the book's beside it (t_comm_book, t_comm_exact in JSON).
. "$(dirname "$0")/lib.shinc"

# Pop Quiz 1 [AllGather time]: "Using an 8xH100 node with 450 GB/s full-duplex
# bandwidth, how long does AllGather(bf16[B_X, F]) take? Let B=1024, F=16,384." —
# "roughly (2·B·F) / 450e9 = 75us, or more precisely, 65us":
#   book  2 · 1024 · 16384 / 450e9             = 74.565 µs
#   exact 2 · 1024 · 16384 · 7 / (8 · 450e9)   = 65.245 µs
run -e 'let B = 1024, F = 16384' -e 'allgather bf16[B_X, F] over X on H100 mesh X = 8'
check pq1_book t_comm_book '2*1024*16384/450e9'
check pq1_exact t_comm_exact '2*1024*16384*7/(8*450e9)'
check pq1_t_comm t_comm '2*1024*16384*7/(8*450e9)'
check pq1_book_75us t_comm_book '75e-6' 0.01
check pq1_exact_65us t_comm_exact '65e-6' 0.01

# "An AllReduce has 2x this cost": 2V/W = 149.13 µs, exactly 2V·7/(8W) = 130.49 µs
run -e 'let B = 1024, F = 16384' -e 'allreduce bf16[B, F] over X on H100 mesh X = 8'
check ar_book t_comm_book '2*2*1024*16384/450e9'
check ar_exact t_comm_exact '2*2*1024*16384*7/(8*450e9)'

# A B200 node: "B / 900e9": the same quiz at 900e9, 37.28 µs against 32.62 µs
run -e 'let B = 1024, F = 16384' -e 'allgather bf16[B_X, F] over X on B200 mesh X = 8'
check b200_book t_comm_book '2*1024*16384/900e9'
check b200_exact t_comm_exact '2*1024*16384*7/(8*900e9)'

# A TPU ring (v5e, an axis of 16 wraps) is costed in the book's own V/W (ch. 3): no
# second form, the keys absent
run -e 'let B = 1024, F = 16384' -e 'allgather bf16[B_X, F] over X on v5e mesh X = 16'
check v5e_ring t_comm '2*1024*16384/9e10'
if printf '%s\n' "$_book_out" | grep -q t_comm_book; then
    _book_fail v5e_ring_no_book "t_comm_book printed for a ring costed in the book's form"
else _book_ok v5e_ring_no_book; fi
finish
