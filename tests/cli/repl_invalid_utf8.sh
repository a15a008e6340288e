# The REPL rejects a line with bytes that are not UTF-8, as a script does (issue 29):
# libedit dropped every byte above 0x7F, so `x\xff\xfe = 1` ran as `x = 1`. Now the
# line is the one typed: two located errors, x stays unbound (printed as itself), and
# a valid `µ` in a comment is kept and harmless (y = 2 is bound).
home=$(mktemp -d)
trap 'rm -rf "$home"' EXIT
(printf 'x\377\376 = 1\n'; sleep 0.5; printf 'x\nlet y = 2 # \302\265s\ny\nquit\n') |
    NO_COLOR=1 HOME=$home script -qec "$ROOFLINE" /dev/null | tr -d '\r' |
    grep -a -E '^(<repl>:|x$|y = |  x)'
exit 0
