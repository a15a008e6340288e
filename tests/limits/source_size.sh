# LIMIT_SOURCE_BYTES (64 MiB): one file or buffer. A script just under it runs; one
# over it, from a file or from stdin, fails with a message and without reading on.
. "$(dirname "$0")/lib.shinc"

# comment_lines N: N lines of 64 bytes
comment_lines() { awk -v n="$1" 'BEGIN { for (i = 0; i < n; i++)
    printf "# %061d\n", i }'; }
{ comment_lines 1048560; echo 'x = 1'; } > under.roof   # 64 MiB - 1018 bytes
limit 'a script of 64 MiB - 1018 bytes' under.roof
cat out
comment_lines 1048577 > over.roof                         # 64 MiB + 64 bytes
limit 'a script of 64 MiB + 64 bytes' over.roof
STDIN=over.roof limit 'the same from stdin' -
{ printf 'x = "'; repeat 'a' 10000000; echo '"'; } > token.roof
limit 'a string of 10 MB' token.roof
