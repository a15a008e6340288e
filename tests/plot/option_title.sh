# `title "..."` names the chart: in the SVG (escaped), on the "wrote" line, and centred
# on the first line of a chart in the terminal.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
"$ROOFLINE" -e 'q = bf16[64,4096] *_D int8[4096,4096] on v5e
plot "'"$tmp"'/a.svg" title "Q3 & friends"
plot title "Q3 in text"' > "$tmp/out" || exit 1
grep -o 'font-weight="bold"[^>]*>[^<]*<' "$tmp/a.svg" | sed 's/ data-box="[^"]*"//'
grep '^wrote' "$tmp/out" | sed 's/^wrote [^:]*:/wrote:/'
grep 'Q3 in text' "$tmp/out" | sed 's/^ *//; s/ *$//'
