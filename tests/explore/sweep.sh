# `sweep`: the points of a sweep against the book's formulas, from --json (one object
# per point) and --csv (a header row, then raw base units); ranges `A .. B`, `step`,
# `log` (rounded to whole numbers, each taken once) and lists. Expected values are
# derived by hand in the comment beside each check.
#
# Question 3 (book ch. 1): bf16[B,D] *_D int8[D,F] on a v5e,
#   attained(B) = 2BDF / max(2BDF/1.97e14, (2BD + DF + 2BF)/8.2e11)
# the book's numpy roofline(), exact bytes, B = 1 .. 511.
. "$(dirname "$0")/../book/lib.shinc"

# pick NAME PATTERN: look at the one JSON line of the last run containing PATTERN (a
# sweep prints a line per point; `run` alone looks at the last).
pick() {
    _n=$(printf '%s\n' "$_book_out" | grep -c -F -- "$2")
    if [ "$_n" != 1 ]; then _book_fail "$1" "$_n lines with $2, expected 1"; return 1; fi
    # parsed as a run's output is (its keys found without a process), the run's kept
    _pick_out=$_book_out
    _book_out=$(printf '%s\n' "$_book_out" | grep -F -- "$2")
    _book_parse
    _book_out=$_pick_out
}

# check_lines NAME PATTERN N: N lines of the last run's output contain PATTERN.
check_lines() {
    _n=$(printf '%s\n' "$_book_out" | grep -c -F -- "$2")
    if [ "$_n" = "$3" ]; then _book_ok "$1"; else _book_fail "$1" "$_n lines with $2, expected $3"; fi
}

# check_xs NAME "X1 X2 ...": the sweep's points, in order, from the JSON lines' "at"
check_xs() {
    _xs=$(printf '%s\n' "$_book_out" | sed -n 's/.*"at":{"[A-Za-z_0-9]*":\([^}]*\)}.*/\1/p' | tr '\n' ' ')
    if [ "$_xs" = "$2 " ]; then _book_ok "$1"; else _book_fail "$1" "points $_xs, expected $2"; fi
}

# check_csv NAME STMT B COLUMN EXPR [TOL]: in run_text's CSV, read by check-output's
# CSV reader, the row of statement STMT at B has COLUMN equal to EXPR.
check_csv() {
    _f=$(printf '%s\n' "$_book_text" | "$(dirname "$ROOFLINE")/check-output" select "$4" \
        stmt="$2" at="$3" | head -n 1)
    [ -n "$_f" ] || { _book_fail "$1" "no CSV row of $2 at $3"; return 0; }
    _r=$(_book_near "$_f" "$5" "${6:-1e-9}")
    if [ "$_r" = ok ]; then _book_ok "$1"; else _book_fail "$1" "$4: $_r"; fi
}

# check_csv_line NAME N TEXT: line N of run_text's output is exactly TEXT.
check_csv_line() {
    _l=$(printf '%s\n' "$_book_text" | sed -n "$2p")
    if [ "$_l" = "$3" ]; then _book_ok "$1"; else _book_fail "$1" "line $2 is '$_l', expected '$3'"; fi
}

# mx A B: the awk expression max(A, B) (awk has no max)
mx() { printf '((%s) > (%s) ? (%s) : (%s))' "$1" "$2" "$1" "$2"; }

q3_body='
    DF_4096 = bf16[B,D] *_D int8[D,F] on v5e
    DF_1024 = bf16[B,K] *_K int8[K,N] on v5e'
q3_dims='let D = 4096, F = 4096, K = 1024, N = 1024'

# ---- Question 3 as JSON: 511 points per curve ---------------------------------------
run -e "$q3_dims" -e "sweep B in 1 .. 511 { $q3_body
}"
# 1 .. 511 step 1: 511 points for each of the two statements
check_lines q3_points_4096 '"stmt":"DF_4096"' 511
check_lines q3_points_1024 '"stmt":"DF_1024"' 511

# D = F = 4096. B = 1: flops 2·4096² = 33554432; bytes 2·4096 + 4096² + 2·4096
# = 16793600; T_math = 33554432/1.97e14 = 170.3 ns < T_hbm = 16793600/8.2e11 = 20.48 µs
if pick q3_4096_B1 '"stmt":"DF_4096","at":{"B":1}'; then
    check q3_4096_B1_flops flops '2*1*4096*4096'
    check q3_4096_B1_bytes bytes '2*1*4096 + 4096*4096 + 2*1*4096'
    check q3_4096_B1_t_math t_math '2*4096*4096/1.97e14'
    check q3_4096_B1_t_hbm t_hbm '(2*4096 + 4096*4096 + 2*4096)/8.2e11'
    check q3_4096_B1_t_lower t_lower "$(mx '2*4096*4096/1.97e14' '(2*4096 + 4096*4096 + 2*4096)/8.2e11')"
    check_str q3_4096_B1_bound bound memory
    check_str q3_4096_B1_chip chip v5e
    check q3_4096_B1_chips chips 1
    check q3_4096_B1_t_comm t_comm 0
    check q3_4096_B1_comm_bytes comm_bytes 0
fi
# The book's attained(B) = flops / t_lower at B = 64, 136, 137, 256, 511 for D = F = 4096
# (the knee is at B = 136.09: 136 memory, 137 compute). attained = 2BDF/max(...), so
# t_lower = 2BDF / attained = max(2BDF/1.97e14, (2BD + DF + 2BF)/8.2e11):
#   B =  64: max(10.90 µs, 21.74 µs) memory      B = 136: max(23.16 µs, 23.18 µs) memory
#   B = 137: max(23.33 µs, 23.20 µs) compute     B = 256: max(43.60 µs, 25.58 µs) compute
#   B = 511: max(87.04 µs, 30.67 µs) compute
for b in 64:memory 136:memory 137:compute 256:compute 511:compute; do
    B=${b%:*}
    if pick "q3_4096_B$B" "\"stmt\":\"DF_4096\",\"at\":{\"B\":$B}"; then
        check "q3_4096_B${B}_flops" flops "2*$B*4096*4096"
        check "q3_4096_B${B}_t_lower" t_lower \
            "$(mx "2*$B*4096*4096/1.97e14" "(2*$B*4096 + 4096*4096 + 2*$B*4096)/8.2e11")"
        check "q3_4096_B${B}_intensity" intensity \
            "2*$B*4096*4096 / (2*$B*4096 + 4096*4096 + 2*$B*4096)"
        check_str "q3_4096_B${B}_bound" bound "${b#*:}"
    fi
done
# D = F = 1024, knee at B = 226.31: 226 memory, 227 compute
for b in 64:memory 226:memory 227:compute 511:compute; do
    B=${b%:*}
    if pick "q3_1024_B$B" "\"stmt\":\"DF_1024\",\"at\":{\"B\":$B}"; then
        check "q3_1024_B${B}_t_lower" t_lower \
            "$(mx "2*$B*1024*1024/1.97e14" "(2*$B*1024 + 1024*1024 + 2*$B*1024)/8.2e11")"
        check_str "q3_1024_B${B}_bound" bound "${b#*:}"
    fi
done

# ---- Question 3 as CSV: attained itself ---------------------------------------------
run_text --csv -e "$q3_dims" -e "sweep B in 1 .. 511 { $q3_body
}"
_header=$(printf '%s\n' "$_book_text" | head -n 1)
case $_header in kind,line,stmt,*,dim,at,*,flops,bytes,*,attained,*) _book_ok q3_csv_columns ;;
*) _book_fail q3_csv_columns "header $_header" ;; esac
# header + 2 × 511 rows
_rows=$(printf '%s\n' "$_book_text" | wc -l | tr -d ' ')
if [ "$_rows" = 1023 ]; then _book_ok q3_csv_rows; else _book_fail q3_csv_rows "$_rows lines, expected 1023"; fi
# attained(B) = 2BDF / max(2BDF/1.97e14, (2BD + DF + 2BF)/8.2e11):
#   D = F = 4096, B = 64: 2147483648 / 21.7388 µs = 98.786 TFLOP/s
#   D = F = 4096, B = 100: 3355443200 / max(17.03 µs, 22.46 µs) = 149.41 TFLOP/s
#   D = F = 4096, B = 200: compute-bound, 1.97e14
#   D = F = 1024, B = 100: 209715200 / max(1.065 µs, 1.778 µs) = 117.93 TFLOP/s
#   D = F = 1024, B = 200: 419430400 / max(2.129 µs, 2.278 µs) = 184.14 TFLOP/s
#   D = F = 1024, B = 1: 2097152 / max(10.65 ns, 1.284 µs) = 1.6336 TFLOP/s
#   D = F = 4096, B = 511 and D = F = 1024, B = 300: past the knees, 1.97e14
for p in 4096:64 4096:100 4096:200 4096:511 1024:1 1024:100 1024:200 1024:300; do
    n=${p%:*} B=${p#*:}
    check_csv "q3_csv_${n}_B${B}_attained" "DF_$n" "$B" attained \
        "2*$B*$n*$n / $(mx "2*$B*$n*$n/1.97e14" "(2*$B*$n + $n*$n + 2*$B*$n)/8.2e11")"
done
# the whole row at D = F = 4096, B = 64 (raw units: FLOPs, bytes, seconds, FLOP/s):
# flops 2·64·4096² = 2147483648; bytes 2·64·4096 + 4096² + 2·64·4096 = 17825792;
# intensity 2147483648/17825792 = 120.47; t_math 2147483648/1.97e14 = 10.90 µs;
# t_hbm 17825792/8.2e11 = 21.74 µs; t_comm 0; t_lower = t_hbm; t_upper = t_math + t_hbm
r='DF_4096 64'
# shellcheck disable=SC2086
{
check_csv q3_csv_row_flops $r flops '2*64*4096*4096'
check_csv q3_csv_row_bytes $r bytes '2*64*4096 + 4096*4096 + 2*64*4096'
check_csv q3_csv_row_intensity $r intensity '2*64*4096*4096 / (2*64*4096 + 4096*4096 + 2*64*4096)'
check_csv q3_csv_row_ridge $r ridge '1.97e14 / 8.2e11'
check_csv q3_csv_row_t_math $r t_math '2*64*4096*4096 / 1.97e14'
check_csv q3_csv_row_t_hbm $r t_hbm '(2*64*4096 + 4096*4096 + 2*64*4096) / 8.2e11'
check_csv q3_csv_row_t_comm $r t_comm 0
check_csv q3_csv_row_t_lower $r t_lower '(2*64*4096 + 4096*4096 + 2*64*4096) / 8.2e11'
check_csv q3_csv_row_t_upper $r t_upper '2*64*4096*4096/1.97e14 + (2*64*4096 + 4096*4096 + 2*64*4096)/8.2e11'
check_csv q3_csv_row_chips $r chips 1
}
_sel() { printf '%s\n' "$_book_text" | "$(dirname "$ROOFLINE")/check-output" select "$1" stmt=DF_4096 at=64; }
if [ "$(_sel bound)" = memory ]; then _book_ok q3_csv_row_bound; else _book_fail q3_csv_row_bound "got '$(_sel bound)'"; fi
if [ "$(_sel chip)" = v5e ]; then _book_ok q3_csv_row_chip; else _book_fail q3_csv_row_chip "got '$(_sel chip)'"; fi
if [ "$(_sel kind)" = sweep ] && [ "$(_sel dim)" = B ]; then _book_ok q3_csv_row_kind; else _book_fail q3_csv_row_kind "got '$(_sel kind)' '$(_sel dim)'"; fi
# an unnamed statement's label is quoted whole, commas and all
run_text --csv -e "$q3_dims" -e 'sweep B in [64] { bf16[B,D] *_D int8[D,F] on v5e }'
check_csv csv_quoted_label 'bf16[B,D] *_D int8[D,F] on v5e' 64 flops '2*64*4096*4096'
case $(printf '%s\n' "$_book_text" | sed -n 2p) in
'"sweep",1,"bf16[B,D] *_D int8[D,F] on v5e",,,"v5e",1,"B",64,'*) _book_ok csv_quoted_label_text ;;
*) _book_fail csv_quoted_label_text "row $(printf '%s\n' "$_book_text" | sed -n 2p | cut -c1-80)" ;; esac

# ---- step ---------------------------------------------------------------------------
# 1 .. 512 step 8: 1, 9, ..., 505 (505 + 8 = 513 > 512): (512 - 1)/8 = 63.9, 64 points
run -e "$q3_dims" -e 'sweep B in 1 .. 512 step 8 { bf16[B,D] *_D int8[D,F] on v5e }'
check_lines step_points '"at":{"B":' 64
check_lines step_first '"at":{"B":1}' 1
check_lines step_second '"at":{"B":9}' 1
check_lines step_last '"at":{"B":505}' 1
check_lines step_not_512 '"at":{"B":512}' 0
# B = 505: 2·505·4096² / max(86.0 µs, 30.6 µs): t_lower = T_math
check step_last_t_lower t_lower '2*505*4096*4096/1.97e14'
# 64 .. 256 step 64: exactly 64, 128, 192, 256 (the end is taken when the step lands on it)
run -e "$q3_dims" -e 'sweep B in 64 .. 256 step 64 { bf16[B,D] *_D int8[D,F] on v5e }'
check_xs step_exact_end '64 128 192 256'

# ---- log ----------------------------------------------------------------------------
# 1 .. 20 log 10: 20^(i/9), i = 0..9 = 1, 1.395, 1.946, 2.714, 3.788, 5.285, 7.368, 10.28,
# 14.34, 20; rounded 1 1 2 3 4 5 7 10 14 20; the second 1 dropped: 9 points
run -e "$q3_dims" -e 'sweep B in 1 .. 20 log 10 { bf16[B,D] *_D int8[D,F] on v5e }'
check_xs log_small '1 2 3 4 5 7 10 14 20'
# 1 .. 1M log 10: 10^(6i/9) = 1, 4.64, 21.5, 100, 464.2, 2154.4, 1e4, 46415.9, 215443.5,
# 1e6, rounded
run -e "$q3_dims" -e 'sweep B in 1 .. 1M log 10 { bf16[B,D] *_D int8[D,F] on v5e }'
check_xs log_decades '1 5 22 100 464 2154 10000 46416 215443 1000000'
# B = 215443: compute-bound; t_lower = 2·215443·4096²/1.97e14 = 36.70 ms
if pick log_215443 '"at":{"B":215443}'; then
    check log_215443_t_lower t_lower '2*215443*4096*4096/1.97e14'
    check_str log_215443_bound bound compute
fi
# 1 .. 1M log 40: 10^(6i/39), i = 0..39, rounded; the first 9 (1, 1.42, 2.03, 2.89,
# 4.12, 5.88, 8.38, 11.9, 17.0) give 1 1 2 3 4 6 8 12 17: one duplicate, so 39 points
run -e "$q3_dims" -e 'sweep B in 1 .. 1M log 40 { bf16[B,D] *_D int8[D,F] on v5e }'
check_lines log_40_points '"at":{"B":' 39
check_lines log_40_first '"at":{"B":1}' 1
check_lines log_40_2 '"at":{"B":2}' 1
check_lines log_40_6 '"at":{"B":6}' 1
check_lines log_40_17 '"at":{"B":17}' 1
check_lines log_40_last '"at":{"B":1000000}' 1

# ---- lists --------------------------------------------------------------------------
# [64, 128, 256]: exactly those points, in that order
run -e "$q3_dims" -e 'sweep B in [64, 128, 256] { bf16[B,D] *_D int8[D,F] on v5e }'
check_xs list_points '64 128 256'
# B = 128: 2·128·4096² / max(21.80 µs, 23.02 µs) — still memory; 256 compute
if pick list_128 '"at":{"B":128}'; then
    check list_128_t_lower t_lower '(2*128*4096 + 4096*4096 + 2*128*4096)/8.2e11'
    check_str list_128_bound bound memory
fi
# list entries are expressions: [2*32, D/16] = 64, 256
run -e "$q3_dims" -e 'sweep B in [2*32, D/16] { bf16[B,D] *_D int8[D,F] on v5e }'
check_xs list_exprs '64 256'

# ---- a sharded sweep: t_comm, comm_bytes, chips -------------------------------------
# The two-chip example over D, B = 512, F = 16384: per chip flops BDF, bytes
# BD + DF + 2BF, comm_bytes 2BF = 16777216 (the partial sums), t_comm 2BF/4.5e10
# = 372.8 µs. D = 8192: T_math = 512·8192·16384/1.97e14 = 348.8 µs < t_comm: comm.
# D = 16384: T_math = 697.7 µs > t_comm: compute.
run -e 'let B = 512, F = 16384' -e 'sweep D in [8192, 16384] { bf16[B,D] *_D bf16[D,F] on v5e shard D over 2 }'
if pick two_chip_8192 '"at":{"D":8192}'; then
    check two_chip_8192_chips chips 2
    check two_chip_8192_flops flops '512*8192*16384'
    check two_chip_8192_bytes bytes '512*8192 + 8192*16384 + 2*512*16384'
    check two_chip_8192_comm_bytes comm_bytes '2*512*16384'
    check two_chip_8192_t_comm t_comm '2*512*16384/4.5e10'
    check two_chip_8192_t_lower t_lower '2*512*16384/4.5e10'
    check_str two_chip_8192_bound bound comm
fi
if pick two_chip_16384 '"at":{"D":16384}'; then
    check two_chip_16384_t_lower t_lower '512*16384*16384/1.97e14'
    check two_chip_16384_t_upper t_upper '512*16384*16384/1.97e14 + (512*16384 + 16384*16384 + 2*512*16384)/8.2e11 + 2*512*16384/4.5e10'
    check_str two_chip_16384_bound bound compute
fi

# ---- charts beside --csv and --json ------------------------------------------------
# An SVG file is written whatever the format; the rows are printed as well (2 + 1 lines).
svgdir=$(mktemp -d)
run_text --csv -e "$q3_dims" -e "sweep B in [64, 256] plot \"$svgdir/q3.svg\" { bf16[B,D] *_D int8[D,F] on v5e }"
case $(printf '%s\n' "$_book_text" | head -n 1) in kind,*) _book_ok chart_csv_header ;;
*) _book_fail chart_csv_header "no kind,... header" ;; esac
_rows=$(printf '%s\n' "$_book_text" | wc -l | tr -d ' ')
if [ "$_rows" = 3 ]; then _book_ok chart_csv_rows; else _book_fail chart_csv_rows "$_rows lines, expected 3"; fi
if grep -q '<svg' "$svgdir/q3.svg" 2> /dev/null; then _book_ok chart_csv_svg; else _book_fail chart_csv_svg "no SVG written"; fi
rm -rf "$svgdir"
# A terminal chart is drawn only in text mode: with --json, the two points and nothing else
run -e "$q3_dims" -e 'sweep B in [64, 256] plot { bf16[B,D] *_D int8[D,F] on v5e }'
_lines=$(printf '%s\n' "$_book_out" | wc -l | tr -d ' ')
if [ "$_lines" = 2 ]; then _book_ok chart_json_no_chart; else _book_fail chart_json_no_chart "$_lines lines, expected 2"; fi
check chart_json_t_lower t_lower '2*256*4096*4096/1.97e14'

# ---- the dim's own value is kept ----------------------------------------------------
# B = 7 before the sweep is 7 again after it: 2·7·4096² = 234881024 flops
run -e "$q3_dims" -e 'let B = 7' -e 'sweep B in [64] { bf16[B,D] *_D int8[D,F] on v5e }' \
    -e 'bf16[B,D] *_D int8[D,F] on v5e'
check dim_restored flops '2*7*4096*4096'

finish
