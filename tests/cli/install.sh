# make install puts the binary, the man page and the stdlib's sources (so users can
# read the blocks they call) under PREFIX.
top=$(cd "$(dirname "$0")/../.." && pwd)
dest=$(mktemp -d)
trap 'rm -rf "$dest"' EXIT
b="$(dirname "$ROOFLINE")"
make -s -C "$top" -o "$b/roofline" install B="$b" DESTDIR="$dest" PREFIX=/usr >/dev/null 2>&1 ||
    echo "make install failed"
for f in bin/roofline share/man/man1/roofline.1 share/roofline/chips.roof \
         share/roofline/transformer.roof; do
    [ -f "$dest/usr/$f" ] && echo "installed $f" || echo "MISSING $f"
done
cmp -s "$dest/usr/share/roofline/transformer.roof" "$top/stdlib/transformer.roof" &&
    echo "the stdlib as in the repository"
