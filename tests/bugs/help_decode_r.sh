# Bug: `help decode` (and `help model`) explained their R as MLA's "keys' and values'
# latent rank, what decode caches (kv_lora_rank)", the legend of models.roof, where
# decode's R = T is how many positions of each sequence get logits (decode's
# `last(n, T, R)`; serve's prefill passes R = 1). Each block's own comment now gives its
# R. (The MLA blocks kept the latent rank as R until it clashed with serve's R = 1,
# tests/bugs/moe_decode_logits_r.sh: it is Rkv now, and mla_decode's R is decode's.)
r=${ROOFLINE:?}
for block in decode model mla_decode; do
    printf '%s: ' "$block"
    "$r" -e "help $block" | grep '^  R ' | sed 's/  */ /g'
done
