# `solve`: every "at what batch size?" answer of the book's chapter 1 and of the
# reader's hand notes (docs/costmodel.md §2), from the --json solve object (segments
# [{from, to, bound}], limit_intensity) and from the text's asymptote row. Each
# expected value is derived by hand from the book's formulas in the comment beside it.
#
# Ridges: v5e 1.97e14/8.2e11 = 240.2439; v5e int8 3.94e14/8.2e11 = 480.4878;
# Question 1's chip 3.94e14/8.1e11 = 486.4198; H100 9.89e14/3.35e12 = 295.2239;
# the notes' chip, HBM 1.97e14/243, exactly 243.
. "$(dirname "$0")/../book/lib.shinc"

notes='chip v5e_notes : v5e { hbm_bw = 1.97e14 / 243 }'
q1='chip v5e_q1 : v5e { hbm_bw = 8.1e11 }'

# check_absent NAME KEY: the last run's JSON object has no KEY (no such segment).
check_absent() {
    if [ "$_book_status" != 0 ]; then
        _book_fail "$1" "roofline exited with status $_book_status"; return 0
    fi
    if [ -z "$(printf '%s\n' "$_book_json" | awk -F '\t' -v k="$2" 'index($1, k) == 1')" ]
    then _book_ok "$1"; else _book_fail "$1" "the JSON has $2"; fi
}

# ---- the hand notes: bf16[B,D] *_D int8[D,F], ridge 243 ----------------------------
# D = F = 8000: 2B·8000²/(2B·8000 + 8000² + 2B·8000) = 4000B/(B + 2000) > 243
#   <=> 3757B > 243·2000  <=>  B > 486000/3757 = 129.3585 (the notes: 129.35)
run -e "$notes" -e 'let D = 8000, F = 8000' -e 'solve B: bf16[B,D] *_D int8[D,F] on v5e_notes'
check_str notes_8000_solve solve B
check_str notes_8000_chip chip v5e_notes
check notes_8000_from segments.0.from 1
check notes_8000_to segments.0.to '243*2000 / (4000 - 243)'
check notes_8000_to_129_4 segments.0.to 129.4 0.0005
check_str notes_8000_memory segments.0.bound memory
check notes_8000_compute_from segments.1.from '243*2000 / (4000 - 243)'
check_null notes_8000_compute_to segments.1.to
check_str notes_8000_compute segments.1.bound compute
# 4000B/(B + 2000) -> 4000 as B grows
check notes_8000_limit limit_intensity 4000

# D = F = 16000: 8000B/(B + 4000) > 243  <=>  7757B > 243·4000
#   <=>  B > 972000/7757 = 125.3062 (the notes: 125.30)
run -e "$notes" -e 'let D = 16000, F = 16000' -e 'solve B: bf16[B,D] *_D int8[D,F] on v5e_notes'
check notes_16000_to segments.0.to '243*4000 / (8000 - 243)'
check notes_16000_to_125_3 segments.0.to 125.3 0.0005
check_str notes_16000_memory segments.0.bound memory
check_str notes_16000_compute segments.1.bound compute
check notes_16000_limit limit_intensity 8000

# D = F = 128: 2B·128²/(4B·128 + 128²) = 64B/(B + 32) -> 64 < 243: memory for every B,
# one segment from 1 with no end
run -e "$notes" -e 'let D = 128, F = 128' -e 'solve B: bf16[B,D] *_D int8[D,F] on v5e_notes'
check notes_128_from segments.0.from 1
check_null notes_128_never segments.0.to
check_str notes_128_memory segments.0.bound memory
check_absent notes_128_one_segment segments.1
check notes_128_limit_64 limit_intensity 64
# `solve STMT` with B the one unbound dim: the same answer
run -e "$notes" -e 'let D = 128, F = 128' -e 'solve bf16[B,D] *_D int8[D,F] on v5e_notes'
check_str notes_128_implicit_dim solve B
check_null notes_128_implicit_never segments.0.to
check notes_128_implicit_limit limit_intensity 64

# ---- the book's asymptotic rules: the text's asymptote row (5 digits) ---------------
# Question 2, bf16 x int8 on v5e: 2BDF/(2BD + DF + 2BF) -> 2BDF/DF = 2B > 240.2439
#   <=>  B > 1.97e14/8.2e11/2 = 120.1220 (the book: 120)
run_text -e 'let D = 8192, F = 8192' -e 'solve B: bf16[B,D] *_D int8[D,F] on v5e'
check_text q2_asymptote '1.97e14 / 8.2e11 / 2' 1e-4
check_text q2_asymptote_120 120 0.002
# bf16 x bf16 on v5e: BDF/(BD + DF + BF) -> B > 1.97e14/8.2e11 = 240.2439 (the book: 240)
run_text -e 'let D = 8192, F = 8192' -e 'solve B: bf16[B,D] *_D bf16[D,F] on v5e'
check_text bf16_asymptote '1.97e14 / 8.2e11' 1e-4
check_text bf16_asymptote_240 240 0.002
# Question 1, int8 x int8 on the 8.1e11 chip: 2BDF/(BD + DF + BF) -> 2B > 486.4198
#   <=>  B > 243.2099 (the book: 243)
run_text -e "$q1" -e 'let D = 8192, F = 8192' -e 'solve B: int8[B,D] *_D int8[D,F] on v5e_q1'
check_text q1_asymptote '3.94e14 / 8.1e11 / 2' 1e-4
check_text q1_asymptote_243 243 0.002
# Question 5, H100: B > 9.89e14/3.35e12 = 295.2239 (the book's 298 uses 1e15)
run_text -e 'let D = 8192, F = 8192' -e 'solve B: bf16[B,D] *_D bf16[D,F] on H100'
check_text q5_asymptote '9.89e14 / 3.35e12' 1e-4
check_text q5_asymptote_295 295 0.002
# The notes' chip: 2B > 243  <=>  B > 121.5 ("converging to B > 121")
run_text -e "$notes" -e 'let D = 8000, F = 8000' -e 'solve B: bf16[B,D] *_D int8[D,F] on v5e_notes'
check_text notes_asymptote '243 / 2' 1e-4

# ---- the same rules as exact crossings, with D = F = N large ------------------------
# bf16 x bf16, D = F = N: BN²/(2BN + N²) = BN/(2B + N) > r  <=>  B > rN/(N - 2r);
# N = 1e9, r = 240.2439: 240.24401787 (-> r as N grows)
run -e 'let D = 1e9, F = 1e9' -e 'solve B: bf16[B,D] *_D bf16[D,F] on v5e'
check bf16_1e9_crossing segments.0.to '(1.97e14/8.2e11)*1e9 / (1e9 - 2*1.97e14/8.2e11)'
check bf16_1e9_crossing_240 segments.0.to 240 0.002
# BN/(2B + N) -> N/2 = 5e8 as B grows
check bf16_1e9_limit limit_intensity 5e8
# bf16 x int8: 2BN²/(4BN + N²) = 2BN/(4B + N) > r  <=>  B > rN/(2N - 4r) = 120.12200894
run -e 'let D = 1e9, F = 1e9' -e 'solve B: bf16[B,D] *_D int8[D,F] on v5e'
check q2_1e9_crossing segments.0.to '(1.97e14/8.2e11)*1e9 / (2e9 - 4*1.97e14/8.2e11)'
check q2_1e9_crossing_120 segments.0.to 120 0.002
# H100, bf16 x bf16: rN/(N - 2r), r = 295.2239: 295.22405491
run -e 'let D = 1e9, F = 1e9' -e 'solve B: bf16[B,D] *_D bf16[D,F] on H100'
check_str q5_1e9_chip chip H100
check q5_1e9_crossing segments.0.to '(9.89e14/3.35e12)*1e9 / (1e9 - 2*9.89e14/3.35e12)'
check q5_1e9_crossing_295 segments.0.to 295 0.002

# ---- at D = F = 8192: the rules' concrete crossings ---------------------------------
# bf16 x bf16: B > rN/(N - 2r) = 240.2439·8192/(8192 - 480.4878) = 255.2117
run -e 'let D = 8192, F = 8192' -e 'solve B: bf16[B,D] *_D bf16[D,F] on v5e'
check bf16_8192_crossing segments.0.to '(1.97e14/8.2e11)*8192 / (8192 - 2*1.97e14/8.2e11)'
# Question 1: 2BN/(2B + N) > R  <=>  B > RN/(2N - 2R), R = 486.4198: 258.5604
run -e "$q1" -e 'let D = 8192, F = 8192' -e 'solve B: int8[B,D] *_D int8[D,F] on v5e_q1'
check q1_8192_crossing segments.0.to '(3.94e14/8.1e11)*8192 / (2*8192 - 2*3.94e14/8.1e11)'
# 2BN/(2B + N) -> N = 8192
check q1_8192_limit limit_intensity 8192
# Question 3's knees, bf16[B,N] x int8[N,N]: B > rN/(2N - 4r)
#   N = 4096: 240.2439·4096/(8192 - 960.9756) = 136.0852
#   N = 1024: 240.2439·1024/(2048 - 960.9756) = 226.3100
run -e 'solve B: bf16[B,4096] *_D int8[4096,4096] on v5e'
check q3_4096_knee segments.0.to '(1.97e14/8.2e11)*4096 / (2*4096 - 4*1.97e14/8.2e11)'
# 2BN/(4B + N) -> N/2 = 2048
check q3_4096_limit limit_intensity 2048
run -e 'solve B: bf16[B,1024] *_D int8[1024,1024] on v5e'
check q3_1024_knee segments.0.to '(1.97e14/8.2e11)*1024 / (2*1024 - 4*1.97e14/8.2e11)'

# ---- Question 4: int8[B,D] *_D int8[B,D,F]: never -----------------------------------
# 2BDF/(BD + BDF + BF) = 2DF/(D + DF + F) whatever B; D = F = 8192:
# 2·8192/(2 + 8192) = 1.99951 < 480.49: memory for every B
run -e 'let D = 8192, F = 8192' -e 'solve B: int8[B,D] *_D int8[B,D,F] on v5e'
check_null q4_never segments.0.to
check_str q4_memory segments.0.bound memory
check q4_limit limit_intensity '2*8192 / (2 + 8192)'

# ---- the two-chip example: D > 8755 -------------------------------------------------
# shard D over 2: per chip T_math = BDF/1.97e14, T_comm = 2BF/4.5e10 (AllReduce of the
# bf16[B,F] partial sums); compute-bound when D/2 > 1.97e14/4.5e10
#   <=>  D > 2·1.97e14/4.5e10 = 8755.5556 (the book: 8755)
# B = 512, F = 16384: T_hbm = (BD + DF + 2BF)/8.2e11 is below T_comm at D = 8755
# ((4.48e6 + 1.434e8 + 1.678e7)/8.2e11 = 201 µs < 2·512·16384/4.5e10 = 373 µs), so
# comm, then compute.
two='let B = 512, F = 16384'
run -e "$two" -e 'solve D: bf16[B,D] *_D bf16[D,F] on v5e shard D over 2'
check_str two_chip_solve solve D
check_str two_chip_comm segments.0.bound comm
check two_chip_crossing segments.0.to '2 * 1.97e14 / 4.5e10'
check two_chip_crossing_8755 segments.0.to 8755 0.0001
check_str two_chip_compute segments.1.bound compute
check_null two_chip_compute_to segments.1.to
# per-chip HBM intensity B·D·F/(B·D + D·F + 2·B·F) = 512·16384·D/(512D + 16384D + 2·512·16384)
#   -> 512·16384/(512 + 16384) = 496.4848 as D grows
check two_chip_limit limit_intensity '512*16384 / (512 + 16384)'

# ---- three segments: comm, then memory, then compute --------------------------------
# The same split with B = F = 500. Per chip:
#   T_math = BDF/1.97e14 = 250000·D/1.97e14
#   T_hbm  = (BD + DF + 2BF)/8.2e11 = (1000·D + 500000)/8.2e11
#   T_comm = 2BF/4.5e10 = 500000/4.5e10 (no D in it)
# T_hbm = T_comm: 1000·D + 500000 = 500000·8.2e11/4.5e10
#   <=>  D = 500·(8.2e11/4.5e10 - 1) = 8611.1111
# T_math = T_hbm: D·(250000·8.2e11 - 1000·1.97e14) = 500000·1.97e14
#   <=>  D = 9.85e19/8e15 = 12312.5
# (T_math = T_comm at 8755.56, inside the memory range, where T_hbm is above both.)
run -e 'let B = 500, F = 500' -e 'solve D: bf16[B,D] *_D bf16[D,F] on v5e shard D over 2'
check_str three_comm segments.0.bound comm
check three_comm_to segments.0.to '500 * (8.2e11/4.5e10 - 1)'
check_str three_memory segments.1.bound memory
check three_memory_from segments.1.from '500 * (8.2e11/4.5e10 - 1)'
check three_memory_to segments.1.to '500000*1.97e14 / (250000*8.2e11 - 1000*1.97e14)'
check_str three_compute segments.2.bound compute
check three_compute_from segments.2.from 12312.5
check_null three_compute_to segments.2.to
# 250000·D/(1000·D + 500000) -> 250 as D grows
check three_limit limit_intensity 250

# ---- a memory regime narrower than one step of the scan -------------------------------
# B = 256, F = 32768 (as in the README). Per chip:
#   T_math = BDF/1.97e14 = 8388608·D/1.97e14
#   T_hbm  = (BD + DF + 2BF)/8.2e11 = (33024·D + 16777216)/8.2e11
#   T_comm = 2BF/4.5e10 = 16777216/4.5e10
# T_hbm = T_comm:  D = (16777216·8.2e11/4.5e10 - 16777216)/33024 = 8749.4229
# T_math = T_hbm:  D = 16777216 / (8388608·8.2e11/1.97e14 - 33024) = 8862.5388
# (T_math = T_comm at 8755.56, between them, where T_hbm is above both.) The whole
# memory regime lies between two points of the scan (8192 and 9741.9), which once
# made it vanish: "comm for D < 8749.4; compute for D > 8749.4".
run -e 'let B = 256, F = 32768' -e 'solve D: bf16[B,D] *_D bf16[D,F] on v5e shard D over 2'
check_str narrow_comm segments.0.bound comm
check narrow_comm_to segments.0.to '(16777216*8.2e11/4.5e10 - 16777216) / 33024'
check_str narrow_memory segments.1.bound memory
check narrow_memory_from segments.1.from '(16777216*8.2e11/4.5e10 - 16777216) / 33024'
check narrow_memory_to segments.1.to '16777216 / (8388608*8.2e11/1.97e14 - 33024)'
check_str narrow_compute segments.2.bound compute
check narrow_compute_from segments.2.from '16777216 / (8388608*8.2e11/1.97e14 - 33024)'
check_null narrow_compute_to segments.2.to
# F = 24576, the same way: T_hbm = T_comm at (12582912·8.2e11/4.5e10 - 12582912)/24832
#   = 8726.8729; T_math = T_hbm at 12582912/(6291456·8.2e11/1.97e14 - 24832) = 9280.8956
run -e 'let B = 256, F = 24576' -e 'solve D: bf16[B,D] *_D bf16[D,F] on v5e shard D over 2'
check_str narrow2_comm segments.0.bound comm
check narrow2_comm_to segments.0.to '(12582912*8.2e11/4.5e10 - 12582912) / 24832'
check_str narrow2_memory segments.1.bound memory
check narrow2_memory_to segments.1.to '12582912 / (6291456*8.2e11/1.97e14 - 24832)'
check_str narrow2_compute segments.2.bound compute
check_null narrow2_compute_to segments.2.to

# ---- training: solve costs the statement as `mode training` does --------------------
# bf16[B_X,D] *_D param bf16[D,F] on v5p 16x1, D = 8192, F = 32768. Per chip, the
# weight gradient's AllReduce over X (V = 2·D·F, 2V/W with W = 2 · 9e10) runs in the
# backward pass alone, which has 2/3 of the FLOPs (docs/costmodel.md §6.3):
#   T_math bwd = 2·2·(B/16)·D·F / 4.59e14     T_comm bwd = 2·2·D·F / 1.8e11
# equal at B = 16 · 4.59e14 / 1.8e11 = 16 · 2550 = 40800, the book's B/X = C/W.
# (`optimizer none`: the passes alone; with an update the statement is a step, scanned.)
run -e 'let D = 8192, F = 32768' -e 'use v5p 16x1' -e 'mode training' -e 'optimizer none' \
    -e 'solve B: bf16[B_X, D] *_D param bf16[D, F]'
check_str training_comm segments.0.bound comm
check training_comm_to segments.0.to '16 * 4.59e14 / 1.8e11'
check_str training_compute segments.1.bound compute
check_null training_compute_to segments.1.to
# With the gradient overlapping the whole step (`overlap step`) all 3× of the FLOPs
# hide it: T_math = 3·2·(B/16)·D·F / 4.59e14 = T_comm at B = 16·2·4.59e14 / (6·9e10) =
# 27200, 2/3 of the book's (inference would say 81600).
run -e 'let D = 8192, F = 32768' -e 'use v5p 16x1' -e 'mode training overlap step' \
    -e 'optimizer none' \
    -e 'solve B: bf16[B_X, D] *_D param bf16[D, F]'
check training_step_comm_to segments.0.to '16 * 2 * 4.59e14 / (6 * 9e10)'
check_str training_step_compute segments.1.bound compute

# ---- the network's asymptote when solving for another dim ---------------------------
# Solving for B with shard D over 2, the network intensity BDF/(2BF) = D/2 has no B:
# the row says so and names D in the crossing, D > 2·1.97e14/4.5e10 = 8755.6 (it said
# "as D grow, the intensity → D/2: compute-bound when B > 8755.6").
run_text -e 'let D = 8k, F = 32k' -e 'solve B: bf16[B,D] *_D bf16[D,F] on v5e shard D over 2'
want='asymptote (network) the intensity is D/2 whatever B: compute-bound when D > 8755.6'
if printf '%s\n' "$_book_text" | grep -qF "$want"; then _book_ok network_asymptote_names_D
else _book_fail network_asymptote_names_D "no line '$want'"; fi

# ---- a dim the solved one bounds: solve stays where every dim is at least 1 ----------
# bf16[1000-B,D] *_D bf16[D,F] on v5e, D = F = 4096: the intensity is
#   2048·(1000 - B)/(3048 - B) = 1.97e14/8.2e11  <=>  B = (2048000 - 3048·r)/(2048 - r)
#   with r = 240.2439: 727.83; the dim 1000 - B is at least 1 up to B = 999, so the
# last segment ends there (it went on to "comm for B > 3048" on one chip).
run -e 'let D = 4096, F = 4096' -e 'solve B: bf16[1000-B,D] *_D bf16[D,F] on v5e'
check_str domain_compute segments.0.bound compute
check domain_compute_to segments.0.to '(2048000 - 3048*1.97e14/8.2e11) / (2048 - 1.97e14/8.2e11)'
check_str domain_memory segments.1.bound memory
check domain_memory_to segments.1.to 999
check_absent domain_two_segments segments.2
check_null domain_no_limit limit_intensity
# the asymptote 1000 - B > 240.2439 holds below B = 759.76: "compute-bound when B < ..."
run_text -e 'let D = 4096, F = 4096' -e 'solve B: bf16[1000-B,D] *_D bf16[D,F] on v5e'
want='the intensity → 1000 - B: compute-bound when B < 759.76'
if printf '%s\n' "$_book_text" | grep -qF "$want"; then _book_ok domain_asymptote_below
else _book_fail domain_asymptote_below "no line with '$want'"; fi
# bf16[B-5,D]: valid from B = 6; (2048·(B - 5))/(B + 2043) = r  <=>
#   B = (10240 + 2043·r)/(2048 - r) = 277.17
run -e 'let D = 4096, F = 4096' -e 'solve B: bf16[B-5,D] *_D bf16[D,F] on v5e'
check domain_start segments.0.from 6
check_str domain_start_memory segments.0.bound memory
check domain_start_to segments.0.to '(10240 + 2043*1.97e14/8.2e11) / (2048 - 1.97e14/8.2e11)'

finish
