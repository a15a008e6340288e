#!/bin/sh
# The mixtures of experts of stdlib/models.roof by name: model(...) runs the block the
# record names (moe_model, mla_model), whose parameter count is derived here by hand
# against the published total. With E = k (an argument overriding the record's E) the
# count is the parameters a token uses, less the router's E − k unused columns.
. "$(dirname "$0")/../book/lib.shinc"
count() { # NAME CALL EXACT PUBLISHED TOL
    run -e "$2 on H100"
    check "$1_exact" params "$3"
    check "$1_published" params "$4" "$5"
}

# Mixtral 8x7B (Jiang et al. 2024: 46.7e9 in all, 12.9e9 active). D 4096, F 14336,
# N 32, K 8, H 128, L 32, V 32000, E 8, k 2 (examples/model_mixtral_8x7b.roof):
#   attention 41,943,040; 8 experts 8·3·4096·14336 = 1,409,286,144; router 4096·8 =
#   32,768; norms 8,192; a layer 1,451,270,144 × 32 = 46,440,644,608; embeddings
#   2·32000·4096 = 262,144,000; final 4,096: 46,702,792,704
#   active: 2 experts 352,321,536 a layer: 394,305,536 × 32 + 262,148,096
#   = 12,879,925,248, less 6 router columns 32·6·4096 = 786,432: 12,879,138,816
count mixtral_8x7b 'model(mixtral_8x7b, B = 1, T = 64)' 46702792704 46.7e9 0.001
count mixtral_8x7b_active 'model(mixtral_8x7b, B = 1, T = 64, E = 2)' 12879138816 12.9e9 0.002
# Mixtral 8x22B (Mistral AI, 2024: 141e9 in all, 39e9 active). D 6144, F 16384, N 48,
# K 8, H 128, L 56, V 32000, E 8, k 2:
#   attention 2·6144·56·128 = 88,080,384; 8 experts 8·3·6144·16384 = 2,415,919,104;
#   router 49,152; norms 12,288; a layer 2,504,060,928 × 56 = 140,227,411,968;
#   embeddings 2·32000·6144 = 393,216,000; final 6,144: 140,620,634,112 (141e9 − 0.27%)
#   active: 2 experts 603,979,776: 88,080,384 + 603,979,776 + 12,288 + 12,288 (router,
#   2 columns) = 692,084,736 × 56 + 393,222,144 = 39,149,967,360
count mixtral_8x22b 'model(mixtral_8x22b, B = 1, T = 64)' 140620634112 141e9 0.005
count mixtral_8x22b_active 'model(mixtral_8x22b, B = 1, T = 64, E = 2)' 39149967360 39e9 0.005
# DeepSeek-V3 (DeepSeek-AI 2024: 671e9 in all, 37e9 active; without the 14e9 of the
# multi-token-prediction module). The count of examples/model_deepseek_v3.roof:
#   MLA 187,107,328 a layer, norms 14,336: 187,121,664 × 61 = 11,414,421,504
#   3 dense MLPs 3·7168·18432 = 396,361,728 each: 1,189,085,184
#   58 MoE layers: 257 experts (1 shared) 3·7168·2048 = 44,040,192 each, router
#   7168·256 = 1,835,008: 11,320,164,352 × 58 = 656,569,532,416
#   embeddings 2·129280·7168 = 1,853,358,080; final 7,168: 671,026,404,352
#   (the router's 256 biases a layer, 14,848 in all, are left out)
#   active (E = 8): 248 experts and router columns fewer in each MoE layer,
#   58·248·(44,040,192 + 7,168) = 633,577,226,240: 37,449,178,112 (37e9 + 1.2%: the
#   published figure is rounded, and may leave out the input table, 0.93e9)
count deepseek_v3 'model(deepseek_v3, B = 1, T = 64)' 671026404352 671e9 0.001
count deepseek_v3_active 'model(deepseek_v3, B = 1, T = 64, E = 8)' 37449178112 37e9 0.013
# Prefill FLOPs by name: a token runs the weights of its k experts (and the router's
# E columns), so 2·T·(active params − the input table V·D + the router's unused
# columns) for the matmuls, plus attention's QK and AV, under 0.1% of elementwise
# passes on top.
# Mixtral 8x7B, one prompt of 2048: 2·2048·(12,879,138,816 − 32000·4096 +
# 32·4096·6) + 4·2048²·32·128·32 = 54,418,326,159,360
run -e 'model(mixtral_8x7b, B = 1, T = 2048) on H100'
# (the logits of the last token only: 2·(T − 1)·V·D fewer than every position's)
check mixtral_8x7b_prefill_flops flops '2*2048*(12879138816 - 32000*4096 + 32*4096*6) + 4*2048*2048*32*128*32 - 2*2047*32000*4096' 0.001
# DeepSeek-V3, 512 tokens: 2·512·(37,449,178,112 − 129280·7168 + 58·7168·248), and
# MLA's QK over Hn + Hr = 192 and AV over Hv = 128 in 61 layers, 61·2·512²·128·(192 +
# 128): 37,504,618,070,016 + 1,309,965,025,280 = 38,814,583,095,296
run -e 'model(deepseek_v3, B = 1, T = 512) on H100'
check deepseek_v3_prefill_flops flops '2*512*(37449178112 - 129280*7168 + 58*7168*248) + 61*2*512*512*128*(192 + 128) - 2*511*129280*7168' 0.001
# DeepSeek-V3 decoding (mla_decode, MLA absorbed): W_UKV's R·N·(Hn + Hv) split as W_UK
# and W_UV, the same 671,026,404,352 parameters; the caches hold each token's latent
# and RoPE key, (R + Hr)·2 = 1,152 bytes a layer: 32 sequences of 4096 tokens,
# 32·4096·61·1152 = 9,210,691,584 bytes.
run -e 'decode(deepseek_v3, B = 32, S = 4096) on H100'
check deepseek_v3_decode_params params 671026404352
check deepseek_v3_decode_cache memory_cache '32*4096*61*1152'
finish
