# series.awk — after chart.awk: each curve's points as values, "SERIES X Y" per line
# (SERIES counts the curves from 1, in the order drawn).
/<polyline class="series"/ {
    ns++
    n = split(attr("points"), pts, " ")
    for (i = 1; i <= n; i++) {
        split(pts[i], xy, ",")
        line[ns, i] = ns " " x_of(xy[1]) " " y_of(xy[2])
    }
    count[ns] = n
}
END {
    for (s = 1; s <= ns; s++)
        for (i = 1; i <= count[s]; i++)
            printf "%s\n", line[s, i]
}
