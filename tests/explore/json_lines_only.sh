# With --json every line of stdout is one JSON object, whatever the script does: a bare
# `plot` (a text chart) wrote 25 lines of drawing into the stream of examples/explore.roof.
for f in examples/explore.roof examples/rooflines.roof examples/tour.roof; do
    "$ROOFLINE" --json "$f" > /tmp/json_lines_only.$$ 2>&1
    status=$?
    lines=$(wc -l < /tmp/json_lines_only.$$)
    bad=$(grep -cv '^{.*}$' /tmp/json_lines_only.$$)
    if [ "$status" = 0 ] && [ "$lines" -gt 0 ] && [ "$bad" = 0 ]; then echo "ok $f: every line an object"
    else echo "FAIL $f: status $status, $bad of $lines lines not an object"; fi
done
rm -f /tmp/json_lines_only.$$
