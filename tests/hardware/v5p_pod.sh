# A v5p pod holds 8960 chips (issue 29), the book's 16x20x28 (ch. 2, tpus.md, table
# "Pod size"): a mesh of 80 x 112 = 8960 chips fits, one of 100 x 100 = 10000 does
# not. Before, v5p had no pod and took a mesh of any size. Its axes may be longer than
# a torus dimension (an FSDP axis of 200 chips fits, examples/training_memory.roof):
# only the total is bounded.
"$ROOFLINE" -e 'bf16[1024,4096] *_D bf16[4096,4096] on v5p mesh X = 80, Y = 112' | grep '^  chips'
"$ROOFLINE" -e 'bf16[1024,4096] *_D bf16[4096,4096] on v5p mesh X = 200' | grep '^  chips'
"$ROOFLINE" -e 'bf16[1024,4096] *_D bf16[4096,4096] on v5p mesh X = 100, Y = 100' 2>&1
echo "status $?"
"$ROOFLINE" --json -e 'chip v5p' | grep -o '"pod_chips":[^,}]*'
