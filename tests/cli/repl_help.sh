# The REPL's help names every kind of statement (it left out solve, sweep, fit, plot,
# block, repeat, mode and expect), through a pseudo-terminal as a user sees it.
home=$(mktemp -d)
trap 'rm -rf "$home"' EXIT
printf 'help\nquit\n' | NO_COLOR=1 HOME=$home script -qec "$ROOFLINE" /dev/null | tr -d '\r' |
    awk '{ print $1 }' | grep -xE 'let|use|chip|include|mesh|allgather|send|solve|sweep|fit|serve|plot|block|repeat|fused|mode|remat|optimizer|expect'
