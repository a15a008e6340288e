# The v5e ridge and when a bf16 matmul becomes compute-bound (book ch. 1, "Matrix
# multiplication"; docs/costmodel.md §2): ridge = 1.97e14/8.2e11 = 240, intensity
# BDF/(BD + DF + BF) -> B for B << D, F, so compute-bound iff B > ~240.
. "$(dirname "$0")/lib.shinc"

r='(1.97e14 / 8.2e11)'   # the v5e ridge, 240.24390244 FLOPs/byte

run -e 'bf16[64,64] *_D bf16[64,64] on v5e'
# ridge = 1.97e14/8.2e11 = 240.2439, exactly
check ridge_exact ridge "$r"
# the book: "this is about 240 FLOPs/byte" (240.24 vs 240: 0.1%; 0.5% allowed)
check ridge_book_240 ridge 240 0.005

# B << D, F: intensity BDF/(BD + DF + BF) ~ B. D = F = 1e6, B = 64:
#   64e12/(64e6 + 1e12 + 64e6) = 64/1.000128 = 63.99181
run -e 'let B=64, D=1M, F=1M' -e 'bf16[B,D] *_D bf16[D,F] on v5e'
check small_B_intensity intensity '64*1e6*1e6 / (64*1e6 + 1e6*1e6 + 64*1e6)'
check small_B_intensity_is_B intensity 64 0.001
check small_B_flops flops '2*64*1e6*1e6'
check small_B_bytes bytes '2*(64*1e6 + 1e6*1e6 + 64*1e6)'
# intensity 63.99 < 240.24: memory-bound
check_str small_B_bound bound memory

# Where it turns: D = F = 16384. intensity = B*D*D/(2BD + D*D) = BD/(2B + D), so
#   BD/(2B + D) > r  <=>  B (D - 2r) > r D  <=>  B > r D/(D - 2r)
#   = 240.2439*16384/(16384 - 480.4878) = 3936156.1/15903.512 = 247.5023
run -e 'let B=200, D=16384, F=16384' -e 'bf16[B,D] *_D bf16[D,F] on v5e'
# intensity at B=200: 200*16384/(400 + 16384) = 195.23 < 240.24
check cross_200_intensity intensity '200*16384 / (2*200 + 16384)'
check_str cross_200_bound bound memory
# memory-bound: T_lower = T_hbm = 2(BD + DF + BF)/8.2e11
check cross_200_t_lower t_lower '2*(200*16384 + 16384*16384 + 200*16384) / 8.2e11'
run -e 'let B=247, D=16384, F=16384' -e 'bf16[B,D] *_D bf16[D,F] on v5e'
# 247*16384/(494 + 16384) = 239.77 < 240.24
check cross_247_intensity intensity '247*16384 / (2*247 + 16384)'
check_str cross_247_bound bound memory
run -e 'let B=248, D=16384, F=16384' -e 'bf16[B,D] *_D bf16[D,F] on v5e'
# 248*16384/(496 + 16384) = 240.72 > 240.24
check cross_248_intensity intensity '248*16384 / (2*248 + 16384)'
check_str cross_248_bound bound compute
# compute-bound: T_lower = T_math = 2*248*16384^2/1.97e14
check cross_248_t_lower t_lower '2*248*16384*16384 / 1.97e14'
run -e 'let B=300, D=16384, F=16384' -e 'bf16[B,D] *_D bf16[D,F] on v5e'
# 300*16384/(600 + 16384) = 289.4 > 240.24
check cross_300_intensity intensity '300*16384 / (2*300 + 16384)'
check_str cross_300_bound bound compute

# The same crossing read off the symbolic bound formula (B unbound).
run -e 'let D=16384, F=16384' -e 'bf16[B,D] *_D bf16[D,F] on v5e'
check_bound_at sym_cross_200 'B=200' memory
check_bound_at sym_cross_247 'B=247' memory
check_bound_at sym_cross_248 'B=248' compute
check_bound_at sym_cross_300 'B=300' compute
# and in general (D, F unbound too): D = F = 1e6 turns at r D/(D - 2r) = 240.3594
run -e 'bf16[B,D] *_D bf16[D,F] on v5e'
check_bound_at sym_cross_1M_240 'B=240 D=1e6 F=1e6' memory
check_bound_at sym_cross_1M_241 'B=241 D=1e6 F=1e6' compute

finish
