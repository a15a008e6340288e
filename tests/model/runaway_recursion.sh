#!/bin/sh
# Runaway recursion stops at 64 calls deep with a located error and exit status 1: a
# block that calls itself, two blocks that call each other (through a repeat), and a
# default argument that calls its own block. None may hang (each run is given 20 s,
# where it needs milliseconds) or crash. The notes under the error are not checked
# here (error_runaway_recursion.roof has the whole message).
: "${ROOFLINE:?ROOFLINE must name the roofline binary}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
failed=0

# case NAME FIRST-LINE SCRIPT: runs SCRIPT, checks the status and stderr's first line
case_() {
    printf '%s\n' "$3" > "$tmp/$1.roof"
    (cd "$tmp" && timeout 20 "$ROOFLINE" "$1.roof" > out 2> err)
    status=$?
    first=$(head -1 "$tmp/err")
    if [ "$status" != 1 ]; then
        echo "FAIL $1: exit status $status, expected 1"; failed=1
    elif [ "$first" != "$2" ]; then
        echo "FAIL $1: stderr starts '$first', expected '$2'"; failed=1
    elif grep -q -i -e sanitizer -e 'runtime error' "$tmp/err"; then
        echo "FAIL $1: sanitizer report"; failed=1
    else
        echo "ok $1"
    fi
}

msg='error: blocks call blocks more than 64 deep (a block that calls itself never ends)'

case_ self "self.roof:2:12: $msg" 'block f(x) {
    return f(x)
}
y = f(1)'

case_ mutual "mutual.roof:3:20: $msg" 'block a(n) { return b(n) }
block b(n) {
    repeat 2 { m = a(n) }
    return m
}
y = a(1)'

case_ default "default.roof:1:13: $msg" 'block f(x = f()) { return x }
y = f()'

# with operations on the way down: still stops, nothing reported
case_ costly "costly.roof:3:12: $msg" 'block f(x) {
    h = x *_K bf16[64, 64] on v5e
    return f(h)
}
y = f(bf16[8, 64])'
if [ -s "$tmp/out" ]; then echo "FAIL costly: printed a report"; failed=1; else echo "ok costly_silent"; fi

# 64 calls deep is allowed, the 65th is not: chains of blocks b1 → b2 → ... → bN
chain() {
    awk -v n="$1" 'BEGIN {
        print "use v5e"
        for (i = 1; i < n; i++) printf "block b%d(x) { return b%d(x) }\n", i, i + 1
        printf "block b%d(x) { return x *_K bf16[4, 4] }\n", n
        print "y = b1(bf16[2, 4])"
        print "expect flops == 64"       # bf16[2,4] *_K bf16[4,4]: 2·2·4·4
    }' > "$tmp/chain$1.roof"
    (cd "$tmp" && timeout 20 "$ROOFLINE" "chain$1.roof" > out 2> err)
}
chain 64
status=$?
if [ "$status" = 0 ] && grep -q '^ok: expect flops == 64' "$tmp/out"; then echo "ok chain_64"
else echo "FAIL chain_64: exit status $status"; sed 's/^/    /' "$tmp/err" | head -5; failed=1; fi
chain 65
status=$?
first=$(head -1 "$tmp/err")
if [ "$status" = 1 ] && [ "$first" = "chain65.roof:65:23: $msg" ]; then echo "ok chain_65"
else echo "FAIL chain_65: exit status $status, stderr starts '$first'"; failed=1; fi

exit "$failed"
