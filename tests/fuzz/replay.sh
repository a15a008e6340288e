#!/bin/sh
# replay.sh — the fuzz corpus and every past crash, through the four fuzz targets, built
# with the suite's compiler (make test builds them; under `make asan`, with ASan).
# Silent when all is well; else what went wrong (the sanitizer's report, the hang) on
# stdout, so the suite's diff shows it.
B=$(dirname "$ROOFLINE")
status=0
for target in parse eval write gen; do
    "$B/fuzz-replay-$target" tests/fuzz/corpus tests/fuzz/crashes 2>&1 || {
        echo "fuzz-replay-$target failed (status $?)"; status=1; }
done
exit $status
