# An inference search leaves pp alone: a pipeline is costed in training only, so the
# configurations that gave pp axes were all set aside as "could not be costed" (192 of
# 497 on 64 chips). Now the search is the one with pp = {} given: the same 305
# configurations, none set aside. In training pp is searched still.
dims='let B = 256, T = 2048, D = 8192, F = 28672, N = 64, K = 8, H = 128, L = 80, V = 128256'
open=$("$ROOFLINE" -e "$dims" -e 'search model(B, T, D, F, N, K, H, L, V) on v5p over [64]' | sed -n 2p)
given=$("$ROOFLINE" -e "$dims" -e 'search model(B, T, D, F, N, K, H, L, V, pp = {}) on v5p over [64]' | sed -n 2p)
echo "inference: $open"
[ "$open" = "$given" ] && echo "ok the same as with pp = {}" || echo "FAIL with pp = {}: $given"
trained=$("$ROOFLINE" -e "$dims" -e 'mode training microbatches 8' \
    -e 'search model(B, T, D, F, N, K, H, L, V) on v5p over [64]' | sed -n 2p)
trained_given=$("$ROOFLINE" -e "$dims" -e 'mode training microbatches 8' \
    -e 'search model(B, T, D, F, N, K, H, L, V, pp = {}) on v5p over [64]' | sed -n 2p)
[ "$trained" != "$trained_given" ] && echo "ok training searches pp" ||
    echo "FAIL training: $trained"
