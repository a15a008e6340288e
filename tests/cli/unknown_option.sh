"$ROOFLINE" --bogus
