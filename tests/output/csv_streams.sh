# --csv writes each sweep row as it is made, as --json does (issue 29): a sweep that
# fails at its fourth point has printed its first three rows before the error. Before,
# the rows waited in memory for the end of the statement (534 MB for 800k rows of a
# sweep over block calls) and came after the error. The v5e pod is 16 x 16
# (docs/costmodel.md §5), so a mesh axis of 32 chips does not fit: n = 4, 8, 16 are costed.
"$ROOFLINE" --csv -e 'sweep n in [4, 8, 16, 32] { x = bf16[1024,4096] *_D bf16[4096,4096] on v5e mesh X = n }' 2>&1 |
    cut -d , -f 1-9 | cut -c 1-60
