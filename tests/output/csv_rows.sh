# What --csv prints is one CSV table (issues 14 and 16): a "kind,..." header, rows of as
# many fields, quoted fields with their quotes doubled, UTF-8, no inf or nan, nothing
# else; and no record had a key without a column. Checked on every example, test input
# and program of the fuzz corpus; prints nothing when all is well.
. tests/output/lib.shinc
check_all csv json
