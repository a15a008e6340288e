# axes.awk — after chart.awk: each axis's tick labels, and the values at the frame's
# edges.
# Usage: awk -F'"' -v logx=1 -v logy=0 -f tests/plot/chart.awk -f tests/plot/axes.awk chart.svg
END {
    printf "x labels:"; for (i = 1; i <= nx; i++) printf " %s", xl[i]; print ""
    printf "y labels:"; for (i = 1; i <= ny; i++) printf " %s", yl[i]; print ""
    printf "x axis from %.3g to %.3g\n", x_of(left), x_of(right)
    printf "y axis from %.3g to %.3g\n", y_of(bottom), y_of(top)
}
