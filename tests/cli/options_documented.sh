# The documents cannot fall behind --help: every option line of --help is in the
# README's copy of it, and every option has its entry in the man page.
"$ROOFLINE" --help | grep -E '^  --' | while IFS= read -r line; do
    option=$(echo "$line" | awk '{ print $1 }')
    if grep -qxF -- "$line" README.md; then echo "ok README lists $option"
    else echo "MISSING from README: $line"; fi
    entry=".B $(echo "$option" | sed 's/-/\\-/g')"
    if grep -qxF -- "$entry" roofline.1; then echo "ok roofline.1 explains $option"
    else echo "MISSING from roofline.1: $entry"; fi
done
