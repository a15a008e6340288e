# Columns line up by display width (issue 14): a row with µs (two bytes, one column)
# ends its time column where a row with ms does. In each table below, every row's
# bound word (compute, memory, comm) starts at the column of its header's "bound",
# counted in characters (wc -m, UTF-8), not bytes.
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
LC_ALL=C.UTF-8
export LC_ALL
# width TEXT: its display columns
width() { printf '%s' "$1" | wc -m | tr -d ' '; }
# check NAME: the table in $tmp (from its header line, holding " bound ", to the first
# blank line) lines up
check() {
    awk '/ bound /{on=1} on && /^$/{exit} on' "$tmp" > "$tmp.t"
    header=$(head -n 1 "$tmp.t")
    want=$(width "${header%% bound *}")
    rows=0 bad=""
    # the rows: a time or a size, then the bound
    grep -E '[0-9] (ns|µs|ms|s|kB|MB|GB|TB) +(compute|memory|comm) ' "$tmp.t" > "$tmp.r"
    while IFS= read -r line; do
        prefix=$(printf '%s\n' "$line" | sed -E 's/ (compute|memory|comm) .*//')
        rows=$((rows + 1))
        [ "$(width "$prefix")" = "$want" ] || bad="$line"
    done < "$tmp.r"
    if [ "$rows" -lt 2 ]; then echo "FAIL $1: $rows rows"
    elif [ -n "$bad" ]; then echo "FAIL $1: misaligned: $bad"
    else echo "ok $1: $rows rows, bound at column $want"; fi
    rm -f "$tmp.t" "$tmp.r"
}
# t_lower of ns, µs and ms rows in one sweep table
"$ROOFLINE" -e 'sweep B in [1, 64, 4096, 65536] { y = bf16[B,4096] *_D int8[4096,4096] on v5e }' > "$tmp"
check sweep_statements
grep -q 'µs' "$tmp" && grep -q ' ms ' "$tmp" && echo "ok sweep_has_us_and_ms"
"$ROOFLINE" -e 'sweep B in [1, 4096, 65536] { y = gated_mlp(bf16[B, 1, 4096], 14336) on v5e }' > "$tmp"
check sweep_block_calls
"$ROOFLINE" examples/model_llama3_70b.roof > "$tmp"
check model_breakdown
"$ROOFLINE" -e 'let b = 8, t = 2048' -e 'search gated_mlp(bf16[b, t, 8192], 28672) on v5e over 4' > "$tmp"
check search_table
"$ROOFLINE" -e 'let b = 1, t = 16' -e 'search gated_mlp(bf16[b, t, 8192], 28672) on v5e over 4' > "$tmp"
grep -q 'µs' "$tmp" && echo "ok search_has_us"
check search_table_us
