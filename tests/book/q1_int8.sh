# Question 1 (book ch. 1): X[B,D] *_D Y[D,F] -> Z[B,F] in int8, with the question's HBM
# bandwidth 8.1e11 B/s and the int8 peak 3.94e14 OPs/s (docs/costmodel.md §2).
# The book: BD + DF bytes read, BF written, 2BDF OPs, intensity 2BDF/(BD + DF + BF)
# -> 2B, int8 ridge 3.94e14/8.1e11 = 486, so compute-bound when B > 486/2 = 243.
. "$(dirname "$0")/lib.shinc"

q1='chip v5e_q1 : v5e { hbm_bw = 8.1e11 }'
r1='(3.94e14 / 8.1e11)'   # the int8 ridge at 8.1e11: 486.41975309

run -e "$q1" -e 'let B=256, D=8192, F=32768' -e 'int8[B,D] *_D int8[D,F] on v5e_q1'
# 1. bytes read = BD + DF = 256*8192 + 8192*32768 = 2097152 + 268435456 = 270532608
check q1_bytes_read bytes_read '256*8192 + 8192*32768'
#    bytes written = BF = 256*32768 = 8388608
check q1_bytes_written bytes_written '256*32768'
check q1_bytes bytes '256*8192 + 8192*32768 + 256*32768'
# 2. OPs = 2BDF = 137438953472, as in bf16
check q1_flops flops '2*256*8192*32768'
# 3. intensity = 2BDF/(BD + DF + BF) = 137438953472/278921216 = 492.75188
check q1_intensity intensity '2*256*8192*32768 / (256*8192 + 8192*32768 + 256*32768)'
# the int8 peak and the question's bandwidth: ridge 3.94e14/8.1e11 = 486.41975
check q1_ridge ridge "$r1"
# the book: "3.94e14 / 8.1e11 = 486"
check q1_ridge_book_486 ridge 486 0.005
check_str q1_dtype dtype int8
# 4. T_math = 2BDF/3.94e14 (the int8 peak) = 3.4882983e-4 s
check q1_t_math t_math '2*256*8192*32768 / 3.94e14'
#    T_hbm = (BD + DF + BF)/8.1e11 = 278921216/8.1e11 = 3.4434718e-4 s
check q1_t_hbm t_hbm '(256*8192 + 8192*32768 + 256*32768) / 8.1e11'
#    lower bound max(T_math, T_hbm) = T_math; upper bound T_math + T_hbm
check q1_t_lower t_lower '2*256*8192*32768 / 3.94e14'
check q1_t_upper t_upper '2*256*8192*32768 / 3.94e14 + (256*8192 + 8192*32768 + 256*32768) / 8.1e11'
# 492.75 > 486.42: compute-bound
check_str q1_bound bound compute

# Symbolic: the book's formulas.
run -e "$q1" -e 'int8[B,D] *_D int8[D,F] on v5e_q1'
check_null q1_sym_flops flops
check q1_sym_ridge ridge "$r1"
check_str q1_sym_formula_flops formula.flops '2*B*D*F'
# BD + DF read, BF written, at B=3 D=5 F=7: 15 + 35 = 50 and 21
check_formula q1_sym_formula_bytes_read bytes_read 'B=3 D=5 F=7' '3*5 + 5*7'
check_formula q1_sym_formula_bytes_written bytes_written 'B=3 D=5 F=7' '3*7'
check_formula q1_sym_formula_bytes bytes 'B=3 D=5 F=7' '3*5 + 5*7 + 3*7'
# 2BDF/(BD + DF + BF) = 210/71
check_formula q1_sym_formula_intensity intensity 'B=3 D=5 F=7' '210/71'
# T_math = 2BDF/3.94e14; T_hbm = (BD + DF + BF)/8.1e11
check_formula q1_sym_formula_t_math t_math 'B=3 D=5 F=7' '210/3.94e14'
check_formula q1_sym_formula_t_hbm t_hbm 'B=3 D=5 F=7' '71/8.1e11'
check_formula q1_sym_formula_t_lower t_lower 'B=3 D=5 F=7' '71/8.1e11'
check_formula q1_sym_formula_t_upper t_upper 'B=3 D=5 F=7' '210/3.94e14 + 71/8.1e11'

# Intensity -> 2B for B << D, F: B=64, D=F=1e6: 2*64e12/(64e6 + 1e12 + 64e6) = 127.98362
run -e "$q1" -e 'let B=64, D=1M, F=1M' -e 'int8[B,D] *_D int8[D,F] on v5e_q1'
check q1_2B_intensity intensity '2*64*1e6*1e6 / (64*1e6 + 1e6*1e6 + 64*1e6)'
check q1_2B_intensity_is_2B intensity '2*64' 0.001

# Compute-bound when B > 486.42/2 = 243.21 (asymptotically; the book says 243).
# For D = F: 2BD^2/(2BD + D^2) = 2BD/(2B + D) > r1  <=>  B > r1 D/(2(D - r1)).
# D = F = 1e6: B > 486.41975e6/(2*999513.58) = 243.3282 -> 243 memory, 244 compute.
run -e "$q1" -e 'let B=243, D=1M, F=1M' -e 'int8[B,D] *_D int8[D,F] on v5e_q1'
# 2*243e6/(486 + 1e6) = 485.76 < 486.42
check q1_cross_1M_243_intensity intensity '2*243*1e6 / (2*243 + 1e6)'
check_str q1_cross_1M_243_bound bound memory
run -e "$q1" -e 'let B=244, D=1M, F=1M' -e 'int8[B,D] *_D int8[D,F] on v5e_q1'
# 2*244e6/(488 + 1e6) = 487.76 > 486.42
check q1_cross_1M_244_intensity intensity '2*244*1e6 / (2*244 + 1e6)'
check_str q1_cross_1M_244_bound bound compute
# D = F = 16384: B > 486.41975*16384/(2*(16384 - 486.41975)) = 250.6514 -> 250 / 251
run -e "$q1" -e 'let B=250, D=16384, F=16384' -e 'int8[B,D] *_D int8[D,F] on v5e_q1'
check_str q1_cross_16k_250_bound bound memory
run -e "$q1" -e 'let B=251, D=16384, F=16384' -e 'int8[B,D] *_D int8[D,F] on v5e_q1'
check_str q1_cross_16k_251_bound bound compute
# symbolic bound formula, same crossings
run -e "$q1" -e 'int8[B,D] *_D int8[D,F] on v5e_q1'
check_bound_at q1_sym_cross_1M_243 'B=243 D=1e6 F=1e6' memory
check_bound_at q1_sym_cross_1M_244 'B=244 D=1e6 F=1e6' compute
check_bound_at q1_sym_cross_16k_250 'B=250 D=16384 F=16384' memory
check_bound_at q1_sym_cross_16k_251 'B=251 D=16384 F=16384' compute

# On the stock v5e (HBM 8.2e11) the int8 ridge is 3.94e14/8.2e11 = 480.4878, so
# compute-bound when B > 240.24 (docs/costmodel.md §2: "compute bound when B > 240").
# D = F = 1e6: B > 480.4878e6/(2*(1e6 - 480.4878)) = 240.3594 -> 240 / 241
run -e 'let B=240, D=1M, F=1M' -e 'int8[B,D] *_D int8[D,F] on v5e'
check v5e_int8_ridge ridge '3.94e14 / 8.2e11'
check_str v5e_int8_cross_240_bound bound memory
run -e 'let B=241, D=1M, F=1M' -e 'int8[B,D] *_D int8[D,F] on v5e'
check_str v5e_int8_cross_241_bound bound compute

finish
