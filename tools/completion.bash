# completion.bash — bash completion for roofline: its options, and .roof files
# (directories too, to get to them). `make install` puts it in
# share/bash-completion/completions/roofline.

# The .roof files and the directories that start with $1.
_roofline_files()
{
    compopt -o filenames 2>/dev/null
    mapfile -t COMPREPLY < <(compgen -f -X '!*.roof' -- "$1"; compgen -d -- "$1")
}

_roofline()
{
    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]} i
    COMPREPLY=()
    # -e takes a statement, which we cannot complete
    [[ $prev == -e ]] && return
    # --html takes the page's path: any file name
    if [[ $prev == --html ]]; then
        compopt -o filenames 2>/dev/null
        mapfile -t COMPREPLY < <(compgen -f -- "$cur")
        return
    fi
    # after --, every argument is a file
    for ((i = 1; i < COMP_CWORD; i++)); do
        [[ ${COMP_WORDS[i]} == -- ]] && { _roofline_files "$cur"; return; }
    done
    if [[ $cur == -* ]]; then
        mapfile -t COMPREPLY < <(compgen -W \
            '--json --csv --exact --ast --chips --html --help -h --version -e --' -- "$cur")
    else
        _roofline_files "$cur"
    fi
}
complete -F _roofline roofline
