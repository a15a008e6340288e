#!/bin/sh
# Gemma, Gemma 2, Qwen2.5 and GPT-3 by name: each parameter count derived by hand from
# the dims of stdlib/models.roof, against the published total, and where the blocks
# leave out a part of the architecture, by how much.
. "$(dirname "$0")/../book/lib.shinc"
count() { # NAME MODEL EXACT PUBLISHED TOL
    run -e "model($2, B = 1, T = 1) on H100"
    check "$1_exact" params "$3"
    check "$1_published" params "$4" "$5"
}

# Gemma 7B (Gemma Team 2024, table 2: 7,751,248,896 non-embedding parameters and
# 786,825,216 embedding ones; 8.54e9). D 3072, F 24576 (GeGLU), N = K = 16, H 256,
# L 28, V 256000, tied (tied_model: the table counted once):
#   attention 2·3072·32·256 = 50,331,648; MLP 3·3072·24576 = 226,492,416; norms 6,144
#   a layer 276,830,208 × 28 = 7,751,245,824; final norm 3,072: 7,751,248,896, the
#   paper's non-embedding count exactly; the table 256000·3072 = 786,432,000 (the
#   paper's 786,825,216 is a table of 256,128 rows, padded): 8,537,680,896
count gemma_7b gemma_7b 8537680896 8.54e9 0.001
# Gemma 2 9B (Gemma Team 2024, table 1; the checkpoint 9.24e9). D 3584, F 14336,
# N 16, K 8, H 256, L 42, V 256000, tied:
#   attention 2·3584·24·256 = 44,040,192; MLP 3·3584·14336 = 154,140,672; norms 2·3584
#   = 7,168; a layer 198,188,032 × 42 = 8,323,897,344; table 256000·3584 = 917,504,000;
#   final 3,584: 9,241,404,928
# Gemma 2 norms each sublayer's output too: 4 norms a layer, not 2, so the released
# count is 2·3584·42 = 301,056 more, 9,241,705,984 (this count is 0.003% under).
count gemma2_9b gemma2_9b 9241404928 9.24e9 0.001
# Qwen2.5 7B (Qwen Team 2024, table 1; the checkpoint 7.61e9). D 3584, F 18944, N 28,
# K 4, H 128, L 28, V 152064, untied:
#   attention 2·3584·32·128 = 29,360,128; MLP 3·3584·18944 = 203,685,888; norms 7,168
#   a layer 233,053,184 × 28 = 6,525,489,152; embeddings 2·152064·3584 =
#   1,089,994,752; final 3,584: 7,615,487,488
# Qwen2 adds biases to Q, K and V, (N + 2K)·H = 36·128 = 4,608 a layer, 129,024 in
# all, not costed: the released 7,615,616,512 is 0.002% more.
count qwen2_5_7b qwen2_5_7b 7615487488 7.61e9 0.001
# Qwen2.5 72B (72.7e9). D 8192, F 29568, N 64, K 8, H 128, L 80, V 152064:
#   attention 2·8192·72·128 = 150,994,944; MLP 3·8192·29568 = 726,663,168; norms 16,384
#   a layer 877,674,496 × 80 = 70,213,959,680; embeddings 2·152064·8192 =
#   2,491,416,576; final 8,192: 72,705,384,448 (the QKV biases, 80·80·128 = 819,200,
#   not costed)
count qwen2_5_72b qwen2_5_72b 72705384448 72.7e9 0.001
# GPT-3 175B (Brown et al. 2020, table 2.1: 175.0e9). D 12288, F 49152, N = K = 96,
# H 128, L 96, V 50257, 2048 learned positions, tied (gpt_model):
#   attention 4·D² = 603,979,776; plain MLP 2·D·F = 1,207,959,552; norms 2·D = 24,576
#   a layer 1,811,963,904 × 96 = 173,948,534,784; table 50257·12288 = 617,558,016;
#   positions 2048·12288 = 25,165,824; final 12,288: 174,591,270,912
# GPT-3's LayerNorms have biases (2·D a layer more) and its matmuls biases
# (3D + D + F + D = 110,592 a layer): 12,988,416 in all, not costed, so the
# architecture's count is 174,604,259,328; the paper's 175.0e9 rounds that (−0.23%).
count gpt3_175b gpt3_175b 174591270912 175e9 0.003
# Prefill of 2048 tokens by name. Tied embeddings: the table is the logits' matrix, so
# its V·D params are multiplied (2·T·P covers them) though the lookup is not; GPT-3's
# position table is only looked up and added. Plus attention's 4·T²·N·H·L, under 0.1%
# of elementwise passes on top.
# Gemma 7B: 2·2048·8,537,680,896 + 4·2048²·16·256·28 = 36,894,486,298,624, less the
# logits of all but the last token (a prefill computes the next token's only):
# 2·2047·V·D = 2·2047·256000·3072 = 3,219,652,608,000: 33,674,833,690,624
run -e 'model(gemma_7b, B = 1, T = 2048) on H100'
check gemma_7b_prefill_flops flops '2*2048*8537680896 + 4*2048*2048*16*256*28 - 2*2047*256000*3072' 0.001
# GPT-3: 2·2048·(174,591,270,912 − 2048·12288) + 4·2048²·96·128·96 = 734,813,975,740,416
run -e 'model(gpt3_175b, B = 1, T = 2048) on H100'
# (the logits of the last token only: 2·2047·V·D fewer than every position's)
check gpt3_175b_prefill_flops flops '2*2048*(174591270912 - 2048*12288) + 4*2048*2048*96*128*96 - 2*2047*50257*12288' 0.001
finish
