# `help MODEL` with -e (it was "`on` goes before a chip"): the REPL's code path, the
# model's source, dtype and fields with their meanings; the line of its record in
# models.roof is left out, so that the library can grow. LLaMA-3 8B's fields are its
# config.json's: hidden_size 4096, intermediate_size 14336, 32 heads, 8 KV heads,
# head_dim 128, 32 layers, vocab_size 128256.
"$ROOFLINE" -e 'help llama3_8b' | sed 's/models\.roof:[0-9]*/models.roof:LINE/'
