#!/bin/sh
# A training search drops, before costing them, the configurations whose pipeline
# stages do not divide the layers (costed, each fails: "L layers do not split evenly").
# A stack of L = 6 layers with dp and pp, on 8 v5p chips. By hand, the meshes 8, 2x4,
# 4x2 and 2x2x2, each axis to dp or pp, one of each set of twins (4x2 is 2x4
# reshuffled; of 2x2x2's eight ways, those with as many pp axes are alike):
#   8: dp8 (1 stage), pp8 (8)                               2
#   2x4: dp dp (1), pp2 dp4 (2), dp2 pp4 (4), pp pp (8)      4
#   2x2x2: no pp (1), one (2), two (4), three (8)            4
# 10 configurations; 6 is divided by 1 and 2 stages, not by 4 or 8: 5 dropped, 5 left.
: "${ROOFLINE:?ROOFLINE must name the roofline binary}"
block='block stack(B, D, F, L, dp = {}, pp = {}) {
    x = bf16[B_{dp}, D]
    repeat L over pp {
        h = x *_D param bf16[D, F]
        x = h *_F param bf16[F, D]
    }
    return x
}'
status=0
check() { # WHAT COMMAND...: ok when the command succeeds
    what=$1
    shift
    if "$@" > /dev/null 2>&1; then echo "ok $what"; else echo "FAIL $what"; status=1; fi
}
header=$("$ROOFLINE" -e "$block" -e 'mode training' \
    -e 'search stack(64, 1024, 4096, 6) on v5p over 8' | sed -n 2p)
check "10 configurations" expr "$header" : '  10 configurations: '
check "5 dropped for their stages" expr "$header" : \
    '.*; 5 dropped: their pipeline stages do not divide the layers (before costing)'
rows=$("$ROOFLINE" --json -e "$block" -e 'mode training' \
    -e 'search stack(64, 1024, 4096, 6) on v5p over 8' | wc -l)
check "5 rows" [ "$rows" -eq 5 ]
# The five dropped, each costed alone, fail as the drop says.
for c in 'pp = X) on v5p mesh X = 8' 'dp = X, pp = Y) on v5p mesh X = 2, Y = 4' \
    'pp = {X, Y}) on v5p mesh X = 2, Y = 4' 'dp = X, pp = {Y, Z}) on v5p mesh X = 2, Y = 2, Z = 2' \
    'pp = {X, Y, Z}) on v5p mesh X = 2, Y = 2, Z = 2'; do
    err=$("$ROOFLINE" -e "$block" -e 'mode training' -e "stack(64, 1024, 4096, 6, $c" 2>&1 >/dev/null)
    check "stack(..., $c fails" expr "$err" : '.*6 layers do not split evenly into [48] pipeline stages'
done
# Two with 2 stages are costed.
for c in 'dp = Y, pp = X) on v5p mesh X = 2, Y = 4' 'dp = {X, Y}, pp = Z) on v5p mesh X = 2, Y = 2, Z = 2'; do
    check "stack(..., $c is costed" "$ROOFLINE" -e "$block" -e 'mode training' -e "stack(64, 1024, 4096, 6, $c"
done
exit $status
