# Bash completion loads after `make install` for the PREFIX the README shows
# ($HOME/.local: bash-completion's user directory), and for another PREFIX once
# XDG_DATA_DIRS has its share/, which make install then says. Needs bash-completion.
bc=/usr/share/bash-completion/bash_completion
if [ ! -f "$bc" ] || ! command -v bash > /dev/null; then
    echo "skipped: bash-completion is not installed"; exit 77
fi
top=$(cd "$(dirname "$0")/../.." && pwd)
b=$(dirname "$ROOFLINE")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/home"
# loads HOME [XDG_DATA_DIRS]: the completion bash loads for roofline, and what it offers
# for `roofline --js`
loads() {
    HOME=$1 XDG_DATA_DIRS=${2:-/usr/local/share:/usr/share} bash --norc --noprofile -c '
        . '"$bc"' 2> /dev/null
        if __load_completion roofline; then
            complete -p roofline
            COMP_WORDS=(roofline --js); COMP_CWORD=1; _roofline; echo "offers ${COMPREPLY[*]}"
        else
            echo "not loaded"
        fi'
}
HOME=$tmp/home make -s -C "$top" -o "$b/roofline" install B="$b" PREFIX="$tmp/home/.local" \
    > "$tmp/log" 2>&1 || { echo "FAIL make install"; cat "$tmp/log"; }
grep -q 'bash completion:' "$tmp/log" && echo "FAIL a hint for ~/.local" || echo "ok no hint for ~/.local"
loads "$tmp/home"
HOME=$tmp/home make -s -C "$top" -o "$b/roofline" install B="$b" PREFIX="$tmp/opt" \
    > "$tmp/log" 2>&1 || { echo "FAIL make install"; cat "$tmp/log"; }
sed -n "s|$tmp|TMP|g; s|^bash completion: \(.*\) is not where.*|hint: \1|p" "$tmp/log"
loads "$tmp/elsewhere"
loads "$tmp/elsewhere" "$tmp/opt/share:/usr/share"
