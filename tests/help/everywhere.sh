# help, names and chips do the same in a script, with -e and on piped stdin (they
# printed their own name, or "`on` goes before a chip"): each form's output is
# compared with the script's, which must not be empty.
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
status=0
for stmt in 'help attention' 'help sweep' 'help llama3_8b' 'help' 'help()' '? serve' \
            'chips' 'names'; do
    printf '%s\n' "$stmt" > "$dir/script.roof"
    "$ROOFLINE" "$dir/script.roof" > "$dir/file" 2>&1 || { echo "$stmt: script failed"; status=1; }
    "$ROOFLINE" -e "$stmt" > "$dir/e" 2>&1 || { echo "$stmt: -e failed"; status=1; }
    printf '%s\n' "$stmt" | "$ROOFLINE" > "$dir/pipe" 2>&1 || { echo "$stmt: stdin failed"; status=1; }
    printf '%s\n' "$stmt" | "$ROOFLINE" - > "$dir/dash" 2>&1 || { echo "$stmt: - failed"; status=1; }
    if [ ! -s "$dir/file" ] || [ "$(head -1 "$dir/file")" = "$stmt" ]; then
        echo "$stmt: the script printed nothing or its own words"; status=1
    elif cmp -s "$dir/file" "$dir/e" && cmp -s "$dir/file" "$dir/pipe" &&
         cmp -s "$dir/file" "$dir/dash"; then
        echo "$stmt: the same in a script, with -e, on stdin and with -"
    else
        echo "$stmt: differs"; status=1
    fi
done
exit $status
