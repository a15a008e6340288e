printf 'bf16[B,' | "$ROOFLINE"
