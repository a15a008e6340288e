# help BLOCK prints the comment above a block's definition and its signature; an
# unknown name is a located error that says where to look.
# The block comes from a file: lines typed into a pseudo-terminal all at once were
# echoed and read in an order that varied with the machine's load.
home=$(mktemp -d)
trap 'rm -rf "$home"' EXIT
printf '# Doubles x.\n# (A test block.)\nblock twice(x: [B], k = 2) { return x }\n' > "$home/twice.roof"
printf 'include "%s/twice.roof"\nhelp twice\nhelp rms_norm\nhelp nothing\nquit\n' "$home" |
    NO_COLOR=1 HOME=$home script -qec "$ROOFLINE" /dev/null | tr -d '\r' |
    grep -E '^(# Doubles|# \(A test|twice\(|# RMS norm|rms_norm\(|<repl>.*no help)'
exit 0
