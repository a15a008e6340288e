# The --json totals of one model written three ways agree: two layers of a
# tensor-parallel MLP (F over Y) on a v5e 2x4, 4 microbatches, as top-level
# statements, as a top-level repeat, and as a block calling a block in a repeat.
# In inference all three agree on the work (a statement alone reports as its memory
# its operands and result, not the params a block holds). In training every figure
# agrees (time, bytes, params, memory by part): each top-level statement with a param
# is a step that ends with the update of its params, and the updates of the parts add
# up to the update of the whole (tests/training/same_step.roof derives these figures
# by hand on one chip).
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
cd "$tmp" || exit 1

head='let B = 8, T = 1024, D = 4096, F = 14336
use v5e 2x4
block mlp(x, tp = {}) { up = x *_D param bf16[D, F_{tp}]; g = up *_F param bf16[F_{tp}, D]; return g }
block layer(x, tp = {}) { y = mlp(x, tp = tp); return y }'
inline='u1 = bf16[B, T, D] *_D param bf16[D, F_Y]
g1 = u1 *_F param bf16[F_Y, D]
u2 = g1 *_D param bf16[D, F_Y]
g2 = u2 *_F param bf16[F_Y, D]'
loop='repeat 2 { up = bf16[B, T, D] *_D param bf16[D, F_Y]; g = up *_F param bf16[F_Y, D] }'
blocks='repeat 2 { y = layer(bf16[B, T, D], tp = Y) }'

# The sum over the statements of each key.
totals() {
    awk -v keys="flops bytes comm_bytes t_lower t_upper params memory memory_params memory_optimizer memory_activations" '
        function get(s, k,    i) {
            i = index(s, "\"" k "\":")
            if (!i) return ""
            s = substr(s, i + length(k) + 3)
            return substr(s, 1, match(s, /[,}]/) - 1)
        }
        {
            n = split(keys, k, " ")
            for (j = 1; j <= n; j++) { v = get($0, k[j]); if (v != "") { sum[k[j]] += v; seen[k[j]] = 1 } }
        }
        END {
            n = split(keys, k, " ")
            for (j = 1; j <= n; j++)
                printf "%s %s\n", k[j], seen[k[j]] ? sprintf("%.10g", sum[k[j]]) : "-"
        }' "$1"
}

run() { # MODE FORM
    printf '%s\nmode %s\n%s\n' "$head" "$1" "$2" | "$ROOFLINE" --json - > "$3" || echo "$3: exit $?"
}

for mode in inference 'training microbatches 4'; do
    echo "mode $mode"
    run "$mode" "$inline" inline.json
    run "$mode" "$loop" loop.json
    run "$mode" "$blocks" blocks.json
    totals loop.json > loop.tot
    totals blocks.json > blocks.tot
    totals inline.json > inline.tot
    cmp -s loop.tot blocks.tot && echo "  repeat = blocks: same" || { echo "  repeat, blocks differ:"; paste loop.tot blocks.tot; }
    # in inference the work; in training every figure
    keys='flops bytes comm_bytes t_lower t_upper'
    [ "$mode" = inference ] || keys=''
    awk -v keys="$keys" 'NR == FNR { all[$1] = $2; next }
         keys != "" && index(" " keys " ", " " $1 " ") == 0 { next }
         { d = $2 - all[$1]; if (d < 0) d = -d
           printf "  %s: %s (statements) vs %s (repeat)%s\n", $1, $2, all[$1],
                  $2 == all[$1] || ($2 != "-" && all[$1] != "-" && d <= 1e-9 * ($2 < 0 ? -$2 : $2)) ? "" : "  DIFFERENT" }' \
        loop.tot inline.tot
    echo "  repeat:"; sed 's/^/    /' loop.tot
done
