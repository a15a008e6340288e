# With --json every line of stdout is one JSON object, whatever the script does: a bare
# `plot` (a text chart) wrote 25 lines of drawing into the stream of examples/explore.roof.
# Run from a scratch directory, where explore.roof's q3.svg goes.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
top=$(pwd)
for f in examples/explore.roof examples/rooflines.roof examples/tour.roof; do
    (cd "$tmp" && "$ROOFLINE" --json "$top/$f") > "$tmp/out" 2>&1
    status=$?
    lines=$(wc -l < "$tmp/out")
    bad=$(grep -cv '^{.*}$' "$tmp/out")
    if [ "$status" = 0 ] && [ "$lines" -gt 0 ] && [ "$bad" = 0 ]; then echo "ok $f: every line an object"
    else echo "FAIL $f: status $status, $bad of $lines lines not an object"; fi
done
