# examples/explore.roof runs from any directory: its chart goes to q3.svg in the current
# one (a relative path, as a shell takes it), here a scratch directory, with the two
# curves of Question 3.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
example=$(pwd)/examples/explore.roof
cd "$tmp" || exit 1
"$ROOFLINE" "$example" > out 2> err
echo "exit $?"
grep '^wrote' out
[ -s q3.svg ] && echo "q3.svg written here"
grep -o '>DF_[0-9]*<' q3.svg | sort -u
cat err
