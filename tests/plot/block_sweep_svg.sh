# A sweep over block calls draws its chart as a sweep of statements does: attained
# FLOP/s (flops / t_lower) against the dim, a curve per statement labelled as its table
# is, on a log x axis for a log range. Each curve's points are read back from the SVG
# (chart.awk, series.awk) and checked within 0.5% (the SVG's tenths of a pixel):
#   x: B = 1 .. 4096 log 13 are 4096^(k/12) = 2^k, k = 0 .. 12, in order;
#   f, a block `x *_D bf16[D,F]` on bf16[B,T,D] (T = 128, D = 512, F = 1024, v5e), by
#     hand: flops 2·B·T·D·F, bytes 2·(B·T·D + D·F + B·T·F), attained = flops /
#     max(flops / 1.97e14, bytes / 8.2e11) (B = 1: 134.2 MFLOP / 1.758 µs = 76.34T;
#     compute-bound, 197T, from B = 8);
#   mlp, the stdlib's gated_mlp: flops / t_lower of the same sweep's --json rows.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
cat > "$tmp/s.roof" <<ROOF
use v5e
let T = 128, D = 512, F = 1024
block f(x) { return x *_D bf16[D,F] }
sweep B in 1 .. 4096 log 13 plot "$tmp/a.svg" {
    f(bf16[B,T,D])
    mlp = gated_mlp(bf16[B, T, D], 4 * D)
}
ROOF
"$ROOFLINE" --json "$tmp/s.roof" > "$tmp/rows" || exit 1
awk -F'"' -v logx=1 -v logy=0 -f "$(dirname "$0")/chart.awk" -f "$(dirname "$0")/series.awk" \
    "$tmp/a.svg" > "$tmp/points"
# the legend names each curve as the table does
grep -o '<text [^>]*font-size="12"[^>]*>[^<]*<' "$tmp/a.svg" | sed 's/.*>//; s/<$//'

# near GOT WANT: within 0.5%
near='function near(got, want) { d = got - want; if (d < 0) d = -d; return d <= 0.005 * want }'
awk "$near"'
$1 == 1 {
    k++; B = 2 ^ (k - 1); T = 128; D = 512; F = 1024
    flops = 2 * B * T * D * F; bytes = 2 * (B * T * D + D * F + B * T * F)
    tm = flops / 1.97e14; th = bytes / 8.2e11
    want = flops / (tm > th ? tm : th)
    if (!near($2, B) || !near($3, want)) { bad++; printf "FAIL f at B = %d: read %g, %g; want %g\n", B, $2, $3, want }
}
END { printf "f: %d points, x = 2^k, y = the hand formula%s\n", k, bad ? " (FAILED)" : "" }' "$tmp/points"

# the JSON rows of mlp as "B attained", beside the curve's points
sed -n 's/.*"stmt":"mlp","at":{"B":\([0-9]*\)}.*"flops":\([^,]*\),.*"t_lower":\([^,]*\),.*/\1 \2 \3/p' \
    "$tmp/rows" > "$tmp/mlp"
awk '$1 == 2 { print $2, $3 }' "$tmp/points" | paste -d ' ' - "$tmp/mlp" | awk "$near"'
{
    k++; want = $4 / $5
    if (!near($1, $3) || !near($2, want)) { bad++; printf "FAIL mlp at B = %s: read %g, %g; want %g\n", $3, $1, $2, want }
}
END { printf "mlp: %d points, x and y = flops / t_lower of its --json rows%s\n", k, bad ? " (FAILED)" : "" }'
