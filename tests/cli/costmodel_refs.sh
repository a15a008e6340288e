# Every "docs/costmodel.md §N" cited in the sources, the stdlib, the examples, the tests
# and the README names a section that docs/costmodel.md has (its "## N." and "### N.M"
# headings), and the document itself is there. Silent when all hold.
top=$(cd "$(dirname "$0")/../.." && pwd)
doc=$top/docs/costmodel.md
[ -f "$doc" ] || { echo "FAIL docs/costmodel.md is missing"; exit 1; }
sections=$(sed -n 's/^##* \([0-9][0-9.]*\) .*/\1/p' "$doc" | sed 's/\.$//')
cd "$top" || exit 1
grep -rnoE 'docs/costmodel\.md`? ?§[0-9]+(\.[0-9]+)?' README.md src stdlib examples tests \
        roofline.1 2> /dev/null |
    awk -v sections="$sections" '
        BEGIN { n = split(sections, s, "\n"); for (i = 1; i <= n; i++) have[s[i]] = 1 }
        { ref = $0; sub(/.*§/, "", ref); sub(/\.$/, "", ref)
          if (!(ref in have)) { print "FAIL " $0 ": docs/costmodel.md has no §" ref; bad = 1 } }
        END { exit bad }'
