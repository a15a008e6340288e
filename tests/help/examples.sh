# Every help topic's example runs as it is written: each topic that `help` lists is
# asked for, the lines after its "example:" run as a script, and each must exit 0 (an
# example that rots fails here, named). Prints the topics checked, one a line.
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
topics=$("$ROOFLINE" -e help | sed -n '/^Topics (help WORD):/,/^Blocks and models/p' |
         sed -e 's/^Topics (help WORD)://' -e '/^Blocks and models/d' | tr ' ' '\n' | grep .)
[ -n "$topics" ] || { echo "no topics listed by help"; exit 1; }
status=0
for word in $topics; do
    "$ROOFLINE" -e "help $word" > "$dir/help" || { echo "$word: help failed"; status=1; continue; }
    sed -n '/^example:$/,$p' "$dir/help" | sed -e '1d' -e 's/^  //' > "$dir/example.roof"
    if [ ! -s "$dir/example.roof" ]; then
        echo "$word: no example"; status=1; continue
    fi
    # on stdin, as piped input: an include resolves from the repository root
    if "$ROOFLINE" < "$dir/example.roof" > "$dir/out" 2>&1; then
        echo "$word"
    else
        echo "$word: its example failed:"; sed 's/^/    /' "$dir/out" | head -8; status=1
    fi
done
exit $status
