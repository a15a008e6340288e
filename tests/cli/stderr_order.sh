# stdout and stderr in one pipe stay in order: what a statement printed before an error
# comes before the error (stdout is flushed before each diagnostic).
"$ROOFLINE" -e 'B * 2' -e 'bf16[4] *_K bf16[5] on v5e' 2>&1 | head -2 | cut -c1-40
