#!/bin/sh
# calib_heldout.sh BINARY CHIP KERNELS.jsonl LLAMA.jsonl
# Calibrates CHIP from the kernel measurements alone, then predicts each held-out
# LLaMA-3 8B case of LLAMA.jsonl (a layer or a whole step: prefill, or decode against a
# KV cache, launched eagerly or from a CUDA graph; tools/measure_kernels.py --llama)
# with the stdlib's `layer`, `model` and `decode` on the calibrated chip, and prints
# predicted against measured. The held-out cases are never in the fit. Exits 1 when a
# prediction is more than 10% off, except eager decode at batch 1: launched from Python
# one kernel at a time, it is bound by the host and its repeat runs spread by up to 26%
# (tests/data/measurements/README.md), so it is printed but not held to 10%.
set -u
bin=$1 chip=$2 kernels=$3 llama=$4
tmp=${TMPDIR:-/tmp}/heldout.$$
trap 'rm -f "$tmp".*' EXIT INT TERM

"$bin" --calibrate "$chip" "$kernels" > "$tmp.cal.roof" || exit 1
# One statement a case, from the case's name and shape fields. The measured step
# computes the logits of every prefill token (F.rms_norm(x) @ out), so model() is
# asked for all T of them (R = T), not the serving default of the last one.
awk -v chip="$chip" -v cal="$tmp.cal.roof" '
function num(key,   s) { s = $0; if (!sub(".*\"" key "\": *", "", s)) return ""; sub(/[,}].*/, "", s); return s }
BEGIN { printf "include \"%s\"\nuse %s_cal\n", cal, chip }
/"case": "llama3_8b_/ {
    name = $0; sub(/.*"case": "/, "", name); sub(/".*/, "", name)
    ms = num("ms")
    printf "# case %s %s\n", name, ms
    printf "let D = %s, F = %s, N = %s, K = %s, H = %s, L = %s, V = %s, B = %s\n",
           num("D"), num("F"), num("N"), num("K"), num("H"), num("L"), num("V"), num("B")
    printf "mode inference%s\n", index(name, "_graph") ? " launch graph" : ""
    if (index(name, "_prefill_")) {
        printf "let T = %s\n", num("T")
        if (index(name, "_layer_"))
            print "layer(bf16[B, T, D], bf16[B, T, K, H], bf16[B, T, K, H], F, N)"
        else
            print "model(B, T, D, F, N, K, H, L, V, R = T)"
    } else {
        printf "let S = %s\n", num("S")
        if (index(name, "_layer_"))
            print "layer(bf16[B, 1, D], cache bf16[B, S, K, H], cache bf16[B, S, K, H], F, N)"
        else
            print "decode(B, S, D, F, N, K, H, L, V)"
    }
}' "$llama" > "$tmp.roof"

"$bin" --json "$tmp.roof" > "$tmp.json" || { cat "$tmp.roof" >&2; exit 1; }
grep '^# case ' "$tmp.roof" | cut -d' ' -f3,4 > "$tmp.names"
awk '{ i = index($0, "\"t_predicted\":"); s = substr($0, i + 14); sub(/[,}].*/, "", s)
       print i ? s : "nan" }' "$tmp.json" > "$tmp.pred"
[ "$(wc -l < "$tmp.names")" -eq "$(wc -l < "$tmp.pred")" ] || {
    echo "calib_heldout.sh: the cases and the records differ in number" >&2; exit 1; }
paste -d' ' "$tmp.names" "$tmp.pred" | awk -v chip="$chip" '
{ err = ($3 * 1e3 / $2 - 1) * 100; a = err < 0 ? -err : err; n++; ok += a <= 10
  noisy = $1 ~ /_B1_.*_eager$/; bad += a > 10 && !noisy
  printf "  %-40s measured %8.4g ms  predicted %8.4g ms  %+6.1f%%%s\n", $1, $2, $3 * 1e3, err,
         a <= 10 ? "" : noisy ? "  <- over 10% (host-bound, noisy)" : "  <- over 10%" }
END { printf "%s held out: %d of %d LLaMA-3 8B cases within 10%%\n", chip, ok, n
      exit bad > 0 }'
