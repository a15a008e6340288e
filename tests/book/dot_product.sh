# The chapter's dot product x . y: bf16[N], bf16[N] -> bf16[1] (book ch. 1;
# docs/costmodel.md §1, §2): load 2N + 2N bytes, write 2; N multiplies and N - 1 adds
# (2N - 1 FLOPs with --exact; 2N by the default 2-per-multiply-add convention);
# intensity (2N - 1)/(4N + 2) -> 1/2, memory-bound.
. "$(dirname "$0")/lib.shinc"

run -e 'let N=1000' -e 'bf16[N] *_N bf16[N] on v5e'
# default convention: 2 x (product of distinct dims) = 2N = 2000
check dot_flops flops '2*1000'
# bytes = 2N + 2N + 2 = 4002; read 4N = 4000, written 2 (one bf16 scalar)
check dot_bytes bytes '4*1000 + 2'
check dot_bytes_read bytes_read '4*1000'
check dot_bytes_written bytes_written 2
# intensity = 2N/(4N + 2) = 2000/4002 = 0.49975
check dot_intensity intensity '2000/4002'
check_str dot_dtype dtype bf16
check_str dot_bound bound memory
# T_hbm = 4002/8.2e11 = 4.8804878e-9 s = T_lower; T_math = 2000/1.97e14
check dot_t_hbm t_hbm '4002 / 8.2e11'
check dot_t_math t_math '2000 / 1.97e14'
check dot_t_lower t_lower '4002 / 8.2e11'

run --exact -e 'let N=1000' -e 'bf16[N] *_N bf16[N] on v5e'
# the book's count: N multiplies + (N - 1) adds = 2N - 1 = 1999
check dot_exact_flops flops '2*1000 - 1'
check dot_exact_bytes bytes '4*1000 + 2'
# (2N - 1)/(4N + 2) = 1999/4002 = 0.49950025
check dot_exact_intensity intensity '1999/4002'
check dot_exact_t_math t_math '1999 / 1.97e14'

# N -> infinity: intensity -> 1/2. N = 1e9: (2e9 - 1)/(4e9 + 2) = 0.49999999975
run --exact -e 'let N=1G' -e 'bf16[N] *_N bf16[N] on v5e'
check dot_exact_big_intensity intensity '(2*1e9 - 1) / (4*1e9 + 2)'
check dot_exact_big_intensity_half intensity 0.5 1e-6
check dot_exact_big_bytes bytes '4*1e9 + 2'
run -e 'let N=1G' -e 'bf16[N] *_N bf16[N] on v5e'
check dot_big_intensity_half intensity 0.5 1e-6

# Symbolic N: the formulas.
run -e 'bf16[N] *_N bf16[N] on v5e'
check_null dot_sym_flops flops
check_null dot_sym_bytes bytes
check_str dot_sym_formula_flops formula.flops '2*N'
# 4N + 2 at N=10: 42
check_formula dot_sym_formula_bytes bytes 'N=10' '4*10 + 2'
check_formula dot_sym_formula_bytes_read bytes_read 'N=10' '4*10'
check_formula dot_sym_formula_intensity intensity 'N=10' '20/42'
check_bound_at dot_sym_bound 'N=1e12' memory
run --exact -e 'bf16[N] *_N bf16[N] on v5e'
check_str dot_sym_exact_formula_flops formula.flops '2*N - 1'
# (2N - 1)/(4N + 2) at N=10: 19/42
check_formula dot_sym_exact_formula_intensity intensity 'N=10' '19/42'
check_formula dot_sym_exact_formula_t_math t_math 'N=10' '19 / 1.97e14'

# --exact on a matmul: out * (2K - 1) = B*F*(2D - 1) (the chapter's footnote).
# B=256, D=8192, F=32768: 256*32768*16383 = 137422176256
run --exact -e 'let B=256, D=8192, F=32768' -e 'bf16[B,D] *_D bf16[D,F] on v5e'
check matmul_exact_flops flops '256*32768*(2*8192 - 1)'

# Elementwise x * y on N elements: N FLOPs, no factor 2 (docs/costmodel.md §1).
# N = 1000: flops 1000, bytes 3 * 2N = 6000
run -e 'let N=1000' -e 'bf16[N] * bf16[N] on v5e'
check elementwise_flops flops 1000
check elementwise_bytes bytes '3*2*1000'

finish
