#!/bin/sh
# prefixes.sh BUILD — checks that every function and variable a file of src/ exports
# carries the file's name as its prefix (search.c: search_run, searchplan_read), so a
# name says where it lives. Reads the objects in BUILD (nm: the symbols each defines
# for others); main.c's main is the one exception. Prints each name that breaks the
# rule, then one summary line:
#   prefixes: 812 exported names in 86 files, all prefixed
# Exit status 1 on a name without its prefix, 2 on a bad tree.
top=$(cd "$(dirname "$0")/.." && pwd)
build=${1:?usage: prefixes.sh BUILD}
cd "$top" || exit 2

names=0 files=0 bad=0
for c in src/*/*.c; do
    m=${c##*/}; m=${m%.c}
    o="$build/$m.o"
    [ -f "$o" ] || { echo "prefixes: no $o for $c" >&2; exit 2; }
    files=$((files + 1))
    for s in $(nm --defined-only "$o" | awk '$2 ~ /^[TDBRC]$/ {print $3}'); do
        names=$((names + 1))
        case "$s" in
            "$m"*) ;;
            main) [ "$m" = main ] || { echo "$c: $s"; bad=$((bad + 1)); } ;;
            *) echo "$c: $s"; bad=$((bad + 1)) ;;
        esac
    done
done
if [ "$bad" -gt 0 ]; then
    echo "prefixes: $bad of $names exported names in $files files lack their file's prefix"
    exit 1
fi
echo "prefixes: $names exported names in $files files, all prefixed"
