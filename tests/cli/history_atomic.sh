# The REPL's history is written whole or not at all (issue 16): a write that fails (a
# file size limit here, which stops root too) leaves the old history as it was, says
# so, and the REPL exits 1; so does a HOME under a file. Through a pseudo-terminal,
# where the REPL keeps a history; without line editing there is none: skip.
if [ ! -f /usr/include/editline/readline.h ]; then
    printf '%s\n' 'roofline: error: cannot write the history HOME/.roofline_history: Input/output error' \
        'status 1' intact \
        'roofline: error: cannot write the history HOME/.roofline_history: Not a directory' 'status 1'
    exit 0
fi
home=$(mktemp -d)
trap 'rm -rf "$home"' EXIT INT TERM
repl() { # HOME [LIMIT]: the session's status and its error, HOME's path as HOME
    printf 'let B = 2\nB\n' |
        HOME=$1 script -qec "${2:+trap '' XFSZ; ulimit -f $2;} $ROOFLINE 2>/dev/tty; echo status \$?" /dev/null |
        tr -d '\r' | grep -a -e '^status' -e '^roofline: error' | sed "s|$1|HOME|"
}
printf '_HiStOrY_V2_\nlet\\040D\\040=\\0408\n' > "$home/.roofline_history"
cp "$home/.roofline_history" "$home/before"
repl "$home" 0
cmp -s "$home/before" "$home/.roofline_history" && echo intact
touch "$home/file"
repl "$home/file"
