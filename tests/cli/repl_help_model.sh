# help MODEL prints the comment above its record (its sources), where it is defined,
# the dtype it runs in, and each field with its value and meaning (the legend lines of
# stdlib/models.roof); a field naming a block says it costs the model in that one's
# place. help BLOCK explains each parameter from the same legend (and the strategies
# from transformer.roof's header), the dtypes a model sets too (decode, moe_decode).
# `names` lists the models with their fields. (The line of the record's definition is
# left out, so that the library can grow.)
home=$(mktemp -d)
trap 'rm -rf "$home"' EXIT
printf 'help llama3_8b\nhelp deepseek_v3\nhelp decode\nhelp moe_decode\nnames\nquit\n' |
    NO_COLOR=1 HOME=$home script -qec "$ROOFLINE" /dev/null | tr -d '\r' |
    sed -n '/^roofline> help llama3_8b/,/^roofline> quit/p' |
    grep -vE '^ +[a-z_]+\(|^blocks|^no names' | sed 's/models\.roof:[0-9]*/models.roof:LINE/'
exit 0
