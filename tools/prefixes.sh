#!/bin/sh
# prefixes.sh BUILD — checks that every function and variable a file of src/ exports
# carries the file's name as its prefix (search.c: search_run, searchplan_read), so a
# name says where it lives. Reads the objects in BUILD (nm: the symbols each defines
# for others); main.c's main is the one exception, and names a compiler makes (those
# that begin with __, as ASan's __odr_asan.NAME) are not the file's. Prints each name that breaks the
# rule, then one summary line:
#   prefixes: 457 exported names in 60 files, all prefixed
# Exit status 1 on a name without its prefix, 2 on a bad tree.
top=$(cd "$(dirname "$0")/.." && pwd)
build=${1:?usage: prefixes.sh BUILD}
cd "$top" || exit 2

objects=
for c in src/*/*.c; do
    m=${c##*/}
    o="$build/${m%.c}.o"
    [ -f "$o" ] || { echo "prefixes: no $o for $c" >&2; exit 2; }
    objects="$objects $o"
done
# nm -A: "build/search.o:0000000000001234 T search_run"
nm -A --defined-only $objects | awk -v files="$(echo $objects | wc -w)" '
    $2 ~ /^[TDBRC]$/ && $3 !~ /^__/ {
        m = $1; sub(/:[^:]*$/, "", m); sub(/.*\//, "", m); sub(/\.o$/, "", m)
        names++
        if (index($3, m) != 1 && !(m == "main" && $3 == "main")) {
            print m ".c: " $3
            bad++
        }
    }
    END {
        if (bad) {
            printf "prefixes: %d of %d exported names in %d files lack their file'"'"'s prefix\n", bad, names, files
            exit 1
        }
        printf "prefixes: %d exported names in %d files, all prefixed\n", names, files
    }'
