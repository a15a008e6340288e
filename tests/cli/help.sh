"$ROOFLINE" --help
