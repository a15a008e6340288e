# The chapter's bf16 matmul X[B,D] *_D Y[D,F] -> Z[B,F] on a TPU v5e, with the issue's
# acceptance figures B=256, D=8192, F=32768 (docs/costmodel.md §1, §2).
# v5e: bf16 peak 1.97e14 FLOPs/s, HBM 8.2e11 B/s (docs/costmodel.md §5, book ch. 1).
. "$(dirname "$0")/lib.shinc"

run -e 'bf16[256,8192] *_D bf16[8192,32768] on v5e'
# FLOPs = 2BDF = 2*256*8192*32768 = 137438953472
check mm_flops flops '2*256*8192*32768'
# bytes read = 2BD + 2DF = 2*256*8192 + 2*8192*32768 = 4194304 + 536870912 = 541065216
check mm_bytes_read bytes_read '2*256*8192 + 2*8192*32768'
# bytes written = 2BF = 2*256*32768 = 16777216
check mm_bytes_written bytes_written '2*256*32768'
# bytes = 2(BD + DF + BF) = 2*(2097152 + 268435456 + 8388608) = 557842432
check mm_bytes bytes '2*(256*8192 + 8192*32768 + 256*32768)'
# intensity = BDF/(BD + DF + BF) = 68719476736/278921216 = 246.37593985
check mm_intensity intensity '256*8192*32768 / (256*8192 + 8192*32768 + 256*32768)'
# ridge = 1.97e14/8.2e11 = 240.24390244
check mm_ridge ridge '1.97e14 / 8.2e11'
# T_math = 2BDF/1.97e14 = 137438953472/1.97e14 = 6.9765966e-4 s
check mm_t_math t_math '2*256*8192*32768 / 1.97e14'
# T_hbm = 557842432/8.2e11 = 6.8029565e-4 s
check mm_t_hbm t_hbm '557842432 / 8.2e11'
# one chip: no network traffic
check mm_t_comm t_comm 0
# T_lower = max(T_math, T_hbm) = T_math = 6.9765966e-4 s
check mm_t_lower t_lower '2*256*8192*32768 / 1.97e14'
# T_upper = T_math + T_hbm = 6.9765966e-4 + 6.8029565e-4 = 1.37795531e-3 s
check mm_t_upper t_upper '2*256*8192*32768 / 1.97e14 + 557842432 / 8.2e11'
# intensity 246.4 > ridge 240.2 (equivalently T_math > T_hbm): compute-bound
check_str mm_bound bound compute
check_str mm_dtype dtype bf16
check mm_shape_0 shape.0 256
check mm_shape_1 shape.1 32768
check mm_chips chips 1

# The same figures as the issue prints them (4 significant digits: +-0.05 in the last
# digit is at most 4e-4 relative; 5e-4 allowed).
check mm_issue_flops flops 1.374e11 5e-4
check mm_issue_bytes bytes 5.578e8 5e-4
check mm_issue_intensity intensity 246.4 5e-4
check mm_issue_ridge ridge 240.2 5e-4
check mm_issue_t_math t_math 697.7e-6 5e-4
check mm_issue_t_hbm t_hbm 680.3e-6 5e-4

# Dims bound by `let` give the same numbers.
run -e 'let B=256, D=8192, F=32768' -e 'bf16[B,D] *_D bf16[D,F] on v5e'
check let_flops flops '2*256*8192*32768'
check let_bytes bytes '2*(256*8192 + 8192*32768 + 256*32768)'
check let_t_math t_math '2*256*8192*32768 / 1.97e14'
check let_t_hbm t_hbm '557842432 / 8.2e11'
check_str let_bound bound compute
# the formulas, evaluated at the bound values: 2BDF and 2BD + 2DF + 2BF
check_formula let_formula_flops flops 'B=256 D=8192 F=32768' '2*256*8192*32768'
check_formula let_formula_bytes bytes 'B=256 D=8192 F=32768' '2*(256*8192 + 8192*32768 + 256*32768)'

# B left unbound: every number that depends on B is null, the formulas carry B.
run -e 'bf16[B,8192] *_D bf16[8192,32768] on v5e'
check_null symB_flops flops
check_null symB_bytes bytes
check_null symB_intensity intensity
check_null symB_t_math t_math
check_null symB_t_lower t_lower
check_null symB_bound bound
# the ridge does not depend on B: 1.97e14/8.2e11
check symB_ridge ridge '1.97e14 / 8.2e11'
check_str symB_shape_0 shape.0 B
# FLOPs = 2*B*8192*32768 = 536870912*B
check_str symB_formula_flops formula.flops '536870912*B'
# bytes = 2*8192*B + 2*8192*32768 + 2*32768*B = 81920*B + 536870912; at B=256: 557842432
check_formula symB_formula_bytes bytes 'B=256' '81920*256 + 536870912'
check_formula symB_formula_bytes_1 bytes 'B=1' '2*8192 + 2*8192*32768 + 2*32768'
# bytes read = 2*8192*B + 2*8192*32768; written = 2*32768*B
check_formula symB_formula_bytes_read bytes_read 'B=256' '2*8192*256 + 2*8192*32768'
check_formula symB_formula_bytes_written bytes_written 'B=256' '2*256*32768'
# intensity = B*8192*32768/(8192B + 8192*32768 + 32768B); at B=256: 246.37593985
check_formula symB_formula_intensity intensity 'B=256' '256*8192*32768 / (256*8192 + 8192*32768 + 256*32768)'
# T_math = 2*B*8192*32768/1.97e14; T_hbm = bytes/8.2e11; at B=256
check_formula symB_formula_t_math t_math 'B=256' '2*256*8192*32768 / 1.97e14'
check_formula symB_formula_t_hbm t_hbm 'B=256' '557842432 / 8.2e11'
check_formula symB_formula_t_lower t_lower 'B=256' '2*256*8192*32768 / 1.97e14'
check_formula symB_formula_t_upper t_upper 'B=256' '2*256*8192*32768 / 1.97e14 + 557842432 / 8.2e11'
# at B=1000 T_hbm = (81920*1000 + 536870912)/8.2e11 < T_math = 2*1000*8192*32768/1.97e14
check_formula symB_formula_t_lower_1000 t_lower 'B=1000' '2*1000*8192*32768 / 1.97e14'
# at B=1 memory-bound: T_lower = T_hbm = (81920 + 536870912)/8.2e11
check_formula symB_formula_t_lower_1 t_lower 'B=1' '(81920 + 536870912) / 8.2e11'
# compute iff B*D*F/(B*D + D*F + B*F) > 240.24; with D=8192, F=32768:
#   32768 B / (5B + 32768) > r  <=>  B > 32768 r / (32768 - 5 r) = 7872455.2/31566.78 = 249.39
check_bound_at symB_bound_249 'B=249' memory
check_bound_at symB_bound_250 'B=250' compute

# D and F bound by `let`, B not: the same formula, with the bound dims' values in it
# (2*D*F = 2*8192*32768 = 536870912).
run -e 'let D=8192, F=32768' -e 'bf16[B,D] *_D bf16[D,F] on v5e'
check_null letDF_flops flops
check_null letDF_bound bound
check_str letDF_formula_flops formula.flops '536870912*B'
check_formula letDF_formula_bytes bytes 'B=256' '2*(256*8192 + 8192*32768 + 256*32768)'

# Everything symbolic: the book's own formulas.
run -e 'bf16[B,D] *_D bf16[D,F] on v5e'
check_str sym_formula_flops formula.flops '2*B*D*F'
check_formula sym_formula_flops_val flops 'B=3 D=5 F=7' '2*3*5*7'
check_formula sym_formula_bytes bytes 'B=3 D=5 F=7' '2*3*5 + 2*5*7 + 2*3*7'
# intensity = BDF/(BD + DF + BF) = 105/(15 + 35 + 21) = 105/71
check_formula sym_formula_intensity intensity 'B=3 D=5 F=7' '105/71'

finish
