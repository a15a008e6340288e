#!/bin/sh
# A search's figures for a configuration are those of the call made by hand with that
# mesh and those axes: LLaMA-3 70B training on 1024 v5p chips, and the configuration
# of examples/model_llama3_70b.roof (fsdp over 128, tp over 8) among the searched. Of
# 8x128 and 128x8, which cost the same on a torus, the search keeps the first it makes.
: "${ROOFLINE:?ROOFLINE must name the roofline binary}"
model='let D = 8192, F = 28672, N = 64, K = 8, H = 128, L = 80, V = 128256, B = 256, T = 2048'
field() { # KEY: its number in the JSON line on stdin, at the top level (before "ops")
    sed 's/,"ops":.*//' | sed -n "s/.*\"$1\":\([^,}]*\).*/\1/p"
}
line=$("$ROOFLINE" --json -e 'mode training' -e "$model" \
       -e 'search model(B, T, D, F, N, K, H, L, V) on v5p over 1024' |
       grep '"mesh":{"X":8,"Y":128}' | grep '"fsdp":\["Y"\],"tp":\["X"\]')
direct=$("$ROOFLINE" --json -e 'mode training' -e "$model" \
         -e 'model(B, T, D, F, N, K, H, L, V, fsdp = Y, tp = X) on v5p 8x128')
status=0
for pair in t_step:t_lower memory:memory flops:flops; do
    a=$(printf '%s\n' "$line" | field "${pair%%:*}")
    b=$(printf '%s\n' "$direct" | field "${pair#*:}")
    if [ -n "$a" ] && [ "$a" = "$b" ]; then
        echo "ok search ${pair%%:*} = call ${pair#*:}"
    else
        echo "FAIL search ${pair%%:*} '$a' != call ${pair#*:} '$b'"; status=1
    fi
done
# Ranked 1 is no slower than the configuration above, and fits.
best=$("$ROOFLINE" --json -e 'mode training' -e "$model" \
       -e 'search model(B, T, D, F, N, K, H, L, V) on v5p over 1024' | grep '"rank":1}')
awk -v a="$(printf '%s\n' "$best" | field t_derated)" \
    -v b="$(printf '%s\n' "$line" | field t_derated)" \
    'BEGIN { if (a + 0 <= b + 0) print "ok rank 1 is fastest"; else { print "FAIL rank 1 slower"; exit 1 } }' || status=1
printf '%s\n' "$best" | grep -q '"fits":true' && echo "ok rank 1 fits" || { echo "FAIL rank 1 does not fit"; status=1; }
exit $status
