# Calibrated from the H200 measurements, every measured case costed as a statement on
# H200_cal: t_predicted within 10% of the measured time for at least 90% of the cases
# (in sample: the same cases fit the chip; `make calib-loo` runs leave-one-out).
sh tools/calib_check.sh "$ROOFLINE" H200 tests/data/measurements/h200-kernels-2026-11-27.jsonl
