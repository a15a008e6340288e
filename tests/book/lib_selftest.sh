# Checks of lib.shinc itself, so that a broken helper cannot pass every book check:
# a wrong value must FAIL, nested keys and nulls must be read right, and the formula
# evaluator must do arithmetic the way awk does. Uses canned JSON, not roofline.
. "$(dirname "$0")/lib.shinc"

# selftest NAME EXPECTED-OUTPUT COMMAND...: run a check in a subshell, compare its line.
selftest() {
    _st_name=$1 _st_want=$2
    shift 2
    _st_got=$( _book_failed=0; "$@"; echo "status $_book_failed" )
    if [ "$_st_got" = "$_st_want" ]; then _book_ok "$_st_name"
    else _book_fail "$_st_name" "got '$_st_got', expected '$_st_want'"; fi
}

_book_status=0
_book_json=$(printf '%s\n' 'noise' \
  '{"a":1.5e3,"s":"x \"q\" y","n":null,"arr":[1,"B"],"formula":{"f":"2*B*(D - 1) + max(B, 3)/4","e":{}},"b":"compute when 2*B / (B + 1) > 1.5, else memory","z":-2}' \
  | _book_flatten)

selftest num_ok 'ok t
status 0' check t a 1500
selftest num_fail 'FAIL t: a: got 1.5e3, expected 1501 (relative error 0.000666 > 1e-09)
status 1' check t a 1501
selftest num_tol 'ok t
status 0' check t a 1501 0.001
selftest num_negative 'ok t
status 0' check t z '-2'
selftest num_is_string 'FAIL t: got str x "q" y for s, expected a number
status 1' check t s 1
selftest num_is_null 'FAIL t: got null null for n, expected a number
status 1' check t n 1
selftest missing_key 'FAIL t: no key nope in the JSON output
status 1' check t nope 1
selftest str_ok 'ok t
status 0' check_str t s 'x "q" y'
selftest str_fail 'FAIL t: s: got str '"'"'x "q" y'"'"', expected '"'"'x'"'"'
status 1' check_str t s x
selftest null_ok 'ok t
status 0' check_null t n
selftest null_fail 'FAIL t: a: got num 1.5e3, expected null
status 1' check_null t a
selftest array 'ok t
status 0' check_str t arr.1 B
selftest array_num 'ok t
status 0' check t arr.0 1
# 2*B*(D - 1) + max(B, 3)/4 at B=2, D=5: 16 + 0.75 = 16.75
selftest formula 'ok t
status 0' check_formula t f 'B=2 D=5' 16.75
# a formula that is not there
selftest formula_missing 'FAIL t: no key formula.nope in the JSON output
status 1' check_formula t nope 'B=2' 1
# compute when 2B/(B + 1) > 1.5: B=2 gives 1.333 (memory), B=4 gives 1.6 (compute)
_book_json=$(printf '%s\n' '{"formula":{"bound":"compute when 2*B / (B + 1) > 1.5, else memory","f":"-B^2 - -3"}}' | _book_flatten)
selftest bound_memory 'ok t
status 0' check_bound_at t 'B=2' memory
selftest bound_compute 'ok t
status 0' check_bound_at t 'B=4' compute
selftest bound_fail 'FAIL t: formula.bound '"'"'compute when 2*B / (B + 1) > 1.5, else memory'"'"' at B=2: got memory (1.3333333333333333 vs 1.5), expected compute
status 1' check_bound_at t 'B=2' compute
# unary minus binds looser than ^: -B^2 - -3 at B=3 is -9 + 3 = -6
selftest formula_unary 'ok t
status 0' check_formula t f 'B=3' '-6'
selftest formula_unbound 'FAIL t: formula.f '"'"'-B^2 - -3'"'"': error: no value for B in -B^2 - -3
status 1' check_formula t f '' 0

_book_text='a line
x = 0.25'
selftest text_ok 'ok t
status 0' check_text t '1/4'
_book_status=1
selftest failed_run 'FAIL t: roofline exited with status 1
status 1' check t a 1500

finish
