#!/bin/sh
# gen.sh N — a script of N statements for `make bench`, in threes: a `let`, a costed
# matmul bound to a new name, a number bound to a new name (so N/3 · 2 names).
awk -v n="$1" 'BEGIN {
    print "let D = 8k, F = 32k"
    print "use v5e"
    for (i = 0; i < n - 2; i++) {
        k = int(i / 3)
        if (i % 3 == 0) printf "let B = %d\n", k % 4096 + 1
        else if (i % 3 == 1) printf "t%d = bf16[B,D] *_D bf16[D,F]\n", k
        else printf "n%d = B * 2 + D / 4\n", k
    }
}'
