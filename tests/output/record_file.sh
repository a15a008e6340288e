# Every record with a line names the source it is in ("file", right after "line"), so
# that two scripts of one run, whose statements sit on the same line, are told apart;
# an included file's statement names the included file. Every record a statement
# prints holds "mode" (a send's and a number's too), and a chip's card holds none.
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT INT TERM
cd "$dir" || exit 1

# a.roof and b.roof: a different statement on the same line, 2
printf 'let B = 8\nbf16[B, 8] + bf16[B, 8] on v5e\n' > a.roof
printf 'let B = 8\nbf16[B, 8] * bf16[B, 8] on v5e\n' > b.roof
# c.roof includes d.roof, whose statement is on its line 1
printf 'include "d.roof"\n' > c.roof
printf 'bf16[4] + bf16[4] on v5e\n' > d.roof

# where: "file:line stmt" of each record, read with sed (no jq on a fresh machine)
where() { sed -n 's/^{"stmt":"\([^"]*\)","line":\([0-9]*\),"file":"\([^"]*\)".*/\3:\2 \1/p'; }

echo '-- two scripts, a statement each on line 2'
"$ROOFLINE" --json a.roof b.roof | where
echo '-- the included file names itself'
"$ROOFLINE" --json c.roof | where
echo '-- -e and stdin'
"$ROOFLINE" --json -e 'bf16[4] + bf16[4] on v5e' | where
echo 'bf16[4] + bf16[4] on v5e' | "$ROOFLINE" --json - | where
echo '-- several -e: the first is <-e>, the k-th <-e k>'
"$ROOFLINE" --json -e 'let B = 8' -e 'bf16[B] + bf16[B] on v5e' -e 'bf16[B] * bf16[B] on v5e' | where
echo '-- and an error in the second names it'
"$ROOFLINE" -e 'let B = 8' -e 'bf16[B] +' 2>&1 | head -n 1

echo '-- a block call: the record has the file, its operations none of their own'
printf 'block twice(x) {\n  y = x + x\n  z = y + y\n}\ntwice(bf16[4]) on v5e\n' > e.roof
"$ROOFLINE" --json e.roof | grep -o '"file":"[^"]*"' | sort | uniq -c | sed 's/^ *//'
echo '-- CSV: the file column, on the block row and on its op rows'
"$ROOFLINE" --csv e.roof > e.csv
col=$(head -n 1 e.csv | tr ',' '\n' | grep -n '^file$' | cut -d : -f 1)
[ -n "$col" ] || echo "no file column"
tail -n +2 e.csv | cut -d , -f 1 > kinds
tail -n +2 e.csv | awk -F , -v c="$col" '{ print $c }' > files
paste -d ' ' kinds files

echo '-- mode: a send and a number, in training; a chip card none'
printf 'mode training\nlet k = 3\nk\nsend bf16[8, 8] from (0, 0) to (0, 1) on v5e 4x4\nchip v5e\n' > m.roof
"$ROOFLINE" --json m.roof > m.json
grep -o '^{"stmt":"k","line":3,"file":"m.roof","mode":"[a-z]*"' m.json || echo "the number has no mode"
grep -o '"file":"m.roof","chip":"v5e","mode":"[a-z]*"' m.json || echo "the send has no mode"
grep '^{"chip"' m.json | grep -q '"mode"' && echo "the chip card has a mode"
exit 0
