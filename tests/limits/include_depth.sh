# LIMIT_INCLUDE_DEPTH (16): files including files. A chain of 16 includes works, 17
# and 1000 fail with the include chain; a cycle is found, not followed.
. "$(dirname "$0")/lib.shinc"

# chain N: inc0.roof includes inc1.roof ... incN.roof, which binds a name
chain() {
    awk -v n="$1" -v cycle="$2" 'BEGIN {
        for (i = 0; i < n; i++) printf "include \"inc%d.roof\"\n", i + 1 > ("inc" i ".roof")
        if (cycle) printf "include \"inc0.roof\"\n" > ("inc" n ".roof")
        else printf "x = %d\n", n > ("inc" n ".roof")
    }'
}
for n in 16 17 1000; do
    rm -f inc*.roof; chain $n
    limit "$n includes deep" inc0.roof
done
rm -f inc*.roof; chain 10 cycle
limit 'a cycle of 11 files' inc0.roof
rm -f inc*.roof; chain 1000 cycle
limit 'a cycle of 1001 files (too deep before it comes round)' inc0.roof
mkdir sub; printf 'include "sub/nested.roof"\n' > top.roof; printf 'include "../top.roof"\n' > sub/nested.roof
limit 'a cycle through a subdirectory' top.roof
