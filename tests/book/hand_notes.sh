# The reader's hand notes on chapter 1 (seeds 000, 001; docs/costmodel.md §2): for Question 2
# (bf16[B,D] *_D int8[D,F] -> bf16[B,F]) with Question 1's bandwidth 8.1e11, the ridge
# is 1.97e14/8.1e11 = 243.2; then with the exact bytes 2BD + DF + 2BF:
#   D = F = 128:   intensity 64B/(B + 32) -> 64 < 243: never compute-bound;
#   D = F = 8000:  4000B/(B + 2000) > 243  <=>  B > 129.35;
#   D = F = 16000: 8000B/(B + 4000) > 243  <=>  B > 125.30.
. "$(dirname "$0")/lib.shinc"

notes='chip v5e_notes : v5e { hbm_bw = 8.1e11 }'

run -e "$notes" -e 'let B=1, D=128, F=128' -e 'bf16[B,D] *_D int8[D,F] on v5e_notes'
# "AI hardware = 1.97e14/8.1e11 = 243.20"
check notes_ridge ridge '1.97e14 / 8.1e11'
check notes_ridge_243_20 ridge 243.20 0.0001
# D = F = 128, B = 1: 64*1/(1 + 32) = 1.939394
check notes_128_B1_intensity intensity '64/33'

# D = F = 128: 2B*128*128/(2B*128 + 128*128 + 2B*128) = 64B/(B + 32); at B = 1e6
# 64e6/(1e6 + 32) = 63.99795 < 243.2: memory-bound
run -e "$notes" -e 'let B=1M, D=128, F=128' -e 'bf16[B,D] *_D int8[D,F] on v5e_notes'
check notes_128_intensity intensity '64*1e6 / (1e6 + 32)'
check notes_128_intensity_64 intensity 64 0.0001
check_str notes_128_bound bound memory
# the limit does not depend on B: still memory-bound at B = 1e9 (symbolic formula)
run -e "$notes" -e 'let D=128, F=128' -e 'bf16[B,D] *_D int8[D,F] on v5e_notes'
check_formula notes_128_sym_intensity intensity 'B=1e9' '64*1e9 / (1e9 + 32)'
check_bound_at notes_128_sym_bound 'B=1e9' memory

# D = F = 8000: intensity 2B*8000^2/(2B*8000 + 8000^2 + 2B*8000) = 4000B/(B + 2000).
# With the ridge 243.2099: B > 243.2099*2000/(4000 - 243.2099) = 129.48
# (the notes round the ridge to 243: B > 243*2000/3757 = 129.35).
run -e "$notes" -e 'let B=129, D=8000, F=8000' -e 'bf16[B,D] *_D int8[D,F] on v5e_notes'
# 4000*129/2129 = 242.367 < 243.21
check notes_8000_129_intensity intensity '4000*129 / (129 + 2000)'
check_str notes_8000_129_bound bound memory
run -e "$notes" -e 'let B=130, D=8000, F=8000' -e 'bf16[B,D] *_D int8[D,F] on v5e_notes'
# 4000*130/2130 = 244.131 > 243.21
check notes_8000_130_intensity intensity '4000*130 / (130 + 2000)'
check_str notes_8000_130_bound bound compute

# D = F = 16000: 8000B/(B + 4000) > 243.2099  <=>  B > 243.2099*4000/(8000 - 243.2099)
# = 125.42 (notes, with 243: 125.30).
run -e "$notes" -e 'let B=125, D=16000, F=16000' -e 'bf16[B,D] *_D int8[D,F] on v5e_notes'
# 8000*125/4125 = 242.424 < 243.21
check notes_16000_125_intensity intensity '8000*125 / (125 + 4000)'
check_str notes_16000_125_bound bound memory
run -e "$notes" -e 'let B=126, D=16000, F=16000' -e 'bf16[B,D] *_D int8[D,F] on v5e_notes'
# 8000*126/4126 = 244.304 > 243.21
check notes_16000_126_intensity intensity '8000*126 / (126 + 4000)'
check_str notes_16000_126_bound bound compute

# "if D, F >>> B, should be converging to B > 121": D = F = 1e6,
# B > 243.2099e6/(2e6 - 4*243.2099) = 121.6641 -> 121 memory, 122 compute
run -e "$notes" -e 'bf16[B,D] *_D int8[D,F] on v5e_notes'
check_bound_at notes_1M_121 'B=121 D=1e6 F=1e6' memory
check_bound_at notes_1M_122 'B=122 D=1e6 F=1e6' compute
# the notes' crossings read off the symbolic bound formula as well
check_bound_at notes_sym_8000_129 'B=129 D=8000 F=8000' memory
check_bound_at notes_sym_8000_130 'B=130 D=8000 F=8000' compute
check_bound_at notes_sym_16000_125 'B=125 D=16000 F=16000' memory
check_bound_at notes_sym_16000_126 'B=126 D=16000 F=16000' compute

# With the ridge exactly 243, as the notes compute (HBM 1.97e14/243 B/s).
run -e 'chip v5e_243 : v5e { hbm_bw = 1.97e14 / 243 }' -e 'bf16[B,D] *_D int8[D,F] on v5e_243'
check notes_243_ridge ridge 243
# crossings 129.3585 and 125.3062
check_bound_at notes_243_8000_129 'B=129 D=8000 F=8000' memory
check_bound_at notes_243_8000_130 'B=130 D=8000 F=8000' compute
check_bound_at notes_243_16000_125 'B=125 D=16000 F=16000' memory
check_bound_at notes_243_16000_126 'B=126 D=16000 F=16000' compute

# Question 1 in the notes: OPs BF(2D - 1) exactly, ~ 2BDF; int8 ridge 3.94e14/8.1e11
# = 486.42, "B > 243". B=256, D=F=8192: 256*8192*16383 = 34357641216 exact OPs
run --exact -e "$notes" -e 'let B=256, D=8192, F=8192' -e 'int8[B,D] *_D int8[D,F] on v5e_notes'
check notes_q1_exact_flops flops '256*8192*(2*8192 - 1)'
check notes_q1_ridge ridge '3.94e14 / 8.1e11'
check notes_q1_half_ridge_243 ridge '2*243' 0.005

# Question 5 in the notes: 1e15/3.35e12 = 298.507 -> "298" (the notes write 1000/335,
# a slip for 100000/335)
run -e 'chip h100_q5 : H100 { flops_bf16 = 1e15 }' -e 'bf16[64,64] *_D bf16[64,64] on h100_q5'
check notes_q5_ridge ridge '1e15 / 3.35e12'
check notes_q5_ridge_298 ridge 298 0.005

finish
