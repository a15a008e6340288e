#!/bin/sh
# Regression test; the defect was: with flops_eff, hbm_eff or net_eff set, the text report of a
# statement shows t_derated (since 6c69529), but its JSON object has no t_derated key
# (nor has a block's). Expected: "t_derated" in the JSON, after "t_upper".
# bf16[256,8000] *_D bf16[8000,32000] on a v5e with hbm_eff = 0.5: t_math = 131.072e9 /
# 1.97e14 = 665.34 µs, t_hbm = 532.48e6 / 8.2e11 = 649.37 µs; t_derated =
# max(665.34 µs, 649.37 µs / 0.5) = 1.2987 ms.
. "$(dirname "$0")/../book/lib.shinc"

chip='chip slow : v5e { hbm_eff = 0.5 }'
stmt='bf16[256, 8000] *_D bf16[8000, 32000] on slow'

run_text -e "$chip" -e "$stmt"
if printf '%s\n' "$_book_text" | grep -q '^  t_derated '; then echo "ok text_row"
else echo "FAIL text_row: no t_derated row in the report"; _book_failed=1; fi

run -e "$chip" -e "$stmt"
check json_t_derated t_derated '532.48e6 / 8.2e11 / 0.5'

run_text -e "$chip" -e "$stmt" -e 'expect t_derated == 532.48e6 / 8.2e11 / 0.5'
if [ "$_book_status" = 0 ]; then echo "ok expect_t_derated"
else echo "FAIL expect_t_derated: exit status $_book_status"; _book_failed=1; fi

finish
