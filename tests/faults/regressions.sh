# One run per defect that fault injection found (tests/faults/README.md), each failing
# an allocation in the function that had the defect (found by nm, so it stays put as
# the code changes), or an output on the file that had it. Each prints the status, the
# first error, and "intact" when the file it would have written holds what it held.
bin=${ROOFLINE%/roofline}/roofline-faults
[ -x "$bin" ] || { echo "skipped: no $bin"; exit 77; }
command -v nm >/dev/null 2>&1 || { echo "skipped: no nm (binutils)"; exit 77; }
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT INT TERM
root=$(pwd)
ASAN_OPTIONS=exitcode=86 UBSAN_OPTIONS=exitcode=86:print_stacktrace=1
export ASAN_OPTIONS UBSAN_OPTIONS
mkdir -p "$tmp/build"

# the binary's symbols, read once (nm over it took most of the test's time a site)
nm -S --defined-only "$bin" > "$tmp/symbols"

# FUNCTION: its addresses, LO-HI, for ROOFLINE_FAIL_SITE
site() {
    # shellcheck disable=SC2046
    set -- $(awk -v f="$1" '$4 == f { print $1, $2; exit }' "$tmp/symbols")
    [ -n "$1" ] && printf '0x%s-0x%x\n' "$1" $((0x$1 + 0x$2))
}

# WHAT ARGS...: runs with the fault the environment names; one line of what came out
run() {
    what=$1; shift
    echo "old" > "$tmp/build/out.svg"; echo "old" > "$tmp/page.html"
    (cd "$tmp" && "$bin" "$@" > /dev/null 2> "$tmp/err"); code=$?
    first=$(grep -m1 'error' "$tmp/err" | sed "s/.*error: //; s|$root/|ROOT/|g")
    intact=""
    [ "$(cat "$tmp/build/out.svg")$(cat "$tmp/page.html")" = oldold ] && intact=", intact"
    echo "$what: status $code: $first$intact"
    if grep -q -e Sanitizer -e 'runtime error' "$tmp/err"; then sed 's/^/    /' "$tmp/err" | head -20; fi
}

# FUNCTION N ARGS...: fails the Nth allocation made in FUNCTION once the script is read
oom() {
    f=$1 n=$2; shift 2
    range=$(site "$f") || { echo "$f: not in $bin"; return; }
    ROOFLINE_FAIL_SITE=$range ROOFLINE_FAIL_ALLOC=$n run "$f $n" "$@"
}

# NAME N ARGS...: fails the Nth output operation on the file whose name holds NAME
full() {
    f=$1 n=$2; shift 2
    ROOFLINE_FAIL_NAME=$f ROOFLINE_FAIL_OUTPUT=$n run "$f $n" "$@"
}

tour=$root/examples/tour.roof
# the first allocation of all said nothing
ROOFLINE_FAIL_ALLOC=1 run "allocation 1" "$tour"
# a failed start leaked the half-made world (LeakSanitizer, under make asan)
ROOFLINE_FAIL_ALLOC=3 run "allocation 3" "$tour"
# flex's own "out of dynamic memory" and exit 2 (a syntax error's status)
oom yy_scan_bytes 1 "$tour"
oom yy_scan_buffer 1 "$tour"
# a parse that ran out of memory exited 2, as for a syntax error
oom arena_alloc 1 "$tour"
oom yylex_init_extra 1 "$tour"
# a contraction went on without its dims' names: a null tensor reached the report
oom eval_contract 1 "$tour"
# out of memory in the polynomials read as "too many distinct dims in one term"
oom poly_alloc 1 "$tour"
oom poly_alloc 40 "$tour"
# a failed tensor read as "tensor too large" or as no operation at all (a copy's
# allocations are tensor_new's and poly_alloc's: tensor_copy makes none of its own, and
# tour.roof's 4th tensor_new and 6th poly_alloc, counted from the script, are a copy's)
oom tensor_new 1 "$tour"
oom tensor_new 4 "$tour"
oom poly_alloc 6 "$tour"
# a figure missing from a solve's report: a null ratio printed
oom poly_alloc 30 "$root/examples/explore.roof"
# fused regions: "more than 16 collectives"; block calls: a failure that said nothing
oom fuse_take 1 "$root/examples/model_llama3_8b.roof"
oom op_new 1 "$root/examples/model_llama3_8b.roof"
oom world_grow 1 "$tour"
# a chart in the terminal that could not be drawn said nothing
oom plot_text 1 "$root/examples/explore.roof"
# an uneven shard whose padded name could not be made was costed fractional, status 0
oom world_padded_symbol 1 "$root/examples/hardware.roof"
# the summary's one-chip costing read an out-of-memory as "cannot be costed on one chip"
oom eval_contract 11 "$root/tests/faults/summary.in"
# flex's out-of-memory stop (exit 1) left the --html page's temporary files open: a leak
oom yy_scan_buffer 1 --html page.html "$root/tests/faults/plot.in"
# the SVG and the page are written whole or not at all
full .svg 1 "$root/tests/faults/plot.in"
full .svg 5 "$root/tests/faults/plot.in"
full page.html 1 --html page.html "$root/tests/faults/plot.in"
# the page's records and chips (temporary files) that could not be written: a page
# with a hole in it, with status 0 (the chips), or status 1 and no word (the records)
full tmpfile1 3 --html page.html "$root/tests/faults/plot.in"
full tmpfile2 2 --html page.html "$root/tests/faults/plot.in"
