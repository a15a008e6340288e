# Two chips whose names agree in their first 36 characters are two groups of roofs on the
# chart, each in its own colour (a peak and an HBM roof apiece), labelled with the whole
# name. By hand: both derive v5e's bf16 peak, 1.97e14 FLOP/s; HBM 1e12 and 4e12 B/s.
# (The chart once kept 31 characters of a name: both chips made one group, one colour,
# three roofs, every label cut to "accelerator_with_a_rather_long_".)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
"$ROOFLINE" -e 'chip accelerator_with_a_rather_long_name_a : v5e { hbm_bw = 1e12 }
chip accelerator_with_a_rather_long_name_b : v5e { hbm_bw = 4e12 }
let B = 64, D = 4096, F = 4096
bf16[B,D] *_D bf16[D,F] on accelerator_with_a_rather_long_name_a
bf16[B,D] *_D bf16[D,F] on accelerator_with_a_rather_long_name_b
plot "'"$tmp"'/a.svg"' > /dev/null || exit 1
grep -o '>accelerator[^<]*<' "$tmp/a.svg" | sort -u | tr -d '<>'
grep -o 'class="roof" [^>]*stroke="[^"]*"' "$tmp/a.svg" | sed 's/.*stroke=//' | sort | uniq -c |
    awk '{ n++; roofs += $1 } END { printf "%d colours, %d roofs\n", n, roofs }'
