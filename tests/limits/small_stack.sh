# A stack smaller than the caps assume (issue 29): under `ulimit -s 128` every deep
# construct inside the caps ends in its answer or in a located "too deep for a stack
# of N kB" error (stack.h), never in a crash. The evaluator takes about 160 B a level
# of an expression and 6 kB a block call (more under ASan), so a 999-term chain needs
# 160 kB and 64 calls 380 kB: more than 128 kB holds. The same holds under ASan, whose
# frames are larger (a block call about 9 kB).
. "$(dirname "$0")/lib.shinc"

kb=128
ulimit -s $kb
# LABEL ARG...: "ends cleanly" for an answer (status 0) or a located error that says the
# stack is too small (which of the two depends on the compiler's frames); else what
# happened: a crash, or another error
show() {
    label=$1; shift
    _run "$@"
    if [ -n "$crash" ]; then echo "$label: CRASH: $crash"
    elif [ "$status" = 0 ] || { [ "$status" = 1 ] &&
        head -n 1 err | grep -q '^[^:]*:[0-9]*:[0-9]*: error: .*too deep for a stack of '"$kb"' kB'; }
    then echo "$label: ends cleanly"
    else echo "$label: exit $status"; head -n 1 err | cut -c 1-150 | sed 's/^/    /'; fi
}

{ printf 'let x = 1'; repeat '+1' 999; echo; } > let_chain.roof
show 'let x = a chain of 999 +' let_chain.roof
{ printf 'x = 1'; repeat '+1' 999; echo; } > chain.roof
show 'x = a chain of 999 +' chain.roof
{ printf 'x = '; repeat '-' 999; echo 1; } > negate.roof
show '999 nested -' negate.roof
{ echo 'x = bf16[8, 8]'; printf 'y = x'; repeat ' *_D x' 999; echo; } > contract.roof
show 'a chain of 999 *_D' contract.roof
{ printf 'x = '; repeat '(' 9000; printf 1; repeat ')' 9000; echo; } > parens.roof
show '9000 nested ( )' parens.roof
{ printf 'bf16[B, 1'; repeat '*1' 999; echo ']'; } > dim_chain.roof
show 'a tensor dim of 999 *' dim_chain.roof
{ printf 'bf16[B, '; repeat '(' 999; printf 8; repeat ')' 999; echo ']'; } > dim.roof
show '999 nested ( ) in a dim' dim.roof
{ echo 'block f(x) { return x }'; printf 'y = '; repeat 'f(' 999; printf 'bf16[8, 8]'
  repeat ')' 999; echo; } > nested_calls.roof
show '999 nested calls' nested_calls.roof
{ echo 'use v5e'; repeat 'repeat 1 {
' 256; echo 'x = bf16[8, 8] *_D bf16[8, 8]'; repeat '}
' 256; } > repeats.roof
show '256 nested repeat { }' repeats.roof

for n in 8 64 10000; do
    chain $n > calls$n.roof
    show "a chain of $n calls" calls$n.roof
done
printf 'block f(x) { return f(x) }\ny = f(bf16[8, 8])\n' > self.roof
show 'a block calling itself' self.roof

# Printed, checked and written too, not only run.
clean '--ast, a chain of 999 +' --ast chain.roof
clean '--ast, 9000 nested ( )' --ast parens.roof
clean '--json, a chain of 999 +' --json chain.roof
clean '--html, 999 nested calls' --html page.html nested_calls.roof
