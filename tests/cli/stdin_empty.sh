"$ROOFLINE" < /dev/null
