# Charts over extreme ranges keep even, distinct y labels (issue 29).
# A log axis from 1e-300 to 1e300 spans 600 decades: the ticks stopped at MAX_TICKS
# (256) decades, so nothing above 1e-53 was labelled, and the rows kept an uneven few
# (1e-300, 1e-268, 1e-232, ...). Now a label every 1, 2 or 5 times a power of ten of
# decades, about one per four rows: 600 / 6 = every 100 decades, 1e-300 .. 1e300.
# A linear axis from 1e300 to 1.0000001e300 printed "1e+300" at each tick (four
# digits); its ticks, 2e292 apart, need nine: 1.00000002e+300, ...
sweep() {
    "$ROOFLINE" -e "sweep B in 1 .. 1000 plot $1 { q = bf16[B,4096] *_D bf16[4096,4096] on v5e }" |
        grep -a '┤' | sed 's/ *┤.*//; s/^ *//'
}
sweep 'y log y 1e-300 .. 1e300'
sweep 'y 1e300 .. 1.0000001e300'
sweep 'y 5 .. 5.000001'
