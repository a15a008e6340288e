# help BLOCK prints the comment above a block's definition and its signature; an
# unknown name says where to look.
home=$(mktemp -d)
trap 'rm -rf "$home"' EXIT
printf '# Doubles x.\n# (A test block.)\nblock twice(x: [B], k = 2) { return x }\nhelp twice\nhelp rms_norm\nhelp nothing\nquit\n' |
    NO_COLOR=1 HOME=$home script -qec "$ROOFLINE" /dev/null | tr -d '\r' |
    grep -E '^(# Doubles|# \(A test|twice\(|# RMS norm|rms_norm\(|no block)'
exit 0
