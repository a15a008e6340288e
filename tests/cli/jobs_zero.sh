"$ROOFLINE" --jobs 0 -e 1
