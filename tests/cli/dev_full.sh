# output that cannot be written is an error, not silence
"$ROOFLINE" -e "let B = 2" -e B > /dev/full
