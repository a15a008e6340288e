# The sharding issue's acceptance: the book's two-chip example (ch. 1, "Network
# communication rooflines"; docs/costmodel.md §3 "Check"), now as a sharded statement.
#
#   X bf16[B,D], Y bf16[D,F], D split over 2 v5e chips (`shard D over 2`).
#   Per chip: FLOPs 2·B·(D/2)·F = B·D·F, so T_math = B·D·F / 1.97e14.
#   Both operands are sharded along the contracted D alike (case 3): each chip holds
#   partial sums bf16[B,F], combined by an AllReduce over the axis of 2 chips.
#   mesh.h: an axis of 2 chips is a ring (its one neighbour is reached both ways), so
#   bandwidth 2·4.5e10 = 9e10 over links = 2; AllReduce factor 2; V = 2·B·F bytes.
#   T_comm = 2·V / 9e10 = 4·B·F / 9e10 = 2·B·F / 4.5e10 (the book's figure);
#   comm_bytes = factor·V/links = 2·(2·B·F)/2 = 2·B·F (each chip sends its partial sums).
#   Compute-bound when T_math > T_comm: B·D·F/1.97e14 > 2·B·F/4.5e10
#   ⇔ D > 2·1.97e14/4.5e10 = 8755.555...
. "$(dirname "$0")/../book/lib.shinc"

# check_has NAME STRING: the text of the last run_text contains STRING.
check_has() {
    if [ "$_book_status" != 0 ]; then
        _book_fail "$1" "roofline exited with status $_book_status"; return 0
    fi
    case $_book_text in
    *"$2"*) _book_ok "$1" ;;
    *) _book_fail "$1" "no '$2' in the output" ;;
    esac
}

# check_crossing NAME LABEL EXPR: formula.bound holds "D > N (LABEL)"; N equals EXPR.
check_crossing() {
    _book_lookup "$1" formula.bound || return 0
    _n=$(printf '%s\n' "$_val" | sed -n "s/.*D > \([0-9.eE+-]*\) ($2).*/\1/p")
    if [ -z "$_n" ]; then _book_fail "$1" "formula.bound '$_val': no 'D > N ($2)'"; return 0; fi
    _r=$(_book_near "$_n" "$3" 1e-9)
    if [ "$_r" = ok ]; then _book_ok "$1"; else _book_fail "$1" "formula.bound '$_val': $_r"; fi
}

# ---- B = 512, D = 16384, F = 16384: compute-bound --------------------------------
run -e 'let B = 512, D = 16384, F = 16384' -e 'bf16[B,D] *_D bf16[D,F] on v5e shard D over 2'
check accept_chips chips 2
check_str accept_collective collective allreduce
# per chip: 2·B·(D/2)·F = 512·16384·16384 = 137438953472
check accept_flops flops '512*16384*16384'
# A[B, D/2] + B[D/2, F] read: 2·512·8192 + 2·8192·16384 = 8388608 + 268435456 = 276824064
check accept_bytes_read bytes_read '2*512*8192 + 2*8192*16384'
# partial sums bf16[B,F] written: 2·512·16384 = 16777216
check accept_bytes_written bytes_written '2*512*16384'
# T_math = B·D·F/1.97e14 = 137438953472/1.97e14 = 697.66 µs
check accept_t_math t_math '512*16384*16384/1.97e14'
# T_comm = 2·B·F/4.5e10 = 16777216/4.5e10 = 372.83 µs
check accept_t_comm t_comm '2*512*16384/4.5e10'
# comm_bytes = 2·B·F = 16777216
check accept_comm_bytes comm_bytes '2*512*16384'
# T_hbm = (276824064 + 16777216)/8.2e11 = 358.05 µs; max(697.7, 358.1, 372.8) = t_math
check accept_t_lower t_lower '512*16384*16384/1.97e14'
# T_upper = sum of the three = 697.66 + 358.05 + 372.83 µs = 1.4285 ms
check accept_t_upper t_upper '512*16384*16384/1.97e14 + (2*512*8192 + 2*8192*16384 + 2*512*16384)/8.2e11 + 2*512*16384/4.5e10'
check_str accept_bound bound compute

# ---- D = 8192: below the crossing 8755.6, comm-bound -------------------------------
run -e 'let B = 512, D = 8192, F = 16384' -e 'bf16[B,D] *_D bf16[D,F] on v5e shard D over 2'
# T_math = 512·8192·16384/1.97e14 = 348.83 µs < T_comm = 372.83 µs (unchanged: no D in it)
check d8192_t_math t_math '512*8192*16384/1.97e14'
check d8192_t_comm t_comm '2*512*16384/4.5e10'
# T_hbm = (2·512·4096 + 2·4096·16384 + 2·512·16384)/8.2e11 = 155189248/8.2e11 = 189.26 µs
check d8192_t_hbm t_hbm '(2*512*4096 + 2*4096*16384 + 2*512*16384)/8.2e11'
check_str d8192_bound bound comm

# ---- D = 8755 and 8756 on either side of 2·1.97e14/4.5e10 = 8755.56 ---------------
# B = 512, F = 16384 (even D, so D/2 rows per chip): T_comm = 372.827 µs and
# T_math(8754) = 512·8754·16384/1.97e14 = 372.764 µs (comm), T_math(8756) = 372.849 µs
# (compute; T_hbm(8756) = (2·512·4378 + 2·4378·16384 + 2·512·16384)/8.2e11 = 200.9 µs).
run -e 'let B = 512, D = 8756, F = 16384' -e 'bf16[B,D] *_D bf16[D,F] on v5e shard D over 2'
check_str d8756_bound bound compute
run -e 'let B = 512, D = 8754, F = 16384' -e 'bf16[B,D] *_D bf16[D,F] on v5e shard D over 2'
check_str d8754_bound bound comm

# ---- D unbound: the bound is a condition on D ----------------------------------------
run -e 'let B = 512, F = 16384' -e 'bf16[B,D] *_D bf16[D,F] on v5e shard D over 2'
check_null free_d_bound bound
# T_comm does not depend on D: 2·512·16384/4.5e10 = 372.83 µs
check free_d_t_comm t_comm '2*512*16384/4.5e10'
# network: B·D·F/1.97e14 > 2·B·F/4.5e10 ⇔ D > 2·1.97e14/4.5e10 = 8755.5556
check_crossing free_d_network_crossing network '2*1.97e14/4.5e10'
# HBM: B·D·F/1.97e14 > (B·D + D·F + 2·B·F)/8.2e11
#   ⇔ D·(B·F/1.97e14 − (B + F)/8.2e11) > 2·B·F/8.2e11
#   ⇔ D > (2·512·16384/8.2e11) / (512·16384/1.97e14 − 16896/8.2e11) = 930.98
check_crossing free_d_hbm_crossing HBM '(2*512*16384/8.2e11) / (512*16384/1.97e14 - 16896/8.2e11)'
# the text report rounds the crossing as the issue states it
run_text -e 'let B = 512, F = 16384' -e 'bf16[B,D] *_D bf16[D,F] on v5e shard D over 2'
check_has free_d_text_crossing 'D > 8755.6'

# ---- shard over two dims: D over 2 and F over 2 (4 chips) --------------------------
run -e 'let B = 512, D = 16384, F = 16384' \
    -e 'bf16[B,D] *_D bf16[D,F] on v5e shard D over 2 shard F over 2'
check two_shards_chips chips 4
# per chip 2·B·(D/2)·(F/2) = 2·512·8192·8192 = 68719476736
check two_shards_flops flops '2*512*8192*8192'
# read A[B, D/2] + B[D/2, F/2] = 2·512·8192 + 2·8192·8192 = 142606336
check two_shards_bytes_read bytes_read '2*512*8192 + 2*8192*8192'
# write the partial sums bf16[B, F/2] = 2·512·8192 = 8388608
check two_shards_bytes_written bytes_written '2*512*8192'
# AllReduce over the D axis (2 chips, ring 9e10, links 2) of bf16[B, F_F]:
# V = 2·512·16384/2 = 8388608; T = 2·V/9e10 = 186.41 µs; comm_bytes = 2·V/2 = 8388608
check_str two_shards_collective collective allreduce
check two_shards_t_comm t_comm '2*(2*512*16384/2)/9e10'
check two_shards_comm_bytes comm_bytes '2*512*16384/2'

# ---- the same example between two pods over DCN (v5e dcn_bw 3.125e9, no floor) ------
run -e 'let B = 512, D = 16384, F = 16384' -e 'mesh P = 2 dcn' -e 'bf16[B,D_P] *_D bf16[D_P,F] on v5e'
# AllReduce of bf16[B,F] over P: factor 2, V = 2·B·F = 16777216; T = 2·V/3.125e9 = 10.737 ms
check dcn_t_comm t_comm '2*2*512*16384/3.125e9'
check dcn_comm_bytes comm_bytes '2*2*512*16384'
# T_math = 697.66 µs ≪ 10.7 ms
check_str dcn_bound bound comm

finish
