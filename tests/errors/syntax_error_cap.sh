# 100 000 syntax errors in one file: 20 reported, then one "too many errors" line.
d=$(mktemp -d) || exit 99
awk 'BEGIN { for (i = 0; i < 100000; i++) print "let B = )" }' > "$d/many.roof"
cd "$d" && "$ROOFLINE" many.roof
rc=$?
rm -rf "$d"
exit $rc
