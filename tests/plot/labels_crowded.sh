# Crowded charts keep their labels apart and inside: for each chart below, every text
# of the SVG has a data-box, the labels over the plot lie inside the plot area and the
# others inside the chart, and no two boxes intersect (labels.awk). The charts:
#   points    30 statements a few FLOP/B apart (bf16[B,4096] *_D int8[4096,4096] on v5e,
#             B = 60 .. 89: intensities 113 .. 160), each labelled;
#   long      chips with long names: roof labels and legend entries wider than the room;
#   roofs     5 chips (v5e, v5p, v6e, H100, B200), each with a bf16 and an int8 peak, its
#             HBM slope and a network link slope, and a point per statement;
#   legend    a sweep of 12 statements written out at length, and a long title;
#   tight     the points chart with y 1e14 .. 1.2e14 and x 100 .. 200: marks near the edge;
#   q3.svg, roofline.svg: the unit test's charts (build/unit/test_plot).
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

points() { # the 30 statements of the points chart
    B=60
    while [ $B -lt 90 ]; do
        echo "p$B = bf16[$B,4096] *_D int8[4096,4096] on v5e"
        B=$((B + 1))
    done
}
{ points; echo "plot \"$tmp/points.svg\""; } > "$tmp/points.roof"
{ points; echo "plot \"$tmp/tight.svg\" x 100 .. 200 y 1e14 .. 1.2e14"; } > "$tmp/tight.roof"

cat > "$tmp/long.roof" <<ROOF
let D = 8192
chip tpu_v5e_in_the_lab_with_a_remarkably_long_name_for_a_chip : v5e { hbm_bw = 8.1e11 }
chip an_accelerator_whose_name_runs_on_and_on_and_on : v5p { }
first_statement_with_a_long_name = bf16[128,8192] *_D bf16[8192,8192] on tpu_v5e_in_the_lab_with_a_remarkably_long_name_for_a_chip
second = bf16[512,D] *_D bf16[D,8192] on an_accelerator_whose_name_runs_on_and_on_and_on shard D over 2
plot "$tmp/long.svg"
ROOF

{
    echo "let D = 8192"
    for chip in v5e v5p v6e H100 B200; do
        echo "${chip}_bf16 = bf16[256,D] *_D bf16[D,8192] on $chip shard D over 2"
        echo "${chip}_int8 = int8[64,8192] *_D int8[8192,8192] on $chip"
        echo "${chip}_small = bf16[16,4096] *_D bf16[4096,4096] on $chip"
    done
    echo "plot \"$tmp/roofs.svg\""
} > "$tmp/roofs.roof"

{
    printf 'sweep B in 1 .. 4096 log 20 plot "%s" title "%s" {\n' "$tmp/legend.svg" \
        "the attained FLOP/s of a dozen matmuls that differ in their widths, on one chip and another, against the batch"
    for w in 256 512 1024 2048 4096 8192; do
        echo "    bf16[B,$w] *_D bf16[$w,$w] -> bf16[B,$w] on v5e"
        echo "    bf16[B,$w] *_D int8[$w,$w] -> bf16[B,$w] on H100"
    done
    echo "}"
} > "$tmp/legend.roof"

for chart in points long roofs legend tight; do
    "$ROOFLINE" "$tmp/$chart.roof" > /dev/null || echo "$chart: roofline failed"
    awk -v name="$chart" -f "$(dirname "$0")/labels.awk" "$tmp/$chart.svg"
done
PLOT_OUT_DIR=$tmp "$(dirname "$ROOFLINE")/unit/test_plot" > /dev/null || echo "test_plot failed"
for chart in q3.svg roofline.svg; do
    awk -v name="$chart" -f "$(dirname "$0")/labels.awk" "$tmp/$chart"
done
