#!/bin/sh
# Every row of a search says the statement that costs it alone (`reproduce:`); pasted,
# that statement gives the row's figures to the last digit. Re-costed one by one: the
# top 20 rows and a fixed sample of the others (awk's rand() from seed 27), ranked or
# not, of two searches over the whole plan: LLaMA-3 8B's shape on 16 v5p chips
# (microbatches with the step's 128 sequences kept, every remat policy and a checkpoint
# set, both pipeline schedules, ZeRO 0 and 1), and on 16 H100s (two levels of the
# fabric: NVLink in a node of 8, InfiniBand across). The script's settings come back
# after the search: a call after it is costed as before it.
: "${ROOFLINE:?ROOFLINE must name the roofline binary}"
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
dims='let D = 4096, F = 14336, N = 32, K = 8, H = 128, L = 32, V = 128256, T = 1024'
settings='mode training microbatches 2'
call='model(64, T, D, F, N, K, H, L, V)'
named='model(B = 64, T = T, D = D, F = F, N = N, K = K, H = H, L = L, V = V)'
tpu="search $call on v5p over 16 with microbatches in [1, 4], remat in [none, selective, full, save(layer.x, layer.y)], schedule in [one_f_one_b, gpipe], zero in [0, 1]"
gpu="search $named on H100 over 16 with microbatches in [2, 8], remat in [none, full]"
status=0
# The comparison of a row with its statement's record alone: prints each of the row's
# figures that the statement alone does not give (the same number as JSON writes it),
# from the top level of each (before "ops"). Input: lines "ROW" then "ALONE", in pairs.
compare_awk='
    function get(line, key,   m) {
        if (!match(line, "\"" key "\":[^,}]*")) return ""
        m = substr(line, RSTART, RLENGTH); sub(/^[^:]*:/, "", m); return m
    }
    function differ(row, alone,   n, i, k, a, b, pairs, out) {
        sub(/,"ops":.*/, "", row); sub(/,"ops":.*/, "", alone)
        n = split("t_step:t_lower t_derated:t_derated memory:memory flops:flops", pairs, " ")
        for (i = 1; i <= n; i++) {
            split(pairs[i], k, ":")
            a = get(row, k[1]); b = get(alone, k[2])
            if (a == "" || a != b) out = out k[1] " " a ", alone " b "\n"
        }
        return out
    }'
compare() { # ROW ALONE
    printf '%s\n%s\n' "$1" "$2" | awk "$compare_awk"'
        NR == 1 { row = $0 } NR == 2 { alone = $0 } END { printf "%s", differ(row, alone) }'
}
check() { # NAME SEARCH SAMPLE: re-costs the top 20 rows and about SAMPLE others
    "$ROOFLINE" --json -e "$dims" -e "$settings" -e "$2" > "$tmp/$1.json" || {
        echo "FAIL $1: the search failed"; status=1; return; }
    awk -v n="$(wc -l < "$tmp/$1.json")" -v want="$3" \
        'BEGIN { srand(27) } NR <= 20 || rand() < want / n' "$tmp/$1.json" > "$tmp/$1.rows"
    # each row's statement costed alone, by a roofline of its own (the only process a
    # row starts), its records and then a line "=" appended to one file; one awk
    # compares them all, each row with the last record before its "="
    checked=0
    : > "$tmp/$1.alone"
    while IFS= read -r row; do
        statement=${row##*\"reproduce\":\"}
        statement=${statement%%\"*}
        checked=$((checked + 1))
        "$ROOFLINE" --json -e "$dims" -e "$statement" >> "$tmp/$1.alone"
        echo "=" >> "$tmp/$1.alone"
    done < "$tmp/$1.rows"
    bad=$(awk -v name="$1" "$compare_awk"'
        NR == FNR { row[FNR] = $0; next }
        $0 == "=" { pair(); next }
        { line = $0 }
        function pair(   d, s) {
            k++; d = differ(row[k], line); line = ""
            if (d == "") return
            s = row[k]; sub(/.*"reproduce":"/, "", s); sub(/".*/, "", s)
            if (bad++ < 5) printf "FAIL %s: %s: %s", name, s, d
        }
        END { print bad + 0 }' "$tmp/$1.rows" "$tmp/$1.alone")
    printf '%s\n' "$bad" | sed '$d'
    bad=$(printf '%s\n' "$bad" | tail -1)
    if [ "$bad" -eq 0 ] && [ $checked -gt 20 ]; then
        echo "ok $1: the top 20 rows and a sample of the others re-cost to the same figures"
    else
        echo "FAIL $1: $bad of $checked rows differ"; status=1
    fi
}
check v5p "$tpu" 100
check H100 "$gpu" 30
# The rows state the whole plan: a pipeline's row with gpipe, ZeRO 1 and a checkpoint set
# is among them, its batch 128 / 4 = 32 a microbatch.
grep '"schedule":"gpipe"' "$tmp/v5p.json" | grep '"zero":1' | grep -q \
    '"reproduce":"mode training microbatches 4 schedule gpipe; remat save layer.x, layer.y; optimizer adam zero 1; model(32, T,' &&
    echo "ok a row's whole plan" || { echo "FAIL no row with the whole plan"; status=1; }
# The example's search over the plan: its best row re-costs alone to the same figures.
example=$(dirname "$0")/../../examples/search_llama3_70b.roof
best=$("$ROOFLINE" --json "$example" | grep '"stmt":"search[^"]*with microbatches' |
       grep '"rank":1}')
statement=${best##*\"reproduce\":\"}
statement=${statement%%\"*}
differ=$(compare "$best" "$("$ROOFLINE" --json \
    -e 'let D = 8192, F = 28672, N = 64, K = 8, H = 128, L = 80, V = 128256' \
    -e 'let B = 1024, T = 4096' -e "$statement" | tail -1)")
[ -n "$best" ] && [ -z "$differ" ] && echo "ok the example's best plan re-costs alone" ||
    { echo "FAIL the example's best plan: $statement: $differ"; status=1; }
# The settings in force come back after a search that ranged over them (the records
# alike but for "file": the call is the fourth -e, then the fifth).
before=$("$ROOFLINE" --json -e "$dims" -e "$settings" -e 'remat save layer.x' -e "$call on v5p" |
         sed 's/"file":"[^"]*",//')
after=$("$ROOFLINE" --json -e "$dims" -e "$settings" -e 'remat save layer.x' -e "$gpu" \
        -e "$call on v5p" | tail -1 | sed 's/"file":"[^"]*",//')
printf '%s\n' "$before" | grep -q '"t_lower"' && [ "$before" = "$after" ] && echo "ok the settings in force after the search" ||
    { echo "FAIL a call after the search differs"; status=1; }
exit $status
