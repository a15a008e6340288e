#!/bin/sh
# A search lists the same GPUs reshuffled once. On 32 H100s (nodes of 8) the mesh 2x2x8
# puts Z in a node and X and Y, 2 nodes each, across nodes: fsdp over X with dp over Y
# and fsdp over Y with dp over X are one configuration, and only the first made is
# listed. Costed alone, the two give the same figures. Axes of one size at different
# levels are not twins: tp over the 8 GPUs of a node (4x8, Y in the node) and tp over 8
# GPUs in 4 nodes (8x4: X has 2 GPUs in each of 4 nodes) are both listed, and differ.
: "${ROOFLINE:?ROOFLINE must name the roofline binary}"
dims='let b = 16, t = 2048'
call='gated_mlp(bf16[b, t, 8192], 28672'
rows=$("$ROOFLINE" --json -e "$dims" -e "search $call) on H100 over 32")
status=0
listed() { # MESH STRATEGY: whether the search lists it
    printf '%s\n' "$rows" | grep "\"mesh\":{$1}" | grep -q "\"strategy\":{$2}"
}
alone() { # ARGS MESH: the call's figures costed alone
    "$ROOFLINE" --json -e "$dims" -e "$call, $1) on H100 mesh $2" | sed 's/,"ops":.*//' |
        grep -o '"\(t_lower\|t_derated\|memory\|flops\)":[^,]*' | tr '\n' ' '
}
a=$(alone 'dp = Y, fsdp = X, tp = Z' 'X = 2, Y = 2, Z = 8')
b=$(alone 'dp = X, fsdp = Y, tp = Z' 'X = 2, Y = 2, Z = 8')
[ -n "$a" ] && [ "$a" = "$b" ] && echo "ok the twins cost the same alone" ||
    { echo "FAIL the twins differ: $a / $b"; status=1; }
listed '"X":2,"Y":2,"Z":8' '"dp":\["Y"\],"fsdp":\["X"\],"tp":\["Z"\],"ws":\[\],"tsp":\[\]' &&
    ! listed '"X":2,"Y":2,"Z":8' '"dp":\["X"\],"fsdp":\["Y"\],"tp":\["Z"\],"ws":\[\],"tsp":\[\]' &&
    echo "ok one of the twins listed" || { echo "FAIL the twins are not listed once"; status=1; }
c=$(alone 'dp = X, tp = Y' 'X = 4, Y = 8')
d=$(alone 'dp = Y, tp = X' 'X = 8, Y = 4')
listed '"X":4,"Y":8' '"dp":\["X"\],"fsdp":\[\],"tp":\["Y"\],"ws":\[\],"tsp":\[\]' &&
    listed '"X":8,"Y":4' '"dp":\["Y"\],"fsdp":\[\],"tp":\["X"\],"ws":\[\],"tsp":\[\]' &&
    [ -n "$c" ] && [ "$c" != "$d" ] &&
    echo "ok tp in a node and tp across nodes both listed" ||
    { echo "FAIL tp in a node and across nodes: $c / $d"; status=1; }
exit $status
