# The page of statements given with -e: its title is the statements (not "-e, -e"),
# each row says what was costed, and a comm-bound statement sits under its network
# link's roof, as `plot` puts it. By hand: B = 256, D = 8000, F = 32000, D over the 4
# chips of X on a v5e 4x2: flops 2·B·D·F/4 = 3.2768e10 a chip; the partial sums
# bf16[B,F] = 16,384,000 B are AllReduced over 4 chips, 2·3/4 × that = 24,576,000 B;
# the link 4.5e10 B/s (stdlib/chips.roof v5e ici_bw), so the point's x is
# 3.2768e10 / 24,576,000 = 1333.3 FLOP/B against the network, where its attained
# 3.2768e10 / (24,576,000 / 4.5e10) = 6.0e13 FLOP/s lies on the link's roof
# (1333.3 × 4.5e10).
. tests/html/lib.shinc
page=$tmp/statements.html
"$ROOFLINE" --html "$page" -e 'let B = 256, D = 8000, F = 32000' \
    -e 'bf16[B, D_X] *_D bf16[D_X, F] on v5e 4x2' -e 'bf16[B, D] *_D bf16[D, F] on v5e' \
    > "$tmp/out" 2>&1 || fail "--html runs" "$(cat "$tmp/out")"
"$ROOFLINE" --json -e 'let B = 256, D = 8000, F = 32000' \
    -e 'bf16[B, D_X] *_D bf16[D_X, F] on v5e 4x2' > "$tmp/json"
well_formed "$page" "the statements page"
has "$page" "the title is the statements" \
    '<title>roofline: let B = 256, D = 8000, F = 32000; bf16[B, D_X] *_D bf16[D_X, F] on v5e 4x2; bf16'
has "$page" "the sharded row's configuration" \
    '<p class="config">mesh X=4, Y=2 · inference · B = 256, D = 8000, F = 32000</p>'
has "$page" "the one-chip row's configuration" '<p class="config">inference · B = 256, D = 8000, F = 32000</p>'
has "$tmp/json" "the record has its mode" '"mode":"inference"'
has "$tmp/json" "the record has its link bandwidth" '"link_bw":4.5e10'
has "$tmp/json" "the record has its comm bytes" '"comm_bytes":24576000'
has "$page" "the network link's roof" 'v5e network link 45 GB/s'
has "$page" "the comm-bound point against the network" 'on v5e 4x2 (vs network)</title>'
has "$page" "the one-chip point against HBM" 'on v5e</title>'
finish
