# A slice that does not fit the chip's pod must be reported where it is written.
#
# `on v5e 32x4` is rejected with the caret under `32x4` (see pod_too_long.roof). The
# same slice given by `use v5e 32x4` must be rejected the same way: at the `use`
# statement (line 1, column 9, where `32x4` starts), exit status 1. And a mesh that
# does not fit the pod of the chip chosen before it must be reported at the mesh or at
# the statement that uses it, not at the `use` line, which was right on its own.
#
# Each check prints `ok NAME` or `FAIL NAME: ...`.
: "${ROOFLINE:?ROOFLINE must name the roofline binary}"
failed=0

# expect_at NAME SCRIPT PREFIX... : `roofline -` reading SCRIPT must exit 1, and the
# first line of its stderr must start with one of the PREFIXes.
expect_at() {
    name=$1 script=$2
    shift 2
    err=$(printf '%s\n' "$script" | "$ROOFLINE" - 2>&1 >/dev/null)
    status=$?
    first=$(printf '%s\n' "$err" | head -n 1)
    if [ "$status" != 1 ]; then
        echo "FAIL $name: exit status $status, expected 1 (stderr: '$first')"
        failed=1
        return
    fi
    for p in "$@"; do
        case $first in
        "$p"*) echo "ok $name"; return ;;
        esac
    done
    echo "FAIL $name: '$first' does not start with any of: $*"
    failed=1
}

# v5e's pod is 16 long along X
expect_at use_too_long 'use v5e 32x4' '<stdin>:1:9:'
expect_at use_too_long_then_statement 'use v5e 32x4
let B = 2
bf16[B, D] *_D bf16[D, F]' '<stdin>:1:9:'
# v5e is a 2D torus: no third axis
expect_at use_3d_on_2d_torus 'use v5e 4x4x4' '<stdin>:1:9:'
# the mesh (line 2) has a third axis Z; the statement on line 3 uses it on v5e
expect_at use_then_mesh_3d 'use v5e
mesh X = 16, Y = 16, Z = 2
bf16[B_X, D] *_D bf16[D, F]' '<stdin>:2:' '<stdin>:3:'
# the mesh (line 2) has an axis of 32
expect_at use_then_mesh_too_long 'use v5e
mesh X = 32
bf16[B_X, D] *_D bf16[D, F]' '<stdin>:2:' '<stdin>:3:'

exit "$failed"
