# after --, -e is a file name like any other
"$ROOFLINE" -- -e
