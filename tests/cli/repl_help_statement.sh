# help on a statement word and on a model in the REPL print what -e prints (one code
# path: the session runs them as statements), through a pseudo-terminal; `?` is help.
home=$(mktemp -d)
trap 'rm -rf "$home"' EXIT
printf 'help sweep\n? llama3_8b\nquit\n' |
    NO_COLOR=1 HOME=$home script -qec "$ROOFLINE" /dev/null | tr -d '\r' > "$home/repl"
for word in 'help sweep' '? llama3_8b'; do
    sed -n "/^roofline> $word\$/,/^roofline> /p" "$home/repl" | sed -e '1d' -e '$d' > "$home/got"
    "$ROOFLINE" -e "$word" > "$home/want"
    if [ -s "$home/want" ] && cmp -s "$home/got" "$home/want"; then
        echo "$word: the REPL prints what -e prints ($(wc -l < "$home/want") lines)"
    else
        echo "$word: the REPL differs"; diff "$home/want" "$home/got" | head -5
    fi
done
