# Every line --json prints is one strict JSON object (issue 16): valid UTF-8, no raw
# control character, finite numbers (inf and nan are not JSON), no key twice. Checked
# on every example, every test input and the fuzz corpus; prints nothing when all is.
. tests/output/lib.shinc
check_all json csv
