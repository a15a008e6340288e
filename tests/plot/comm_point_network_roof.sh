# A comm-bound statement sits on the roofline chart under the network roof that bounds
# it: at x = FLOPs / the bytes T_comm moves over the link, not at its HBM intensity,
# labelled "(vs network)", and the x axis says what its x is. By hand, for
# q = bf16[B,D] *_D bf16[D,F] on v5e shard D over 2, B = 512, D = 4096, F = 16384,
# per chip (docs/costmodel.md §3, the chapter's two-chip example):
#   flops B·D·F = 3.436e10, T_math = 174.4 µs; bytes B·D + D·F + 2·B·F = 8.598e7,
#   T_hbm = 104.9 µs; comm_bytes 2·B·F = 1.678e7 over the 4.5e10 B/s link, T_comm =
#   372.8 µs (+ no latency: 1 µs floor below it): comm-bound;
#   x = B·D·F / (2·B·F) = D/2 = 2048, attained = flops / T_comm = 4.5e10 · 2048
#   = 9.216e13: on the network roof y = 4.5e10 · x exactly.
# m = bf16[64,4096] *_D int8[4096,4096] on v5e, memory-bound, stays at its HBM intensity
#   2·64·4096² / (2·64·4096 + 4096² + 2·64·4096) = 120.47, attained 8.2e11 · 120.47
#   = 9.879e13 (on the HBM roof).
# r = bf16[P_X, K_Y] *_K bf16[K_X, N] on H100 mesh X = 8, Y = 4 (P = 64, K = N = 8192)
#   is comm-bound over two links (NVLink and InfiniBand): no one network roof explains
#   it, so it stays at its HBM intensity (its --json row's), labelled "(comm-bound)".
# Read back from the SVG (chart.awk, points.awk; values within 0.5%, the SVG's tenths of
# a pixel), and the point's centre within a pixel of the roof line whose ends read back
# as y = 4.5e10 · x.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
"$ROOFLINE" --json -e 'let B = 512, D = 4096, F = 16384, P = 64, K = 8192, N = 8192
q = bf16[B,D] *_D bf16[D,F] on v5e shard D over 2
m = bf16[64,4096] *_D int8[4096,4096] on v5e
r = bf16[P_X, K_Y] *_K bf16[K_X, N] on H100 mesh X = 8, Y = 4
plot "'"$tmp"'/a.svg"' > "$tmp/rows" || exit 1
sed -n 's/.*"stmt":"\([qr] = [^"]*\)".*"bound":"\([a-z]*\)".*/\1: bound \2/p' "$tmp/rows"
r_intensity=$(sed -n 's/.*"stmt":"r = .*"intensity":\([^,]*\),.*/\1/p' "$tmp/rows")
grep -o '>[^<]*(vs network)<\|>[^<]*(comm-bound)<' "$tmp/a.svg" | sort -u
grep -o 'font-size="13" text-anchor="middle" fill="#222"[^>]*>arith[^<]*' "$tmp/a.svg" | sed 's/.*>//'
awk -F'"' -v logx=1 -v logy=1 -f "$(dirname "$0")/chart.awk" -f "$(dirname "$0")/points.awk" \
    "$tmp/a.svg" | awk -v r_intensity="$r_intensity" '
function near(got, want) { d = got - want; if (d < 0) d = -d; return d <= 0.005 * want }
function abs(v) { return v < 0 ? -v : v }
# the distance in pixels from (x, y) to the segment (x0, y0)-(x1, y1)
function dist(x, y, x0, y0, x1, y1,    dx, dy, t) {
    dx = x1 - x0; dy = y1 - y0
    t = ((x - x0) * dx + (y - y0) * dy) / (dx * dx + dy * dy)
    t = t < 0 ? 0 : t > 1 ? 1 : t
    return sqrt((x0 + t * dx - x) ^ 2 + (y0 + t * dy - y) ^ 2)
}
$1 == "point" { np++; cx[np] = $2; cy[np] = $3; x[np] = $4; y[np] = $5 }
$1 == "roof" && near($7 / $6, 4.5e10) && near($9 / $8, 4.5e10) {
    nr++; r0x[nr] = $2; r0y[nr] = $3; r1x[nr] = $4; r1y[nr] = $5
}
END {
    printf "q at x %s, y %s\n", near(x[1], 2048) ? "2048" : x[1], near(y[1], 9.216e13) ? "9.216e13" : y[1]
    printf "m at x %s, y %s\n", near(x[2], 120.47) ? "120.47" : x[2], near(y[2], 9.879e13) ? "9.879e13" : y[2]
    printf "points: %d\n", np
    printf "r at x %s\n", (r_intensity > 0 && near(x[3], r_intensity)) ? "its HBM intensity" : x[3]
    on = 0
    for (i = 1; i <= nr; i++) if (dist(cx[1], cy[1], r0x[i], r0y[i], r1x[i], r1y[i]) < 1) on = 1
    printf "network roof lines: %d; q %s on one\n", nr, on ? "lies" : "does not lie"
}'
