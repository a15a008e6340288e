# Opens the unit test's two SVG charts in a real browser: build/unit/test_plot writes
# them to PLOT_OUT_DIR, and headless chromium, when installed, renders each to a PNG that
# must be a real picture (over 5 KB: a blank page is some 2.9 KB). Without chromium
# the render is skipped silently, so stdout is the same either way: "ok NAME.svg" per
# chart, or a FAIL line and exit 1. PLOT_KEEP=DIR keeps the PNGs there, to look at.
bin=$(dirname "${ROOFLINE:-build/roofline}")/unit/test_plot
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

fail() { echo "FAIL $1"; exit 1; }

[ -x "$bin" ] || fail "no $bin: build it with make"
PLOT_OUT_DIR=$tmp "$bin" > "$tmp/unit.out" 2>&1 || fail "$bin failed"

browser=$(command -v chromium || command -v chromium-browser)
# A bounded wait: a browser that hangs must not hang the suite.
limit=""; command -v timeout > /dev/null 2>&1 && limit="timeout 120"

# render SVG PNG: a 900 × 600 screenshot, with a profile of its own and no network
render() {
    # shellcheck disable=SC2086
    $limit "$browser" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
        --disable-background-networking --disable-component-update --disable-sync \
        --user-data-dir="$(mktemp -d "$tmp/profile.XXXXXX")" --screenshot="$2" \
        --window-size=900,600 "file://$1" > "$tmp/browser.log" 2>&1
}

for name in q3 roofline; do
    [ -s "$tmp/$name.svg" ] || fail "$name.svg not written"
    if [ -n "$browser" ]; then
        render "$tmp/$name.svg" "$tmp/$name.png" || fail "chromium cannot render $name.svg"
        size=$(wc -c < "$tmp/$name.png")
        # a blank page of this size is some 2.9 KB of PNG: the size tells it (once
        # rendered here for the comparison, a third of the test's time)
        [ "$size" -gt 5120 ] || fail "$name.png is only $size bytes: blank?"
        [ -z "$PLOT_KEEP" ] || cp "$tmp/$name.png" "$PLOT_KEEP/$name.png"
    fi
    echo "ok $name.svg"
done
