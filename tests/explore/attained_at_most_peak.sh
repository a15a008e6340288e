# Attained FLOP/s never exceeds the peak: where T_math is the lower bound it is the
# peak itself (197e12 for bf16 on v5e, 3.94e14 for int8, 9.89e14 for bf16 on H100),
# not flops / (flops / peak), which can land an ulp above (197000000000000.03 at
# B = 31623 once). Checked on every row of log sweeps, with --csv's full precision.
tmp=$(mktemp)
trap 'rm -f "$tmp" "$tmp".*' EXIT
check_peak() { # NAME PEAK STATEMENT [DIMS]
    "$ROOFLINE" --csv -e "${4:-let D = 8k, F = 32k}" -e "sweep B in 1 .. 1M log 300 { q = $3 }" \
        > "$tmp"
    # the columns by name, through check-output's CSV reader
    for c in at bound attained; do "$(dirname "$ROOFLINE")/check-output" select $c < "$tmp" > "$tmp.$c"; done
    paste -d ' ' "$tmp.at" "$tmp.bound" "$tmp.attained" |
        awk -v name="$1" -v peak="$2" '{
            rows++; a = $3 + 0
            if (a > peak) { over++; if (!first) first = $1 " " $3 }
            if ($2 == "compute" && a != peak) { off++; if (!first) first = $1 " " $3 }
            if ($2 == "compute") computes++
        } END {
            if (rows < 250 || computes == 0) print "FAIL " name ": " rows " rows, " computes " compute-bound"
            else if (over || off) print "FAIL " name ": " over " above the peak, " off " compute-bound rows not at it (first: B = " first ")"
            else print "ok " name ": attained <= peak on every row, = peak when compute-bound"
        }'
}
check_peak 'bf16 x int8 on v5e' 1.97e14 'bf16[B,D] *_D int8[D,F] on v5e'
check_peak 'int8 x int8 on v5e' 3.94e14 'int8[B,D] *_D int8[D,F] on v5e'
check_peak 'bf16 on H100' 9.89e14 'bf16[B,D] *_D bf16[D,F] on H100'
# D/2 = 8000 > 1.97e14/4.5e10 = 4378: compute-bound once B is large
check_peak 'sharded on v5e' 1.97e14 'bf16[B,D] *_D bf16[D,F] on v5e shard D over 2' \
    'let D = 16k, F = 32k'
