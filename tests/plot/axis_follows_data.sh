# Axis ranges follow the data: a log sweep over B = 1 .. 16k draws its x axis from 1 to
# 20k (round bounds around the data), not 0.1 to 100k. Read back from the SVG: the
# pixels per decade come from the "1" and "10" tick labels, and the frame's edges are
# then 10^0 = 1 and 10^4.301 = 20000.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
"$ROOFLINE" -e 'let D = 4096, F = 4096
sweep B in 1 .. 16k log 40 plot "'"$tmp"'/a.svg" { y = bf16[B,D] *_D bf16[D,F] on v5e }' > /dev/null || exit 1
awk -F'"' '
/<text x="[0-9.]*" y="499.0"/ { label = $NF; sub(/^>/, "", label); sub(/<.*/, "", label)
                                at[label] = $2; order = order " " label }
/<rect .*fill="none" stroke="#333"/ { left = $2; right = $2 + $6 }
END {
    print "x labels:" order
    decade = at["10"] - at["1"]
    printf "x axis from %.2g to %.2g (pixels to 0.1)\n", 10 ^ ((left - at["1"]) / decade), 10 ^ ((right - at["1"]) / decade)
}' "$tmp/a.svg"
