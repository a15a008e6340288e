# The chapter's two-chip example (book ch. 1, "Network communication rooflines";
# docs/costmodel.md §3 check): X bf16[B,D], Y bf16[D,F] with D split over 2 v5e chips that
# copy 4.5e10 B/s each way: T_math = 2BDF/(2*1.97e14) = BDF/1.97e14,
# T_comms = 2BF/4.5e10, compute-bound when D/2 > 1.97e14/4.5e10 = 4377, i.e. D > 8755.
#
# These checks cover the chapter's arithmetic, written out. The sharded statement
# itself (`shard D over 2`: t_comm = 2BF/4.5e10, compute-bound iff D > 8755) is checked
# in tests/sharding/two_chip.sh and, as a solve, in tests/explore/solve.sh.
. "$(dirname "$0")/lib.shinc"

# Bare numeric statements print their value in text mode.
run_value -e '2 * 1.97e14 / 4.5e10'
# 2*1.97e14/4.5e10 = 8755.5556
check_text two_chip_D_crit '2 * 1.97e14 / 4.5e10'
# the book: "D > 8755" (8755.56 vs 8755: 6.3e-5)
check_text two_chip_D_crit_book 8755 1e-4
run_value -e '1.97e14 / 4.5e10'
# 1.97e14/4.5e10 = 4377.7778; the book: "= 4377" (1.8e-4)
check_text two_chip_half_D_crit_book 4377 5e-4

# T_math per chip: each chip does the matmul over half of D (Dh = D/2).
# B=256, D=8192, F=32768: 2*B*(D/2)*F/1.97e14 = B*D*F/1.97e14 = 3.4882983e-4 s
run -e 'let B=256, D=8192, F=32768, Dh=D/2' -e 'bf16[B,Dh] *_Dh bf16[Dh,F] on v5e'
check two_chip_t_math t_math '256*8192*32768 / 1.97e14'
check two_chip_flops flops '256*8192*32768'

# T_comms = 2BF/4.5e10 = 2*256*32768/4.5e10 = 3.7282702e-4 s
run_value -e 'let B=256, F=32768' -e '2*B*F/4.5e10'
check_text two_chip_t_comms '2*256*32768 / 4.5e10'

# T_math - T_comms = BDF/1.97e14 - 2BF/4.5e10 changes sign between D = 8755 and 8756:
# D=8755: 256*8755*32768/1.97e14 - 2*256*32768/4.5e10 = -2.3657e-8 (comms-bound)
run_value -e 'let B=256, D=8755, F=32768' -e 'B*D*F/1.97e14 - 2*B*F/4.5e10'
check_text two_chip_8755_negative '256*8755*32768/1.97e14 - 2*256*32768/4.5e10' 1e-6
# D=8756: +1.8925e-8 (compute-bound)
run_value -e 'let B=256, D=8756, F=32768' -e 'B*D*F/1.97e14 - 2*B*F/4.5e10'
check_text two_chip_8756_positive '256*8756*32768/1.97e14 - 2*256*32768/4.5e10' 1e-6

finish
