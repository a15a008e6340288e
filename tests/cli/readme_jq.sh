# The README's examples piped through jq (readme.sh checks the others), where jq is
# installed: the tool's JSON is its own test's (tests/output); this checks the README.
command -v jq > /dev/null 2>&1 || { echo "jq is not installed: the README's jq examples not run"; exit 77; }
. "$(dirname "$0")/readme.shinc"
readme_check jq
