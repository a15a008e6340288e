printf 'let B = 2\nB\n' | env -u HOME "$ROOFLINE"
