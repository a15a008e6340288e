# .ci/apt.sh with a stand-in apt-get (issue 16): while another process holds the dpkg
# lock it waits, saying so, and retries; it installs without recommended packages and
# says what; it gives up, with apt-get's message, once APT_LOCK_WAIT has passed.
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT INT TERM
# The stand-in fails on the lock while $dir/busy counts down, then prints its arguments.
cat > "$dir/apt-get" <<'FAKE'
#!/bin/sh
n=$(cat "$APT_FAKE_DIR/busy" 2>/dev/null || echo 0)
if [ "$n" -gt 0 ]; then
    echo $((n - 1)) > "$APT_FAKE_DIR/busy"
    echo 'E: Could not get lock /var/lib/dpkg/lock-frontend. It is held by process 4242 (unattended-upgr)' >&2
    exit 100
fi
echo "apt-get $*"
FAKE
chmod +x "$dir/apt-get"
export APT_FAKE_DIR="$dir"
PATH=$dir:$PATH
SUDO=""
APT_RETRY=10
APT_LOCK_WAIT=30
sleep() { :; } # no real waiting in a test
. .ci/apt.sh

echo 2 > "$dir/busy"
apt_install flex chromium 2>&1
echo "status $?"
echo 9 > "$dir/busy"
apt_get install -y clang 2>&1
echo "status $?"
