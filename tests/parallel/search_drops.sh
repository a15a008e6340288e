#!/bin/sh
# A search drops, before costing them, the configurations that cannot fit HBM: the bound
# must never drop one that would have fit. The same search on a chip with v5p's figures
# but 1 PB of HBM drops none and costs every configuration (the figures but `fits` do
# not depend on the capacity); each configuration the v5p search left out must, costed
# there, need more than v5p's 96e9 B a chip, and each it kept must cost the same there.
# LLaMA-3 70B's shape, 256 sequences of 2048 tokens on 64 and 128 chips: the one-chip
# memory (13.7 TB with remat none) over 64 chips is 215 GB, more than 96 GB, so the
# bound drops every 64-chip configuration without remat; remat full keeps far less.
: "${ROOFLINE:?ROOFLINE must name the roofline binary}"
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
dims='let D = 8192, F = 28672, N = 64, K = 8, H = 128, L = 80, V = 128256, B = 256, T = 2048'
search='search model(B, T, D, F, N, K, H, L, V) on CHIP over [64, 128] with microbatches in [1, 4], remat in [none, full]'
run() { # CHIP FLAGS
    "$ROOFLINE" $2 -e 'chip huge : v5p { hbm_bytes = 1e15 }' -e "$dims" -e 'mode training' \
        -e "$(printf '%s\n' "$search" | sed "s/CHIP/$1/")"
}
keys() { # one line a configuration: its mesh, strategy and plan, then its figures
    sed 's/^.*"mesh":\({[^}]*}\),"strategy":\({[^}]*}\),"plan":\({[^}]*}\).*"t_step":\([^,]*\),"t_derated":\([^,]*\),"mfu":[^,]*,"flops":\([^,]*\),"memory":\([^,]*\),.*$/\1\2\3 \4 \5 \6 \7/'
}
run v5p --json | keys | sort > "$tmp/kept"
run huge --json | keys | sort > "$tmp/all"
dropped=$(run v5p | sed -n 's/.*; \([0-9]*\) dropped: cannot fit HBM.*/\1/p')
status=0
[ -n "$dropped" ] && [ "$dropped" -gt 0 ] && echo "ok the v5p search drops $dropped" ||
    { echo "FAIL the v5p search drops none"; status=1; }
# Those the v5p search left out: in the full list, not in the kept.
awk 'NR == FNR { kept[$0] = 1; next } !($0 in kept)' "$tmp/kept" "$tmp/all" > "$tmp/left"
left=$(wc -l < "$tmp/left")
fit=$(awk '$5 <= 96e9' "$tmp/left" | wc -l)
[ "$left" -gt 0 ] && [ "$fit" -eq 0 ] &&
    echo "ok none of the $left left out would have fit in 96 GB" ||
    { echo "FAIL $fit of the $left left out would have fit"; status=1; }
# Those left out are the dropped (or ones that could not be costed at all).
[ "$left" -le "$dropped" ] && echo "ok no more left out than dropped" ||
    { echo "FAIL $left left out, $dropped dropped"; status=1; }
missing=$(awk 'NR == FNR { all[$0] = 1; next } !($0 in all)' "$tmp/all" "$tmp/kept" | wc -l)
[ "$missing" -eq 0 ] && echo "ok each kept costs the same with 1 PB" ||
    { echo "FAIL $missing kept differ with 1 PB"; status=1; }
exit $status
