# A sweep evaluates each statement's figures, compiled once as polynomials in the
# swept dim, in blocks of 256 points; every point must report what the statement says
# with the dim bound to that value (`let B = v`), to the last digit or so (1e-15: a
# statement forms its times in another order). Points are taken at both ends of each
# block and in the short last one (1 .. 600 = 256 + 256 + 88), for statements with a
# collective, a latency floor, a function, and the swept dim in every place of a term.
. "$(dirname "$0")/../book/lib.shinc"

dims='let B = 8, D = 4096, F = 1024, S = 2048, T = 512, H = 16, K = 128'
points='1 2 255 256 257 300 511 512 513 599 600'
all_keys='flops bytes intensity t_math t_hbm t_comm comm_bytes t_lower t_upper'

compare() { # compare LABEL DIM STATEMENT [KEYS]
    _sweep=$("$ROOFLINE" --json -e "$dims" -e "sweep $2 in 1 .. 600 { $3 }")
    _rows=$(printf '%s\n' "$_sweep" | grep -c '"at":')
    if [ "$_rows" = 600 ]; then _book_ok "$1: 600 points"; else _book_fail "$1" "$_rows points, expected 600"; fi
    # the rows of the points, as _row_V (one awk, not a grep of the whole sweep a point;
    # the last line holding "at":{"DIM":V}, when there are several)
    for v in $points; do unset "_row_$v"; done
    eval "$(printf '%s\n' "$_sweep" | awk -v d="$2" -v pts="$points" '
        BEGIN { n = split(pts, p, " "); for (i = 1; i <= n; i++) at["\"at\":{\"" d "\":" p[i] "},"] = p[i] }
        { for (k in at) if (index($0, k)) { l = $0; gsub(/\047/, "\047\\\047\047", l); print "_row_" at[k] "=\047" l "\047" } }')"
    for v in $points; do
        # the sweep's row, its figures kept as _w_KEY before the statement's run
        eval "_book_out=\${_row_$v-}"
        _book_parse
        for k in ${4:-$all_keys} bound; do
            _book_find "$k"
            eval "_w_$k=\${_got#*\"	\"}"
        done
        run -e "$dims" -e "let $2 = $v" -e "$3"
        for k in ${4:-$all_keys}; do
            eval "_want=\$_w_$k"
            if [ -z "$_want" ]; then _book_fail "$1 $2=$v $k" "no $k in the sweep's row"; continue; fi
            check "$1 $2=$v $k" "$k" "$_want" 1e-15
        done
        check_str "$1 $2=$v bound" bound "$_w_bound"
    done
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
