# Training parallelism (book ch. 5; docs/costmodel.md §6.3): a gradient collective overlaps
# only the backward pass, so each pass hides its own communication or does not. The
# thresholds, through `solve` in `mode training` on v5p (C = 4.59e14, one-way ICI
# 9e10: an axis of 4 wraps, W = 1.8e11, α = C/W = 2550):
#   data parallel     compute-bound iff B/X > C/W: 2550 per chip on one axis, 850 over
#                     three (the AllReduce runs on all three at once: 3W)
#   FSDP              the same ratio, B/X > C/W
#   tensor parallel   compute-bound iff Y < F/α, i.e. F > Y·α
#   across pods       B/slice > C/W_dcn = 4.59e14 / 6.25e9 = 73440
# and, with `mode training overlap step` (the collectives overlapping the whole step),
# 2/3 of the data-parallel and tensor-parallel figures. `optimizer none`: the passes
# alone, as the book's per-layer thresholds count them (a statement with a param is
# otherwise a step with the optimizer's update, tests/training/same_step.roof).
. "$(dirname "$0")/lib.shinc"

dims='let D = 8192, F = 32768'

# Data parallel, X = 4: B > 4 · 2550 = 10200
run -e "$dims" -e 'mode training' -e 'optimizer none' -e 'solve B: bf16[B_X, D] *_D param bf16[D, F] on v5p 4x1'
check dp_x4 segments.0.to '4 * 4.59e14 / 1.8e11'
check_str dp_x4_comm segments.0.bound comm
check_str dp_x4_compute segments.1.bound compute
# the book's rounding: 2550 per chip
check dp_per_chip_book segments.0.to '4 * 2550' 1e-9

# With B unbound, t_lower's formula is the two passes' maxima: at B = 8192 (B/X =
# 2048 < 2550) the forward pass's 2·2048·D·F/C plus the backward pass's AllReduce,
# 2·(2·D·F)/W; at B = 16384 all of T_math, 6·4096·D·F/C
run -e "$dims" -e 'mode training' -e 'optimizer none' -e 'bf16[B_X, D] *_D param bf16[D, F] on v5p 4x1'
check_null dp_t_lower_unbound t_lower
check_formula dp_formula_t_lower_comm t_lower 'B=8192' \
    '2*2048*8192*32768/4.59e14 + 2*2*8192*32768/1.8e11'
check_formula dp_formula_t_lower_compute t_lower 'B=16384' '6*4096*8192*32768/4.59e14'

# Data parallel, X = 16: B > 16 · 2550 = 40800
run -e "$dims" -e 'mode training' -e 'optimizer none' -e 'solve B: bf16[B_X, D] *_D param bf16[D, F] on v5p 16x1'
check dp_x16 segments.0.to '16 * 4.59e14 / 1.8e11'

# Data parallel over three axes, 4x4x4 = 64 chips, bandwidth 3W: B/64 > 850, B > 54400
run -e "$dims" -e 'mode training' -e 'optimizer none' -e 'solve B: bf16[B_XYZ, D] *_D param bf16[D, F] on v5p 4x4x4'
check dp_three_axes segments.0.to '64 * 4.59e14 / (3 * 1.8e11)'
check dp_three_axes_book segments.0.to '64 * 850' 1e-9

# FSDP, X = 4: the same 10200
run -e "$dims" -e 'mode training' -e 'optimizer none' -e 'solve B: bf16[B_X, D] *_D param bf16[D_X, F] on v5p 4x1'
check fsdp_x4 segments.0.to '4 * 4.59e14 / 1.8e11'
# FSDP over three axes: B > 54400 too
run -e "$dims" -e 'mode training' -e 'optimizer none' -e 'solve B: bf16[B_XYZ, D] *_D param bf16[D_XYZ, F] on v5p 4x4x4'
check fsdp_three_axes segments.0.to '64 * 4.59e14 / (3 * 1.8e11)'

# Tensor parallel, Y = 4, B = 4096: Y < F/α, F > 4 · 2550 = 10200
run -e 'let B = 4096, D = 8192' -e 'mode training' -e 'optimizer none' \
    -e 'solve F: bf16[B, D_Y] *_D param bf16[D, F_Y] on v5p 1x4'
check tp_y4 segments.0.to '4 * 4.59e14 / 1.8e11'
check_str tp_y4_comm segments.0.bound comm

# Across 2 pods over DCN (one chip each, weights whole): the gradient's AllReduce over
# the DCN, 2·(2·D·F)/6.25e9, against the backward pass's 4·(B/2)·D·F/C: B/2 > 73440
run -e "$dims" -e 'mesh P = 2 dcn' -e 'mode training' -e 'optimizer none' \
    -e 'solve B: bf16[B_P, D] *_D param bf16[D, F] on v5p'
check dcn_slices segments.0.to '2 * 4.59e14 / 6.25e9'
check dcn_slices_book segments.0.to '2 * 73440' 1e-9

# The whole-step overlap: data parallel at 2/3 · 10200 = 6800, tensor parallel the
# same, FSDP unchanged (each pass's ratio is the same there)
run -e "$dims" -e 'mode training overlap step' -e 'optimizer none' \
    -e 'solve B: bf16[B_X, D] *_D param bf16[D, F] on v5p 4x1'
check step_dp_x4 segments.0.to '2 / 3 * 4 * 4.59e14 / 1.8e11'
run -e "$dims" -e 'mode training overlap step' -e 'optimizer none' \
    -e 'solve B: bf16[B_X, D] *_D param bf16[D_X, F] on v5p 4x1'
check step_fsdp_x4 segments.0.to '4 * 4.59e14 / 1.8e11'
run -e 'let B = 4096, D = 8192' -e 'mode training overlap step' -e 'optimizer none' \
    -e 'solve F: bf16[B, D_Y] *_D param bf16[D, F_Y] on v5p 1x4'
check step_tp_y4 segments.0.to '2 / 3 * 4 * 4.59e14 / 1.8e11'

finish
