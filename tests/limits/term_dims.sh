# LIMIT_TERM_DIMS: a tensor's size is one term of a cost polynomial, which holds at most
# 12 distinct symbols, so a tensor names at most 12 distinct dims. 12 work; 13 fail with
# that limit named (not as an overflow), even when every dim is bound to 1; dims written
# as numbers add no symbol, so 13 (or 100,000) of them work; a block's shape is checked
# the same way.
. "$(dirname "$0")/lib.shinc"

names() { awk -v n="$1" 'BEGIN { for (i = 0; i < n; i++) printf "%sd%d", i ? ", " : "", i }'; }
lets() { awk -v n="$1" 'BEGIN { printf "let "; for (i = 0; i < n; i++) printf "%sd%d = 1", i ? ", " : "", i; print "" }'; }
for n in 12 13 40000; do
    echo "x = bf16[$(names $n)]" > named.roof
    limit "$n named dims" named.roof
    { lets $n; echo "x = bf16[$(names $n)]"; } > bound.roof
    limit "$n named dims, each bound to 1" bound.roof
done
awk 'BEGIN { printf "x = bf16["; for (i = 0; i < 100000; i++) printf "1, "; print "1]" }' > numbers.roof
limit '100,001 dims written as numbers' numbers.roof
for n in 12 13; do
    { echo "block f(x: [$(names $n)]) { return x }"
      printf 'y = f(bf16['; awk -v n=$n 'BEGIN { for (i = 1; i < n; i++) printf "1, "; print "1])" }'; } > shape.roof
    limit "a block's shape of $n named dims" shape.roof
done
