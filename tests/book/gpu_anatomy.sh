# A GPU's anatomy and its node's switches (book ch. 12, "How to Think About GPUs": the SM,
# CUDA cores, the worked questions on CUDA cores and vector FLOPs, and NVSwitch), from
# `chip NAME`'s fields and derived figures. Hand figures:
#   H100: 132 SMs x 4 subpartitions x 32 FP32 lanes = 16,896 CUDA cores (the whitepaper's
#     count); vector FLOPs/s (an FMA is 2) 16896 x 2 x 1.59e9 = 5.373e13 at the base clock,
#     16896 x 2 x 1.98e9 = 6.691e13 at boost (the datasheet's FP32 67 TFLOPS)
#   a tensor core's FLOPs a cycle: A100 3.12e14 / (108 x 4 x 1.41e9) = 512.2 (the
#     whitepaper's 256 FMA a clock); H100 9.89e14 / (132 x 4 x 1.83e9) = 1024
#   SMEM: the book's 256kB per H100 SM (L1 and shared memory together, 262,144 B) beside
#     the 228 KiB (233,472 B) an SM may carve out for shared memory
#   NVSwitch: an H100 node's 4 switches x 64 ports x 25e9 = 6.4e12 B/s each way; its
#     bisection, 4 GPUs x 450e9 = 1.8e12 each way. A B200 node's 8 GPUs x 18 links =
#     144 ports = 2 switches x 72, x 50e9 = 7.2e12 = 8 x 900e9; the NVL72's 18 switches
#     x 72 x 50e9 = 6.48e13 = 72 x 900e9
#   B200: 148 x 4 x 32 = 18,944 CUDA cores; B300: 160 x 4 x 32 = 20,480
. "$(dirname "$0")/lib.shinc"

run -e 'chip H100'
check h100_cuda_cores derived.cuda_cores.value '132 * 4 * 32'
check h100_cuda_cores_book derived.cuda_cores.value 16896
check h100_vector_base derived.vector_flops_base.value '16896 * 2 * 1.59e9'
check h100_vector_boost derived.vector_flops_boost.value '16896 * 2 * 1.98e9'
check h100_vector_boost_datasheet derived.vector_flops_boost.value 6.7e13 2e-3
check h100_tc_flops_cycle derived.tc_flops_cycle.value 1024 1e-3
check h100_sm_l1_book fields.sm_l1_bytes.value '256 * 1024'
check h100_smem_carveout derived.smem_per_sm.value '228 * 1024'
check h100_switch_bw derived.switch_bw.value '4 * 64 * 25e9'
check h100_bisection derived.bisection_bw.value '8 / 2 * 450e9'

run -e 'chip H200'
check h200_cuda_cores derived.cuda_cores.value 16896

run -e 'chip A100'
check a100_cuda_cores derived.cuda_cores.value '108 * 4 * 16'
check a100_tc_flops_cycle derived.tc_flops_cycle.value 512 1e-3

run -e 'chip B200'
check b200_cuda_cores derived.cuda_cores.value '148 * 4 * 32'
check b200_switch_bw derived.switch_bw.value '2 * 72 * 50e9'
check b200_switch_all_links derived.switch_bw.value '8 * 900e9'
check b200_bisection derived.bisection_bw.value '4 * 900e9'

run -e 'chip GB200_NVL72'
check nvl72_switch_bw derived.switch_bw.value '72 * 900e9'

run -e 'chip B300'
check b300_cuda_cores derived.cuda_cores.value '160 * 4 * 32'

finish
