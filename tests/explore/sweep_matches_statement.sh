# A sweep evaluates each statement's figures, compiled once as polynomials in the
# swept dim, in blocks of 256 points; every point must report what the statement says
# with the dim bound to that value (`let B = v`), to the last digit or so (1e-15: a
# statement forms its times in another order). Points are taken at both ends of each
# block and in the short last one (1 .. 600 = 256 + 256 + 88), for statements with a
# collective, a latency floor, a function, and the swept dim in every place of a term.
. "$(dirname "$0")/../book/lib.shinc"

dims='let B = 8, D = 4096, F = 1024, S = 2048, T = 512, H = 16, K = 128'
points='1 2 255 256 257 300 511 512 513 599 600'
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
all_keys='flops bytes intensity t_math t_hbm t_comm comm_bytes t_lower t_upper'

# The comparison, one awk for all points: lines "V<TAB>ROW<TAB>ALONE" in; for each point
# each key's check (the same number as the sweep's row within 1e-15, relative), then
# the bound's, as `ok NAME` or `FAIL NAME: ...` lines.
compare_awk='
    function get(line, key) {  # a top-level key: the records are flat before "formula"
        sub(/,"formula":.*/, "", line)
        if (!match(line, "\"" key "\":[^,}]*")) return ""
        line = substr(line, RSTART, RLENGTH); sub(/^[^:]*:/, "", line); return line
    }
    function near(got, want,   d, m) {
        d = got - want; if (d < 0) d = -d; m = want < 0 ? -want : want
        return got ~ /^[-+]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?$/ &&
               ((m == 0 && d <= 1e-15) || (m > 0 && d <= 1e-15 * m))
    }
    {
        n = split(keys, k, " ")
        for (i = 1; i <= n; i++) {
            name = label " " dim "=" $1 " " k[i]; want = get($2, k[i]); got = get($3, k[i])
            if (want == "") print "FAIL " name ": no " k[i] " in the sweep\047s row"
            else if (got == want || near(got, want)) print "ok " name
            else print "FAIL " name ": " k[i] ": got " got ", expected " want
        }
        name = label " " dim "=" $1 " bound"; want = get($2, "bound"); got = get($3, "bound")
        if (got != "" && got == want) print "ok " name
        else print "FAIL " name ": bound: got " got ", expected " want
    }'

compare() { # compare LABEL DIM STATEMENT [KEYS]
    _sweep=$("$ROOFLINE" --json -e "$dims" -e "sweep $2 in 1 .. 600 { $3 }")
    _rows=$(printf '%s\n' "$_sweep" | grep -c '"at":')
    if [ "$_rows" = 600 ]; then _book_ok "$1: 600 points"; else _book_fail "$1" "$_rows points, expected 600"; fi
    # the statement alone at every point, in one run of a script: line 1 the dims, then
    # for each point `let DIM = V` and the statement, a line each
    printf '%s\n' "$dims" > "$tmp/alone.roof"
    for v in $points; do printf 'let %s = %s\n%s\n' "$2" "$v" "$3" >> "$tmp/alone.roof"; done
    "$ROOFLINE" --json "$tmp/alone.roof" > "$tmp/alone.json"
    # for each point, the sweep's row (the last line holding "at":{"DIM":V}) and the
    # statement's record (the last of its line), then the checks
    out=$(printf '%s\n' "$_sweep" | awk -v d="$2" -v pts="$points" '
        BEGIN { n = split(pts, p, " ")
                for (i = 1; i <= n; i++) { at["\"at\":{\"" d "\":" p[i] "},"] = i; line[2 * i + 1] = i } }
        NR == FNR { for (k in at) if (index($0, k)) row[at[k]] = $0; next }
        match($0, /"line":[0-9]+,/) { k = substr($0, RSTART + 7, RLENGTH - 8) + 0
                                       if (k in line) alone[line[k]] = $0 }
        END { for (i = 1; i <= n; i++) print p[i] "\t" row[i] "\t" alone[i] }' - "$tmp/alone.json" |
        awk -F '\t' -v label="$1" -v dim="$2" -v keys="${4:-$all_keys}" "$compare_awk")
    printf '%s\n' "$out"
    case $out in *FAIL*) _book_failed=1 ;; esac
}

compare matmul B 'bf16[B,D] *_D int8[D,F] on v5e'
compare 'contracting dim' D 'bf16[B,D] *_D int8[D,F] on v5e'
compare 'sharded, AllReduce' D 'bf16[B,D] *_D int8[D,F] on v5e shard D over 4'
compare 'AllGather alone' B 'allgather(bf16[B_X,D]) over X on v5e 4x1' \
    'flops bytes t_math t_hbm t_comm comm_bytes t_lower t_upper'
compare attention T 'bf16[B,S,H,K] *_K bf16[B,T,H,K] on v5p'
compare 'exp of a sum' S 'exp(bf16[B,S] + bf16[B,S]) on v6e'
# case 2 on v5e 4x1, A[I, J_X] · B[J, K] with I = 4096, J = 512: partial sums and an
# AllReduce (4·I·K bytes) are faster up to K = 255, gathering A (2·I·J bytes, then all
# the FLOPs) from K = 256; each point of the sweep must take the faster, as the
# statement does (the sweep once kept the gather, decided with K unbound)
dims_before=$dims
dims="$dims; let I = 4096, J = 512"
compare 'case 2, gather or partial sums' K 'bf16[I, J_X] *_J bf16[J, K] on v5e 4x1'
dims=$dims_before
# training: 3× the FLOPs and bytes, forward collectives 2×, the weight's gradient summed
# (`optimizer none`: the statements are their operations; with an update they are
# steps, and a sweep costs each point as one)
dims="$dims; mode training; optimizer none"
compare 'training, data parallel' B 'bf16[B_X,D] *_D param bf16[D,F] on v5p 4x1'
compare 'training, sharded' D 'bf16[B,D] *_D int8[D,F] on v5e shard D over 4'
# FSDP on v5p 4x1: each run of the weight's AllGather (one per pass) and its gradient's
# ReduceScatter has its own latency floor, 1e-6 · 4/2 = 2 µs; a run moves 2·D·F bytes in
# 2·4096·F / 1.8e11 s, above the floor from F = 44
compare 'training, FSDP across the latency floor' F 'bf16[B_X,D] *_D param bf16[D_X,F] on v5p 4x1'
# each pass on its own roofline (overlap per pass, the default), on a chip slow enough
# that the thresholds fall inside 1 .. 600: C/W = 2e13 / 1.8e11 = 111.1, so data
# parallelism on 4 chips turns compute-bound at B = 444.4 (the backward pass decides)
# and tensor parallelism at F = 444.4 (the forward pass decides); over the whole step
# both at 296.3, so the points from 300 to 444 differ between the two rules
dims="$dims; chip slow : v5p { flops_bf16 = 2e13 }"
compare 'training per pass, data parallel across B/X = C/W' B 'bf16[B_X,D] *_D param bf16[D,F] on slow 4x1'
dims_before=$dims
dims="$dims; let B = 4096"
compare 'training per pass, tensor parallel across F/Y = C/W' F 'bf16[B,D_Y] *_D param bf16[D,F_Y] on slow 1x4'
dims="$dims; mode training overlap step"
compare 'training overlap step, tensor parallel' F 'bf16[B,D_Y] *_D param bf16[D,F_Y] on slow 1x4'
dims="$dims_before; mode training overlap step"
compare 'training overlap step, data parallel' B 'bf16[B_X,D] *_D param bf16[D,F] on slow 4x1'
finish
