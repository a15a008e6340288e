# A 10 MB name that an error message quotes: no crash, and every line of the message
# stays short (under 300 bytes), the name cut as the source line is.
d=$(mktemp -d) || exit 99
big=$(head -c 10000000 /dev/zero | tr '\0' a)
printf 'bf16[B,D] *_D bf16[D,F] on %s\n' "$big" > "$d/chip.roof"
printf 'bf16[B,D] *_%s bf16[D,F]\n' "$big" > "$d/contract.roof"
printf 'chip c : v5e { %s = 1 }\n' "$big" > "$d/field.roof"
cd "$d" || exit 99
for f in chip.roof contract.roof field.roof; do
    "$ROOFLINE" $f 2> err
    rc=$?
    n=$(awk '{ if (length($0) > n) n = length($0) } END { print n + 0 }' err)
    if [ "$n" -lt 300 ]; then n="short lines"; else n="a line of $n bytes"; fi
    echo "$f: exit $rc, $n"
done
rm -rf "$d"
