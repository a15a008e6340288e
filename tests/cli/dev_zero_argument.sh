"$ROOFLINE" /dev/zero
