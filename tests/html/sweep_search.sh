# A sweep's page and a search's: each well formed and self-contained, with its chart
# (the sweep's curves with the crossovers marked, the Pareto chart), its tables, and
# the --json run's figures; --json beside --html still prints the records.
. tests/html/lib.shinc
cat > "$tmp/sweep.roof" <<'ROOF'
sweep B in 1 .. 511 plot {
    DF_4096 = bf16[B,4096] *_D int8[4096,4096] on v5e
    DF_1024 = bf16[B,1024] *_D int8[1024,1024] on v5e
}
sweep B in [64, 136, 137, 226, 227] {
    DF_4096 = bf16[B,4096] *_D int8[4096,4096] on v5e
}
ROOF
"$ROOFLINE" --json --html "$tmp/sweep.html" "$tmp/sweep.roof" > "$tmp/sweep.json"
"$ROOFLINE" --json "$tmp/sweep.roof" | cmp -s - "$tmp/sweep.json" &&
    pass "--json --html prints the same records as --json"
well_formed "$tmp/sweep.html" "the sweep page"
self_contained "$tmp/sweep.html" "the sweep page"
has "$tmp/sweep.html" "two sweeps, not one" '<section id="s2" class="sweep">'
has "$tmp/sweep.html" "the first titled by its statements and line" \
    '<h2>Sweep over <code>B</code>: <code>DF_4096</code>, <code>DF_1024</code> <small>line 2</small></h2>'
has "$tmp/sweep.html" "the second by its own" \
    '<h2>Sweep over <code>B</code>: <code>DF_4096</code> <small>line 6</small></h2>'
has "$tmp/sweep.html" "the sweep's chart" 'clipPath id="s1-sweep-plot-area"'
has "$tmp/sweep.html" "a curve for each statement" '<polyline class="series"'
has "$tmp/sweep.html" "DF_4096 turns compute-bound at B = 137" '>compute from B = 137</text>'
has "$tmp/sweep.html" "DF_1024 at B = 227" '>compute from B = 227</text>'
has "$tmp/sweep.html" "the crossing's note" 'DF_4096: memory-bound at B = 136, compute-bound at B = 137'
has "$tmp/sweep.html" "a long table says it is thinned" 'every 4th shown'
v=$(grep '"B":136' "$tmp/sweep.json" | head -1 | grep -o '"t_lower":[^,]*' | sed 's/.*://')
has "$tmp/sweep.html" "the t_lower at B = 136 as --json wrote it" "data-v=\"$v\""
has "$tmp/sweep.html" "the table's rows" '<td class="n" data-v="227" title="B = 227">227</td>'

# the page and the records of one run (the sweep's above shows they are --json's)
"$ROOFLINE" --json --html "$tmp/search.html" examples/search_llama3_70b.roof > "$tmp/search.json"
well_formed "$tmp/search.html" "the search page"
self_contained "$tmp/search.html" "the search page"
distinct_titles "$tmp/search.html" "the search page"
has "$tmp/search.html" "the Pareto chart" 'clipPath id="s1-pareto-plot-area"'
has "$tmp/search.html" "the front as a line" '<polyline class="series"'
ranked=$(grep -c '"rank":[0-9]' "$tmp/search.json")
rows=$(grep -c '^<tr><td class="n" data-v="[0-9]*" title="its place by t_step' "$tmp/search.html")
[ "$ranked" = "$rows" ] && pass "a row for each ranked configuration" ||
    fail "the ranked rows" "$rows rows for $ranked ranked"
front=$(grep -c '"pareto":true' "$tmp/search.json")
stars=$(grep -c '>★</td>' "$tmp/search.html")
[ "$front" = "$stars" ] && pass "a star for each configuration on the front" ||
    fail "the front" "$stars stars for $front"
v=$(json_value "$tmp/search.json" 1 t_step)
has "$tmp/search.html" "the fastest step as --json wrote it" "data-v=\"$v\""
has "$tmp/search.html" "the search states its mode, not one configuration's mesh" \
    '<p class="config">training</p>'
has "$tmp/sweep.html" "the sweep states its mode" '<p class="config">inference</p>'

# In training the sweep's record says so and the page states it (a sweep keeps rows,
# not records: its curves keep the mode)
printf 'mode training\nsweep B in [64, 128] { q = bf16[B,4096] *_D int8[4096,4096] on v5e }\n' > "$tmp/training.roof"
"$ROOFLINE" --html "$tmp/training.html" "$tmp/training.roof" > /dev/null
has "$tmp/training.html" "a sweep in training states it" '<p class="config">training</p>'
finish
