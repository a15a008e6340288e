# Output to a full disk is an error in every format and with every option that prints
# (issue 16): --json, --csv, --chips, --help; each exits non-zero with the reason.
for opts in --json --csv --chips --help; do
    "$ROOFLINE" $opts -e 'use v5e' -e 'sweep B in [1, 2] { bf16[B,8] *_K bf16[8,8] }' > /dev/full 2> "${TMPDIR:-/tmp}/roofline_dev_full.$$"
    echo "$opts: exit $?: $(cat "${TMPDIR:-/tmp}/roofline_dev_full.$$")"
done
rm -f "${TMPDIR:-/tmp}/roofline_dev_full.$$"
