# "wrote PATH" escapes what a terminal would act on (issue 16): a control byte or a
# byte that is not UTF-8 in the path prints as \xNN, a tab as a space; the file gets
# the name as written.
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT INT TERM
cd "$dir" || exit 1
printf 'use v5e\nsweep B in [1, 2] plot "c\033[31m\001\tx\377.svg" { bf16[B,8] *_K bf16[8,8] }\n' > p.roof
"$ROOFLINE" p.roof
echo "exit $?"
[ -f "$(printf 'c\033[31m\001\tx\377.svg')" ] && echo 'the file has its name'
