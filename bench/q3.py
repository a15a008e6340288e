# q3.py [LAST_B [B ...]] — the chapter's own code for Question 3 ("How to Scale Your
# Model", part 1), without the matplotlib lines (the chart is not the computation).
# bs runs 1 .. LAST_B (the chapter: 511); the values at the B's named after it are
# printed, to compare with `roofline --csv`.
import sys

import numpy as np

last = int(sys.argv[1]) if len(sys.argv) > 1 else 511
bs = np.arange(1, last + 1)

def roofline(B, D, F):
  total_flops = 2*B*D*F
  flops_time = total_flops / 1.97e14
  comms_time = (2*B*D + D*F + 2*B*F) / 8.2e11
  total_time = np.maximum(flops_time, comms_time)
  return total_flops / total_time

roofline_big = roofline(bs, 4096, 4096)
roofline_small = roofline(bs, 1024, 1024)

for b in sys.argv[2:]:
  i = int(b) - 1
  print("DF_4096,%s,%r" % (b, float(roofline_big[i])))
  print("DF_1024,%s,%r" % (b, float(roofline_small[i])))
