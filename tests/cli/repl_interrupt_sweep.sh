# Ctrl-C stops a long sweep in the REPL (issue 16): the sweep ends with "interrupted"
# (what the user asked for, not "error: interrupted")
# and the session goes on with its bindings (B is still 2). Through a pseudo-terminal,
# where the REPL catches SIGINT; the sweep of a million rows runs for many seconds,
# so the Ctrl-C sent a second after it starts arrives in the middle of it.
home=$(mktemp -d)
trap 'rm -rf "$home"' EXIT INT TERM
(printf 'let B = 2\nsweep X in 1 .. 1M { bf16[X,8] *_K bf16[8,8] on v5e }\n'
 sleep 1; printf '\003'; sleep 1; printf 'B\nquit\n') |
    NO_COLOR=1 HOME=$home script -qec "$ROOFLINE" /dev/null | tr -d '\r' |
    grep -a -o -e 'error: interrupted' -e 'interrupted' -e '^B = 2'
