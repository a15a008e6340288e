# LIMIT_EXPR_DEPTH (1000): operations chained or nested in one expression. A long
# 1+1+...+1 chain builds a tree as deep as it is long (bison does not stop it), so
# evaluation, checks and --ast must all stay within the limit or the stack.
. "$(dirname "$0")/lib.shinc"

for n in 999 1000 1001 100000 1000000; do
    { printf 'x = 1'; repeat '+1' $n; echo; } > chain$n.roof
    limit "chain of $n +" chain$n.roof
done
for n in 999 1000 1001 100000; do
    { printf 'x = '; repeat '-' $n; echo 1; } > negate$n.roof
    limit "$n nested -" negate$n.roof
done
{ printf 'bf16[B, 1'; repeat '*1' 100000; echo ']'; } > dim_chain.roof
limit 'tensor dim of 100000 *' dim_chain.roof
{ echo 'x = bf16[8, 8]'; printf 'y = x'; repeat ' *_D x' 100000; echo; } > contract_chain.roof
limit 'chain of 100000 *_D' contract_chain.roof

# --ast prints the tree: a chain it will not run must not crash it either
clean '--ast, chain of 999 +' --ast chain999.roof
clean '--ast, chain of 100000 +' --ast chain100000.roof
clean '--ast, chain of 1000000 +' --ast chain1000000.roof
clean '--ast, 999 nested -' --ast negate999.roof
{ printf 'x = '; repeat '-' 9000; echo 1; } > negate9000.roof
clean '--ast, 9000 nested -' --ast negate9000.roof
