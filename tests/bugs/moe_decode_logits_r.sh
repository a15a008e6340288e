# Bug: serve over a mixture of experts by name, `serve B, S: decode(mixtral_8x7b, B, S)`,
# stopped with "moe_decode has no parameter R": serve's prefill passes R = 1 (the last
# prompt token's logits only) to a block that takes R, as decode does, and
# decode(mixtral_8x7b, ...) runs moe_decode, which had no R and computed the logits of
# all T tokens. moe_decode now takes R = T, as decode: last(n, T, R) *_D out.
#
# By hand: Mixtral 8x7B (D = 4096, V = 32000), B = 1, T = 4 tokens: the logits of all
# 4 are 2·4·4096·32000 = 1,048,576,000 FLOPs, of the last one 2·1·4096·32000 =
# 262,144,000; the rest of the step is the same, so R = 1 is 786,432,000 FLOPs fewer.
r=${ROOFLINE:?}
flops() {
    "$r" --json -e "decode(mixtral_8x7b, B = 1, S = 1024, T = 4$1) on H200" |
        sed -n 's/.*"flops":\([0-9.e+]*\).*/\1/p' | head -1
}
all=$(flops "") last=$(flops ", R = 1")
awk -v a="$all" -v l="$last" 'BEGIN {
    d = a - l
    print (d == 786432000 ? "ok" : "FAIL") ": R = 1 computes " d " FLOPs fewer (786432000 by hand)"
    exit d != 786432000 }' || exit 1
# serve's prefill over it runs (its ttft line; the error before)
"$r" -e 'serve B, S: decode(mixtral_8x7b, B, S, tp = X) on H200 mesh X = 8 with prompt = 1024, output = 256' |
    grep -c '^  ttft '
