# The four cases of a sharded contraction (book ch. 3; docs/costmodel.md §3), per chip.
#
#   FLOPs per chip = 2 · (the chip's part of every distinct dim), HBM bytes = the
#   operands as the chip holds them when it multiplies (after any gather) + its result
#   (partial sums before any reduction). Collectives as in src/cost/mesh.h; on v5e an axis
#   of 4 is a line (W = 4.5e10, links 1: comm_bytes = factor·V, T = comm_bytes/4.5e10;
#   its AllGather and ReduceScatter are the one-direction ring's, factor (N − 1)/N = 3/4),
#   an axis of 16 a ring (W = 9e10, links 2), an axis of 2 a ring.
#   v5e: 1.97e14 FLOP/s bf16, HBM 8.2e11 B/s.
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

# ==== Case 1: no operand sharded along the contracted dim: local, no communication =====
# mesh X = 4, Y = 2; A[I_X, J] · B[J, K_Y] → C[I_X, K_Y]; I = 4096, J = 8192, K = 16384
C1='bf16[I_X, J] *_J bf16[J, K_Y] on v5e'
run -e 'let I = 4096, J = 8192, K = 16384' -e 'mesh X = 4, Y = 2' -e "$C1"
check case1_chips chips 8
check_null case1_collective collective
check case1_t_comm t_comm 0
check case1_comm_bytes comm_bytes 0
# 2·(I/4)·J·(K/2) = 2·1024·8192·8192 = 137438953472
check case1_flops flops '2*1024*8192*8192'
# A[I/4, J] + B[J, K/2] = 2·1024·8192 + 2·8192·8192 = 16777216 + 134217728 = 150994944
check case1_bytes_read bytes_read '2*1024*8192 + 2*8192*8192'
# C[I/4, K/2] = 2·1024·8192 = 16777216
check case1_bytes_written bytes_written '2*1024*8192'
# T_math = 137438953472/1.97e14 = 697.66 µs > T_hbm = 167772160/8.2e11 = 204.60 µs
check case1_t_math t_math '2*1024*8192*8192/1.97e14'
check case1_t_hbm t_hbm '(2*1024*8192 + 2*8192*8192 + 2*1024*8192)/8.2e11'
check_str case1_bound bound compute
# the result keeps the operands' shardings
run_text -e 'let I = 4096, J = 8192, K = 16384' -e 'mesh X = 4, Y = 2' -e "$C1"
check_has case1_result_sharding 'bf16[I_X,K_Y]'

# ==== Case 2: one operand sharded along the contracted dim ==============================
# mesh X = 4 on v5e (a line). A[I, J_X] · B[J, K] → C[I, K]. Two ways:
#   gather A over X:  V = 2·I·J (the whole A), AllGather factor 1: comm_bytes 2·I·J;
#                     then each chip multiplies the whole A by the whole B.
#   partial sums:     each chip multiplies A[I, J/4] by the J/4 rows of B it pairs with,
#                     then AllReduce of C[I,K]: V = 2·I·K, factor 2: comm_bytes 4·I·K.
#   On a chip roofline prices both and takes the lower T_lower (2a–2e: the same pick as
#   by bytes, 2f: not); with no chip or dims unbound, fewer bytes: gather when
#   2·I·J < 4·I·K (J < 2·K), partial sums when J > 2·K.

# -- 2a, the gather wins: I = 1024, J = 4096, K = 8192:
#    gather 2·1024·4096 = 8388608 B  <  partial sums 4·1024·8192 = 33554432 B
C2='bf16[I, J_X] *_J bf16[J, K] on v5e'
run -e 'let I = 1024, J = 4096, K = 8192' -e 'mesh X = 4' -e "$C2"
check_str case2_gather_collective collective allgather
check case2_gather_comm_bytes comm_bytes '3/4*(2*1024*4096)'
# T = 8388608/4.5e10 = 186.41 µs
check case2_gather_t_comm t_comm '3/4*(2*1024*4096/4.5e10)'
# every chip then does the whole product: 2·I·J·K = 2·1024·4096·8192 = 68719476736
check case2_gather_flops flops '2*1024*4096*8192'
# reads A[I,J] + B[J,K] = 2·1024·4096 + 2·4096·8192 = 8388608 + 67108864 = 75497472
check case2_gather_bytes_read bytes_read '2*1024*4096 + 2*4096*8192'
# writes C[I,K] = 2·1024·8192 = 16777216
check case2_gather_bytes_written bytes_written '2*1024*8192'
# T_math 348.83 µs > T_comm 186.41 µs > T_hbm 112.53 µs
check_str case2_gather_bound bound compute

# -- 2b, partial sums win: I = 1024, J = 16384, K = 2048:
#    gather 2·1024·16384 = 33554432 B  >  partial sums 4·1024·2048 = 8388608 B
run -e 'let I = 1024, J = 16384, K = 2048' -e 'mesh X = 4' -e "$C2"
check_str case2_partial_collective collective allreduce
check case2_partial_comm_bytes comm_bytes '3/4*(4*1024*2048)'
# T = 8388608/4.5e10 = 186.41 µs
check case2_partial_t_comm t_comm '3/4*(4*1024*2048/4.5e10)'
# 2·I·(J/4)·K = 2·1024·4096·2048 = 17179869184
check case2_partial_flops flops '2*1024*4096*2048'
# reads A[I, J/4] and the J/4 rows of B the chip multiplies (as B[J_X, K] in case 3):
# 2·1024·4096 + 2·4096·2048 = 8388608 + 16777216 = 25165824
check case2_partial_bytes_read bytes_read '2*1024*4096 + 2*4096*2048'
# writes its partial sums C[I,K]: 2·1024·2048 = 4194304
check case2_partial_bytes_written bytes_written '2*1024*2048'
# T_comm 186.41 µs > T_math 87.21 µs
check_str case2_partial_bound bound comm

# -- 2f, fewer bytes but slower: I = 1024, J = K = 16384 on v5e 4x1 (X a line).
#    gather:       comm 2·I·J = 33554432 B (fewer than 4·I·K = 67108864), but every chip
#                  then does all 2·I·J·K = 5.4976e11 FLOPs: T_math = 2.7907 ms = T_lower
#    partial sums: 2·I·(J/4)·K = 1.3744e11 FLOPs, 697.66 µs; AllReduce 4·I·K / 4.5e10
#                  = 1.4913 ms = T_lower: faster, so partial sums
C2F='bf16[I, J_X] *_J bf16[J, K] on v5e 4x1'
run -e 'let I = 1024, J = 16384, K = 16384' -e "$C2F"
check_str case2_faster_collective collective allreduce
check case2_faster_comm_bytes comm_bytes '3/4*(4*1024*16384)'
check case2_faster_flops flops '2*1024*4096*16384'
check case2_faster_t_lower t_lower '3/4*(4*1024*16384/4.5e10)'
check_str case2_faster_bound bound comm
run_text -e 'let I = 1024, J = 16384, K = 16384' -e "$C2F"
case $_book_text in
*'partial sums and an allreduce are faster on this chip'*) _book_ok case2_faster_says_why ;;
*) _book_fail case2_faster_says_why "no 'faster on this chip' reason" ;;
esac
#    with no chip the times are unknown: fewer bytes, so the gather
run -e 'let I = 1024, J = 16384, K = 16384' -e 'mesh X = 4' -e 'bf16[I, J_X] *_J bf16[J, K]'
check_str case2_no_chip_collective collective allgather
check case2_no_chip_flops flops '2*1024*16384*16384'
#    in training (3× FLOPs, forward collectives 2×): gather T_math 3·2.7907 = 8.372 ms;
#    partial sums T_math 3·697.66 µs = 2.093 ms, the AllReduce 2·1.4913 = 2.9826 ms:
#    partial sums still, flops 3·2·I·(J/4)·K
run -e 'let I = 1024, J = 16384, K = 16384' -e 'mode training' -e "$C2F"
check_str case2_training_collective collective allreduce
check case2_training_flops flops '3*2*1024*4096*16384'

# -- 2c, partial sums are impossible when the other operand uses the axis:
#    A[I, J_X] · B[J, K_X] (I = 1024, J = 16384, K = 2048): though 4·I·K < 2·I·J, B is
#    sharded over X (along K), so A is gathered: comm_bytes 2·I·J = 33554432
run -e 'let I = 1024, J = 16384, K = 2048' -e 'mesh X = 4' -e 'bf16[I, J_X] *_J bf16[J, K_X] on v5e'
check_str case2_forced_collective collective allgather
check case2_forced_comm_bytes comm_bytes '3/4*(2*1024*16384)'
check case2_forced_t_comm t_comm '3/4*(2*1024*16384/4.5e10)'
# A[I,J]·B[J, K/4]: 2·1024·16384·512 = 17179869184
check case2_forced_flops flops '2*1024*16384*512'
# reads 2·1024·16384 + 2·16384·512 = 33554432 + 16777216 = 50331648
check case2_forced_bytes_read bytes_read '2*1024*16384 + 2*16384*512'
# writes C[I, K/4] = 2·1024·512 = 1048576
check case2_forced_bytes_written bytes_written '2*1024*512'

# -- 2d, the right operand sharded: A[I, J] · B[J_X, K], I = 8192, J = 4096, K = 1024:
#    gather B: 2·J·K = 8388608 B  <  partial sums 4·I·K = 33554432 B
run -e 'let I = 8192, J = 4096, K = 1024' -e 'mesh X = 4' -e 'bf16[I, J] *_J bf16[J_X, K] on v5e'
check_str case2_right_collective collective allgather
check case2_right_comm_bytes comm_bytes '3/4*(2*4096*1024)'
check case2_right_flops flops '2*8192*4096*1024'

# -- 2e, with another axis: mesh X = 4, Y = 2, A[I_Y, J_X] · B[J, K]
#    I = 4096, J = 2048, K = 8192: the X group of A holds A[I/2, J]:
#    gather V = 2·2048·2048 = 8388608  <  partial sums 2·(2·(I/2)·K) = 67108864
run -e 'let I = 4096, J = 2048, K = 8192' -e 'mesh X = 4, Y = 2' -e 'bf16[I_Y, J_X] *_J bf16[J, K] on v5e'
check_str case2_other_gather_collective collective allgather
check case2_other_gather_comm_bytes comm_bytes '3/4*(2*2048*2048)'
# A[I/2, J]·B[J, K]: 2·2048·2048·8192 = 68719476736
check case2_other_gather_flops flops '2*2048*2048*8192'
# reads 2·2048·2048 + 2·2048·8192 = 8388608 + 33554432 = 41943040; writes 2·2048·8192
check case2_other_gather_bytes_read bytes_read '2*2048*2048 + 2*2048*8192'
check case2_other_gather_bytes_written bytes_written '2*2048*8192'
#    I = 4096, J = 16384, K = 2048: gather 2·2048·16384 = 67108864 > partial sums
#    C[I_Y, K] V = 2·2048·2048 = 8388608, factor 2: 16777216
run -e 'let I = 4096, J = 16384, K = 2048' -e 'mesh X = 4, Y = 2' -e 'bf16[I_Y, J_X] *_J bf16[J, K] on v5e'
check_str case2_other_partial_collective collective allreduce
check case2_other_partial_comm_bytes comm_bytes '3/4*(2*2*2048*2048)'
# 2·(I/2)·(J/4)·K = 2·2048·4096·2048 = 34359738368
check case2_other_partial_flops flops '2*2048*4096*2048'
# reads A[I/2, J/4] + the J/4 rows of B: 2·2048·4096 + 2·4096·2048 = 33554432
check case2_other_partial_bytes_read bytes_read '2*2048*4096 + 2*4096*2048'

# ==== Case 3: both sharded alike along the contracted dim ===============================
# mesh X = 4; A[I, J_X] · B[J_X, K], I = 1024, J = 16384, K = 2048
C3='bf16[I, J_X] *_J bf16[J_X, K]'
run -e 'let I = 1024, J = 16384, K = 2048' -e 'mesh X = 4' -e "$C3 on v5e"
check_str case3_ar_collective collective allreduce
# 2·I·(J/4)·K = 17179869184
check case3_ar_flops flops '2*1024*4096*2048'
# reads 2·1024·4096 + 2·4096·2048 = 25165824; writes partial sums 2·1024·2048 = 4194304
check case3_ar_bytes_read bytes_read '2*1024*4096 + 2*4096*2048'
check case3_ar_bytes_written bytes_written '2*1024*2048'
# AllReduce of C[I,K]: V = 4194304, factor 2: comm_bytes 8388608, T = 186.41 µs
check case3_ar_comm_bytes comm_bytes '3/4*(2*2*1024*2048)'
check case3_ar_t_comm t_comm '3/4*(2*2*1024*2048/4.5e10)'
check_str case3_ar_bound bound comm

# the `->` type shards the result over X: ReduceScatter, factor 1 on the same V
run -e 'let I = 1024, J = 16384, K = 2048' -e 'mesh X = 4' -e "$C3 -> bf16[I_X, K] on v5e"
check_str case3_rs_collective collective reducescatter
check case3_rs_flops flops '2*1024*4096*2048'
check case3_rs_bytes_read bytes_read '2*1024*4096 + 2*4096*2048'
# the local product still writes its whole partial sums C[I,K] before the scatter
check case3_rs_bytes_written bytes_written '2*1024*2048'
# comm_bytes 3/4·4194304 (a line of 4: (N − 1)/N); T = 69.91 µs (< T_math 87.21 µs)
check case3_rs_comm_bytes comm_bytes '3/4*(2*1024*2048)'
check case3_rs_t_comm t_comm '3/4*(2*1024*2048/4.5e10)'
check_str case3_rs_bound bound compute
run_text -e 'let I = 1024, J = 16384, K = 2048' -e 'mesh X = 4' -e "$C3 -> bf16[I_X, K] on v5e"
check_has case3_rs_result 'bf16[I_X,K]'

# ReduceScatter onto the other dim, X = 16 (a ring: W = 9e10, links 2)
run -e 'let I = 1024, J = 16384, K = 2048' -e 'mesh X = 16' -e "$C3 -> bf16[I, K_X] on v5e"
check_str case3_rs16_collective collective reducescatter
# 2·I·(J/16)·K = 2·1024·1024·2048 = 4294967296
check case3_rs16_flops flops '2*1024*1024*2048'
# V = 2·I·K = 4194304: T = V/9e10 = 46.60 µs, comm_bytes = V/2 = 2097152
check case3_rs16_t_comm t_comm '2*1024*2048/9e10'
check case3_rs16_comm_bytes comm_bytes '1024*2048'

# over two axes: A[I, J_XY] · B[J_XY, K] on v5e 16x16, I = 1024, J = 65536, K = 4096
run -e 'let I = 1024, J = 65536, K = 4096' -e 'bf16[I, J_XY] *_J bf16[J_XY, K] on v5e 16x16'
check case3_xy_chips chips 256
# 2·I·(J/256)·K = 2·1024·256·4096 = 2147483648
check case3_xy_flops flops '2*1024*256*4096'
# AllReduce of C[I,K] (V = 8388608) over X and Y: W = 9e10 + 9e10 = 1.8e11, links 4:
# T = 2·V/1.8e11 = 93.21 µs; comm_bytes = 2·V/4 = 4194304
check case3_xy_t_comm t_comm '2*2*1024*4096/1.8e11'
check case3_xy_comm_bytes comm_bytes '2*2*1024*4096/4'

# with another axis: mesh X = 4, Y = 2, A[I_Y, J_X] · B[J_X, K], I = 4096, J = 8192,
# K = 2048: partial sums C[I_Y, K], V = 2·2048·2048 = 8388608 per X group
run -e 'let I = 4096, J = 8192, K = 2048' -e 'mesh X = 4, Y = 2' -e 'bf16[I_Y, J_X] *_J bf16[J_X, K] on v5e'
check_str case3_other_collective collective allreduce
# 2·(I/2)·(J/4)·K = 2·2048·2048·2048 = 17179869184
check case3_other_flops flops '2*2048*2048*2048'
# reads 2·2048·2048 + 2·2048·2048 = 16777216; writes 2·2048·2048 = 8388608
check case3_other_bytes_read bytes_read '2*2048*2048 + 2*2048*2048'
check case3_other_bytes_written bytes_written '2*2048*2048'
# factor 2: comm_bytes 16777216, T = 16777216/4.5e10 = 372.83 µs
check case3_other_comm_bytes comm_bytes '3/4*(2*2*2048*2048)'
check case3_other_t_comm t_comm '3/4*(2*2*2048*2048/4.5e10)'

# ==== Cases 2 and 3 in one statement: allgather, then allreduce ========================
# mesh X = 4, Y = 2; A[I, J_X, L_Y] ·_{J,L} B[J_X, L, K_Y]; I = 256, J = 1024, L = 512,
# K = 2048. J: alike over X (case 3: partial sums, AllReduce over X).
# L: over Y in A only, and B uses Y (on K): gather A over Y (2 chips, a ring 9e10, links 2):
#   V = A[I, J/4, L] = 2·256·256·512 = 67108864; T = V/9e10 = 745.65 µs; comm_bytes V/2
# then AllReduce over X of C[I, K_Y]: V = 2·256·1024 = 524288; T = 2·V/4.5e10 = 23.30 µs;
# comm_bytes 2·V = 1048576. The reduction waits for the product, which waits for the
# gather, but chunk by chunk the three overlap, as T_lower takes the product and its
# collectives to: on different axes' links, T_comm = max(745.65, 23.30) = 745.65 µs
# (768.96 µs with `mode inference axes add`); comm_bytes 33554432 + 1048576 = 34603008
run -e 'let I = 256, J = 1024, L = 512, K = 2048' -e 'mesh X = 4, Y = 2' \
    -e 'bf16[I, J_X, L_Y] *_{J, L} bf16[J_X, L, K_Y] on v5e'
check_str both_collective collective allgather+allreduce
check both_t_comm t_comm '2*256*256*512/9e10'
check both_comm_bytes comm_bytes '2*256*256*512/2 + 3/4*2*2*256*1024'
# 2·I·(J/4)·L·(K/2) = 2·256·256·512·1024 = 68719476736
check both_flops flops '2*256*256*512*1024'
# reads A[I, J/4, L] + B[J/4, L, K/2] = 67108864 + 2·256·512·1024 = 335544320
check both_bytes_read bytes_read '2*256*256*512 + 2*256*512*1024'
check both_bytes_written bytes_written '2*256*1024'
run -e 'let I = 256, J = 1024, L = 512, K = 2048' -e 'mesh X = 4, Y = 2' \
    -e 'mode inference axes add' -e 'bf16[I, J_X, L_Y] *_{J, L} bf16[J_X, L, K_Y] on v5e'
check both_added_t_comm t_comm '2*256*256*512/9e10 + 3/4*2*2*256*1024/4.5e10'

finish
