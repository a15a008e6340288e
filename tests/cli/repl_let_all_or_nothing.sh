# In the REPL a `let` whose last binding fails binds nothing: B and T keep what they
# held (B = 9 and T = bf16[8] stayed bound once, against "no binding is lost").
# Driven through a pseudo-terminal by script(1); the names listing is what is checked.
home=$(mktemp -d)
trap 'rm -rf "$home"' EXIT
printf 'let B = 8, T = bf16[4]\nlet B = 9, T = bf16[8], Z = 1/0\nnames\nquit\n' |
    NO_COLOR=1 HOME=$home script -qec "$ROOFLINE" /dev/null | tr -d '\r' |
    grep -E '^(<repl>|[BTZ] )'
