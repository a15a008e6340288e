# The page is written whole or not at all (issue 16, outfile.h): when a write fails (a
# file size limit, which stops root too) the old page stays as it was, no temporary
# file is left, and the error names the path and the reason; a limit so low that the
# run's records cannot be kept says so (it printed bytes of garbage).
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT INT TERM
cd "$dir" || exit 1
# ulimit -f counts blocks of 512 or 1024 bytes, as the shell likes: measure them.
(trap '' XFSZ; ulimit -f 1; head -c 4096 /dev/zero > probe 2> /dev/null)
block=$(wc -c < probe)
# Room for the records kept while the run goes (the chip table and a statement), not
# for the page, which holds its script and styles too.
room=$(($("$ROOFLINE" --chips --json | wc -c) + 3000))
echo 'the old page' > page.html
for limit in $(((room + block - 1) / block)) 1; do
    (trap '' XFSZ; ulimit -f "$limit"
     "$ROOFLINE" --html page.html -e 'bf16[8,8] *_K bf16[8,8] on v5e' > out 2> err
     echo "exit $?: $(cat err)")
done
cat page.html
rm probe out err
ls -A
