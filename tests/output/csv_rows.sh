# Every CSV table --csv prints parses as CSV (issue 16): quoted fields with their quotes
# doubled, UTF-8, no inf or nan, each row as many fields as its header. Checked on
# every example, test input and program of the fuzz corpus with a sweep (the one
# statement --csv prints as CSV); prints nothing when all is well.
. tests/output/lib.shinc
check_all csv json sweep
