# tests/bugs/README.md is the index of fixed bugs: every test file in tests/bugs/ is
# listed there, every path it names is in the tree, and every commit it names exists.
# Without the repository's history (no git, or an export without .git) the commits
# cannot be checked: the rest still is, and a failure still fails; then exit 77.
dir=tests/bugs
index=$dir/README.md
bad=0
for f in "$dir"/*.roof "$dir"/*.sh; do
    [ -f "$f" ] || continue
    [ "$f" = "$dir/index.sh" ] && continue
    grep -qF "\`$f\`" "$index" || { echo "not in the index: $f"; bad=1; }
done
# every path the index names in backquotes, such as `tests/sharding/uneven_params.roof`
for p in $(grep -o '`tests/[^` ]*`' "$index" | tr -d '`' | sort -u); do
    [ -e "$p" ] || { echo "named in the index but missing: $p"; bad=1; }
done
# a commit is written as its short hash: seven hex digits, at least one a letter
hashes=$(grep -oE '\b[0-9a-f]{7}\b' "$index" | grep '[a-f]' | sort -u)
[ -n "$hashes" ] || { echo "no commit found in the index"; bad=1; }
if ! command -v git >/dev/null 2>&1 || ! git rev-parse --git-dir >/dev/null 2>&1; then
    [ "$bad" = 0 ] || exit 1
    echo "skipped: the commits need git and the repository's history"
    exit 77
fi
for h in $hashes; do
    git cat-file -e "$h^{commit}" 2>/dev/null || { echo "no such commit: $h"; bad=1; }
done
[ "$bad" = 0 ] && echo "index complete: every test listed, every path and commit found"
exit "$bad"
