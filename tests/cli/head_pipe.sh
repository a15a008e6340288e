# | head -1 closes the pipe early: the first line comes out and nothing is said about
# a broken pipe. (The status of a pipeline is head's; roofline's is not checked.)
d=$(mktemp -d) || exit 99
awk 'BEGIN { for (i = 0; i < 2000; i++) print "bf16[4,4] + bf16[4,4]" }' > "$d/long.roof"
"$ROOFLINE" "$d/long.roof" | head -1
rm -rf "$d"
