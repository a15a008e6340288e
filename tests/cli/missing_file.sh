"$ROOFLINE" no_such_file.roof
