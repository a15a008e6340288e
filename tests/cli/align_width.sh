# Columns line up by display width (issue 14): a row with µs (two bytes, one column)
# ends its time column where a row with ms does. In each table below, every row's
# bound word (compute, memory, comm) starts at the column of its header's "bound",
# counted in characters (wc -m, UTF-8), not bytes.
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
LC_ALL=C.UTF-8
export LC_ALL
# check NAME: the table in $tmp (from its header line, holding " bound ", to the first
# blank line) lines up. A row's display width is its count of characters: its bytes
# less the UTF-8 continuation bytes (0x80-0xBF), as wc -m counts them; one awk for all.
check() {
    awk '/ bound /{on=1} on && /^$/{exit} on' "$tmp" |
    LC_ALL=C awk -v name="$1" '
        function width(s) { gsub(/[\200-\277]/, "", s); return length(s) }
        NR == 1 { h = $0; sub(/ bound .*/, "", h); want = width(h) }
        # the rows: a time or a size, then the bound
        /[0-9] (ns|µs|ms|s|kB|MB|GB|TB) +(compute|memory|comm) / {
            rows++; p = $0; sub(/ (compute|memory|comm) .*/, "", p)
            if (width(p) != want) bad = $0
        }
        END {
            if (rows < 2) printf "FAIL %s: %d rows\n", name, rows
            else if (bad != "") printf "FAIL %s: misaligned: %s\n", name, bad
            else printf "ok %s: %d rows, bound at column %d\n", name, rows, want
        }'
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
