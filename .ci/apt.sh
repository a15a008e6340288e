# .ci/apt.sh — apt-get for CI, sourced by .ci/run (and by tests/cli/ci_apt.sh).
#
# A fresh machine often runs unattended-upgrades at boot: while another apt-get or dpkg
# holds the lock, apt_get waits (up to APT_LOCK_WAIT seconds, 600 unless set), saying
# what holds it, instead of failing at once. apt_install installs packages with their
# dependencies but not their recommendations (chromium recommends 129 packages and
# system daemons), and says which it installs: the ones asked for, then apt-get's list
# of every package it adds.
APT_LOCK_WAIT=${APT_LOCK_WAIT:-600}
APT_RETRY=${APT_RETRY:-10}
if [ -z "${SUDO+set}" ]; then
    SUDO=""; [ "$(id -u)" = 0 ] || SUDO=sudo
fi
apt_updated=""

# apt_locked FILE: whether the apt-get whose stderr is FILE failed on a lock.
apt_locked() {
    grep -q -i -e 'could not get lock' -e 'unable to lock' -e 'unable to acquire' "$1"
}

# apt_get ARG...: apt-get, waiting while another process holds its lock.
apt_get() {
    apt_err=$(mktemp)
    apt_waited=0
    # shellcheck disable=SC2086
    until $SUDO env DEBIAN_FRONTEND=noninteractive apt-get "$@" 2> "$apt_err"; do
        if ! apt_locked "$apt_err" || [ "$apt_waited" -ge "$APT_LOCK_WAIT" ]; then
            cat "$apt_err" >&2
            apt_locked "$apt_err" && echo "CI: gave up after ${apt_waited}s waiting for the apt lock" >&2
            rm -f "$apt_err"
            return 1
        fi
        echo "CI: waiting for the apt lock (${apt_waited}s of ${APT_LOCK_WAIT}s): $(grep -i -m1 lock "$apt_err")" >&2
        sleep "$APT_RETRY"
        apt_waited=$((apt_waited + APT_RETRY))
    done
    cat "$apt_err" >&2
    rm -f "$apt_err"
}

# apt_install PACKAGE...: the package lists updated once, then the packages.
apt_install() {
    echo "CI: installing $* (apt-get, without recommended packages)"
    if [ -z "$apt_updated" ]; then
        apt_get update -qq || return 1
        apt_updated=1
    fi
    apt_get install -y -q --no-install-recommends "$@"
}
