#!/bin/sh
# --jobs N costs a sweep's points in N processes when each point is costed whole (a
# block call, a mesh), and prints exactly what one process prints: --jobs 1, 2 and 3
# compared byte for byte (standard output, standard error and the exit status) on
# sweeps of 100 points (at least 32 a process, so that two and three are used):
# LLaMA-3 70B training on a 4x4x4 v5p mesh over B, as a table, --json, --csv and an
# SVG chart; and a sweep whose dim reaches 0 at B = 20 (in the run this process
# costs) and at B = 70 (in another process's run): the rows before it, then the
# error, located, and nothing after.
: "${ROOFLINE:?ROOFLINE must name the roofline binary}"
case $ROOFLINE in /*) ;; *) ROOFLINE=$PWD/$ROOFLINE ;; esac
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
cat > "$tmp/model.roof" <<'END'
let D = 8192, F = 28672, N = 64, K = 8, H = 128, L = 80, V = 128256
mode training
let T = 4096
sweep B in 1 .. 100 {
    model(B, T, D, F, N, K, H, L, V, fsdp = {X, Y}, tp = Z) on v5p mesh X = 4, Y = 4, Z = 4
}
END
sed 's/sweep B in 1 .. 100 {/sweep B in 1 .. 100 plot "chart.svg" {/' "$tmp/model.roof" > "$tmp/chart.roof"
for stop in 20 70; do
    cat > "$tmp/stop$stop.roof" <<END
let D = 4096, F = 16384
sweep B in 1 .. 100 {
    bf16[($stop - B) * 8, D_X] *_D bf16[D_X, F] on v5e mesh X = 4
}
END
done
status=0
same() { # NAME J: --jobs J's run the same as --jobs 1's
    if cmp -s "$tmp/$1-1" "$tmp/$1-$2"; then
        echo "ok $1 --jobs $2: the same as --jobs 1"
    else
        echo "FAIL $1 --jobs $2 differs from --jobs 1"; status=1
    fi
}
for j in 1 2 3; do
    for f in model stop20 stop70; do
        "$ROOFLINE" --jobs $j "$tmp/$f.roof" > "$tmp/$f-$j" 2>&1
        echo "exit $?" >> "$tmp/$f-$j"
    done
    "$ROOFLINE" --jobs $j --json "$tmp/model.roof" > "$tmp/json-$j" 2>&1
    "$ROOFLINE" --jobs $j --csv "$tmp/model.roof" > "$tmp/csv-$j" 2>&1
    (cd "$tmp" && "$ROOFLINE" --jobs $j chart.roof > /dev/null 2>&1 && mv chart.svg "svg-$j")
done
for j in 2 3; do
    for f in model json csv svg stop20 stop70; do same $f $j; done
done
# what is compared holds what it should: 100 rows, and each error after its rows
[ "$(grep -c '^{' "$tmp/json-1")" = 100 ] || { echo "FAIL json: not 100 records"; status=1; }
grep -q '<svg' "$tmp/svg-1" || { echo "FAIL svg: no chart"; status=1; }
for stop in 20 70; do
    rows=$(grep -c '^ *[0-9][0-9]* .*FLOP ' "$tmp/stop$stop-1")
    if [ "$rows" = $((stop - 1)) ] && grep -q "stop$stop.roof:3:.*is 0; a dim must be" "$tmp/stop$stop-1" &&
       grep -q '^exit 1$' "$tmp/stop$stop-1"; then
        echo "ok stop$stop: $rows rows, then the error at B = $stop, status 1"
    else
        echo "FAIL stop$stop: $rows rows, or no error"; status=1
    fi
done
exit $status
