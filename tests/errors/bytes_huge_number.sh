# A 10 MB number: no crash, a located message, the source line cut short.
d=$(mktemp -d) || exit 99
{ printf 'let B = 1'; head -c 10000000 /dev/zero | tr '\0' 0; printf '\n'; } > "$d/big.roof"
{ printf 'let B = 0.'; head -c 10000000 /dev/zero | tr '\0' 0; printf '1\n'; } > "$d/small.roof"
{ printf 'let B = 1'; head -c 10000000 /dev/zero | tr '\0' 0; printf 'e-10000000\nB\n'; } > "$d/one.roof"
cd "$d" || exit 99
for f in big.roof small.roof one.roof; do
    "$ROOFLINE" $f
    echo "exit $?"
done
rm -rf "$d"
