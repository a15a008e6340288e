# Every name a file of src/ exports carries the file's prefix (tools/prefixes.sh); the
# objects are read beside $ROOFLINE.
command -v nm > /dev/null 2>&1 || { echo "skipped: no nm (binutils)"; exit 77; }
top=$(cd "$(dirname "$0")/../.." && pwd)
sh "$top/tools/prefixes.sh" "$(dirname "$ROOFLINE")"
