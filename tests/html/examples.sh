# Every example's page: written, well formed and self-contained, each section titled
# apart from the others (the examples are tests; so are their pages).
. tests/html/lib.shinc
for f in examples/*.roof; do
    # the search example's page, the slowest to make, is checked the same way (and
    # more) by sweep_search.sh, from its one run
    [ "$f" = examples/search_llama3_70b.roof ] && continue
    page=$tmp/$(basename "$f" .roof).html
    # from the scratch directory, where explore.roof's q3.svg goes
    if (cd "$tmp" && "$ROOFLINE" --html "$page" "$OLDPWD/$f") > /dev/null 2> "$tmp/err"; then
        well_formed "$page" "$f's page"
        self_contained "$page" "$f's page"
        distinct_titles "$page" "$f's page"
    else
        fail "$f's page" "$(head -3 "$tmp/err")"
    fi
done
finish
