# A statement typed on several lines comes back from history as one entry (issue 14):
# Up recalls it whole, Enter runs it again, and ~/.roofline_history keeps it as one line.
if [ ! -f /usr/include/editline/readline.h ]; then # built without line editing: skip
    echo "skipped: built without libedit"; exit 77
fi
home=$(mktemp -d)
trap 'rm -rf "$home"' EXIT
(printf 'sweep B in [1, 64] {\n  a = bf16[B,8] *_K  # the first\n  bf16[8,8] on v5e\n}\n'
 sleep 1; printf '\033[A\n'; sleep 1) |
    NO_COLOR=1 HOME=$home timeout 20 script -qec "$ROOFLINE" /dev/null | tr -d '\r' > "$home/out"
joined='sweep B in [1, 64] { a = bf16[B,8] *_K bf16[8,8] on v5e }'
n=$(grep -c '^ *64 ' "$home/out")
[ "$n" = 2 ] && echo "ok the recalled statement ran again" || echo "FAIL the table's B = 64 row $n times"
# libedit redraws the recalled line after moving the cursor (ESC [ 11 G)
sed 's/\x1b\[[0-9]*G//g' "$home/out" | grep -qxF "roofline> $joined" &&
    echo "ok Up recalled it as one line" || echo "FAIL not recalled as one line"
# libedit's history file writes a space as \040; the first line is its header
sed '1d; s/\\040/ /g' "$home/.roofline_history" > "$home/entries"
grep -qxF "$joined" "$home/entries" && echo "ok the history file holds it as one line" ||
    echo "FAIL history file: $(cat "$home/entries")"
# typed once, recalled and run once more: the same entry twice, and no line on its own
[ "$(sort -u "$home/entries" | wc -l | tr -d ' ')" = 1 ] && echo "ok no line of it on its own" ||
    echo "FAIL history file: $(cat "$home/entries")"
