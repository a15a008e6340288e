#!/bin/sh
# replay.sh — the fuzz corpus and every past crash, through the five fuzz targets, built
# with the suite's compiler (make test builds them; under `make asan`, with ASan).
# A target with its own seeds (tests/fuzz/corpus-TARGET: complete's) replays those
# instead of tests/fuzz/corpus. Silent when all is well; else what went wrong (the
# sanitizer's report, the hang) on stdout, so the suite's diff shows it.
B=$(dirname "$ROOFLINE")
status=0
for target in parse eval write gen complete; do
    seeds=tests/fuzz/corpus
    [ -d "tests/fuzz/corpus-$target" ] && seeds=tests/fuzz/corpus-$target
    "$B/fuzz-replay-$target" "$seeds" tests/fuzz/crashes 2>&1 || {
        echo "fuzz-replay-$target failed (status $?)"; status=1; }
done
exit $status
