# The calibrated chips in examples/ are what --calibrate derives from the measurements
# kept in tests/data/measurements/ (regenerate them with the commands below).
for chip in H100 H200; do
    lower=$(echo "$chip" | tr 'A-Z' 'a-z')
    file=tests/data/measurements/$lower-kernels-2026-11-27b.jsonl
    if "$ROOFLINE" --calibrate "$chip" "$file" | diff - "examples/${lower}_cal.roof" >/dev/null; then
        echo "ok examples/${lower}_cal.roof = roofline --calibrate $chip $file"
    else
        echo "STALE examples/${lower}_cal.roof: run roofline --calibrate $chip $file"
    fi
done
