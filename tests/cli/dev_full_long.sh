# more output than a stdio buffer, so the write fails while statements still run
d=$(mktemp -d) || exit 99
awk 'BEGIN { for (i = 0; i < 2000; i++) print "bf16[4,4] + bf16[4,4]" }' > "$d/long.roof"
cd "$d" && "$ROOFLINE" long.roof > /dev/full
rc=$?
rm -rf "$d"
exit $rc
