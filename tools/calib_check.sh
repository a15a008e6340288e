#!/bin/sh
# check.sh BINARY CHIP FILE.jsonl [loo]
# Calibrates CHIP from the measurements, costs every measured case as a roofline
# statement on the calibrated chip (roofline --calibrate ... --cases writes them) and
# compares each case's t_predicted with its measured time. With `loo` each case is
# predicted by a chip fitted without it (leave-one-out). Prints a row a case, the worst
# cases, and "N of M within 10%"; exits 1 when fewer than 90% are within 10%.
set -u
bin=$1 chip=$2 file=$3 mode=${4:-all}
tmp=${TMPDIR:-/tmp}/calib.$$
trap 'rm -f "$tmp".*' EXIT INT TERM

# One JSON record a case, in the order of the `# case NAME MS` comments: the first
# t_predicted of each record is the statement's (a block's children come after it).
predict() { # script -> "NAME MEASURED_MS PREDICTED_MS" lines
    "$bin" --json "$1" > "$tmp.json" || return 1
    grep '^# case ' "$1" | cut -d' ' -f3,4 > "$tmp.names"
    awk '{ i = index($0, "\"t_predicted\":"); s = substr($0, i + 14); sub(/[,}].*/, "", s)
           print i ? s : "nan" }' "$tmp.json" > "$tmp.pred"
    [ "$(wc -l < "$tmp.names")" -eq "$(wc -l < "$tmp.pred")" ] || {
        echo "check.sh: the cases and the records differ in number" >&2; return 1; }
    paste -d' ' "$tmp.names" "$tmp.pred" | awk '{ printf "%s %s %.6g\n", $1, $2, $3 * 1e3 }'
}

if [ "$mode" = loo ]; then
    "$bin" --calibrate "$chip" "$file" --cases | grep '^# case ' | cut -d' ' -f3 > "$tmp.all"
    : > "$tmp.rows"
    while read -r name; do
        "$bin" --calibrate "$chip" "$file" --leave-out "$name" --cases > "$tmp.roof" || exit 1
        # the left-out case, alone after the chip and the blocks
        awk -v n="$name" '/^# case /{ exit } { print }' "$tmp.roof" > "$tmp.one.roof"
        "$bin" --calibrate "$chip" "$file" --cases |
            awk -v n="$name" '$1 == "#" && $2 == "case" { on = ($3 == n) } on' >> "$tmp.one.roof"
        predict "$tmp.one.roof" >> "$tmp.rows" || exit 1
    done < "$tmp.all"
else
    "$bin" --calibrate "$chip" "$file" --cases > "$tmp.roof" || exit 1
    predict "$tmp.roof" > "$tmp.rows" || exit 1
fi

awk -v chip="$chip" -v mode="$mode" '
{ err = ($3 / $2 - 1) * 100; e[NR] = err; row[NR] = $0; a = err < 0 ? -err : err
  ok += a <= 10; n++
  printf "  %-28s measured %10.4g ms  predicted %10.4g ms  %+6.1f%%%s\n", $1, $2, $3, err,
         a <= 10 ? "" : "  <- over 10%" }
END {
  # the five worst, by |error|
  for (k = 1; k <= 5 && k <= n; k++) {
    w = 0
    for (i = 1; i <= n; i++) { a = e[i] < 0 ? -e[i] : e[i]; if (!(i in done) && a >= w) { w = a; j = i } }
    done[j] = 1; split(row[j], f, " ")
    worst = worst sprintf("%s %+.1f%%%s", f[1], e[j], k < 5 && k < n ? ", " : "")
  }
  printf "%s %s: %d of %d cases within 10%% (%.1f%%); worst: %s\n", chip,
         mode == "loo" ? "leave-one-out" : "in sample", ok, n, 100 * ok / n, worst
  exit (ok >= 0.9 * n ? 0 : 1)
}' "$tmp.rows"
