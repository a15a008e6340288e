"$ROOFLINE" --version
