# A 10 MB name: no crash, and the message and source line are cut to a sane width.
d=$(mktemp -d) || exit 99
{ printf 'let B = '; head -c 10000000 /dev/zero | tr '\0' a; printf '\n'; } > "$d/big.roof"
cd "$d" && "$ROOFLINE" big.roof
rc=$?
rm -rf "$d"
exit $rc
