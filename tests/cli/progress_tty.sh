# A long sweep says how far it is (issue 29): on a terminal, a line on stderr rewritten
# in place with \r (points done of the total, the rate, the time left), cleared at the
# end; with stderr in a file, nothing. 40,000 points of a block call take about 1.3 s
# in one process (the line shows after half a second, then four times a second; split
# over two, 0.7 s was too close to show it every time); stdout goes to /dev/null, so
# what the pseudo-terminal shows is stderr alone.
command -v script > /dev/null || { echo "skipped: no script(1)"; exit 77; }
sweep='sweep B in 1 .. 40000 { y = gated_mlp(bf16[B, 1, 4096], 14336) on v5e }'
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT INT TERM
NO_COLOR=1 script -qec "$ROOFLINE --jobs 1 -e '$sweep' > /dev/null" /dev/null > "$dir/tty"
# each rewrite of the line starts with \r; the first one shown:
tr '\r' '\n' < "$dir/tty" | grep -a -m 1 -o 'sweep: [0-9,]* of 40,000 points, [0-9]*/s, [0-9ms]* left' |
    sed 's/[0-9][0-9,]* of/N of/; s/[0-9]*\/s/R\/s/; s/, [0-9ms]* left/, T left/'
# the last thing written blanks the line and returns to column 0
tail -c 2 "$dir/tty" | od -An -c | tr -s ' '
"$ROOFLINE" --jobs 1 -e "$sweep" > /dev/null 2> "$dir/err"
echo "stderr in a file: $(wc -c < "$dir/err") bytes"
