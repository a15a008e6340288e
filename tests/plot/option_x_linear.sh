# `x linear` turns the roofline chart's log intensity axis linear: 0 .. 600, from 0 to
# twice the ridge (2 × 240.2 = 480) and a twentieth more, up to the 100 step; y stays
# log, round bounds around a tenth and twice the 197T peak: 10T .. 500T.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
"$ROOFLINE" -e 'q = bf16[64,4096] *_D int8[4096,4096] on v5e
plot "'"$tmp"'/a.svg" x linear' > /dev/null || exit 1
awk -F'"' -v logx=0 -v logy=1 -f "$(dirname "$0")/chart.awk" -f "$(dirname "$0")/axes.awk" "$tmp/a.svg"
