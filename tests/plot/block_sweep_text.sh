# A sweep whose mesh holds the swept dim (each point costed whole) draws its chart in
# the terminal, with the options honoured and no table: the title as given, y 0 .. 8T
# as set (ticks every 2T), x on a log axis (`x log`) with round bounds 1 .. 10 around
# n = 1 .. 8 (2 and 5 labelled too: under three decades), the curve in braille, and the
# statement's text in the legend, as its table would head it.
out=$("$ROOFLINE" -e 'sweep n in [1, 2, 4, 8] plot title "gated MLP, tensor parallel" x log y 0 .. 8e12 {
    gated_mlp(bf16[2, 4, 64], 256, tp = Y) on v5e mesh X = 1, Y = n
}') || exit 1
printf '%s\n' "$out" | sed -n '1s/^ *//; 1s/ *$//; 1p'
printf 'y labels:'; printf '%s\n' "$out" | sed -n 's/^ *\([0-9.]*[kMGT]*\) ┤.*/ \1/p' | tr -d '\n'; echo
printf 'x labels:'; printf '%s\n' "$out" | grep -A1 '└' | tail -1 | tr -s ' ' | sed 's/ *$//'
# rows of the plot area (between the frame's sides) with a braille dot (U+2801..U+28FF)
rows=$(printf '%s\n' "$out" | grep '[┤│].*│$' | LC_ALL=C grep -c -e "$(printf '\342\240')" \
    -e "$(printf '\342\241')" -e "$(printf '\342\242')" -e "$(printf '\342\243')")
[ "$rows" -ge 5 ] && echo "the curve is drawn"
printf '%s\n' "$out" | grep '^⠒⠒⠒' | sed 's/ *$//'
printf '%s\n' "$out" | grep -c 'costed whole' | sed 's/^/table headers: /'
