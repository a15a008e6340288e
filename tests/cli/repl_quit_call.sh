# quit() and exit(), as Python users type them, leave the REPL (they were "unknown
# block quit"): the line after them never runs.
home=$(mktemp -d)
trap 'rm -rf "$home"' EXIT
for word in 'quit()' 'exit()'; do
    printf 'let a = 3\n%s\nlet b = 4\nnames\n' "$word" |
        NO_COLOR=1 HOME=$home script -qec "$ROOFLINE" /dev/null | tr -d '\r' |
        grep -c 'unknown block\|^b '
done
exit 0
