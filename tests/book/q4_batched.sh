# Question 4 (book ch. 1): a different matrix per batch element,
# int8[B,D] *_D int8[B,D,F] -> int8[B,F] (docs/costmodel.md §2). B is a batch dim (in both
# operands, kept), D contracted: FLOPs 2BDF, bytes BD + BDF + BF, intensity
# 2BDF/(BD + BDF + BF) -> 2: memory-bound however large B is.
. "$(dirname "$0")/lib.shinc"

run -e 'let B=256, D=8192, F=8192' -e 'int8[B,D] *_D int8[B,D,F] -> int8[B,F] on v5e'
# FLOPs = 2BDF = 2*256*8192*8192 = 34359738368
check q4_flops flops '2*256*8192*8192'
# bytes read = BD + BDF = 2097152 + 17179869184 = 17181966336
check q4_bytes_read bytes_read '256*8192 + 256*8192*8192'
# bytes written = BF = 2097152
check q4_bytes_written bytes_written '256*8192'
# bytes = BD + BDF + BF = 17184063488
check q4_bytes bytes '256*8192 + 256*8192*8192 + 256*8192'
# intensity = 2BDF/(BD + BDF + BF) = 2DF/(D + DF + F) = 134217728/67125248 = 1.9995118
check q4_intensity intensity '2*8192*8192 / (8192 + 8192*8192 + 8192)'
check q4_intensity_is_2 intensity 2 0.001
check_str q4_dtype dtype int8
check q4_shape_0 shape.0 256
check q4_shape_1 shape.1 8192
# the int8 peak: ridge 3.94e14/8.2e11 = 480.4878; 2.0 < 480: memory-bound
check q4_ridge ridge '3.94e14 / 8.2e11'
check_str q4_bound bound memory
# T_math = 2BDF/3.94e14 = 8.7207458e-5 s; T_hbm = bytes/8.2e11 = 2.0956175e-2 s = T_lower
check q4_t_math t_math '2*256*8192*8192 / 3.94e14'
check q4_t_hbm t_hbm '(256*8192 + 256*8192*8192 + 256*8192) / 8.2e11'
check q4_t_lower t_lower '(256*8192 + 256*8192*8192 + 256*8192) / 8.2e11'
check q4_t_upper t_upper '2*256*8192*8192 / 3.94e14 + (256*8192 + 256*8192*8192 + 256*8192) / 8.2e11'

# Even at B = 1e6 (intensity does not depend on B): still 1.9995, still memory-bound.
run -e 'let B=1M, D=8192, F=8192' -e 'int8[B,D] *_D int8[B,D,F] -> int8[B,F] on v5e'
check q4_huge_B_intensity intensity '2*8192*8192 / (8192 + 8192*8192 + 8192)'
check_str q4_huge_B_bound bound memory
# and at Question 1's bandwidth (ridge 486.4)
run -e 'chip v5e_q1 : v5e { hbm_bw = 8.1e11 }' -e 'let B=1M, D=8192, F=8192' \
    -e 'int8[B,D] *_D int8[B,D,F] -> int8[B,F] on v5e_q1'
check_str q4_q1_huge_B_bound bound memory

# Symbolic: the book's formulas; the bound formula says memory for any B.
run -e 'int8[B,D] *_D int8[B,D,F] -> int8[B,F] on v5e'
check_null q4_sym_intensity intensity
check_null q4_sym_bound bound
check_str q4_sym_formula_flops formula.flops '2*B*D*F'
# BD + BDF + BF at B=3 D=5 F=7: 15 + 105 + 21 = 141
check_formula q4_sym_formula_bytes bytes 'B=3 D=5 F=7' '3*5 + 3*5*7 + 3*7'
check_formula q4_sym_formula_bytes_read bytes_read 'B=3 D=5 F=7' '3*5 + 3*5*7'
check_formula q4_sym_formula_bytes_written bytes_written 'B=3 D=5 F=7' '3*7'
# 2BDF/(BD + BDF + BF) = 210/141
check_formula q4_sym_formula_intensity intensity 'B=3 D=5 F=7' '210/141'
# at D = F = 1e6 the intensity is 2e12/(2e6 + 1e12) = 1.999996 -> 2
check_formula q4_sym_formula_intensity_2 intensity 'B=1e6 D=1e6 F=1e6' '2*1e6*1e6 / (1e6 + 1e6*1e6 + 1e6)'
check_bound_at q4_sym_bound_big 'B=1e9 D=1e6 F=1e6' memory
check_bound_at q4_sym_bound_small 'B=1 D=128 F=128' memory

finish
