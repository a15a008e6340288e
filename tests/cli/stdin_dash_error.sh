printf 'let B = 2\nlet C = )\n' | "$ROOFLINE" -
