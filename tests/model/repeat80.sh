#!/bin/sh
# A generated model: a layer block of 10 matmuls, repeated 80 times. It must run (not a
# timing test) and count the layer 80 times.
#
# B·T = 4·512 = 2048 tokens, D = 1024, E = 4096, bf16 on v5e. Each operation is
# bf16[B,T,D] *_D bf16[D,E] or bf16[B,T,E] *_E bf16[E,D]:
#   flops 2·2048·1024·4096 = 17179869184, bytes 2·2048·1024 + 2·1024·4096 + 2·2048·4096
#   = 4194304 + 8388608 + 16777216 = 29360128; params 1024·4096 = 4194304
#   t_math 17179869184 / 1.97e14 = 87.2 µs > t_hbm 29360128 / 8.2e11 = 35.8 µs
# one layer: 10 ×; the model: 800 ×.
. "$(dirname "$0")/../book/lib.shinc"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

awk 'BEGIN {
    print "use v5e"
    print "let B = 4, T = 512, D = 1024, E = 4096"
    print "block layer(x) {"
    for (i = 1; i <= 5; i++) {
        printf "    h%d = x *_D param bf16[D, E]\n", i
        printf "    x = h%d *_E param bf16[E, D]\n", i
    }
    print "    return x"
    print "}"
    print "one = layer(bf16[B, T, D])"
    print "expect flops == 10 * 17179869184"
    print "expect params == 10 * 4194304"
    print "repeat 80 { y = layer(bf16[B, T, D]) }"
    print "expect flops == 800 * 17179869184"
    print "expect bytes == 800 * 29360128"
    print "expect t_lower == 800 * 17179869184 / 1.97e14"
    print "expect params == 800 * 4194304"
    print "expect param_bytes == 800 * 2 * 4194304"
}' > "$tmp/model.roof"

# text: the checks pass, and the report has the layer row counted 80 times
run_text "$tmp/model.roof"
if [ "$_book_status" = 0 ]; then echo "ok runs"; else echo "FAIL runs: exit status $_book_status"; _book_failed=1; fi
printf '%s\n' "$_book_text" | grep '^ok: ' | sed 's/  (.*//'
n=$(printf '%s\n' "$_book_text" | awk '$1 == "layer" && $2 == 80' | wc -l)
if [ "$n" = 1 ]; then echo "ok layer_row_80"; else echo "FAIL layer_row_80: $n rows"; _book_failed=1; fi

# JSON: the one-layer call and its ten operations (the script up to that call)
sed '/^expect/,$d' "$tmp/model.roof" > "$tmp/one.roof"
run "$tmp/one.roof"
check layer_flops flops '10 * 2 * 2048 * 1024 * 4096'
check layer_bytes bytes '10 * 29360128'
check layer_params params '10 * 1024 * 4096'
check layer_op1_flops ops.0.flops '2 * 2048 * 1024 * 4096'
check_str layer_op1_stmt ops.0.stmt layer.h1
check layer_op10_flops ops.9.flops '2 * 2048 * 4096 * 1024'
check_str layer_op10_stmt ops.9.stmt layer.x
if [ -z "$(_book_get ops.10.stmt)" ]; then echo "ok layer_ten_ops"
else echo "FAIL layer_ten_ops: an eleventh operation"; _book_failed=1; fi
finish
