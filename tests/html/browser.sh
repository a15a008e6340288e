# The pages in a real browser: headless Chromium loads the model page and a page of a
# sweep and a search, and the DOM it builds must hold the breakdown's rows and the
# --json run's numbers, the charts, and no script error (window.onerror marks the
# page; the console log is read too); a click on a heading must sort; each model
# section shows its configuration line, and serve, fit and solve their rows in units
# (the figures derived in tests/html/model.sh and reports.sh); and a screenshot of the model page (HTML_KEEP=DIR keeps it there). Without Chromium the
# test is skipped, and says so.
browser=$(command -v chromium || command -v chromium-browser)
if [ -z "$browser" ]; then echo "skipped: chromium not installed"; exit 77; fi
. tests/html/lib.shinc
limit=""; command -v timeout > /dev/null 2>&1 && limit="timeout 120"

# open PAGE OUT [FLAGS]: the DOM after the scripts ran (FLAGS: what to write instead,
# or as well), the console to OUT.log
open_page() {
    # shellcheck disable=SC2086
    $limit "$browser" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
        --disable-background-networking --disable-component-update --disable-sync \
        --enable-logging=stderr --v=0 --user-data-dir="$(mktemp -d "$tmp/profile.XXXXXX")" \
        --window-size=1280,2000 ${3:---dump-dom} "file://$1" > "$2" 2> "$2.log"
}

no_errors() {
    if grep -q 'data-script-error="' "$1"; then fail "$2 runs its script" "$(grep -o 'data-script-error="[^"]*"' "$1")"
    elif grep -qE 'Uncaught|CONSOLE.*[Ee]rror' "$1.log"; then fail "$2 runs its script" "$(grep -E 'Uncaught|CONSOLE' "$1.log" | head -2)"
    else pass "$2 loads without a script error"; fi
}

"$ROOFLINE" --json --html "$tmp/model.html" examples/model_llama3_70b.roof > "$tmp/model.json"
# a click on the breakdown's "share" heading sorts each row's children, largest first
sed 's|</body>|<script>document.querySelectorAll(".tree .head>span")[10].click();var d=document.querySelector(".tree details");document.documentElement.setAttribute("data-first",d.children[1].querySelector(".name").getAttribute("title"));</script></body>|' \
    "$tmp/model.html" > "$tmp/sorted.html"
# the screenshot of the model page (sorted) in the same run of Chromium: a start of it
# is some 3 s of CPU
open_page "$tmp/sorted.html" "$tmp/model.dom" "--dump-dom --screenshot=$tmp/model.png"
no_errors "$tmp/model.dom" "the model page"
leaves=$(grep -o 'class="row leaf"' "$tmp/model.dom" | wc -l)
[ "$leaves" -ge 40 ] && pass "the DOM has the breakdown's leaves" || fail "the breakdown's leaves" "$leaves rows"
grep -qF '<details open="" style="--d:1"><summary class="row">' "$tmp/model.dom" &&
    pass "the breakdown opens two levels" || fail "the breakdown opens two levels" "no open details"
missing=""
for n in 1 2 3; do
    for key in flops t_lower memory; do
        v=$(json_value "$tmp/model.json" $n $key)
        grep -qF "data-v=\"$v\"" "$tmp/model.dom" || missing="$missing $n.$key=$v"
    done
done
[ -z "$missing" ] && pass "the DOM has the --json figures" || fail "the DOM's figures" "missing$missing"
[ "$(grep -o '<svg' "$tmp/model.dom" | wc -l)" -ge 6 ] && pass "three charts and three memory bars" ||
    fail "the charts" "$(grep -o '<svg' "$tmp/model.dom" | wc -l) SVGs"
grep -qF 'data-first="layer"' "$tmp/model.dom" && pass "sorting by share puts the layer first" ||
    fail "sorting by share" "$(grep -o 'data-first="[^"]*"' "$tmp/model.dom")"
# the script's lines 26-27 (training, B = 256, T = 2048 on 128x8), 56 (remat save), 66-67
# (inference, B = 16, S = 8192 on 2x8)
has "$tmp/model.dom" "section 1 shows its configuration" \
    '<p class="config">mesh X=128, Y=8 · training · remat none · B = 256, T = 2048, D = 8192'
has "$tmp/model.dom" "section 2 shows remat save" \
    '<p class="config">mesh X=128, Y=8 · training · remat save · B = 256'
has "$tmp/model.dom" "section 3 shows inference" '<p class="config">mesh X=2, Y=8 · inference · B = 16, S = 8192'

# a sweep and a search on one page; the search table sorted by t_step, slowest first
# (from the scratch directory: explore.roof writes q3.svg where it runs)
root=$(pwd)
cat > "$tmp/reports.roof" <<'ROOF'
chip toy { flops_bf16 = 2e10, hbm_bw = 1e9, hbm_bytes = 1e6, price = 3.6 }
block tiny(B, S, D, E, T = 1) {
    w = bf16[B, T, D] *_D param bf16[D, E]
    a = w *_E cache bf16[B, S, E]
    return a
}
serve B, S: tiny(B, S, 100, 100) on toy with prompt = 100, output = 100, draft = tiny(B, S, 10, 10), k = 3, accept = 0.5
let D = 1024, F = 1024
fit B: bf16[B,D] *_D bf16[D,F] on v5e
let D = 8192, F = 28672
solve B: bf16[B,D] *_D int8[D,F] on v5e
ROOF
# a search of LLaMA-3 8B's shape on 16 to 64 chips: a Pareto front of two (the 70B
# example's page, ten times slower to make, is checked in sweep_search.sh)
cat > "$tmp/search.roof" <<'ROOF'
let D = 4096, F = 14336, N = 32, K = 8, H = 128, L = 32, V = 128256
mode training
let B = 256, T = 2048
search model(B, T, D, F, N, K, H, L, V, pp = {}) on v5p over [16, 32, 64]
mode inference
ROOF
(cd "$tmp" && "$ROOFLINE" --html explore.html "$root/examples/explore.roof" \
    search.roof reports.roof > /dev/null)
sed 's|</body>|<script>var t=document.querySelector("section.search table.data");t.tHead.rows[0].cells[4].click();document.documentElement.setAttribute("data-first",t.tBodies[0].rows[0].cells[0].textContent);</script></body>|' \
    "$tmp/explore.html" > "$tmp/sorted.html"
open_page "$tmp/sorted.html" "$tmp/explore.dom"
no_errors "$tmp/explore.dom" "the sweep and search page"
grep -q 'clipPath id="s[0-9]*-sweep-plot-area"' "$tmp/explore.dom" && pass "the sweep's chart" ||
    fail "the sweep's chart" "none"
grep -q 'clipPath id="s[0-9]*-pareto-plot-area"' "$tmp/explore.dom" && pass "the Pareto chart" ||
    fail "the Pareto chart" "none"
has "$tmp/explore.dom" "the serve's mix" 'prompt 100 + output 100 tokens a request, on 1 chip of toy'
has "$tmp/explore.dom" "the serve's ttft in seconds" '>228.2 µs</td><td class="d">(compute)</td>'
has "$tmp/explore.dom" "its tpot" '>541 µs</td>'
has "$tmp/explore.dom" "its cost in dollars" '>$0.02687</td>'
has "$tmp/explore.dom" "its throughput in tokens/s" '>37210 tokens/s</td>'
has "$tmp/explore.dom" "the fit's bytes beside the HBM" '>fits: 16000000000 B of 16 GB HBM per chip; B = 3905739 needs 16000004096 B</td>'
has "$tmp/explore.dom" "the solve's limit in FLOP/B" '>6372 FLOP/B</td>'
first=$(grep -o 'data-first="[0-9]*"' "$tmp/explore.dom" | tr -dc 0-9)
[ -n "$first" ] && [ "$first" -gt 1 ] && pass "sorting by t_step puts the slowest first" ||
    fail "sorting by t_step" "rank $first first"

size=$(wc -c < "$tmp/model.png" 2> /dev/null || echo 0)
[ "$size" -gt 50000 ] && pass "a screenshot of the model page" || fail "the screenshot" "$size bytes"
[ -z "$HTML_KEEP" ] || cp "$tmp/model.png" "$HTML_KEEP/"
finish
