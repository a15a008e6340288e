# A chart is written whole or not at all (issue 16): into a temporary file beside it,
# renamed over the target only when every write, the flush and the close succeeded.
# A write that fails (here a file size limit, which stops root too) leaves the old
# file as it was and no temporary file behind, with the path and the reason; a path
# under a file, or /dev/full (a device: written in place), is an error too.
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT INT TERM
cd "$dir" || exit 1
chart() { printf 'use v5e\nsweep B in [1, 2] plot "%s" { bf16[B,8] *_K bf16[8,8] }\n' "$1" > p.roof; }
run() { # the status and the first line of stderr
    "$ROOFLINE" p.roof > out 2> err
    echo "exit $?: $(head -1 err)"
}

echo 'the old chart' > c.svg
chart c.svg
(trap '' XFSZ; ulimit -f 1; run)
cat c.svg
ls -A

# When nothing fails the new chart takes the old one's place.
run
head -c 4 c.svg; echo
ls -A

chart p.roof/c.svg
run
chart /dev/full
run
ls -A
