#!/bin/sh
# Each config.json of tests/data (written from the published files) read with
# `arch m from`, against the library's model of the same name: the same figures, the
# breakdown's too, in prefill and in decode, so every dim the file gives is the
# library's (a dim the two disagreed on would change a figure). The dtype too (torch_dtype:
# LLaMA-2's float16 costs f16), except Gemma 2's: its file says float32, the checkpoint
# as stored, and the library runs it in bf16, as its model card does; its file's model is
# derived in bf16 here, so that every other figure is still compared.
dir=$(cd "$(dirname "$0")/../data" && pwd)
fail=0
json() { "$ROOFLINE" --json -e "$1" -e "$2" | sed 's/^{"stmt":"[^"]*",//'; }
for m in llama2_7b llama3_8b mixtral_8x7b deepseek_v3 gemma_7b gemma2_9b qwen2_5_7b; do
    for call in 'model(@, B = 2, T = 256) on H100' 'decode(@, B = 32, S = 1024) on H100'; do
        read_file="arch cfg from \"$dir/$m.json\""
        [ "$m" = gemma2_9b ] && read_file="arch file from \"$dir/$m.json\"; arch cfg : file { dtype = bf16 }"
        a=$(json "$read_file" "$(echo "$call" | sed 's/@/cfg/')")
        b=$(json "use H100" "$(echo "$call" | sed "s/@/$m/")")
        what=$(echo "$call" | sed 's/(.*//')
        if [ -n "$a" ] && [ "$a" = "$b" ]; then echo "ok $m $what"
        else echo "DIFFERENT $m $what"; fail=1; fi
    done
done
exit $fail
