# the first input that fails stops the run: the -e after it does not run
"$ROOFLINE" no_such_file.roof -e "let B = 2" -e B
