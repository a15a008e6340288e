# Collectives on GPUs: docs/costmodel.md §3 ("GPUs") and src/cost/mesh.h.
#
#   Inside a node (an axis whose size times the sizes of the axes after it is at most
#   node_gpus = 8), over N GPUs, bandwidth nvlink_bw, links 1:
#     AllGather, ReduceScatter  (N−1)/N · V      AllReduce 2(N−1)/N · V
#     AllToAll                  (N−1)/N² · V
#   Across nodes: bandwidth min(nvlink_bw, node_bw), the TPU factors (1, 1, 2, 1/4).
#   No hop latency on GPUs: no floor.
#   H100 nvlink_bw 450e9, node_bw 400e9; B200 nvlink_bw 900e9, node_bw 400e9;
#   GB200_NVL72 node of 72 GPUs.
#
# E = 4096, F = 8192: bf16[E,F] is V0 = 2·4096·8192 = 67108864 bytes.
. "$(dirname "$0")/../book/lib.shinc"

L='let E = 4096, F = 8192'

# ==== H100, one node of 8: mesh X = 8 ===================================================
run -e "$L" -e 'mesh X = 8' -e 'allgather bf16[E_X, F] over X on H100'
check h100_ag_chips chips 8
check_str h100_ag_collective collective allgather
# 7/8·V0 = 58720256 bytes; T = 58720256/450e9 = 130.49 µs
check h100_ag_comm_bytes comm_bytes '7/8*67108864'
check h100_ag_t_comm t_comm '7/8*67108864/450e9'
check_str h100_ag_bound bound comm

run -e "$L" -e 'mesh X = 8' -e 'reducescatter bf16[E, F] over X on H100 -> bf16[E, F_X]'
check h100_rs_comm_bytes comm_bytes '7/8*67108864'
check h100_rs_t_comm t_comm '7/8*67108864/450e9'

run -e "$L" -e 'mesh X = 8' -e 'allreduce bf16[E, F] over X on H100'
# 14/8·V0 = 117440512; T = 260.98 µs
check h100_ar_comm_bytes comm_bytes '14/8*67108864'
check h100_ar_t_comm t_comm '14/8*67108864/450e9'

run -e "$L" -e 'mesh X = 8' -e 'alltoall bf16[E_X, F] over X on H100 -> bf16[E, F_X]'
# 7/64·V0 = 7340032; T = 16.311 µs
check h100_a2a_comm_bytes comm_bytes '7/64*67108864'
check h100_a2a_t_comm t_comm '7/64*67108864/450e9'

# no floor without nvlink_latency: bf16[1024] (2048 B): 7/8·2048/450e9 = 3.98 ns
run -e 'let E = 1024' -e 'mesh X = 8' -e 'chip bare : H100 { nvlink_latency = 1e-300 }' \
    -e 'allgather bf16[E_X] over X on bare'
check h100_no_floor_t_comm t_comm '7/8*2048/450e9'
# H100's nvlink_latency (NCCL's 0.6 µs a ring step): 7 steps, 4.2 µs
run -e 'let E = 1024' -e 'mesh X = 8' -e 'allgather bf16[E_X] over X on H100'
check h100_floor_t_comm t_comm '7*0.6e-6'

# 4 of the node's GPUs (mesh X = 4): a ring over the N = 4 that take part: 3/4·V0
run -e "$L" -e 'mesh X = 4' -e 'allgather bf16[E_X, F] over X on H100'
check h100_four_comm_bytes comm_bytes '3/4*67108864'
check h100_four_t_comm t_comm '3/4*67108864/450e9'

# the node's 8 GPUs as X = 2, Y = 4 (2·4 = 8 ≤ 8: inside the node); over XY: N = 8
run -e "$L" -e 'mesh X = 2, Y = 4' -e 'allreduce bf16[E, F] over XY on H100'
check h100_xy_t_comm t_comm '14/8*67108864/450e9'

# ==== H100 across nodes: mesh N = 4, X = 8 (N spans 4·8 = 32 > 8 GPUs) =================
# docs/costmodel.md §6.5: level by level, the slowest; over N alone D = 1 GPU in each of M = 4
# nodes; the array is not sharded over X, so it crosses each node's 400e9 egress once:
# AllGather (M − 1)/M · V / W_node
run -e "$L" -e 'mesh N = 4, X = 8' -e 'allgather bf16[E_N, F] over N on H100'
check h100_ib_chips chips 32
# factor 3/4: T = 3/4·V0/400e9 = 125.83 µs
check h100_ib_ag_t_comm t_comm '3/4*67108864/400e9'
check h100_ib_ag_comm_bytes comm_bytes '3/4*67108864'
run -e "$L" -e 'mesh N = 4, X = 8' -e 'allreduce bf16[E, F] over N on H100'
# factor 2·3/4: T = 1.5·V0/400e9 = 251.66 µs
check h100_ib_ar_t_comm t_comm '2*3/4*67108864/400e9'
run -e "$L" -e 'mesh N = 4, X = 8' -e 'reducescatter bf16[E, F] over N on H100 -> bf16[E_N, F]'
check h100_ib_rs_t_comm t_comm '3/4*67108864/400e9'
run -e "$L" -e 'mesh N = 4, X = 8' -e 'alltoall bf16[E_N, F] over N on H100 -> bf16[E, F_N]'
# AllToAll over M nodes: (M − 1)/M² = 3/16: T = 3/16·V0/400e9 = 31.457 µs
check h100_ib_a2a_t_comm t_comm '3/16*67108864/400e9'
# the inner axis X of the same mesh stays in the node: 7/8·V0/450e9
run -e "$L" -e 'mesh N = 4, X = 8' -e 'allgather bf16[E_X, F] over X on H100'
check h100_ib_inner_t_comm t_comm '7/8*67108864/450e9'
# one axis of 16 GPUs is wider than a node: D = 8 in each of M = 2 nodes;
# max(7/8·V0/450e9, 1/2·V0/400e9) = 7/8·V0/450e9 = 130.49 µs (NVLink decides)
run -e "$L" -e 'mesh X = 16' -e 'allgather bf16[E_X, F] over X on H100'
check h100_x16_t_comm t_comm '7/8*67108864/450e9'
# the array also sharded over the node's X = 8: the 8 groups share the egress, each
# gathering V = V0/8 over N = 4 nodes: 3/4·(V0/8)/(400e9/8) = 3/4·V0/400e9, the book's
# T_scale-out = V_total/W_node · D_node/max(D_node, Y) with the (M − 1)/M refinement
run -e "$L" -e 'mesh N = 4, X = 8' -e 'allgather bf16[E_N, F_X] over N on H100'
check h100_ib_inner_sharded_t_comm t_comm '3/4*67108864/400e9'

# ==== B200: NVLink 900e9 ================================================================
run -e "$L" -e 'mesh X = 8' -e 'allgather bf16[E_X, F] over X on B200'
# 7/8·V0/900e9 = 65.245 µs
check b200_ag_t_comm t_comm '7/8*67108864/900e9'
check b200_ag_comm_bytes comm_bytes '7/8*67108864'
run -e "$L" -e 'mesh X = 8' -e 'allreduce bf16[E, F] over X on B200'
check b200_ar_t_comm t_comm '14/8*67108864/900e9'
run -e "$L" -e 'mesh X = 8' -e 'alltoall bf16[E_X, F] over X on B200 -> bf16[E, F_X]'
check b200_a2a_t_comm t_comm '7/64*67108864/900e9'
# across 2 nodes: 2·(2 − 1)/2 = 1 of V0 over the 400e9 egress
run -e "$L" -e 'mesh N = 2, X = 8' -e 'allreduce bf16[E, F] over N on B200'
check b200_ib_ar_t_comm t_comm '67108864/400e9'

# ==== GB200 NVL72: one NVLink domain of 72 ==============================================
# E = 4096 rows do not divide over 72: each GPU holds the padded shard, ceil(4096/72) =
# 57 rows (72·57 = 4104), 57·8192·2 = 933,888 B, and receives the other 71:
# 66,306,048 B / 900e9 = 73.673 µs (unpadded, 71/72·V0/900e9 = 73.530 µs)
run -e "$L" -e 'mesh X = 72' -e 'allgather bf16[E_X, F] over X on GB200_NVL72'
check nvl72_ag_t_comm t_comm '71*57*8192*2/900e9'

# ==== a contraction on a node: the two-chip example on 8 H100s ==========================
# B = 512, D = 16384, F = 16384, D over X = 8 in both operands: AllReduce of bf16[B,F]
# (V = 2·512·16384 = 16777216): 14/8·V/450e9 = 65.244 µs;
# T_math = 2·B·(D/8)·F/9.89e14 = 34359738368/9.89e14 = 34.742 µs
run -e 'let B = 512, D = 16384, F = 16384' -e 'mesh X = 8' -e 'bf16[B,D_X] *_D bf16[D_X,F] on H100'
check h100_mm_flops flops '2*512*2048*16384'
check h100_mm_t_math t_math '2*512*2048*16384/9.89e14'
check h100_mm_t_comm t_comm '14/8*2*512*16384/450e9'
check_str h100_mm_bound bound comm

finish
