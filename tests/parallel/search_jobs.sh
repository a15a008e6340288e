#!/bin/sh
# --jobs N costs a search's configurations in N processes and prints exactly what one
# prints: the text report and the JSON records of --jobs 1, 2 and 3 are compared byte
# for byte, on two searches of more than 100 costed configurations (so that two and
# three processes are used): LLaMA-3 70B on 64 chips under four plans (configurations
# that do not fit, dims split too finely), and a stack whose pipeline runs in a block
# it calls, where some configurations cannot be costed (6 layers over 4 stages):
# the counts and the first reason are merged in the order one process meets them.
: "${ROOFLINE:?ROOFLINE must name the roofline binary}"
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
cat > "$tmp/llama.roof" <<'END'
let D = 8192, F = 28672, N = 64, K = 8, H = 128, L = 80, V = 128256
mode training
let B = 256, T = 2048
search model(B, T, D, F, N, K, H, L, V) on v5p over 64 with microbatches in [1, 4], remat in [none, full]
END
cat > "$tmp/stack.roof" <<'END'
block inner(x, D, F, L, q = {}, tp = {}) {
    repeat L over q {
        h = x *_D param bf16[D, F_{tp}]
        x = h *_F param bf16[F_{tp}, D]
    }
    return x
}
block outer(B, D, F, L, dp = {}, pp = {}, tp = {}) {
    x = bf16[B_{dp}, D]
    y = inner(x, D, F, L, q = pp, tp = tp)
    return y
}
mode training
search outer(512, 1024, 4096, 6) on v5p over [64, 128, 256, 96] with microbatches in [1, 2]
END
status=0
for f in llama stack; do
    for j in 1 2 3; do
        "$ROOFLINE" --jobs $j "$tmp/$f.roof" > "$tmp/$f-$j.txt" 2>&1
        "$ROOFLINE" --jobs $j --json "$tmp/$f.roof" > "$tmp/$f-$j.json" 2>&1
    done
    grep -q 'fit in 96 GB' "$tmp/$f-1.txt" || { echo "FAIL $f: no report"; status=1; }
    for j in 2 3; do
        for k in txt json; do
            if cmp -s "$tmp/$f-1.$k" "$tmp/$f-$j.$k"; then
                echo "ok $f --jobs $j $k: the same as --jobs 1"
            else
                echo "FAIL $f --jobs $j $k differs from --jobs 1"; status=1
            fi
        done
    done
done
grep -q 'could not be costed (6 layers do not split evenly into 4 pipeline stages' \
    "$tmp/stack-1.txt" && echo "ok stack: some could not be costed, the first reason said" ||
    { echo "FAIL stack: the failures are not counted"; status=1; }
exit $status
