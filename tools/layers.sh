#!/bin/sh
# layers.sh [BUILD] — checks the folder rule of src/ (src/README.md): each folder uses
# only those before it, in the order of the Makefile's LAYERS. "Uses" is an include of a
# header (#include "NAME.h") or, when BUILD holds the objects, a call or a reference to a
# function or a variable defined in another file (nm: what an object leaves undefined
# against what another defines). A file is its NAME.c and NAME.h together.
#
# A use that goes up a folder fails the check unless it is one of the known exceptions
# below, each with its reason; an exception no longer used fails it too (remove it), so
# the list can only shrink. Prints each violation, then one summary line:
#   layers: 7 folders on 6 floors; 4 upward uses, all known
# Floors are those of the folder graph: folders in a circle share a floor.
# Exit status 1 on a violation, 2 on a bad tree.
top=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-}
cd "$top" || exit 2

# FROM TO: why (the using file, the file it uses; one a line)
known='
stmt explore: statements dispatch to solve and sweep (the language'"'"'s recursion)
stmt search: statements dispatch to search
stmt serve: statements dispatch to serve
'

layers=$(sed -n 's/^LAYERS *= *//p' Makefile)
[ -n "$layers" ] || { echo "layers: no LAYERS in the Makefile" >&2; exit 2; }

tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT INT TERM

# folders: "MODULE FOLDER_INDEX FOLDER"; a module in no folder of LAYERS is an error
i=0
for d in $layers; do
    for f in src/"$d"/*.[ch]; do
        [ -f "$f" ] || continue
        m=${f##*/}; echo "${m%.*} $i $d"
    done
    i=$((i + 1))
done | sort -u > "$tmp/folders"
modules=" "
for d in $layers; do
    for f in src/"$d"/*.[ch]; do
        [ -f "$f" ] || continue
        m=${f##*/}; modules="$modules${m%.*} "
    done
done
for f in src/*.[ch] src/*/*.[ch]; do
    [ -f "$f" ] || continue
    m=${f##*/}
    case $modules in *" ${m%.*} "*) ;; *)
        echo "layers: $f is in no folder of LAYERS ($layers)" >&2; exit 2 ;;
    esac
done

# uses: "FROM TO" from the includes (one awk over every file: a process a file made
# the check take seconds)
set --
for d in $layers; do
    for f in src/"$d"/*.[ch]; do
        [ -f "$f" ] && set -- "$@" "$f"
    done
done
: > "$tmp/uses"
[ $# -eq 0 ] || awk '
    function module(path) { sub(/.*\//, "", path); sub(/\.[ch]$/, "", path); return path }
    match($0, /^[ \t]*#[ \t]*include[ \t]*"[^"]*"/) {
        name = substr($0, RSTART, RLENGTH); sub(/^[^"]*"/, "", name); sub(/"$/, "", name)
        print module(FILENAME), module(name)
    }' "$@" > "$tmp/uses"

# ... and from the objects: each undefined symbol against the module that defines it
if [ -n "$build" ]; then
    command -v nm > /dev/null 2>&1 || { echo "layers: no nm (binutils)" >&2; exit 2; }
    # one nm for all the objects: -A puts "OBJECT:" before each line
    set --
    while read -r m _ _; do
        [ -f "$build/$m.o" ] && set -- "$@" "$build/$m.o"
    done < "$tmp/folders"
    : > "$tmp/syms"
    [ $# -eq 0 ] || nm -A "$@" | awk '
        {
            c = index($0, ":"); m = substr($0, 1, c - 1)
            sub(/.*\//, "", m); sub(/\.o$/, "", m)
            n = split(substr($0, c + 1), f, " ")
        }
        n == 2 && f[1] == "U" { print "U", m, f[2] }
        n == 3 && f[2] ~ /^[TDBRCGSVW]$/ { print "D", m, f[3] }' > "$tmp/syms"
    awk '$1 == "D" { def[$3] = $2 } $1 == "U" { use[++n] = $2 " " $3 }
         END { for (i = 1; i <= n; i++) { split(use[i], u, " ")
                   if (u[2] in def) print u[1], def[u[2]] } }' "$tmp/syms" >> "$tmp/uses"
fi

printf '%s\n' "$known" | sed -n 's/^\([a-z_0-9]*\) \([a-z_0-9]*\):.*/\1 \2/p' > "$tmp/known"

awk -v layers="$layers" '
    FILENAME == ARGV[1] { idx[$1] = $2; folder[$1] = $3; next }
    FILENAME == ARGV[2] { known[$1 " " $2] = 1; nknown++; next }
    $1 == $2 || !($2 in idx) { next }         # itself, or a header of the build (parser.h)
    { f = idx[$1]; t = idx[$2]
      if (f != t) edge[f " " t] = 1
      if (f < t) up[$1 " " $2] = 1 }
    END {
        nf = split(layers, L, " ")
        for (k in up) {
            nup++
            if (!(k in known)) {
                split(k, e, " ")
                printf "layers: %s (src/%s) uses %s (src/%s), a later folder\n",
                    e[1], folder[e[1]], e[2], folder[e[2]]
                bad = 1
            }
        }
        for (k in known) if (!(k in up)) {
            printf "layers: the exception \"%s\" is no longer used: remove it\n", k
            bad = 1
        }
        # floors: folders in a circle share one (reach both ways), then the longest path
        for (a = 0; a < nf; a++) reach[a " " a] = 1
        for (k in edge) reach[k] = 1
        for (c = 0; c < nf; c++) for (a = 0; a < nf; a++) for (b = 0; b < nf; b++)
            if ((a " " c) in reach && (c " " b) in reach) reach[a " " b] = 1
        for (a = 0; a < nf; a++)
            for (b = nf - 1; b >= 0; b--)
                if ((a " " b) in reach && (b " " a) in reach) rep[a] = b
        for (pass = 0; pass < nf; pass++) for (k in edge) {
            split(k, e, " ")
            x = rep[e[1]]; y = rep[e[2]]
            if (x != y && floor_[x] < floor_[y] + 1) floor_[x] = floor_[y] + 1
        }
        floors = 0
        for (a = 0; a < nf; a++) if (floor_[a] + 1 > floors) floors = floor_[a] + 1
        printf "layers: %d folders on %d floors; %d upward uses, %s\n", nf, floors, nup,
            bad ? "not all known" : "all known"
        exit bad
    }' "$tmp/folders" "$tmp/known" "$tmp/uses"
