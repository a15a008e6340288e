# Size: 1,000,000 statements, 100,000 names, 80,000 blocks, a block of 100,000
# parameters or 100,000 locals, in linear time (a quadratic step would take hours
# here, not seconds).
. "$(dirname "$0")/lib.shinc"

awk 'BEGIN { for (i = 0; i < 1000000; i++) printf "let B = %d\n", i % 4096 + 1
             print "B" }' > statements.roof
limit '1,000,000 statements' statements.roof
tail -n 1 out
awk 'BEGIN { for (i = 0; i < 100000; i++) printf "let n%d = %d\n", i, i
             print "n0 + n99999" }' > names.roof
limit '100,000 names' names.roof
tail -n 1 out
awk 'BEGIN { for (i = 0; i < 100000; i++) printf "t%d = bf16[B, %d] *_D bf16[D, 8]\n", i, i + 1 }' > tensors.roof
limit '100,000 statements that fail' tensors.roof
awk 'BEGIN { printf "let "; for (i = 0; i < 100000; i++) printf "d%d = %d, ", i, i + 1
             print "last = 1"; print "d99999 * last" }' > bindings.roof
limit 'one let of 100,000 bindings' bindings.roof
tail -n 1 out
awk 'BEGIN { printf "bf16["; for (i = 0; i < 100000; i++) printf "d%d, ", i; print "e]" }' > dims.roof
clean 'a tensor of 100,000 dims' dims.roof
awk 'BEGIN { for (i = 0; i < 80000; i++) printf "block b%d(x) { return x + %d }\n", i, i
             print "y = b79999(1)"; print "y" }' > blocks.roof
limit '80,000 blocks' blocks.roof
tail -n 1 out
awk 'BEGIN { printf "block f("; for (i = 0; i < 100000; i++) printf "p%d = %d, ", i, i
             print "q = 1) { return p0 + p99999 + q }"
             printf "y = f("; for (i = 0; i < 100000; i += 2) printf "p%d = 1, ", i
             print "q = 2)"; print "y" }' > params.roof
limit 'a block of 100,000 parameters, 50,001 named arguments' params.roof
tail -n 1 out
awk 'BEGIN { print "block f(x) {"; for (i = 0; i < 100000; i++) printf "    let v%d = x + %d\n", i, i
             print "    return v0 + v99999"; print "}"; print "y = f(1)"; print "y" }' > locals.roof
limit 'a block of 100,000 locals' locals.roof
tail -n 1 out
