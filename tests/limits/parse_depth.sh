# LIMIT_PARSE_DEPTH (10000): brackets and bodies nested, the parser's stack. 100 levels
# of each construct work; 100,000 fail with a located message. Between the two, where
# the parser still accepts the text, running it (or --ast) must not crash: a nested
# body is a recursion in the evaluator too.
. "$(dirname "$0")/lib.shinc"

for n in 100 1000 100000; do
    { printf 'x = '; repeat '(' $n; printf 1; repeat ')' $n; echo; } > parens$n.roof
    limit "$n nested ( )" parens$n.roof
done
for n in 100 100000; do
    { printf 'bf16[B, '; repeat '(' $n; printf 8; repeat ')' $n; echo ']'; } > dim$n.roof
    limit "$n nested ( ) in a dim" dim$n.roof
    { echo 'block f(x) { return x }'; printf 'y = '; repeat 'f(' $n; printf 'bf16[8, 8]'
      repeat ')' $n; echo; } > calls$n.roof
    limit "$n nested calls" calls$n.roof
done
for n in 100 2000 100000; do
    { repeat 'repeat 1 {
' $n; echo 'x = bf16[8, 8] *_D bf16[8, 8] on v5e'; repeat '}
' $n; } > repeats$n.roof
    { repeat 'block f(x) {
' $n; echo 'return x'; repeat '}
' $n; } > blocks$n.roof
done
limit '100 nested repeat { }' repeats100.roof
clean '2000 nested repeat { }' repeats2000.roof
clean '2000 nested repeat { }, --ast' --ast repeats2000.roof
limit '100000 nested repeat { }' repeats100000.roof
limit '100 nested block { }' blocks100.roof
clean '2000 nested block { }' blocks2000.roof
limit '100000 nested block { }' blocks100000.roof
