# check-output finds what it is for: each bad line below is one fault, at its column;
# the good ones pass. (So json_lines and csv_rows passing means something.)
check=$(dirname "$ROOFLINE")/check-output
json() { printf '%s\n' "$1" | "$check" json; }
csv() { printf "$1" | "$check" csv; }
json '{"t":1.5e-3,"s":"caf\u00e9 \ud83d\ude00 é","a":[true,false,null,{}],"n":-0}'
json '{"t":inf}'
json '{"t":nan}'
json '{"t":1e999}'
json '{"t":01}'
json '{"s":"\ud83d"}'
json '{"a":1,"a":2}'
json '[1]'
json '{"a":1} {"b":2}'
json "$(printf '{"s":"\377"}')"
json "$(printf '{"s":"\355\240\200"}')"
json "$(printf '{"s":"\300\257"}')"
json "$(printf '{"s":"a\tb"}')"
printf '{"a":1}' | "$check" json
csv 'kind,B,t\n"a ""b"", c",1,2\n"two\nlines",3,4\n,,\n'
csv ''
csv 'text\nkind,B,t\n"a",1,2\n'
csv 'kind,B,t\n"a",1,2\nkind,B,t,u\n'
csv 'kind,B,t\n"a",1\n'
csv 'kind,B,t\n"a",1,inf\n'
csv 'kind,B,t\n"a,1,2\n'
csv 'kind,B,t\n"a"b,1,2\n'
csv 'kind,B,t\n"\377",1,2\n'
csv 'kind,B,t\n"a",1,2'

exit 0
