# With --json the records stay JSON: help and names write their text to stderr, and
# chips prints one object a chip.
out=$("$ROOFLINE" --json -e 'bf16[2, 2] *_K bf16[2, 2]' -e 'help let' -e names 2>/dev/null)
printf '%s\n' "$out" | cut -c1-40
"$ROOFLINE" --json -e 'help let' 2>&1 >/dev/null | head -1
"$ROOFLINE" --json -e chips | grep -c '^{"chip":"v5e",'
