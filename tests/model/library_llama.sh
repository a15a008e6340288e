#!/bin/sh
# The LLaMA models of stdlib/models.roof: each one's parameter count, derived by hand
# from its dims (COSTMODEL.md §4: attention 2·D·(N + K)·H, gated MLP 3·D·F, two norms
# 2·D a layer; embeddings 2·V·D, untied; a final norm D), against the published total.
# The architecture is the stdlib's `model` exactly (no biases, RMS norms with a gain
# only, SwiGLU), so the count is the released checkpoint's.
. "$(dirname "$0")/../book/lib.shinc"
count() { # NAME MODEL EXACT PUBLISHED TOL
    run -e "model($2, B = 1, T = 1) on H100"
    check "$1_exact" params "$3"
    check "$1_published" params "$4" "$5"
}

# LLaMA-2 7B (Touvron et al. 2023, table 1: 7B; Meta's model card and the Hugging Face
# checkpoint: 6.74e9). D 4096, F 11008, N = K = 32, H 128, L 32, V 32000:
#   attention 2·4096·64·128 = 67,108,864; MLP 3·4096·11008 = 135,266,304; norms 8,192
#   a layer 202,383,360 × 32 = 6,476,267,520; embeddings 2·32000·4096 = 262,144,000;
#   final norm 4,096: 6,738,415,616
count llama2_7b llama2_7b 6738415616 6.74e9 0.001
# LLaMA-2 13B (13.0e9). D 5120, F 13824, N = K = 40, H 128, L 40, V 32000:
#   attention 2·5120·80·128 = 104,857,600; MLP 3·5120·13824 = 212,336,640; norms 10,240
#   a layer 317,204,480 × 40 = 12,688,179,200; embeddings 2·32000·5120 = 327,680,000;
#   final 5,120: 13,015,864,320
count llama2_13b llama2_13b 13015864320 13.0e9 0.002
# LLaMA-2 70B ("70B"; the checkpoint 68.98e9, 69e9 on its model card). D 8192, F 28672,
# N 64, K 8, H 128, L 80, V 32000:
#   attention 2·8192·72·128 = 150,994,944; MLP 3·8192·28672 = 704,643,072; norms 16,384
#   a layer 855,654,400 × 80 = 68,452,352,000; embeddings 2·32000·8192 = 524,288,000;
#   final 8,192: 68,976,648,192
count llama2_70b llama2_70b 68976648192 69e9 0.001
# LLaMA-3 8B (the Herd paper, table 3: 8B; the checkpoint 8.03e9). D 4096, F 14336,
# N 32, K 8, H 128, L 32, V 128256: see examples/model_llama3_8b.roof: 8,030,261,248
count llama3_8b llama3_8b 8030261248 8.03e9 0.001
count llama3_1_8b llama3_1_8b 8030261248 8.03e9 0.001
# LLaMA-3 70B (70.6e9). D 8192, F 28672, N 64, K 8, H 128, L 80, V 128256: the layers
# of LLaMA-2 70B, 68,452,352,000; embeddings 2·128256·8192 = 2,101,346,304; final
# 8,192: 70,553,706,496
count llama3_70b llama3_70b 70553706496 70.6e9 0.001
count llama3_1_70b llama3_1_70b 70553706496 70.6e9 0.001
# LLaMA-3.1 405B (the Herd paper: 405B; the checkpoint 405.85e9). D 16384, F 53248,
# N 128, K 8, H 128, L 126, V 128256:
#   attention 2·16384·136·128 = 570,425,344; MLP 3·16384·53248 = 2,617,245,696;
#   norms 32,768; a layer 3,187,703,808 × 126 = 401,650,679,808; embeddings
#   2·128256·16384 = 4,202,692,608; final 16,384: 405,853,388,800
count llama3_1_405b llama3_1_405b 405853388800 405.85e9 0.001
finish
