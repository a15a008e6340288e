# Question 2 (book ch. 1): int8 weights, bf16 activations and compute,
# bf16[B,D] *_D int8[D,F] -> bf16[B,F] on v5e (docs/costmodel.md §2). Bytes 2BD + DF + 2BF,
# 2BDF FLOPs at the bf16 peak 1.97e14; intensity -> 2B, so compute-bound when
# 2B > 240, i.e. B > 120. Question 3 plots the same for D = F = 4096 and 1024.
. "$(dirname "$0")/lib.shinc"

r='(1.97e14 / 8.2e11)'   # the bf16 ridge on v5e, 240.24390244

run -e 'let B=256, D=8192, F=32768' -e 'bf16[B,D] *_D int8[D,F] on v5e'
# output dtype: the widest input, bf16
check_str q2_dtype dtype bf16
# FLOPs = 2BDF = 137438953472
check q2_flops flops '2*256*8192*32768'
# bytes read = 2BD + DF = 4194304 + 268435456 = 272629760
check q2_bytes_read bytes_read '2*256*8192 + 8192*32768'
# bytes written = 2BF = 16777216 (bf16 output)
check q2_bytes_written bytes_written '2*256*32768'
# bytes = 2BD + DF + 2BF = 289406976
check q2_bytes bytes '2*256*8192 + 8192*32768 + 2*256*32768'
# intensity = 2BDF/(2BD + DF + 2BF) = 137438953472/289406976 = 474.8982
check q2_intensity intensity '2*256*8192*32768 / (2*256*8192 + 8192*32768 + 2*256*32768)'
# the ridge and T_math use the bf16 peak (the widest input), not int8's 3.94e14
check q2_ridge ridge "$r"
# T_math = 2BDF/1.97e14 = 6.9765966e-4 s
check q2_t_math t_math '2*256*8192*32768 / 1.97e14'
# T_hbm = 289406976/8.2e11 = 3.5293534e-4 s
check q2_t_hbm t_hbm '(2*256*8192 + 8192*32768 + 2*256*32768) / 8.2e11'
check q2_t_lower t_lower '2*256*8192*32768 / 1.97e14'
check q2_t_upper t_upper '2*256*8192*32768 / 1.97e14 + (2*256*8192 + 8192*32768 + 2*256*32768) / 8.2e11'
check_str q2_bound bound compute

# The hint's form, with the output written out: the same numbers.
run -e 'let B=256, D=8192, F=32768' -e 'bf16[B,D] *_D int8[D,F] -> bf16[B,F] on v5e'
check_str q2_arrow_dtype dtype bf16
check q2_arrow_bytes bytes '2*256*8192 + 8192*32768 + 2*256*32768'
check q2_arrow_t_math t_math '2*256*8192*32768 / 1.97e14'

# Symbolic: the book's formulas, at B=3 D=5 F=7.
run -e 'bf16[B,D] *_D int8[D,F] on v5e'
check_str q2_sym_formula_flops formula.flops '2*B*D*F'
# 2BD + DF + 2BF = 30 + 35 + 42 = 107
check_formula q2_sym_formula_bytes bytes 'B=3 D=5 F=7' '2*3*5 + 5*7 + 2*3*7'
check_formula q2_sym_formula_bytes_read bytes_read 'B=3 D=5 F=7' '2*3*5 + 5*7'
check_formula q2_sym_formula_bytes_written bytes_written 'B=3 D=5 F=7' '2*3*7'
# 2BDF/(2BD + DF + 2BF) = 210/107
check_formula q2_sym_formula_intensity intensity 'B=3 D=5 F=7' '210/107'
check_formula q2_sym_formula_t_math t_math 'B=3 D=5 F=7' '210/1.97e14'

# Intensity -> 2B for B << D, F: B=64, D=F=1e6: 128e12/(128e6 + 1e12 + 128e6) = 127.96725
run -e 'let B=64, D=1M, F=1M' -e 'bf16[B,D] *_D int8[D,F] on v5e'
check q2_2B_intensity intensity '2*64*1e6*1e6 / (2*64*1e6 + 1e6*1e6 + 2*64*1e6)'
check q2_2B_intensity_is_2B intensity '2*64' 0.001

# Compute-bound when B > r/2 = 120.12 asymptotically (the book: B > 120).
# For D = F: 2BD^2/(4BD + D^2) = 2BD/(4B + D) > r  <=>  B > r D/(2D - 4r).
# D = F = 1e6: B > 240.2439e6/(2e6 - 960.9756) = 120.1797 -> 120 memory, 121 compute
run -e 'let B=120, D=1M, F=1M' -e 'bf16[B,D] *_D int8[D,F] on v5e'
# 2*120e6/(480 + 1e6) = 239.885 < 240.244
check q2_cross_1M_120_intensity intensity '2*120*1e6 / (4*120 + 1e6)'
check_str q2_cross_1M_120_bound bound memory
run -e 'let B=121, D=1M, F=1M' -e 'bf16[B,D] *_D int8[D,F] on v5e'
# 2*121e6/(484 + 1e6) = 241.883 > 240.244
check q2_cross_1M_121_intensity intensity '2*121*1e6 / (4*121 + 1e6)'
check_str q2_cross_1M_121_bound bound compute
# D = F = 16384: B > 240.2439*16384/(32768 - 960.9756) = 123.7512 -> 123 / 124
run -e 'let B=123, D=16384, F=16384' -e 'bf16[B,D] *_D int8[D,F] on v5e'
# 2*123*16384/(492 + 16384) = 238.83 < 240.24
check q2_cross_16k_123_intensity intensity '2*123*16384 / (4*123 + 16384)'
check_str q2_cross_16k_123_bound bound memory
run -e 'let B=124, D=16384, F=16384' -e 'bf16[B,D] *_D int8[D,F] on v5e'
# 2*124*16384/(496 + 16384) = 240.72 > 240.24
check q2_cross_16k_124_intensity intensity '2*124*16384 / (4*124 + 16384)'
check_str q2_cross_16k_124_bound bound compute
run -e 'let B=100, D=16384, F=16384' -e 'bf16[B,D] *_D int8[D,F] on v5e'
check_str q2_cross_16k_100_bound bound memory
run -e 'let B=150, D=16384, F=16384' -e 'bf16[B,D] *_D int8[D,F] on v5e'
check_str q2_cross_16k_150_bound bound compute

# Question 3: D = F = 4096 turns at r*4096/(8192 - 4r) = 984038.98/7231.0244 = 136.0857,
# D = F = 1024 at r*1024/(2048 - 4r) = 246009.76/1087.0244 = 226.3148
# ("D=F=1024 almost doubles the critical batch size").
run -e 'bf16[B,D] *_D int8[D,F] on v5e'
check_bound_at q3_4096_136 'B=136 D=4096 F=4096' memory
check_bound_at q3_4096_137 'B=137 D=4096 F=4096' compute
check_bound_at q3_1024_226 'B=226 D=1024 F=1024' memory
check_bound_at q3_1024_227 'B=227 D=1024 F=1024' compute
# the plot's y value is 2BDF/max(T_math, T_hbm), with the exact bytes 2BD + DF + 2BF;
# at B=64, D=F=4096 it is memory-bound: T_lower = (2*64*4096*2 + 4096^2)/8.2e11
check_formula q3_4096_64_t_lower t_lower 'B=64 D=4096 F=4096' '(2*64*4096*2 + 4096*4096) / 8.2e11'
# at B=511, D=F=4096 compute-bound: T_lower = 2*511*4096^2/1.97e14
check_formula q3_4096_511_t_lower t_lower 'B=511 D=4096 F=4096' '2*511*4096*4096 / 1.97e14'
run -e 'let B=136, D=4096, F=4096' -e 'bf16[B,D] *_D int8[D,F] on v5e'
check_str q3_4096_136_bound bound memory
run -e 'let B=137, D=4096, F=4096' -e 'bf16[B,D] *_D int8[D,F] on v5e'
check_str q3_4096_137_bound bound compute
run -e 'let B=226, D=1024, F=1024' -e 'bf16[B,D] *_D int8[D,F] on v5e'
check_str q3_1024_226_bound bound memory
run -e 'let B=227, D=1024, F=1024' -e 'bf16[B,D] *_D int8[D,F] on v5e'
check_str q3_1024_227_bound bound compute

# "int8 OPs would be better": forcing the compute dtype to int8 uses the int8 peak.
# T_math = 2BDF/3.94e14 = 3.4882983e-4 s; ridge 3.94e14/8.2e11 = 480.4878
run -e 'let B=256, D=8192, F=32768' -e 'bf16[B,D] *_D int8[D,F] on v5e compute int8'
check q2_int8_compute_t_math t_math '2*256*8192*32768 / 3.94e14'
check q2_int8_compute_ridge ridge '3.94e14 / 8.2e11'

finish
