# Collectives on their own on TPUs: docs/costmodel.md §3 and the formulas of src/cost/mesh.h.
#
#   T = factor · V / W, at least the floor hop_latency · hops on ICI: (largest axis of
#   the collective) / 2 on a ring, axis − 1 on a line (none on DCN). V = bytes of the array within one group of
#   chips (gathered, or reduced): still sharded over any other axis.
#   W per ICI axis: 2·ici_bw when the axis wraps around (size a multiple of torus_wrap,
#   or at most 2 chips), else ici_bw; over several axes the bandwidths add.
#   factor: AllGather, ReduceScatter 1, on a line (N − 1)/N (the one-direction ring,
#   docs/costmodel.md §6.2); AllReduce twice that; AllToAll 1/4 on one axis, over
#   several axes max(axis)/(4·N) with the smallest bandwidth of those axes.
#   comm_bytes = factor·V/links, links = 2 per ring axis, 1 per line axis, 1 on DCN.
#
# Chips (stdlib/chips.roof, docs/costmodel.md §5): v5e ici_bw 4.5e10, wrap 16, pod 16x16,
# dcn_bw 3.125e9; v5p ici_bw 9e10, wrap 4 (multiples), dcn_bw 6.25e9; v6e ici_bw 9e10,
# wrap 16; every TPU hop_latency 1e-6.
#
# Unless said: E = 4096, F = 8192, so bf16[E,F] is V0 = 2·4096·8192 = 67108864 bytes.
# A collective alone does no FLOPs and moves no HBM bytes: bound comm.
. "$(dirname "$0")/../book/lib.shinc"

L='let E = 4096, F = 8192'

# ==== v5e 8x4: X = 8 and Y = 4, neither wraps (16 only): lines, W = 4.5e10, links 1 ====
run -e "$L" -e 'allgather bf16[E_Y, F] over Y on v5e 8x4'
check ag_line_chips chips 32
check_str ag_line_collective collective allgather
# a line of 4: T = 3/4·V0/4.5e10 = 1.1185 ms; comm_bytes = 3/4·V0
check ag_line_t_comm t_comm '3/4*67108864/4.5e10'
check ag_line_comm_bytes comm_bytes '3/4*67108864'
check ag_line_flops flops 0
check ag_line_bytes bytes 0
check_str ag_line_bound bound comm
# t_lower = t_upper = T_comm (no math, no HBM)
check ag_line_t_lower t_lower '3/4*67108864/4.5e10'
check ag_line_t_upper t_upper '3/4*67108864/4.5e10'

run -e "$L" -e 'reducescatter bf16[E, F] over Y on v5e 8x4 -> bf16[E, F_Y]'
check_str rs_line_collective collective reducescatter
# V = the reduced array bf16[E,F] = V0; factor 3/4: T = 3/4·V0/4.5e10
check rs_line_t_comm t_comm '3/4*67108864/4.5e10'
check rs_line_comm_bytes comm_bytes '3/4*67108864'

run -e "$L" -e 'allreduce bf16[E, F] over Y on v5e 8x4'
check_str ar_line_collective collective allreduce
# factor 2·3/4: T = 1.5·V0/4.5e10 = 2.2370 ms; comm_bytes = 1.5·V0
check ar_line_t_comm t_comm '2*3/4*67108864/4.5e10'
check ar_line_comm_bytes comm_bytes '2*3/4*67108864'

run -e "$L" -e 'alltoall bf16[E_Y, F] over Y on v5e 8x4 -> bf16[E, F_Y]'
check_str a2a_line_collective collective alltoall
# factor 1/4: T = V0/(4·4.5e10) = 372.83 µs; comm_bytes = V0/4 = 16777216
check a2a_line_t_comm t_comm '67108864/(4*4.5e10)'
check a2a_line_comm_bytes comm_bytes '67108864/4'

# X = 8 on v5e: 8 is not a multiple of 16, no wraparound either
run -e "$L" -e 'allgather bf16[E_X, F] over X on v5e 8x4'
check ag_line8_t_comm t_comm '7/8*67108864/4.5e10'
check ag_line8_comm_bytes comm_bytes '7/8*67108864'

# `use v5e 8x4` gives the same slice to later statements
run -e "$L" -e 'use v5e 8x4' -e 'allreduce bf16[E, F] over Y'
check ar_use_chips chips 32
check ar_use_t_comm t_comm '2*3/4*67108864/4.5e10'

# ==== v5e 16x16: axes of 16 wrap around: rings, W = 2·4.5e10 = 9e10, links 2 ==========
run -e "$L" -e 'allgather bf16[E_X, F] over X on v5e 16x16'
check ag_ring_chips chips 256
# T = V0/9e10 = 745.65 µs; comm_bytes = V0/2 = 33554432
check ag_ring_t_comm t_comm '67108864/9e10'
check ag_ring_comm_bytes comm_bytes '67108864/2'

run -e "$L" -e 'reducescatter bf16[E, F] over X on v5e 16x16 -> bf16[E_X, F]'
check rs_ring_t_comm t_comm '67108864/9e10'
check rs_ring_comm_bytes comm_bytes '67108864/2'

run -e "$L" -e 'allreduce bf16[E, F] over X on v5e 16x16'
# T = 2·V0/9e10 = 1.4913 ms; comm_bytes = 2·V0/2 = 67108864
check ar_ring_t_comm t_comm '2*67108864/9e10'
check ar_ring_comm_bytes comm_bytes 67108864

run -e "$L" -e 'alltoall bf16[E_X, F] over X on v5e 16x16 -> bf16[E, F_X]'
# T = V0/(4·9e10) = 186.41 µs; comm_bytes = V0/4/2 = 8388608
check a2a_ring_t_comm t_comm '67108864/(4*9e10)'
check a2a_ring_comm_bytes comm_bytes '67108864/8'

# v6e 16x16: ici_bw 9e10, wraps at 16: W = 1.8e11; T = V0/1.8e11 = 372.83 µs
run -e "$L" -e 'allgather bf16[E_X, F] over X on v6e 16x16'
check ag_v6e_ring_t_comm t_comm '67108864/1.8e11'
check ag_v6e_ring_comm_bytes comm_bytes '67108864/2'

# ==== v5p: wraparound on multiples of 4 ================================================
# 8x4x4: X = 8 is a multiple of 4, a ring: W = 2·9e10 = 1.8e11; T = V0/1.8e11 = 372.83 µs
run -e "$L" -e 'allgather bf16[E_X, F] over X on v5p 8x4x4'
check ag_v5p8_chips chips 128
check ag_v5p8_t_comm t_comm '67108864/1.8e11'
check ag_v5p8_comm_bytes comm_bytes '67108864/2'
# 6x4x4: X = 6 is not a multiple of 4, a line: W = 9e10. E = 4096 rows do not divide
# over 6: each chip holds the padded shard, ceil(4096/6) = 683 rows (6·683 = 4098),
# 683·8192·2 = 11,190,272 B, and receives the other 5: 55,951,360 B, / 9e10 = 621.68 µs
# (unpadded, 5/6·V0/9e10 = 621.38 µs)
run -e "$L" -e 'allgather bf16[E_X, F] over X on v5p 6x4x4'
check ag_v5p6_t_comm t_comm '5*683*8192*2/9e10'
check ag_v5p6_comm_bytes comm_bytes '5*683*8192*2'
# allreduce over Z = 4 of 8x4x4 (a ring): T = 2·V0/1.8e11 = 745.65 µs
run -e "$L" -e 'allreduce bf16[E, F] over Z on v5p 8x4x4'
check ar_v5p4_t_comm t_comm '2*67108864/1.8e11'
check ar_v5p4_comm_bytes comm_bytes 67108864

# ==== an axis of 2 chips: its one neighbour both ways, a ring ==========================
# v5e 2x4, X = 2: W = 9e10, links 2; T = V0/9e10 = 745.65 µs, comm_bytes = V0/2
run -e "$L" -e 'allgather bf16[E_X, F] over X on v5e 2x4'
check ag_two_t_comm t_comm '67108864/9e10'
check ag_two_comm_bytes comm_bytes '67108864/2'
# v5p 2x4x4 allreduce over X: W = 1.8e11; T = 2·V0/1.8e11
run -e "$L" -e 'allreduce bf16[E, F] over X on v5p 2x4x4'
check ar_v5p_two_t_comm t_comm '2*67108864/1.8e11'

# ==== over two axes at once: the bandwidths add =======================================
# v5e 16x16 over XY: 9e10 + 9e10 = 1.8e11, links 4: T = V0/1.8e11 = 372.83 µs,
# comm_bytes = V0/4 = 16777216
run -e "$L" -e 'allgather bf16[E_XY, F] over XY on v5e 16x16'
check ag_xy_ring_t_comm t_comm '67108864/1.8e11'
check ag_xy_ring_comm_bytes comm_bytes '67108864/4'
# v5e 8x4 over XY: both lines, 4.5e10 + 4.5e10 = 9e10, links 2; the 32 chips' one-
# direction ring: T = 2·31/32·V0/9e10 (allreduce)
run -e "$L" -e 'allreduce bf16[E, F] over XY on v5e 8x4'
check ar_xy_line_t_comm t_comm '2*31/32*67108864/9e10'
check ar_xy_line_comm_bytes comm_bytes '2*31/32*67108864/2'
# v5e 16x4 over XY: X ring 9e10 (2 links) + Y line 4.5e10 (1 link) = 1.35e11, 3 links:
# T = V0/1.35e11 = 497.10 µs; comm_bytes = V0/3 = 22369621.33
run -e "$L" -e 'allgather bf16[E_XY, F] over XY on v5e 16x4'
check ag_xy_mixed_t_comm t_comm '67108864/1.35e11'
check ag_xy_mixed_comm_bytes comm_bytes '67108864/3'
# AllToAll over XY of 16x16: N = 256, factor max(axis)/(4·N) = 16/1024 = 1/64,
# the smallest axis bandwidth 9e10: T = V0/(64·9e10) = 11.651 µs (above the 8 µs floor);
# comm_bytes = V0/64/2 = 524288
run -e "$L" -e 'alltoall bf16[E_XY, F] over XY on v5e 16x16 -> bf16[E, F_XY]'
check a2a_xy_ring_t_comm t_comm '67108864/(64*9e10)'
check a2a_xy_ring_comm_bytes comm_bytes '67108864/128'
# AllToAll over XY of 16x4: N = 64, factor 16/256 = 1/16, smallest bandwidth 4.5e10
# (the Y line): T = V0/(16·4.5e10) = 93.207 µs; one link of 4.5e10: comm_bytes = V0/16
run -e "$L" -e 'alltoall bf16[E_XY, F] over XY on v5e 16x4 -> bf16[E, F_XY]'
check a2a_xy_mixed_t_comm t_comm '67108864/(16*4.5e10)'
check a2a_xy_mixed_comm_bytes comm_bytes '67108864/16'

# ==== latency floor: hop_latency · axis / 2 ============================================
# v5e 16x16, bf16[1024] = 2048 B over X: V/9e10 = 22.8 ns < floor 1e-6·16/2 = 8 µs
run -e 'let E = 1024' -e 'allgather bf16[E_X] over X on v5e 16x16'
check floor16_t_comm t_comm '1e-6*16/2'
# the bytes are still what each chip sends: 2048/2 = 1024
check floor16_comm_bytes comm_bytes '2048/2'
# alltoall of the same small array: floor 8 µs too
run -e 'let E = 1024, F = 8' -e 'alltoall bf16[E_X, F] over X on v5e 16x16 -> bf16[E, F_X]'
check floor16_a2a_t_comm t_comm '1e-6*16/2'
# v5e 8x4 over Y, a line of 4: 3 hops, floor 3 µs (3/4·V/4.5e10 = 34.1 ns)
run -e 'let E = 1024' -e 'allgather bf16[E_Y] over Y on v5e 8x4'
check floor4_t_comm t_comm '1e-6*3'
# v5e 16x2 over Y: the floor takes the collective's axis (2 chips): 1 µs, not 8 µs
run -e 'let E = 1024' -e 'allgather bf16[E_Y] over Y on v5e 16x2'
check floor2_t_comm t_comm '1e-6*2/2'
# v5p 4x4x4 over X: floor 1e-6·4/2 = 2 µs (2048/1.8e11 = 11.4 ns)
run -e 'let E = 1024' -e 'allgather bf16[E_X] over X on v5p 4x4x4'
check floor_v5p_t_comm t_comm '1e-6*4/2'
# two axes, v5e 16x4 over XY: the largest axis is 16: 8 hops a pass, and an AllReduce
# makes two (a ReduceScatter, then an AllGather): floor 16 µs
run -e 'let E = 1024' -e 'allreduce bf16[E] over XY on v5e 16x4'
check floor_xy_t_comm t_comm '2*1e-6*16/2'
# allreduce factor 2, links 3: comm_bytes = 2·2048/3 = 1365.33
check floor_xy_comm_bytes comm_bytes '2*2048/3'
# around the floor on a ring of 16 (8 µs = V/9e10 at V = 720000 B):
# bf16[320, 1000]: V = 640000, 7.11 µs < 8 µs: the floor
run -e 'let E = 320, F = 1000' -e 'allgather bf16[E_X, F] over X on v5e 16x16'
check below_floor_t_comm t_comm '1e-6*16/2'
# bf16[400, 1000]: V = 800000, 8.89 µs > 8 µs: bandwidth-bound
run -e 'let E = 400, F = 1000' -e 'allgather bf16[E_X, F] over X on v5e 16x16'
check above_floor_t_comm t_comm '800000/9e10'
check above_floor_comm_bytes comm_bytes '800000/2'
# bf16[1024, 1024]: V = 2097152, V/9e10 = 23.30 µs ≫ 8 µs
run -e 'let E = 1024, F = 1024' -e 'allgather bf16[E_X, F] over X on v5e 16x16'
check bw_bound_t_comm t_comm '2097152/9e10'

# ==== arrays also sharded over another axis: V is the group's array =====================
# allgather bf16[E_Y, F_X] over Y on v5e 8x4: the group over Y gathers bf16[E, F_X]:
# V = 2·E·F/8 = 8388608; Y a line of 4: T = 3/4·V/4.5e10 = 139.81 µs
run -e "$L" -e 'allgather bf16[E_Y, F_X] over Y on v5e 8x4'
check ag_other_t_comm t_comm '3/4*2*4096*8192/8/4.5e10'
check ag_other_comm_bytes comm_bytes '3/4*2*4096*8192/8'
# allreduce bf16[E_X, F] over Y: V = 2·(E/8)·F = 8388608; T = 2·3/4·V/4.5e10 = 279.62 µs
run -e "$L" -e 'allreduce bf16[E_X, F] over Y on v5e 8x4'
check ar_other_t_comm t_comm '2*3/4*(2*4096*8192/8)/4.5e10'
check ar_other_comm_bytes comm_bytes '2*3/4*(2*4096*8192/8)'
# reducescatter bf16[E_X, F] over Y -> bf16[E_X, F_Y]: V = 8388608; T = 3/4·V/4.5e10
run -e "$L" -e 'reducescatter bf16[E_X, F] over Y on v5e 8x4 -> bf16[E_X, F_Y]'
check rs_other_t_comm t_comm '3/4*2*4096*8192/8/4.5e10'
# alltoall bf16[E_XY, F] over Y -> bf16[E_X, F_Y]: the Y group holds bf16[E/8, F]:
# V = 2·512·8192 = 8388608; factor 1/4: T = V/(4·4.5e10) = 46.603 µs
run -e "$L" -e 'alltoall bf16[E_XY, F] over Y on v5e 8x4 -> bf16[E_X, F_Y]'
check a2a_other_t_comm t_comm '2*512*8192/(4*4.5e10)'
check a2a_other_comm_bytes comm_bytes '2*512*8192/4'

# ==== DCN between pods: dcn_bw per chip, links 1, the same factors, no floor ===========
D='mesh P = 2 dcn, X = 16, Y = 16'
run -e "$L" -e "$D" -e 'allreduce bf16[E, F] over P on v5e'
check dcn_chips chips 512
# T = 2·V0/3.125e9 = 42.950 ms; comm_bytes = 2·V0
check dcn_ar_t_comm t_comm '2*67108864/3.125e9'
check dcn_ar_comm_bytes comm_bytes '2*67108864'
run -e "$L" -e "$D" -e 'allgather bf16[E_P, F] over P on v5e'
# T = V0/3.125e9 = 21.475 ms
check dcn_ag_t_comm t_comm '67108864/3.125e9'
check dcn_ag_comm_bytes comm_bytes 67108864
run -e "$L" -e "$D" -e 'reducescatter bf16[E, F] over P on v5e -> bf16[E_P, F]'
check dcn_rs_t_comm t_comm '67108864/3.125e9'
run -e "$L" -e "$D" -e 'alltoall bf16[E_P, F] over P on v5e -> bf16[E, F_P]'
# T = V0/(4·3.125e9) = 5.3687 ms
check dcn_a2a_t_comm t_comm '67108864/(4*3.125e9)'
check dcn_a2a_comm_bytes comm_bytes '67108864/4'
# also sharded over X (16): the P group gathers bf16[E/16, F]: V = 4194304;
# T = 4194304/3.125e9 = 1.3422 ms
run -e "$L" -e "$D" -e 'allgather bf16[E_PX, F] over P on v5e'
check dcn_other_t_comm t_comm '2*4096*8192/16/3.125e9'
# a small message: no floor on DCN: 2048/3.125e9 = 655.36 ns (an ICI axis of 2 would
# give 1 µs)
run -e 'let E = 1024' -e "$D" -e 'allgather bf16[E_P] over P on v5e'
check dcn_no_floor_t_comm t_comm '2048/3.125e9'
# v5p dcn_bw 6.25e9: T = V0/6.25e9 = 10.737 ms
run -e "$L" -e 'mesh P = 2 dcn, X = 8, Y = 4, Z = 4' -e 'allgather bf16[E_P, F] over P on v5p'
check dcn_v5p_t_comm t_comm '67108864/6.25e9'
# v6e dcn_bw 1.25e10: T = 2·V0/1.25e10 = 10.737 ms
run -e "$L" -e "$D" -e 'allreduce bf16[E, F] over P on v6e'
check dcn_v6e_t_comm t_comm '2*67108864/1.25e10'

# ==== an axis of one chip: nothing to move ==============================================
# v5e 1x4, allgather over X (1 chip): every chip already holds the whole array; the
# ring's (N−1)/N of the array is 0 bytes (mesh.h's "at most 2 chips" ring rule is for
# 2 chips, whose one neighbour is reached both ways; 1 chip has none).
run -e "$L" -e 'allgather bf16[E_X, F] over X on v5e 1x4'
check one_chip_axis_comm_bytes comm_bytes 0

finish
