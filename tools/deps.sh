#!/bin/sh
# deps.sh [--dry-run] — what the build needs from Debian that this machine lacks, and
# installing it: flex and bison (needed), libedit-dev (line editing in the REPL;
# optional). `make` runs it when flex or bison is missing; `make deps` runs it for all
# three. With --dry-run it only says what it would install. Installs with apt-get as
# root, or through sudo when that needs no password; otherwise it stops with one line
# that says what to run.
dry=0
[ "${1:-}" = --dry-run ] && dry=1
need=""
command -v flex >/dev/null 2>&1 || need="$need flex"
command -v bison >/dev/null 2>&1 || need="$need bison"
want=""
[ -f /usr/include/editline/readline.h ] || want=" libedit-dev"
if [ $dry = 1 ]; then
    echo "needed:${need:- nothing missing}"
    echo "optional:${want:- nothing missing}"
    exit 0
fi
all="$need$want"
[ -n "$all" ] || exit 0
if [ "$(id -u 2>/dev/null)" = 0 ]; then
    run=""
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
    run="sudo"
else
    run="none"
fi
if [ "$run" = none ] || ! command -v apt-get >/dev/null 2>&1; then
    [ -n "$need" ] || exit 0 # only the optional one is missing: build without it
    echo "roofline: the build needs$need; install them with: sudo apt-get install$all" >&2
    exit 1
fi
echo "roofline: installing$all (apt-get)" >&2
# shellcheck disable=SC2086
$run apt-get update -qq >&2 &&
    DEBIAN_FRONTEND=noninteractive $run apt-get install -y -qq --no-install-recommends $all >&2 ||
    { [ -z "$need" ] || { echo "roofline: apt-get could not install$all; run: sudo apt-get install$all" >&2; exit 1; }; }
