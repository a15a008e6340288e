# Continuous optima over a split (book ch. 5, "Mixed FSDP and Tensor Parallelism"):
# N chips as X·Y, X for FSDP over M_X axes, Y = N/X for tensor parallelism over M_Y.
# Forward, per matmul: T_FSDP = 2·D·F·X/(N·W·M_X), T_TP = 2·B·D/(X·W·M_Y), W = 1.8e11
# on v5p rings; their sum is least at X_opt = √((B/F)·(M_X/M_Y)·N). `solve n:` over
# `mesh X = 2, Y = n/2, Z = N/n` (FSDP over X and Y: M_X = 2; TP over Z: M_Y = 1) gives
# it beside the whole-number best split.
. "$(dirname "$0")/lib.shinc"

# Ch. 5's example: 4x4x4 (N = 64), B = 48,000, F = 32,768: √((48000/32768)·2·64) =
# √187.5 = 13.693 (the book: "roughly 13.9 ... so we would choose X to be 16 and Y to be
# 4"). By hand at n = 16: max(T_FSDP, T_TP) = max(2·8192·32768·16/(64·3.6e11),
# 2·48000·8192/(16·1.8e11)) = max(372.8, 273.1) µs; at n = 8: max(186.4, 546.1) µs.
run -e 'mode inference' -e 'let B = 48000, D = 8192, F = 32768' \
    -e 'solve n: bf16[B_XY, D_Z] *_D param bf16[D_XY, F_Z] on v5p mesh X = 2, Y = n/2, Z = 64/n'
check ch5_x_opt optimum.at 'sqrt(48000 / 32768 * 2 * 64)'
check ch5_law_b optimum.b '2 * 8192 * 32768 / (64 * 3.6e11)'
check ch5_law_c optimum.c '2 * 48000 * 8192 / 1.8e11'
check ch5_best best 16
check ch5_best_t_comm splits.3.t_comm '2 * 8192 * 32768 * 16 / (64 * 3.6e11)'
check ch5_n8_t_comm splits.2.t_comm '2 * 48000 * 8192 / (8 * 1.8e11)'

# Ch. 6's LLaMA-3 70B on a full v5p pod (N = 8960, M_X = 2, M_Y = 1): the book gives
# X_opt = √(2·B·N/F) = √(2·4.19e6·8960/28672) = 1618. The book's algebra has every axis
# a ring and no hop latency, and the whole-number splits must not pad a shard for the
# law to hold: v5p_book wraps every axis (torus_wrap = 1) with a negligible hop latency;
# B = 4,193,280 = 468·8960 (the book's 4.19e6, 468 tokens a chip), D = 8960 (X_opt does
# not depend on D), F = 28,560 = 51·560 (the multiple of every Z near the optimum nearest
# LLaMA's 28,672). X_opt = √(2·4193280·8960/28560) = √2631077.6 = 1622.06, 0.24% from
# the book's 1618 (its F). The best split: n = 1792 (Z = 5): max(T_FSDP, T_TP) =
# max(2·8960·28560·1792/(8960·3.6e11), 2·4193280·8960/(1792·1.8e11)) = max(284.3,
# 233.0) µs; n = 1280: max(203.1, 326.1) µs; n = 2240: 355.4 µs.
run -e 'mode inference' -e 'chip v5p_book : v5p { torus_wrap = 1, hop_latency = 1e-12 }' \
    -e 'let B = 4193280, D = 8960, F = 28560' \
    -e 'solve n: bf16[B_XY, D_Z] *_D param bf16[D_XY, F_Z] on v5p_book mesh X = 2, Y = n/2, Z = 8960/n'
check llama_x_opt optimum.at 'sqrt(2 * 4193280 * 8960 / 28560)'
check llama_x_opt_book optimum.at 'sqrt(2 * 4.19e6 * 8960 / 28672)' 3e-3
check llama_best best 1792
check_str llama_best_bound segments.1.bound compute

# Added up (the book's first release, `axes add`), the same X_opt: the law is the sum.
run -e 'mode inference axes add' -e 'let B = 48000, D = 8192, F = 32768' \
    -e 'solve n: bf16[B_XY, D_Z] *_D param bf16[D_XY, F_Z] on v5p mesh X = 2, Y = n/2, Z = 64/n'
check add_x_opt optimum.at 'sqrt(48000 / 32768 * 2 * 64)'
check add_best_t_comm splits.3.t_comm '2 * 8192 * 32768 * 16 / (64 * 3.6e11) + 2 * 48000 * 8192 / (16 * 1.8e11)'

finish
