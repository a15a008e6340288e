# Ctrl-D inside an unfinished statement at a terminal leaves the REPL quietly, exit 0:
# the user chose to go, so no syntax error for the half-typed line (a script piped to
# stdin that ends mid-statement still gets one: stdin_eof_mid_statement).
if ! command -v script > /dev/null; then echo "skipped: no script(1)"; exit 77; fi
home=$(mktemp -d)
trap 'rm -rf "$home"' EXIT
out=$( (printf 'let a = 3\nbf16[8,\n'; sleep 1) |
    { NO_COLOR=1 HOME=$home timeout 20 script -qec "$ROOFLINE" /dev/null; echo "status=$?"; } |
    tr -d '\r')
status=${out##*status=}
case $out in *"...> "*) echo "ok the statement was unfinished (continuation prompt)" ;;
*) echo "FAIL no continuation prompt: $out" ;; esac
case $out in *error*) echo "FAIL an error on leaving: $out" ;; *) echo "ok no error on leaving" ;; esac
[ "$status" = 0 ] && echo "ok exit status 0" || echo "FAIL exit status $status"
