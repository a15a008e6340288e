#!/bin/sh
# A model's dtype is the default of its block's wdtype, adtype and kvdtype: the weights,
# the activations and the KV cache cost at its width, and a call's own arguments win.
# Figures by hand from the dims (docs/costmodel.md §4) and the scales as the precision
# code counts them (src/dtype.h): int8 one bf16 (2 B) an output column of a weight's
# matmul (a gain, or a table not contracted where it is declared, along its first dim:
# one scale for a norm's gain, D for the embedding table); int4 one every 128 weights
# (0.5 + 2/128 B a weight); fp8 none (its per-tensor scale is a few bytes in all).
. "$(dirname "$0")/../book/lib.shinc"

# A small dense model (the stdlib's `model`): D 256, F 512, N 4, K 2, H 64, L 2, V 1024.
#   attention 2·D·(N + K)·H = 2·256·6·64 = 196,608; MLP 3·D·F = 393,216; norms 2·D = 512
#   a layer 590,336 × 2 = 1,180,672; embeddings 2·V·D = 524,288; final norm 256:
#   P = 1,705,216
# int8 scales: a layer's Q N·H 256 + K K·H 128 + V 128 + O D 256 + up F 512 + gate 512 +
# down D 256 + two norms 1 each = 2,050, × 2 = 4,100; the table D 256; the logits'
# matrix [D, V] contracted over D: V 1,024; the final norm 1. 5,381 scales, 10,762 B.
DENSE='D = 256, F = 512, N = 4, K = 2, H = 64, L = 2, V = 1024'
P=1705216
S8=10762
run -e "arch tiny8 { $DENSE, dtype = int8 }" -e 'model(tiny8, B = 1, T = 16) on H100'
check int8_params params "$P"
check int8_params_bytes memory_params "$P + $S8"         # 1,715,978 B
run -e "arch tiny_fp8 { $DENSE, dtype = fp8 }" -e 'model(tiny_fp8, B = 1, T = 16) on H100'
check fp8_params_bytes memory_params "$P"                # 1 B a weight, no scales
# The record in bf16, for contrast: 2 B a weight.
run -e "arch tiny16 { $DENSE, dtype = bf16 }" -e 'model(tiny16, B = 1, T = 16) on H100'
check bf16_params_bytes memory_params "2*$P"

# The call's wdtype wins over the record's: int4 weights, 0.5 + 2/128 B each
# (P · 0.515625 = 879,252 B), the activations and cache still the record's int8.
run -e "arch tiny8 { $DENSE, dtype = int8 }" -e 'model(tiny8, B = 1, T = 16, wdtype = int4) on H100'
check override_int4_params_bytes memory_params "$P*(0.5 + 2/128)"
# A derived record's dtype replaces its parent's.
run -e "arch tiny8 { $DENSE, dtype = int8 }" -e 'arch tiny_d : tiny8 { dtype = fp8 }' \
    -e 'model(tiny_d, B = 1, T = 16) on H100'
check derived_fp8_params_bytes memory_params "$P"

# Decode: the cache in the record's dtype, 2·B·S·L·K·H values: 2·2·128·2·2·64 = 131,072,
# 1 B each in int8; the call's kvdtype = bf16 doubles it.
run -e "arch tiny8 { $DENSE, dtype = int8 }" -e 'decode(tiny8, B = 2, S = 128) on H100'
check decode_int8_cache memory_cache '2*2*128*2*2*64*1'
check decode_int8_params_bytes memory_params "$P + $S8"
run -e "arch tiny8 { $DENSE, dtype = int8 }" -e 'decode(tiny8, B = 2, S = 128, kvdtype = bf16) on H100'
check decode_kv_override_cache memory_cache '2*2*128*2*2*64*2'
check decode_kv_override_params_bytes memory_params "$P + $S8"

# A mixture of experts by name (moe_model) in int8: the dense dims with E 4, k 2.
#   a layer: attention 196,608 + router D·E 1,024 + experts 3·E·D·F = 1,572,864 + norms
#   512 = 1,771,008, × 2 = 3,542,016; embeddings 524,288; final norm 256: 4,066,560
# int8 scales: a layer's attention 768, router E 4, experts' up and gate E·F 2,048 each,
# down E·D 1,024, norms 2: 5,894, × 2 = 11,788; table 256; logits V 1,024; final norm 1:
# 13,069 scales, 26,138 B.
run -e "arch tiny_moe { $DENSE, E = 4, k = 2, dtype = int8, model = moe_model }" \
    -e 'model(tiny_moe, B = 1, T = 16) on H100'
check moe_int8_params params 4066560
check moe_int8_params_bytes memory_params '4066560 + 26138'  # 4,092,698 B

# MLA by name (mla_decode, absorbed) in int8: D 256, N 2, Rq 64, Rkv 64, Hn 32, Hr 16, Hv 32,
# Fd 512, Ld 1 dense layer of L 2, F 128, E 4, k 2, Es 1, V 1024.
#   MLA a layer: D·Rq 16,384 + Rq 64 + Rq·N·(Hn + Hr) 6,144 + D·(Rkv + Hr) 20,480 + Rkv 64
#   + Rkv·N·(Hn + Hv) 8,192 + N·Hv·D 16,384 = 67,712; the layer's norms 2·D 512
#   dense layer: + 3·D·Fd 393,216 = 461,440
#   MoE layer: + shared 3·D·Es·F 98,304 + router D·E 1,024 + experts 3·E·D·F 393,216
#   = 560,768
#   embeddings V·D 262,144, logits D·V 262,144, final norm 256: P = 1,546,752
# int8 scales, absorbed: W_DQ Rq 64, its norm 1, W_UQ N·Hn 64 and N·Hr 32, W_DKV Rkv 64
# and Hr 16, its norm 1, W_UK (contracted over Hn) Rkv·N 128, W_UV N·Hv 64, W_O D 256:
# 690; the layer's norms 2. Dense layer + MLP F 512 + 512 + D 256: 1,972. MoE layer +
# shared 128 + 128 + 256, router E 4, experts E·F 512 + 512 + E·D 1,024: 3,256. Table
# 256, logits V 1,024, final norm 1: 6,509 scales, 13,018 B.
# The cache: Rkv + Hr = 80 values a token a layer, B·S·L·80 = 2·128·2·80 = 40,960, 1 B each.
MLA='D = 256, N = 2, L = 2, V = 1024, Rq = 64, Rkv = 64, Hn = 32, Hr = 16, Hv = 32, Fd = 512'
run -e "arch tiny_mla { $MLA, Ld = 1, F = 128, E = 4, k = 2, Es = 1, dtype = int8, decode = mla_decode }" \
    -e 'decode(tiny_mla, B = 2, S = 128) on H100'
check mla_int8_params params 1546752
check mla_int8_params_bytes memory_params '1546752 + 13018'  # 1,559,770 B
check mla_int8_cache memory_cache '2*128*2*80*1'

# dtype sets all three: the record in int8 costs exactly what the dims typed out with
# the three dtypes given cost (every figure of --json, the breakdown's too).
same() {
    a=$("$ROOFLINE" --json -e "arch tiny8 { $DENSE, dtype = int8 }" -e "$1" | sed 's/^{"stmt":"[^"]*",//; s/"file":"[^"]*",//; s/"dims":{[^}]*},//')
    b=$("$ROOFLINE" --json -e "$2" | sed 's/^{"stmt":"[^"]*",//; s/"file":"[^"]*",//; s/"dims":{[^}]*},//')
    if [ -n "$a" ] && [ "$a" = "$b" ]; then echo "ok $3"; else echo "FAIL $3"; _book_failed=1; fi
}
same 'model(tiny8, B = 1, T = 16) on H100' \
    'model(1, 16, 256, 512, 4, 2, 64, 2, 1024, wdtype = int8, adtype = int8, kvdtype = int8) on H100' \
    same_as_typed_int8
same 'model(tiny8, B = 1, T = 16, adtype = bf16) on H100' \
    'model(1, 16, 256, 512, 4, 2, 64, 2, 1024, wdtype = int8, kvdtype = int8) on H100' \
    same_as_typed_adtype_override
finish
