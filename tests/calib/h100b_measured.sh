# Calibrated from the H100 measurements of the second session (the *b file: the cases of
# h100_measured plus matrix-vector products and small adds timed in CUDA graphs), every
# measured case costed as a statement on H100_cal: t_predicted within 10% of the measured
# time for at least 90% of the cases (in sample; `make calib-loo` runs leave-one-out).
sh tools/calib_check.sh "$ROOFLINE" H100 tests/data/measurements/h100-kernels-2026-11-27b.jsonl
