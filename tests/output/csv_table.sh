# --csv is one table of the --json records (issue 14): read back with check-output's
# CSV reader (select), each kind of row checked against values derived by hand.
check=$(dirname "$ROOFLINE")/check-output
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# is NAME ACTUAL EXPECTED
is() { if [ "$2" = "$3" ]; then echo "ok $1"; else echo "FAIL $1: got '$2', expected '$3'"; fi; }
# sel FILE COLUMN [NAME=VALUE...]: the column's values in the matching rows, on one line
sel() { f=$1; shift; "$check" select "$@" < "$f" | tr '\n' ' ' | sed 's/ $//'; }

# A statement: bf16[8,4096] *_D int8[4096,4096] on v5e. flops 2·8·4096² = 268435456;
# bytes 8·4096·2 + 4096² + 8·4096·2 = 16908288; ridge 1.97e14 / 8.2e11 = 240.2439...
"$ROOFLINE" --csv -e 'bf16[8,4096] *_D int8[4096,4096] on v5e' > "$tmp/stmt"
is statement_kind "$(sel "$tmp/stmt" kind)" statement
is statement_flops "$(sel "$tmp/stmt" flops)" 268435456
is statement_bytes "$(sel "$tmp/stmt" bytes)" 16908288
is statement_ridge "$(sel "$tmp/stmt" ridge | cut -c1-8)" 240.2439
is statement_chip "$(sel "$tmp/stmt" chip)" v5e
is statement_shape "$(sel "$tmp/stmt" shape)" '[8,4096]'
is statement_bound "$(sel "$tmp/stmt" bound)" memory
is statement_formula "$(sel "$tmp/stmt" formula_flops)" 268435456

# Unbound dims: the figures are empty, their formulas in formula_* (2·B·D·F FLOPs)
"$ROOFLINE" --csv -e 'bf16[B,D] *_D bf16[D,F] on v5e' > "$tmp/free"
is unbound_flops_empty "$(sel "$tmp/free" flops)" ''
is unbound_formula_flops "$(sel "$tmp/free" formula_flops)" '2*B*D*F'
is unbound_shape "$(sel "$tmp/free" shape)" '["B","F"]'

# A solve: a row per range. Intensity 2·B·4096² / (4·4096·B + 4096²) = 240.24 at
# B = 984039.0/7231.02 = 136.0857; the limit 8192/4 = 2048.
"$ROOFLINE" --csv -e 'solve B: bf16[B,4096] *_D int8[4096,4096] on v5e' > "$tmp/solve"
is solve_rows "$(sel "$tmp/solve" kind)" 'solve solve'
is solve_bounds "$(sel "$tmp/solve" bound)" 'memory compute'
is solve_knee "$(sel "$tmp/solve" to bound=memory | cut -c1-8)" 136.0857
is solve_from "$(sel "$tmp/solve" from bound=compute | cut -c1-8)" 136.0857
is solve_limit "$(sel "$tmp/solve" limit_intensity bound=compute)" 2048

# A block call: a `block` row of totals, then an `op` row per operation, named by its
# path. The op rows are the "stmt" keys of the JSON records past each record's first.
"$ROOFLINE" --csv examples/model_llama3_70b.roof > "$tmp/model"
"$ROOFLINE" --json examples/model_llama3_70b.roof > "$tmp/model.json"
ops=$(($(grep -o '"stmt":' "$tmp/model.json" | wc -l) - $(wc -l < "$tmp/model.json")))
is model_op_rows "$("$check" select kind kind=op < "$tmp/model" | wc -l | tr -d ' ')" "$ops"
is model_blocks "$("$check" select kind kind=block < "$tmp/model" | wc -l | tr -d ' ')" \
    "$(grep -c '"ops":' "$tmp/model.json")"
is model_path "$(sel "$tmp/model" depth path='repeat 80/layer/attention/attention.q' | cut -d ' ' -f 1)" 4
first=$(head -n 1 "$tmp/model.json" | grep -o '"t_lower":[^,]*' | head -n 1 | cut -d : -f 2)
is model_t_lower_as_json "$(sel "$tmp/model" t_lower kind=block | cut -d ' ' -f 1)" "$first"

# A chip's card: a row per field, its source beside it; derived figures with formulas
"$ROOFLINE" --csv -e 'chip v5e' > "$tmp/card"
is card_value "$(sel "$tmp/card" value field=hbm_bw)" 8.2e11
is card_meaning "$(sel "$tmp/card" meaning field=hbm_bw)" 'HBM bandwidth'
is card_source "$(sel "$tmp/card" source field=flops_bf16 | cut -c1-7)" 'book ch'
is card_derived "$(sel "$tmp/card" formula field=ridge_hbm)" 'flops_bf16 / hbm_bw'

# --chips: a row per chip and field
"$ROOFLINE" --csv --chips > "$tmp/chips"
is chips_v5e_bw "$(sel "$tmp/chips" value chip=v5e field=hbm_bw)" 8.2e11
is chips_h100_peak "$(sel "$tmp/chips" value chip=H100 field=flops_bf16)" 9.89e14

# Text statements print nothing; nothing at all is no table, not a lone header
"$ROOFLINE" --csv -e 'let B = 8' -e 'help' -e 'names' > "$tmp/none" 2> "$tmp/none.err"
is nothing_costed "$(wc -c < "$tmp/none" | tr -d ' ')" 0
# help and names write their text to stderr under --csv, so the table stays a table
is help_names_to_stderr "$(grep -c '^Statements (one per line\|^B  *= 8$' "$tmp/none.err")" 2
# a number's value is a row, in full: B * 2 = 16, 91/90 = 1.011111111111111
"$ROOFLINE" --csv -e 'let B = 8' -e 'B * 2' -e '91/90' > "$tmp/number"
is number_value "$(sel "$tmp/number" value stmt='B * 2')" 16
is number_value_full "$(sel "$tmp/number" value stmt=91/90)" 1.011111111111111

# One header for the whole run, whatever the kinds
"$ROOFLINE" --csv examples/tour.roof > "$tmp/tour"
is one_header "$(grep -c '^kind,' "$tmp/tour")" 1
"$check" csv "$tmp/tour" && echo "ok tour_parses"
