# Part of `make faults` in the normal suite (tests/faults/README.md): the tour failing
# the first allocation of each of its contexts, ten more along the run, and its output
# lines; plot.in's chart and page at each file operation. Prints "0 defects", or them.
bin=${ROOFLINE%/roofline}/roofline-faults
[ -x "$bin" ] || { echo "skipped: no $bin"; exit 77; }
out=$(FAULTS_CASES="example:tour plot-html" FAULTS_STRIDE_RUNS=10 FAULTS_JOBS=1 \
      sh tests/faults/run "${bin%/*}" 2>&1)
case $out in
*": 0 defects") echo "0 defects" ;;
*) echo "$out" | head -60 ;;
esac
