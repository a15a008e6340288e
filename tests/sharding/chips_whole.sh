# A chip count prints whole in the text report, as in JSON (issue 29): 2^20 chips are
# 1048576, not 1.04858e+06 (%g's six digits), on the chips line and the collective's.
"$ROOFLINE" -e 'let B = 1024, D = 1048576, F = 1024' \
    -e 'bf16[B,D] *_D bf16[D,F] on H100 shard D over 1048576' | grep -e '^  chips' -e '^  collective'
"$ROOFLINE" --json -e 'let B = 1024, D = 1048576, F = 1024' \
    -e 'bf16[B,D] *_D bf16[D,F] on H100 shard D over 1048576' | grep -o '"chips":[0-9]*'
