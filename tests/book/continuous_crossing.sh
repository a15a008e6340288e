# Continuous optima beside whole numbers (book ch. 5, "Tensor Parallelism": the largest
# tensor-parallel degree, Y < F·W/C). `solve n:` over a mesh axis gives the whole sizes
# where the bound changes and, where both times follow one law a + b·n + c/n around the
# change, the real n at which they meet.
#
# bf16[B, D_Y] *_D bf16[D, F_Y] on v5e, Y = n chips on a line (n < 16: no wraparound),
# B = 4096, D = F = 27720 (divisible by every n near the crossing: no padded shards):
#   t_math = 2·B·D·F/(n·C) = 2·4096·27720·27720/1.97e14 / n = 31.95 ms / n
#   t_comm = AllGather of bf16[B, D]: 2·B·D·(n−1)/n / W = 227.1 MB·(n−1)/n / 4.5e10
#          = 5.046 ms·(1 − 1/n)
# Equal where n − 1 = F·W/C = 27720·4.5e10/1.97e14 = 6.332: n = 7.332. The book prices
# the AllGather as V/W (its (n−1)/n taken as 1), so it reads Y < F·W/C = 6.33; the exact
# ring's (n−1)/n moves the crossing by one chip. Whole answer: compute for n <= 7.
. "$(dirname "$0")/lib.shinc"

run -e 'let B = 4096, D = 27720, F = 27720' \
    -e 'solve n: bf16[B, D_Y] *_D bf16[D, F_Y] on v5e mesh X = 1, Y = n'
check tp_whole segments.0.to 7
check_str tp_whole_compute segments.0.bound compute
check tp_crossing crossings.0.at '1 + 27720 * 4.5e10 / 1.97e14'
check_str tp_crossing_from crossings.0.from compute
check_str tp_crossing_to crossings.0.to comm
# the book's F·W/C is the crossing less the one chip the exact ring adds
check tp_crossing_book crossings.0.at '1 + 6.3320' 1e-4

# Twice the batch: the ratio of the times is independent of B, so the same crossing
run -e 'let B = 8192, D = 27720, F = 27720' \
    -e 'solve n: bf16[B, D_Y] *_D bf16[D, F_Y] on v5e mesh X = 1, Y = n'
check tp_crossing_2b crossings.0.at '1 + 27720 * 4.5e10 / 1.97e14'

# Half of F: n − 1 = 13860·4.5e10/1.97e14 = 3.166, n = 4.166 (whole: compute for n <= 4)
run -e 'let B = 4096, D = 27720, F = 13860' \
    -e 'solve n: bf16[B, D_Y] *_D bf16[D, F_Y] on v5e mesh X = 1, Y = n'
check tp_half_f_whole segments.0.to 4
check tp_half_f_crossing crossings.0.at '1 + 13860 * 4.5e10 / 1.97e14'

finish
