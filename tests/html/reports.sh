# serve, fit and solve on the page as their text reports read: a row a figure, with
# how it is derived, its value in its unit and what the value says; rows only for what
# the statement used (a draft's row only with a draft, a price's only with a price);
# each a section of its own, titled by its statement and line.
#
# serve, on tests/serve/speculative.roof's chip and block (all by hand there): a draft
# of k = 3 tokens, half accepted: (1 − 0.5⁴) / (1 − 0.5) = 1.875 tokens a round;
# 2·200·100 + 2·200·10 = 44,000 B of cache a sequence at S = 200; a batch of
# (1e6 − 20,200) / 44,000 = 22.27 → 22, 20,200 + 22 × 44,000 = 988,200 B; ttft 228.2 µs;
# a draft step 74.12 µs, the model over 4 tokens 792 µs; tpot (3 × 74.12 + 792) / 1.875
# = 540.992 µs; decode 22 / 540.992e-6 = 40,666 tokens/s; throughput 22·100 /
# (22·228.2e-6 + 100·540.992e-6) = 37,212.7 tokens/s; cost 3.6 · 1e6 / (3600 ·
# 37,212.7) = $0.026873; finishing 22 / 100 = 0.22; evicted 22·200 / 100 = 44 tokens of
# 220 B, 9,680 B; qps 22 / (540.992e-6 · 100) = 406.66; prefill:gen 228.2e-6 · 22 /
# (540.992e-6 · 100) = 0.0928.
# The same block served plainly on a chip with no price: 2·200·100 = 40,000 B a
# sequence, (1e6 − 20,000) / 40,000 = 24.5 → 24, 20,000 + 24 × 40,000 = 980,000 B.
# A second mix of that serve, prompt 50 + output 20 at a batch of 4 as given: its
# memory at S = 70 is 20,000 + 4 × 2·70·100 = 76,000 B.
# fit (tests/explore/fit_statement.roof): 4096·B + 2,097,152 ≤ 16e9 at B = 3,905,738,
# exactly 16e9 B, which prints in full beside the 16 GB it equals; B = 3,905,739 needs
# 4096 B more, 16,000,004,096 B (in full too: its four digits read 16 GB as well).
# solve: 2·B·D·F / (2·B·D + D·F + 2·B·F) with D = 8192, F = 28672 is 57344·B /
# (9·B + 28672) (over 4096); the v5e ridge 1.97e14 / 8.2e11 = 240.24, crossed at 28672 × 240.24 /
# (57344 − 9 × 240.24) = 124.83; as B grows the intensity → 57344 / 9 = 6371.6.
. tests/html/lib.shinc
cat > "$tmp/reports.roof" <<'ROOF'
chip toy { flops_bf16 = 2e10, hbm_bw = 1e9, hbm_bytes = 1e6, price = 3.6 }
chip toy2 { flops_bf16 = 2e10, hbm_bw = 1e9, hbm_bytes = 1e6 }
block tiny(B, S, D, E, T = 1) {
    w = bf16[B, T, D] *_D param bf16[D, E]
    a = w *_E cache bf16[B, S, E]
    return a
}
serve B, S: tiny(B, S, 100, 100) on toy with prompt = 100, output = 100, draft = tiny(B, S, 10, 10), k = 3, accept = 0.5
serve B, S: tiny(B, S, 100, 100) on toy2 with prompt = 100, output = 100 with prompt = 50, output = 20, batch = 4
let D = 1024, F = 1024
fit B: bf16[B,D] *_D bf16[D,F] on v5e
let D = 8192, F = 28672
solve B: bf16[B,D] *_D int8[D,F] on v5e
ROOF
page=$tmp/reports.html
"$ROOFLINE" --html "$page" "$tmp/reports.roof" > "$tmp/out" 2>&1 || fail "--html runs" "$(cat "$tmp/out")"
well_formed "$page" "the page"
has "$page" "the page's title is the script's name" "<title>roofline: $tmp/reports.roof</title>"
self_contained "$page" "the page"
# section N of the page, alone
section() { sed -n "/^<section id=\"s$1\"/,/^<\/section>/p" "$page" > "$tmp/s$1"; }
section 1; section 2; section 3; section 4
has "$tmp/s1" "the serve's title is its statement" \
    '<h2><code>serve B, S: tiny(B, S, 100, 100) on toy with prompt = 100, output = 100, draft = tiny(B, S, 10, 10), k = 3, accept = 0.5</code> <small>line 8</small></h2>'
has "$tmp/s1" "its chip" '<p class="meta">serve · line 8 · toy · 1 chip</p>'
has "$tmp/s1" "its mix" '<th>mix</th><td class="d" colspan="3">prompt 100 + output 100 tokens a request, on 1 chip of toy</td>'
has "$tmp/s1" "kv_per_seq in bytes" 'title="kv_per_seq = 44000 B">44 kB</td><td class="d">44 kB per chip</td>'
has "$tmp/s1" "the batch in full, against the HBM" \
    '>B, the largest that fits at S = 200</td><td class="n" data-v="22" title="batch = 22">22</td><td class="d">988.2 kB of 1 MB per chip</td>'
has "$tmp/s1" "ttft in seconds" '>228.2 µs</td><td class="d">(compute)</td>'
has "$tmp/s1" "the draft's row" \
    '<th>draft</th><td class="f">k = 3, accept = 0.5: (1 - a^(k+1)) / (1 - a)</td><td class="n" data-v="1.875" title="tokens_per_round = 1.875">1.875 tokens</td><td class="d">a round; at S = 150 a draft step 74.12 µs, the model over k + 1 tokens 792 µs</td>'
has "$tmp/s1" "tpot in seconds" '>541 µs</td><td class="d">(memory); S = 100:'
has "$tmp/s1" "decode in tokens/s" '>40670 tokens/s</td><td class="d">per chip</td>'
has "$tmp/s1" "throughput in tokens/s" '>37210 tokens/s</td><td class="d">per chip, prefills included</td>'
has "$tmp/s1" "the cost in dollars" '>$0.02687</td><td class="d">per 1M output tokens at $3.6 per chip-hour'
has "$tmp/s1" "the price" '<th>price</th><td class="f">USD per chip-hour</td><td class="n" data-v="3.6" title="price = 3.6">$3.6</td>'
has "$tmp/s1" "finishing" '>0.22 sequences</td><td class="d">a step</td>'
has "$tmp/s1" "evicted in tokens and bytes" '>44 tokens</td><td class="d">of KV cache a step: 9.68 kB</td>'
has "$tmp/s1" "qps" '>406.7 queries/s</td>'
has "$tmp/s1" "prefill:gen" '>0.0928 prefill servers</td><td class="d">a generate server, each on 1 chip</td>'
if grep -q '<th>\(k\|accept\|t_draft\|hbm\|tpot_first\)</th>' "$tmp/s1"; then
    fail "no raw record's rows" "$(grep -o '<th>[a-z_]*</th>' "$tmp/s1" | tr '\n' ' ')"
else pass "no raw record's rows"; fi

has "$tmp/s2" "the plain serve's title" '<small>line 9</small></h2>'
has "$tmp/s2" "its batch" 'data-v="24" title="batch = 24">24</td><td class="d">980 kB of 1 MB per chip</td>'
has "$tmp/s2" "its first mix" '<h3>mix 1 of 2</h3>'
has "$tmp/s2" "its second mix, the batch as given" \
    '>B, as given at S = 70</td><td class="n" data-v="4" title="batch = 4">4</td><td class="d">76 kB of 1 MB per chip</td>'
has "$tmp/s2" "no price: says how to give one" \
    '<th>cost</th><td class="d" colspan="3">no price for toy2: give one in USD per chip-hour'
for row in draft price; do
    if grep -q "<th>$row</th>" "$tmp/s2"; then fail "no $row row without one" "it has one"
    else pass "no $row row without one"; fi
done

has "$tmp/s3" "the fit's title" '<h2><code>fit B: bf16[B,D] *_D bf16[D,F] on v5e</code> <small>line 11</small></h2>'
has "$tmp/s3" "the largest B in full, its bytes in full beside 16 GB" \
    'data-v="3905738" title="largest = 3905738">3905738</td><td class="d">fits: 16000000000 B of 16 GB HBM per chip; B = 3905739 needs 16000004096 B</td>'
has "$tmp/s4" "the solve's title" '<h2><code>solve B: bf16[B,D] *_D int8[D,F] on v5e</code> <small>line 13</small></h2>'
has "$tmp/s4" "its chip" '<p class="meta">solve · line 13 · v5e</p>'
has "$tmp/s4" "its ranges" '>memory for B &lt; 124.83</span>; <span title="from 124.8'
has "$tmp/s4" "compute past the ridge" '>compute for B &gt; 124.83</span>'
has "$tmp/s4" "the limit in FLOP/B" '>6372 FLOP/B</td>'
has "$tmp/s4" "the intensity in B, as the text's row" '<th>intensity</th><td class="d" colspan="3">57344*B / (9*B + 28672)</td>'
has "$tmp/s4" "the ridge in FLOP/B" 'title="ridge = 240.2439024390244">240.2 FLOP/B</td>'
has "$page" "the contents name each kind" '</code></a> <small>serve</small></li>'
has "$page" "a fit in the contents" '</code></a> <small>fit</small></li>'
has "$page" "a solve in the contents" '</code></a> <small>solve</small></li>'
has "$tmp/s1" "the serve states its mode" '<p class="config">inference</p>'
has "$tmp/s3" "the fit states its mode" '<p class="config">inference</p>'
has "$tmp/s4" "the solve states its mode" '<p class="config">inference</p>'

# In training each states training: its record holds the mode, the page reads it (a
# record without one would read as inference).
cat > "$tmp/training.roof" <<'ROOF'
mode training
let D = 1024, F = 1024
fit B: bf16[B,D] *_D bf16[D,F] on v5e
solve B: bf16[B,D] *_D int8[D,F] on v5e
ROOF
page=$tmp/training.html
"$ROOFLINE" --html "$page" "$tmp/training.roof" > "$tmp/out" 2>&1 || fail "--html runs in training" "$(cat "$tmp/out")"
section 1; section 2
has "$tmp/s1" "a fit in training states it" '<p class="config">training</p>'
has "$tmp/s2" "a solve in training states it" '<p class="config">training</p>'
finish
