#!/bin/sh
# tools/deps.sh, which `make` runs when flex or bison is missing: what it would
# install, and the one line it stops with when it cannot install (no apt-get, no
# root): here on a PATH with none of the tools, so flex and bison are missing.
cd "$(dirname "$0")/../.." || exit 1
sh=$(command -v sh)
PATH=/nonexistent "$sh" tools/deps.sh --dry-run | sed -n 1p
PATH=/nonexistent "$sh" tools/deps.sh 2>&1
echo "exit $?"
# On this machine (the suite built it) nothing needed is missing.
sh tools/deps.sh --dry-run | sed -n 1p
