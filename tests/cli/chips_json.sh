# --chips with --json prints one JSON object per chip (it printed the text table): the
# fields each sets, in base units, its bf16 ridge, and whether it is the chip in use.
"$ROOFLINE" --chips --json -e 'use v5e' | grep -E '^\{"chip":"(v5e|H100)"'
"$ROOFLINE" --chips --json | grep -vc '^{"chip":'
exit 0
