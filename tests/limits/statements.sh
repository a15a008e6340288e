# Size: 1,000,000 statements and 100,000 names in one script, in linear time (a
# quadratic step would take hours here, not seconds).
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
