# `y log` draws attained FLOP/s on a log axis, and `y 1e13 .. 1e15` sets its range: the
# labels are the decades 10T, 100T, 1P, evenly spaced.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
"$ROOFLINE" -e 'sweep B in 1 .. 511 plot "'"$tmp"'/a.svg" y log y 1e13 .. 1e15 {
    q = bf16[B,4096] *_D int8[4096,4096] on v5e
}' > /dev/null || exit 1
awk -F'"' -v logx=0 -v logy=1 -f "$(dirname "$0")/chart.awk" -f "$(dirname "$0")/axes.awk" "$tmp/a.svg"
