# Each chip's price, USD per chip-hour, as `chip NAME` shows it with its source: its own
# or none, never one inherited from another product. Each figure by hand from the price
# it cites (stdlib/chips.roof), an instance's hourly price over its chips:
#   v4p, v4   $3.22 a chip-hour (Google Cloud TPU v4, us-central2, August 2022); v4 is v4p
#   v5e, v5p  $1.2, $4.2 (the book, ch. 8: Google Cloud, February 2025)
#   v6e       $2.70 (Google Cloud, Trillium GA, December 2024)
#   A100      p4de.24xlarge $27.44705 / 8 = $3.43088125 (AWS us-east-1, read 2026-11-09)
#   A100_40GB p4d.24xlarge $21.957642 / 8 = $2.74470525 (AWS us-east-1, read 2026-11-09)
#   H100      ND96isr_H100_v5 $98.32 / 8 = $12.29 (Azure East US, read 2026-11-09)
#   H200      a3-ultragpu-8g, $10.4365 a GPU (Google Cloud us-central1, 2026-10-13); not
#             the H100's: both derive from hopper, which has no price
#   H100_PCIe $3.29 (Lambda, 1x H100 PCIe, read 2026-09-25)
#   B200      $6.69 a GPU (Lambda, 8x B200, read 2026-09-20); GB200_NVL72 none (blackwell,
#             its base and the B200's, has no price)
#   B300      $7.40 a GPU (Hyperstack, read 2026-08-26)
#   MI300X    $2.59 (DigitalOcean, 1x MI300X, 2026-10-07); MI325X none (cdna3 has none)
#   none:     tpu, v3, tpu7x, hopper, H800, H20, blackwell, GB200_NVL72, GB300_NVL72, L40S,
#             cdna3, MI325X, MI355X, Trn2
# A card prints each to 4 significant digits; `--chips --json` gives the exact figure.
# Every card from one run (`-e 'chip NAME'` for each chip, in the table's order); for
# each, its price line and the source line under it, spaces squeezed, joined by one.
set --
for chip in $("$ROOFLINE" --chips --json | sed 's/^{"chip":"\([^"]*\)".*/\1/'); do
    set -- "$@" -e "chip $chip"
done
"$ROOFLINE" "$@" | awk '
    function squeeze(s) { gsub(/ +/, " ", s); return s }
    function card() { if (name != "") printf "%-12s %s\n", name, line == "" ? "no price" : line }
    /^chip / { card(); name = substr($0, 6); line = ""; source = 0; next }
    source { line = line squeeze($0) " "; source = 0; next }
    /^  price / { line = squeeze($0) " "; source = 1 }
    END { card() }'
"$ROOFLINE" --chips --json | sed -n 's/^{"chip":"\([^"]*\)".*"price":\([^,}]*\).*/\1 \2/p'
# A whole-model run's JSON names the price its run_usd used: 8 H200s for 50.891 s are
# 8 · 50.891 / 3600 = 0.11309 GPU-hours (tests/model/summary.roof), at $10.4365 a
# GPU-hour $1.1803.
"$ROOFLINE" --json -e 'mode training tokens 1e9' \
    -e 'block flat(B, T, D, F, dp = {}) { y = bf16[B_{dp}, T, D] *_D bf16[D, F]; return y }' \
    -e 'flat(8, 4096, 8192, 8192, dp = X) on H200 mesh X = 8' |
    grep -o '"chip_hours":[^,]*,"run_usd":[^,]*,"price":[^,}]*' |
    awk -F'[:,]' '{ printf "chip_hours %.5g, run_usd %.5g, price %s\n", $2, $4, $6 }'
