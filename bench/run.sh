#!/bin/sh
# run.sh ROOFLINE — `make bench`: the figures of BENCHMARKS.md, each the median of
# several runs, printed as Markdown rows with the command that produced them.
# Times and peak memory come from bench/timer.c; scratch files go to build/bench.
# Figures are noisy: run it on an idle machine, and run it twice.
R=${1:?usage: run.sh ROOFLINE}
W=build/bench
PY=/usr/bin/python3
mkdir -p "$W"
cc -O2 -o "$W/loop" bench/loop.c || exit 1
cc -O2 -o "$W/timer" bench/timer.c || exit 1
for n in 100000 1000000; do
    [ -f "$W/statements-$n.roof" ] || sh bench/gen.sh $n > "$W/statements-$n.roof"
done
sed 's/1 \.\. 511/1 .. 1M/; s/q3\.svg/q3-1m.svg/' bench/q3.roof > "$W/q3-1m.roof"
model=examples/model_llama3_70b.roof
[ -f "$model" ] || model=bench/model80.roof

# measure RUNS COMMAND: "SECONDS KB", the median wall time and median peak RSS of RUNS
# runs (after two warm-ups), from bench/timer.c: fork + exec, no shell, so the figures
# do not depend on hyperfine or GNU time being installed.
measure() { "$W/timer" "$1" $2 || echo "bench: $2 failed" >&2; }
seconds() { measure "$@" | awk '{ print $1 }'; }

# once COMMAND: the wall time of one run, no warm-up (for runs of tens of seconds)
once() {
    t0=$(date +%s.%N); $1 > /dev/null || echo "bench: $1 failed" >&2; t1=$(date +%s.%N)
    awk "BEGIN { printf \"%.6f\\n\", $t1 - $t0 }"
}
calc() { awk "BEGIN { printf \"$1\n\", $2 }"; }
row() { printf '| %s | `%s` | %s |\n' "$1" "$2" "$3"; }

echo "machine: $(nproc) cores, $(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -1)," \
     "$(uname -sr); $(date -u +%Y-%m-%d)"
echo
echo '| figure | command | median |'
echo '|---|---|---|'

true_s=$(seconds 300 /bin/true)
start_s=$(seconds 300 "$R -e 1")
row 'start-up, nothing' /bin/true "$(calc '%.2f ms' "$true_s * 1e3")"
row 'start-up to first answer (stdlib loaded)' "roofline -e 1" \
    "$(calc '%.2f ms (%.2f ms over /bin/true)' "$start_s * 1e3, ($start_s - $true_s) * 1e3")"
# The ratio from rounds that alternate the two (a slow spell of the machine slows both
# of a round): the median of 7 rounds' ratios, each of medians of 60 runs.
startup_ratio() {
    for round in 1 2 3 4 5 6 7; do
        t=$(seconds 60 /bin/true) r=$(seconds 60 "$R -e 1")
        calc '%.4f' "$r / $t"
    done | sort -n | sed -n 4p
}
row 'start-up over /bin/true' 'roofline -e 1 ÷ /bin/true' \
    "$(calc '%.2f× (median of 7 alternating rounds)' "$(startup_ratio)")"

sweep_s=$(seconds 30 "$R bench/sweep.roof")
loop_ns=$("$W/loop" | awk '{ print $1 }')
net_s=$(calc '%.6f' "$sweep_s - $start_s")
row 'sweep, 1,000,000 points, SVG chart' "roofline bench/sweep.roof" \
    "$(calc '%.1f ms: %.2f M evaluations/s (%.2f M/s net of start-up)' \
        "$sweep_s * 1e3, 1 / $sweep_s, 1 / $net_s")"
row 'the same formulas as a C loop' "bench/loop (cc -O2 bench/loop.c)" \
    "$(calc '%.2f ns/point: %.0f M evaluations/s' "$loop_ns, 1e3 / $loop_ns")"
row 'sweep over the C loop' 'bench/sweep.roof ÷ bench/loop' "$(calc '%.1f× (net of start-up)' "$net_s * 1e9 / ($loop_ns * 1e6)")"

for n in 100000 1000000; do
    runs=5; [ $n = 1000000 ] && runs=3
    set -- $(measure $runs "$R $W/statements-$n.roof")
    t=$1 m=$(calc '%.1f' "$2 / 1024")
    row "$n statements (bench/gen.sh $n)" "roofline $W/statements-$n.roof" \
        "$(calc '%.3f s, %.2f µs/statement, peak RSS %.1f MB' "$t, $t / $n * 1e6, $m")"
done

model_s=$(seconds 50 "$R $model")
row '80-layer model' "roofline $model" "$(calc '%.2f ms' "$model_s * 1e3")"

# explore NAME STATEMENT: 200 of one exploration statement after LLaMA-3 70B's dims
explore() {
    f=$W/$1-200.roof
    { echo 'let D = 8192, F = 28672, N = 64, K = 8, H = 128, L = 80, V = 128256'
      i=0; while [ $i -lt 200 ]; do echo "$2"; i=$((i + 1)); done; } > "$f"
    s=$(seconds 10 "$R $f")
    row "$1 (200 statements: \`$2\`)" "roofline $f" \
        "$(calc '%.3f ms per statement (net of start-up)' "($s - $start_s) / 200 * 1e3")"
}
explore solve 'solve B: bf16[B,D] *_D bf16[D,F] on v5e'
explore fit 'fit B: decode(B, 8192, D, F, N, K, H, L, V, tp = {X, Y}) on v5e 4x4'
explore serve 'serve B, S: decode(B, S, D, F, N, K, H, L, V, tp = {X, Y}) on v5e 4x4 with prompt = 2048, output = 512'

# The search: the configurations its header counts (twins not made, dropped, costed),
# on one core (--jobs 1) and on all of them (--jobs, one per core by default).
# Costed: those that fit and those that do not (the others were dropped by a bound).
set -- $("$R" --jobs 1 bench/search70b.roof |
    sed -n 's/^  \([0-9]*\) configurations: \([0-9]*\) fit in .* a chip, \([0-9]*\) do not;.*/\1 \2 \3/p')
configs=$1 costed=$(($2 + $3))
search_1=$(seconds 3 "$R --jobs 1 --json bench/search70b.roof")
search_n=$(seconds 3 "$R --json bench/search70b.roof")
row "search, LLaMA-3 70B training, $configs configurations ($costed costed), one core" \
    "roofline --jobs 1 --json bench/search70b.roof" \
    "$(calc '%.2f s: %.1f µs per configuration, %.1f µs per one costed (net of start-up)' \
        "$search_1, ($search_1 - $start_s) / $configs * 1e6, ($search_1 - $start_s) / $costed * 1e6")"
row "the same on all $(nproc) cores" "roofline --json bench/search70b.roof" \
    "$(calc '%.2f s: %.2f× one core' "$search_n, $search_1 / $search_n")"

# The same search over the whole plan (six plans a mesh): one run on each, no warm-up.
set -- $("$R" --jobs 1 bench/search70b_plan.roof |
    sed -n 's/^  \([0-9]*\) configurations: \([0-9]*\) fit in .* a chip, \([0-9]*\) do not;.*/\1 \2 \3/p')
configs=$1 costed=$(($2 + $3))
plan_1=$(once "$R --jobs 1 --json bench/search70b_plan.roof")
plan_n=$(once "$R --json bench/search70b_plan.roof")
row "the same with microbatches in [1, 4] and remat in [none, selective, full], $configs configurations ($costed costed), one core" \
    "roofline --jobs 1 --json bench/search70b_plan.roof" \
    "$(calc '%.2f s: %.1f µs per configuration, %.1f µs per one costed' \
        "$plan_1, $plan_1 / $configs * 1e6, $plan_1 / $costed * 1e6")"
row "the same on all $(nproc) cores" "roofline --json bench/search70b_plan.roof" \
    "$(calc '%.2f s: %.2f× one core' "$plan_n, $plan_1 / $plan_n")"

# A sweep that costs a whole model at each of 1,000 points, on one core and on all.
sweep_1=$(seconds 3 "$R --jobs 1 bench/sweep_model.roof")
sweep_n=$(seconds 3 "$R bench/sweep_model.roof")
row "sweep of a whole model, 1,000 points, one core" "roofline --jobs 1 bench/sweep_model.roof" \
    "$(calc '%.3f s: %.1f µs per point (net of start-up)' "$sweep_1, ($sweep_1 - $start_s) / 1000 * 1e6")"
row "the same on all $(nproc) cores" "roofline bench/sweep_model.roof" \
    "$(calc '%.3f s: %.2f× one core' "$sweep_n, $sweep_1 / $sweep_n")"

if ! "$PY" -c 'import numpy' 2> /dev/null; then
    echo; echo "no Python rows: $PY cannot import numpy (apt-get install python3-numpy)"
    exit 0
fi
py_s=$(seconds 20 "$PY bench/q3.py 511")
q3_s=$(seconds 20 "$R bench/q3.roof")
row "the chapter's Question 3 code, B = 1 .. 511" "python3 bench/q3.py 511" "$(calc '%.1f ms' "$py_s * 1e3")"
row 'the same as a sweep, with its SVG chart' "roofline bench/q3.roof" \
    "$(calc '%.2f ms: Python takes %.0f×' "$q3_s * 1e3, $py_s / $q3_s")"
py_s=$(seconds 5 "$PY bench/q3.py 1000000")
q3_s=$(seconds 5 "$R $W/q3-1m.roof")
row "the chapter's code, B = 1 .. 1,000,000" "python3 bench/q3.py 1000000" "$(calc '%.1f ms' "$py_s * 1e3")"
row 'the same as a sweep, with its SVG chart' "roofline $W/q3-1m.roof" \
    "$(calc '%.1f ms: Python takes %.2f×' "$q3_s * 1e3, $py_s / $q3_s")"

# The same numbers: attained FLOP/s at a few B, from both, to the last digit.
bs="1 64 136 137 226 227 511"
"$PY" bench/q3.py 511 $bs | sort > "$W/q3-python.csv"
"$R" --csv bench/q3.roof | awk -F, -v bs=" $bs " 'index(bs, " " $2 " ") {
    gsub(/"/, "", $1); print $1 "," $2 "," $NF }' | sort > "$W/q3-roofline.csv"
echo
echo "Question 3, attained FLOP/s at B = $bs (roofline --csv against bench/q3.py):"
paste -d, "$W/q3-python.csv" "$W/q3-roofline.csv" | awk -F, '{
    d = $3 - $6; if (d < 0) d = -d; rel = $3 ? d / $3 : d; if (rel > worst) worst = rel
    printf "  %-8s B = %-4s python %-22s roofline %s\n", $1, $2, $3, $6 }
    END { printf "  largest relative difference: %.3g\n", worst }'
