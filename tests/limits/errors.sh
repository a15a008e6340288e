# LIMIT_ERRORS (20): errors reported before a run stops. 100,000 errors of each kind
# in one file print 20 and a line saying the run stopped, quickly.
. "$(dirname "$0")/lib.shinc"

repeat 'let = 1
' 19 > syntax19.roof
limit '19 syntax errors' syntax19.roof
repeat 'let = 1
' 100000 > syntax.roof
limit '100,000 syntax errors' syntax.roof
tail -n 1 err
{ repeat '@' 100000; echo; } > characters.roof
limit '100,000 bad characters on one line' characters.roof
tail -n 1 err
repeat 'x = 1e999
' 100000 > numbers.roof
limit '100,000 bad numbers' numbers.roof
tail -n 1 err
repeat '"unterminated
' 100000 > strings.roof
limit '100,000 unterminated strings' strings.roof
tail -n 1 err
repeat 'x = y
' 100000 > runtime.roof
limit '100,000 runtime errors (the first stops the run)' runtime.roof
