# The page of statements given with -e: its title is the statements (not "-e, -e"),
# each row says what was costed, and a comm-bound statement sits under its network
# link's roof, as `plot` puts it. By hand: B = 256, D = 8000, F = 32000, D over the 4
# chips of X on a v5e 4x2: flops 2·B·D·F/4 = 3.2768e10 a chip; the partial sums
# bf16[B,F] = 16,384,000 B are AllReduced over 4 chips, 2·3/4 × that = 24,576,000 B;
# the link 4.5e10 B/s (stdlib/chips.roof v5e ici_bw), so the point's x is
# 3.2768e10 / 24,576,000 = 1333.3 FLOP/B against the network, where its attained
# 3.2768e10 / (24,576,000 / 4.5e10) = 6.0e13 FLOP/s lies on the link's roof
# (1333.3 × 4.5e10). On the chart (log axes, placed from its 1k and 10k ticks): the
# point at x = 1333.3 and on the link's roof, which meets the peak's roof at
# 1.97e14 / 4.5e10 = 4377.8 FLOP/B, the network ridge; an HBM roof at 820 GB/s
# (its place at the intensity 3.2768e10 / 145,408,000 = 225.4 would fail). The
# one-chip statement: 2·B·D·F / (2·(B·D + D·F + B·F)) = 1.31072e11 / 532,480,000 =
# 246.2 FLOP/B, past the ridge 1.97e14 / 8.2e11 = 240.2, so compute-bound: at x = 246.2
# on the peak's roof.
# The same matmul as the one operation of a block, on the same chip and mesh: its
# record in the breakdown carries the link's bandwidth, and the model's chart puts it
# at the same place under the same roof.
. tests/html/lib.shinc
page=$tmp/statements.html
"$ROOFLINE" --html "$page" -e 'let B = 256, D = 8000, F = 32000' \
    -e 'bf16[B, D_X] *_D bf16[D_X, F] on v5e 4x2' -e 'bf16[B, D] *_D bf16[D, F] on v5e' \
    > "$tmp/out" 2>&1 || fail "--html runs" "$(cat "$tmp/out")"
"$ROOFLINE" --json -e 'let B = 256, D = 8000, F = 32000' \
    -e 'bf16[B, D_X] *_D bf16[D_X, F] on v5e 4x2' > "$tmp/json"
well_formed "$page" "the statements page"
# the tab's title their first 100 characters: 32 + 2 + 40 + 2, then 24 of the third
has "$page" "the title is the statements, cut at 100 characters" \
    '<title>roofline: let B = 256, D = 8000, F = 32000; bf16[B, D_X] *_D bf16[D_X, F] on v5e 4x2; bf16[B, D] *_D bf16[D, F…</title>'
has "$page" "the heading has them whole" \
    '<h1>roofline <small>let B = 256, D = 8000, F = 32000; bf16[B, D_X] *_D bf16[D_X, F] on v5e 4x2; bf16[B, D] *_D bf16[D, F] on v5e</small></h1>'
has "$page" "the sharded row's configuration" \
    '<p class="config">mesh X=4, Y=2 · inference · B = 256, D = 8000, F = 32000</p>'
has "$page" "the one-chip row's configuration" '<p class="config">inference · B = 256, D = 8000, F = 32000</p>'
has "$tmp/json" "the record has its mode" '"mode":"inference"'
has "$tmp/json" "the record has its link bandwidth" '"link_bw":4.5e10'
has "$tmp/json" "the record has its comm bytes" '"comm_bytes":24576000'
has "$page" "the network link's roof" 'v5e network link 45 GB/s'
has "$page" "the comm-bound point against the network" 'on v5e 4x2 (vs network)</title>'
has "$page" "the one-chip point against HBM" 'on v5e</title>'
chart_parts "$page" s1-roofline > "$tmp/parts"
at=$(point_at "$tmp/parts" 'bf16[B, D_X] *_D bf16[D_X, F] on v5e 4x2 (vs network)')
near "the comm-bound point at x = 1333.3" "${at% *}" "$(x_of "$tmp/parts" 1333.33)"
near "the comm-bound point on the link's roof" "${at#* }" \
    "$(roof_at "$tmp/parts" 'v5e network link 45 GB/s' x "${at% *}")"
peak_y=$(roof_at "$tmp/parts" 'v5e bf16 peak 197 TFLOP/s' x 1000)
near "the link's roof meets the peak at 4377.8 FLOP/B" \
    "$(roof_at "$tmp/parts" 'v5e network link' y "$peak_y")" "$(x_of "$tmp/parts" 4377.8)"
at=$(point_at "$tmp/parts" 'bf16[B, D] *_D bf16[D, F] on v5e')
near "the one-chip point at x = 246.2" "${at% *}" "$(x_of "$tmp/parts" 246.15)"
near "the one-chip point on the peak's roof" "${at#* }" "$peak_y"

cat > "$tmp/block.roof" <<'ROOF'
block proj(B, D, F, tp = {}) {
    y = bf16[B, D_{tp}] *_D bf16[D_{tp}, F]
    return y
}
let B = 256, D = 8000, F = 32000
proj(B, D, F, tp = X) on v5e 4x2
ROOF
"$ROOFLINE" --html "$tmp/block.html" "$tmp/block.roof" > /dev/null
"$ROOFLINE" --json "$tmp/block.roof" > "$tmp/block.json"
has "$tmp/block.json" "the operation's record has its link bandwidth" \
    '"comm_bytes":24576000,"link_bw":4.5e10,"collective":"allreduce"'
chart_parts "$tmp/block.html" s1-roofline > "$tmp/parts"
at=$(point_at "$tmp/parts" 'proj.y: 1333 FLOP/B of network, 60 TFLOP/s attained')
near "the operation at x = 1333.3" "${at% *}" "$(x_of "$tmp/parts" 1333.33)"
near "the operation on the link's roof" "${at#* }" \
    "$(roof_at "$tmp/parts" 'v5e network link 45 GB/s' x "${at% *}")"
has "$tmp/block.html" "the x axis says which intensity" \
    'arithmetic intensity (FLOP/B of HBM, of network when comm-bound)'
finish
