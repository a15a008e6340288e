# The README's examples cannot rot: every fenced block that starts with a `$ ` command
# shows exactly what the command prints (readme.shinc says how an example is written;
# those piped through jq are readme_jq.sh's). `UPDATE=1 sh tests/cli/readme.sh`, or
# UPDATE=1 over the whole suite, writes today's output into README.md for review.
. "$(dirname "$0")/readme.shinc"
readme_check plain
