# The folder rule of src/ (src/README.md, tools/layers.sh): no file includes or calls
# one of a later folder but the known exceptions, whose count is in the summary line.
# The calls are read from the objects beside $ROOFLINE.
command -v nm > /dev/null 2>&1 || { echo "skipped: no nm (binutils)"; exit 77; }
top=$(cd "$(dirname "$0")/../.." && pwd)
sh "$top/tools/layers.sh" "$(dirname "$ROOFLINE")"
