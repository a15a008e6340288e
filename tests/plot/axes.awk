# axes.awk — reads a chart's SVG back: the tick labels of each axis, and the values at
# the frame's edges worked out from the first two labels' positions (in log10 space
# when the variable logx or logy is 1). Labels are SI ("50T" = 5e13).
# Usage: awk -F'"' -v logx=1 -v logy=0 -f tests/plot/axes.awk chart.svg
function si(s,    k, m) {
    m = substr(s, length(s))
    k = index("kMGTPEZY", m)
    return k ? substr(s, 1, length(s) - 1) * 10 ^ (3 * k) : s + 0
}
function label(s) { sub(/^>/, "", s); sub(/<.*/, "", s); return s }
function scaled(v, lg) { return lg ? log(v) / log(10) : v }
function unscaled(v, lg) { return lg ? 10 ^ v : v }
# the value at pixel px, given labels a, b at pixels pa, pb
function at(px, a, pa, b, pb, lg,    sa, sb) {
    sa = scaled(si(a), lg); sb = scaled(si(b), lg)
    return unscaled(sa + (px - pa) * (sb - sa) / (pb - pa), lg)
}
/font-size="11" text-anchor="middle" fill="#333"/ { nx++; xl[nx] = label($NF); xp[nx] = $2 }
/font-size="11" text-anchor="end" fill="#333"/ { ny++; yl[ny] = label($NF); yp[ny] = $4 - 4 }
/<rect .*fill="none" stroke="#333"/ { left = $2; top = $4; right = $2 + $6; bottom = $4 + $8 }
END {
    printf "x labels:"; for (i = 1; i <= nx; i++) printf " %s", xl[i]; print ""
    printf "y labels:"; for (i = 1; i <= ny; i++) printf " %s", yl[i]; print ""
    printf "x axis from %.3g to %.3g\n", at(left, xl[1], xp[1], xl[2], xp[2], logx), at(right, xl[1], xp[1], xl[2], xp[2], logx)
    printf "y axis from %.3g to %.3g\n", at(bottom, yl[1], yp[1], yl[2], yp[2], logy), at(top, yl[1], yp[1], yl[2], yp[2], logy)
}
