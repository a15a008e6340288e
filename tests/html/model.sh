# The page of examples/model_llama3_70b.roof (three steps of an 80-layer model): well
# formed, self-contained, under 1 MB, and its figures are the --json run's and the
# text report's: the exact values on hover and as sort keys, the human ones in cells.
. tests/html/lib.shinc
page=$tmp/model.html
"$ROOFLINE" --html "$page" examples/model_llama3_70b.roof > "$tmp/out" 2>&1 ||
    fail "--html runs" "$(cat "$tmp/out")"
grep -q "^wrote $page (.*B)\$" "$tmp/out" && pass "it says where the page went"
"$ROOFLINE" --json examples/model_llama3_70b.roof > "$tmp/json"
"$ROOFLINE" examples/model_llama3_70b.roof > "$tmp/text"
well_formed "$page" "the model page"
self_contained "$page" "the model page"
smaller_than "$page" 1000000 "the model page"
has "$page" "three model sections" '<section id="s3" class="model">'

for n in 1 2 3; do
    missing=""
    for key in flops bytes t_lower t_upper memory params memory_params; do
        v=$(json_value "$tmp/json" $n $key)
        [ -n "$v" ] && grep -qF "data-v=\"$v\"" "$page" || missing="$missing $key=$v"
    done
    if [ -z "$missing" ]; then pass "record $n: flops, bytes, t_lower, t_upper, memory, params"
    else fail "record $n" "not on the page:$missing"; fi
done
has "$page" "the activations of the training step" \
    "data-v=\"$(json_value "$tmp/json" 1 memory_activations)\""
has "$page" "the KV cache of the decode step" "data-v=\"$(json_value "$tmp/json" 3 memory_cache)\""

# the text report's totals, in its human units, are the page's
grep -E '^  (t_lower|t_upper|flops|bytes) ' "$tmp/text" | sed 's/.*= //' | sort -u > "$tmp/totals"
absent=""
while IFS= read -r v; do
    grep -qF ">$v<" "$page" || absent="$absent $v"
done < "$tmp/totals"
if [ -z "$absent" ] && [ -s "$tmp/totals" ]; then pass "every total of the text report"
else fail "the text report's totals" "not on the page:$absent"; fi

# a leaf of the breakdown: the row, its figures, and its formula on hover
has "$page" "the breakdown has attention.q" '<span class="name" title="attention.q">'
has "$page" "a leaf's t_lower has its formula" 'title="max(t_math, t_hbm, t_comm) = max('
has "$page" "a repeat reads as its layer, 80 runs" 'data-v="80" title="runs'
has "$page" "the roofline chart" 'clipPath id="s1-roofline-plot-area"'
has "$page" "the chip's roofs" 'v5p bf16 peak 459 TFLOP/s'
has "$page" "the memory bar against HBM" '>HBM 96 GB</text>'
has "$page" "the memory verdict" '54.26 GB free'

# each section says what was costed (the script: line 26 mode training, line 27
# B = 256, T = 2048, the slice 128x8; line 56 remat save; line 66 mode inference,
# line 67 B = 16, S = 8192 on 2x8), and one statement written twice has two titles
has "$page" "section 1: mesh, mode, remat, dims" \
    '<p class="config">mesh X=128, Y=8 · training · remat none · B = 256, T = 2048, D = 8192'
has "$page" "section 2: remat save" '<p class="config">mesh X=128, Y=8 · training · remat save · B = 256'
has "$page" "section 3: inference" '<p class="config">mesh X=2, Y=8 · inference · B = 16, S = 8192'
titles=$(grep -o '<h2>.*</h2>' "$page" | sort | uniq -d)
if [ -z "$titles" ]; then pass "the sections' titles differ"; else fail "titles" "twice: $titles"; fi
for n in 1 2 3; do
    want=training; [ $n = 3 ] && want=inference
    has "$tmp/json" "record $n has mode $want" "\"line\":$(json_value "$tmp/json" $n line),\"file\":$(json_value "$tmp/json" $n file),\"chip\":\"$(json_value "$tmp/json" $n chip | tr -d '"')\",\"chips\":$(json_value "$tmp/json" $n chips),\"mode\":\"$want\""
done
finish
