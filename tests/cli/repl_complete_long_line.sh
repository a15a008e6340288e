# Tab after a long line (issue 29): libedit grows its copy of the line with realloc once
# a line passes some 3,100 bytes and leaves rl_line_buffer pointing at the freed block;
# the next Tab wrote into it (libedit) and read it (the completion), and the REPL
# aborted (`malloc(): unsorted double linked list corrupted`; under ASan a
# heap-use-after-free). Through a pseudo-terminal, two sessions:
#   1. the issue's: `let B = 1…1` of 3,300 digits, Enter, Tab at the empty prompt; then
#      completion must still read the line it is on: `x *_` Tab Tab lists x's dims;
#   2. a line of 3,309 bytes typed and Tab pressed at its end, before Enter: the line
#      still runs, C = 1 + 825 ones = 826.
if [ ! -f /usr/include/editline/readline.h ]; then # built without line editing: skip
    echo "skipped: built without libedit"; exit 77
fi
command -v script >/dev/null 2>&1 || { echo "skipped: no script (util-linux)"; exit 77; }
home=$(mktemp -d)
trap 'rm -rf "$home"' EXIT
session() { # TYPIST: what the function TYPIST prints is typed, through a terminal
    "$1" | NO_COLOR=1 HOME=$home timeout 20 script -qec "$ROOFLINE" /dev/null > "$home/raw"
    echo $? > "$home/status"
    tr -d '\r' < "$home/raw" > "$home/out"
}
report() { # WHAT PATTERN: ok when the session ended well and printed PATTERN
    if grep -aq -e 'AddressSanitizer' -e 'malloc()' -e 'corrupted' "$home/out"; then
        echo "FAIL $1: $(grep -a -m1 -e 'AddressSanitizer' -e 'malloc()' -e 'corrupted' "$home/out")"
    elif [ "$(cat "$home/status")" != 0 ]; then
        echo "FAIL $1: the REPL ended with status $(cat "$home/status")"
    elif ! grep -aqE "$2" "$home/out"; then
        echo "FAIL $1: no \"$2\" in the session"
    else
        echo "ok $1"
    fi
}

ones=$(head -c 3300 /dev/zero | tr '\0' 1)
after_long_line() {
    sleep 1; printf 'let B = %s\n' "$ones"; sleep 1; printf '\t'; sleep 1
    printf 'x = bf16[Bat, Dim]\nx *_\t\t\n\nquit\n'
}
session after_long_line
report "Tab after a line of 3,300 digits, then x's dims" '_Bat _Dim'

long="let C = 1$(printf ' + 1%.0s' $(seq 825))"
[ ${#long} = 3309 ] || echo "FAIL the long line is ${#long} bytes"
at_end_of_long_line() {
    sleep 1; printf '%s' "$long"; sleep 1; printf '\t'; sleep 1; printf '\nC\nquit\n'
}
session at_end_of_long_line
report "Tab at the end of a line of 3,309 bytes" '^C = 826$'
