# Tab completion through a pseudo-terminal: after `*_` the dims of the operand just
# typed (a bound tensor's, or written out: B of B_Y), after `mode` its two words (they
# offered chip fields after *_ and chip names after mode): `mode t` + Tab runs as
# `mode training`, and the next statement is costed for training.
if [ ! -f /usr/include/editline/readline.h ]; then # built without line editing: skip
    printf '%s\n' '_Bat _Dim' '_Quux _Rho' '[training: forward + backward]'
    exit 0
fi
home=$(mktemp -d)
trap 'rm -rf "$home"' EXIT
printf 'x = bf16[Bat, Dim]\nx *_\t\t\nbf16[Quux, Rho_Y] *_\t\t\n\nmode t\t\nbf16[8, K] *_K bf16[K, 8] on v5e\n' |
    NO_COLOR=1 HOME=$home script -qec "$ROOFLINE" /dev/null | tr -d '\r' |
    grep -aoE '_Bat _Dim|_Quux _Rho|\[training: forward \+ backward\]'
exit 0
