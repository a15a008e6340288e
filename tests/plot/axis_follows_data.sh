# Axis ranges follow the data: a log sweep over B = 1 .. 16k draws its x axis from 1 to
# 20k (round bounds: 1, 2 or 5 times a power of ten), not 0.1 to 100k; attained FLOP/s
# (at most the 197T peak) from 0 to 250T. Read back from the SVG by axes.awk.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
"$ROOFLINE" -e 'let D = 4096, F = 4096
sweep B in 1 .. 16k log 40 plot "'"$tmp"'/a.svg" { y = bf16[B,D] *_D bf16[D,F] on v5e }' > /dev/null || exit 1
awk -F'"' -v logx=1 -v logy=0 -f "$(dirname "$0")/chart.awk" -f "$(dirname "$0")/axes.awk" "$tmp/a.svg"
