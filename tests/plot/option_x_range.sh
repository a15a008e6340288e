# `x LOW .. HIGH` sets the x axis's range as written: 64 .. 512, ticks every 50 inside it.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
"$ROOFLINE" -e 'sweep B in 1 .. 511 plot "'"$tmp"'/a.svg" x 64 .. 512 {
    q = bf16[B,4096] *_D int8[4096,4096] on v5e
}' > /dev/null || exit 1
awk -F'"' -v logx=0 -v logy=0 -f "$(dirname "$0")/chart.awk" -f "$(dirname "$0")/axes.awk" "$tmp/a.svg"
