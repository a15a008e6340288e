# --json and --csv are two formats for one stdout: asking for both is a usage error
# (CSV silently won).
"$ROOFLINE" --json --csv -e 1
