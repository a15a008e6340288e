# Bug: serve's prefill passes R = 1 (the last prompt token's logits only) to a block
# that takes R, as decode does, but a model by name runs its own decode block:
# - Mixtral: `serve B, S: decode(mixtral_8x7b, B, S)` stopped with "moe_decode has no
#   parameter R"; moe_decode had no R and computed the logits of all T tokens;
# - DeepSeek-V3: mla_decode's R was MLA's key/value latent rank (kv_lora_rank = 512),
#   so serve's R = 1 silently costed the prefill with a latent rank of 1 (params
#   671,026,404,352 -> 669,781,528,125, and the FLOPs with them).
# moe_decode and mla_decode now take R = T, as decode: last(n, T, R) *_D out; the
# latent rank is Rkv (the record's field and config.json's kv_lora_rank).
#
# By hand: B = 1, T = 4 tokens, the logits of all 4 against those of the last one:
# Mixtral 8x7B (D = 4096, V = 32000) 2·3·4096·32000 = 786,432,000 FLOPs fewer;
# DeepSeek-V3 (D = 7168, V = 129280) 2·3·7168·129280 = 5,560,074,240 fewer; the rest of
# the step, and the parameters, the same.
r=${ROOFLINE:?}
figure() { # MODEL EXTRA FIELD: the statement's own figure, the first in its record
    "$r" --json -e "decode($1, B = 1, S = 1024, T = 4$2) on H200" |
        grep -o "\"$3\":[0-9.e+]*" | head -1 | cut -d: -f2
}
check() { # MODEL FEWER
    all=$(figure "$1" "" flops) last=$(figure "$1" ", R = 1" flops)
    p_all=$(figure "$1" "" params) p_last=$(figure "$1" ", R = 1" params)
    awk -v m="$1" -v a="$all" -v l="$last" -v want="$2" -v pa="$p_all" -v pl="$p_last" 'BEGIN {
        d = a - l; good = d == want && pa == pl && pa > 0
        print (good ? "ok" : "FAIL") ": " m ": R = 1 computes " sprintf("%.0f", d) " FLOPs fewer (" want \
              " by hand), params " pa " and " pl
        exit !good }'
}
check mixtral_8x7b 786432000 || exit 1
check deepseek_v3 5560074240 || exit 1
# serve's prefill over Mixtral runs (its ttft line; the error before)
"$r" -e 'serve B, S: decode(mixtral_8x7b, B, S, tp = X) on H200 mesh X = 8 with prompt = 1024, output = 256' |
    grep -c '^  ttft '
