# The README's examples cannot rot: every fenced block that starts with a one-line
# `$ roofline ...` command (alone, or piped through `cut -d , -f ...`) must show exactly
# what it prints.
readme=README.md
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
awk -v dir="$tmp" '
    /^```/ { if (inblock) { close(out); inblock = 0 } else { inblock = 1; first = 1 } ; next }
    inblock && first {
        first = 0
        if ($0 ~ /^\$ roofline / && $0 !~ /\\$/ && ($0 !~ /\|/ || $0 ~ /\| cut -d , -f [0-9,]+$/)) {
            n++; out = dir "/" n ".expected"
            cmd = substr($0, 3); sub(/^roofline/, "\"$ROOFLINE\"", cmd)
            print cmd > (dir "/" n ".cmd"); close(dir "/" n ".cmd")
            printf "" > out
        } else out = "/dev/null"
        next
    }
    inblock { print >> out }
' "$readme"
status=0
for cmd in "$tmp"/*.cmd; do
    [ -f "$cmd" ] || continue
    n=$(basename "$cmd" .cmd)
    # the README leaves out the blank line that ends a report
    eval "$(cat "$cmd")" 2>&1 | awk '{ l[NR] = $0 } END { n = NR; while (n > 0 && l[n] == "") n--
                                        for (i = 1; i <= n; i++) print l[i] }' > "$tmp/$n.actual"
    if diff -u "$tmp/$n.expected" "$tmp/$n.actual" > "$tmp/$n.diff"; then
        echo "ok README example $n"
    else
        echo "FAIL README example $n: $(cat "$cmd")"; cat "$tmp/$n.diff"; status=1
    fi
done
exit $status
