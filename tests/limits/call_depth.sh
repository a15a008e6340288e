# LIMIT_CALL_DEPTH (64): blocks calling blocks. A chain of 64 works; 65 and a block
# that calls itself fail with the chain of calls, its notes capped.
. "$(dirname "$0")/lib.shinc"

for n in 64 65 1000; do
    chain $n > chain$n.roof
    limit "a chain of $n calls" chain$n.roof
done
printf 'block f(x) { return f(x) }\ny = f(bf16[8, 8])\n' > self.roof
limit 'a block calling itself' self.roof
printf 'block f(x) { return g(x) }\nblock g(x) { return f(x) }\ny = f(bf16[8, 8])\n' > mutual.roof
limit 'two blocks calling each other' mutual.roof
