printf 'let B = 2\nbf16[B,D] *_D\n' | "$ROOFLINE"
