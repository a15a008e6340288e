#!/bin/sh
# A model by name costs exactly what its dims typed out cost: every figure of --json
# the same, the breakdown's too (the statement's text aside). Dense in prefill, training
# on a mesh and decode; tied embeddings (tied_model: the logits use the table, not a
# param of their own); a model from its config.json; a mixture of experts by name
# against moe_model with its dims typed.
fail=0
same() { # NAME BY_NAME TYPED [PRELUDE]
    a=$("$ROOFLINE" --json -e "${4:-use H100}" -e "$2" | sed 's/^{"stmt":"[^"]*",//; s/"file":"[^"]*",//; s/"dims":{[^}]*},//')
    b=$("$ROOFLINE" --json -e "${4:-use H100}" -e "$3" | sed 's/^{"stmt":"[^"]*",//; s/"file":"[^"]*",//; s/"dims":{[^}]*},//')
    if [ -n "$a" ] && [ "$a" = "$b" ]; then echo "ok $1"; else echo "DIFFERENT $1"; fail=1; fi
}
same llama3_8b_prefill 'model(llama3_8b, B = 1, T = 2048) on H100' \
    'model(1, 2048, 4096, 14336, 32, 8, 128, 32, 128256) on H100'
same llama3_8b_named 'model(llama3_8b, B = 1, T = 2048) on H100' \
    'model(V = 128256, L = 32, H = 128, K = 8, N = 32, F = 14336, D = 4096, T = 2048, B = 1) on H100'
same llama3_70b_training 'model(llama3_70b, B = 256, T = 4096, fsdp = X, tp = Y) on v5p 16x16' \
    'model(256, 4096, 8192, 28672, 64, 8, 128, 80, 128256, fsdp = X, tp = Y) on v5p 16x16' \
    'mode training'
same llama3_8b_decode 'decode(llama3_8b, B = 32, S = 8192, tp = Y, ws = X, sp = X) on v5e 2x4' \
    'decode(32, 8192, 4096, 14336, 32, 8, 128, 32, 128256, tp = Y, ws = X, sp = X) on v5e 2x4'
same override 'model(llama3_8b, B = 1, T = 2048, L = 16) on H100' \
    'model(1, 2048, 4096, 14336, 32, 8, 128, 16, 128256) on H100'
same gemma_7b_tied 'model(gemma_7b, B = 1, T = 2048) on H100' \
    'tied_model(1, 2048, 3072, 24576, 16, 16, 256, 28, 256000) on H100'
# tied_model is model with the table as `out`: the same totals (its breakdown has the
# level of tied_model's call more).
totals() { "$ROOFLINE" --json -e 'let D = 3072, V = 256000' -e "$1" | sed 's/^{"stmt":"[^"]*",//; s/"file":"[^"]*",//; s/"dims":{[^}]*},//; s/"ops":.*//'; }
a=$(totals 'model(gemma_7b, B = 1, T = 2048) on H100')
b=$(totals 'model(1, 2048, D, 24576, 16, 16, 256, 28, V, out = bf16[D, V]) on H100')
if [ -n "$a" ] && [ "$a" = "$b" ]; then echo "ok gemma_7b_out"; else echo "DIFFERENT gemma_7b_out"; fail=1; fi
same mixtral_8x7b 'model(mixtral_8x7b, B = 4, T = 2048) on H100' \
    'moe_model(4, 2048, 4096, 14336, 32, 8, 128, 32, 32000, 8, 2) on H100'
# Mixtral by name (moe_model, the experts over X) against the way
# examples/model_mixtral_8x7b.roof costs it: the stdlib's model with its layer
# replaced by an MoE layer. The same totals in training on a v5p 8x8.
moe() { "$ROOFLINE" --json -e 'mode training' "$@" | sed 's/^{"stmt":"[^"]*",//; s/"file":"[^"]*",//; s/"dims":{[^}]*},//; s/"ops":.*//'; }
a=$(moe -e 'model(mixtral_8x7b, B = 16, T = 4096, fsdp = X, tp = Y, ep = X) on v5p 8x8')
b=$(moe -e 'let E = 8, k = 2' -e 'block layer(x: [B_{dp, fsdp}, T, D], keys: [B_{dp, fsdp}, S, K_{tp}, H], values: [B_{dp, fsdp}, S, K_{tp}, H], F, N, dp = {}, fsdp = {}, tp = {}, ws = {}, tsp = {}, wdtype = bf16, adtype = bf16) { y = moe_layer(x, keys, values, F, N, E, k, dp = dp, fsdp = fsdp, tp = tp, ws = ws, ep = {fsdp, ws}); return y }' \
    -e 'model(16, 4096, 4096, 14336, 32, 8, 128, 32, 32000, fsdp = X, tp = Y) on v5p 8x8')
if [ -n "$a" ] && [ "$a" = "$b" ]; then echo "ok mixtral_8x7b_example"; else echo "DIFFERENT mixtral_8x7b_example"; fail=1; fi
dir=$(cd "$(dirname "$0")/../data" && pwd)
same config_llama3_8b "model(m, B = 1, T = 2048) on H100" \
    'model(1, 2048, 4096, 14336, 32, 8, 128, 32, 128256) on H100' \
    "arch m from \"$dir/llama3_8b.json\""
exit $fail
