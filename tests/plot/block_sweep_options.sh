# The options after `plot` steer a block sweep's SVG as they do a sweep of statements:
# the title as given (escaped), `x linear` over a log range with its range 256 .. 4096 as
# set, `y log` from 1e13 to 1e15 (the decades 10T, 100T, 1P); read back by axes.awk.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
"$ROOFLINE" -e 'let T = 128, D = 512, F = 1024
block f(x) { return x *_D bf16[D,F] }
sweep B in 1 .. 4096 log 13 plot "'"$tmp"'/a.svg" title "f & co on v5e" x linear x 256 .. 4096 y log y 1e13 .. 1e15 {
    f(bf16[B,T,D]) on v5e
}' | sed 's/^wrote [^:]*:/wrote:/' || exit 1
grep -o 'font-weight="bold"[^>]*>[^<]*<' "$tmp/a.svg" | sed 's/ data-box="[^"]*"//'
awk -F'"' -v logx=0 -v logy=1 -f "$(dirname "$0")/chart.awk" -f "$(dirname "$0")/axes.awk" "$tmp/a.svg"
