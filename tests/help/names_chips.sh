# names and chips in a script (they printed `names` and `chips`): names shows what the
# script bound, then the blocks and models; chips the table with the chip in use.
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
printf 'let B = 256\nx = bf16[B, 4096]\nuse v5e\nnames\nchips\n' > "$dir/s.roof"
"$ROOFLINE" "$dir/s.roof" > "$dir/out" || exit 1
grep -E '^(B  |x  |blocks +tied_model\(|models +llama2_7b|chip +bf16|v5e  |in use:)' "$dir/out" |
    cut -c1-60
