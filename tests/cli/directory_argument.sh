"$ROOFLINE" tests/cli
