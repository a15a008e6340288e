# points.awk — after chart.awk: each point of a roofline chart as
#   point CX CY X Y          its centre in pixels and as values
# and each segment of each roof line as
#   roof PX0 PY0 PX1 PY1 X0 Y0 X1 Y1
/<circle class="point"/ {
    printf "point %s %s %.9g %.9g\n", attr("cx"), attr("cy"), x_of(attr("cx")), y_of(attr("cy"))
}
/<polyline class="roof"/ {
    n = split(attr("points"), pts, " ")
    for (i = 1; i < n; i++) {
        split(pts[i], a, ","); split(pts[i + 1], b, ",")
        printf "roof %s %s %s %s %.9g %.9g %.9g %.9g\n", a[1], a[2], b[1], b[2],
            x_of(a[1]), y_of(a[2]), x_of(b[1]), y_of(b[2])
    }
}
