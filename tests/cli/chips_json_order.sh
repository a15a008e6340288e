# --chips --json prints JSON in every order of the options and inputs (issue 16): each
# line a strict JSON object (check-output), as many as with --chips alone, and one more
# with -e x=1: the record of x's value.
check=$(dirname "$ROOFLINE")/check-output
want=$("$ROOFLINE" --chips | tail -n +2 | wc -l)
for opts in '--chips --json' '--json --chips' '--chips -e x=1 --json' '--json -e x=1 --chips' \
    '-e x=1 --chips --json' '--chips --json -'; do
    # shellcheck disable=SC2086
    echo 'let B = 2' | "$ROOFLINE" $opts > "${TMPDIR:-/tmp}/chips.$$"
    lines=$(wc -l < "${TMPDIR:-/tmp}/chips.$$")
    faults=$("$check" json "${TMPDIR:-/tmp}/chips.$$" | wc -l)
    echo "$opts: $((lines - want)) lines more than the table's chips, $faults faults"
done
rm -f "${TMPDIR:-/tmp}/chips.$$"
