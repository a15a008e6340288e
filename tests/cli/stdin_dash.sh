printf 'let B = 2\nB * 3\n' | "$ROOFLINE" -
