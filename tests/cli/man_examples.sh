# The man page's examples are the README's (issue 14): every `$ roofline ...` command
# of the README (its examples, each checked against its output by readme.sh) is in the
# man page's EXAMPLES, and every command there is in the README. And the man page's
# "Statements at a glance" names every statement word the REPL completes.
top=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# the README's commands, a continued line joined to the next, without "$ "
awk '/^\$ roofline/ { c = substr($0, 3); while (c ~ /\\$/) { getline; c = c "\n" $0 }; print c "\n--" }' \
    "$top/README.md" | tr -s ' ' > "$tmp/readme"
# the man page's: the .EX blocks of EXAMPLES, roff escapes undone
awk '/^\.SH EXAMPLES/ { on = 1; next } /^\.SH/ { on = 0 } on && /^\.EX/ { ex = 1; next }
     on && /^\.EE/ { ex = 0; print "--"; next } on && ex' "$top/roofline.1" |
    sed 's/\\(aq/'"'"'/g; s/\\-/-/g; s/\\e/\\/g' | tr -s ' ' > "$tmp/man"
n=$(grep -c '^--$' "$tmp/readme")
# each README command (a block ending in --) found whole in the man page's, and back
awk -v RS='--\n' 'FNR == NR { man[$0] = 1; next } !($0 in man) { print "FAIL README example not in the man page: " $0 }' \
    "$tmp/man" "$tmp/readme"
awk -v RS='--\n' 'FNR == NR { readme[$0] = 1; next }
    !($0 in readme) && $0 !~ /^roofline --html/ { print "FAIL man page example not in the README: " $0 }' \
    "$tmp/readme" "$tmp/man"
grep -qF 'roofline --html build/llama3_70b.html examples/model_llama3_70b.roof' "$top/README.md" ||
    echo "FAIL the man page's --html example is not the README's"
echo "checked $n README examples against the man page"
# every statement word of completion (session.c) in the man page's glance list
glance=$(awk '/^\.SS Statements at a glance/ { on = 1; next } /^\.S[SH]/ { on = 0 } on' "$top/roofline.1")
for w in let use chip arch include mesh allgather allreduce reducescatter alltoall send solve \
         sweep plot fit search serve block return repeat fused mode remat optimizer expect \
         within help names chips quit; do
    printf '%s\n' "$glance" | grep -qE "(^|[^a-z_])$w([^a-z_]|$)" || echo "FAIL $w is not at a glance"
done
echo "checked the statements at a glance"
