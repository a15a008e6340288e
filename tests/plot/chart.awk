# chart.awk — reads a chart's SVG back as numbers: the tick labels of each axis, the
# frame, and from them x_of(px) and y_of(py), the value at a pixel (in log10 space when
# the variable logx or logy is 1), worked out from the first and last labels' positions.
# Labels are SI ("50T" = 5e13). The rules only gather; axes.awk, series.awk and
# points.awk print, each given after this file:
#   awk -F'"' -v logx=1 -v logy=0 -f tests/plot/chart.awk -f tests/plot/axes.awk chart.svg
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
function x_of(px) { return at(px, xl[1], xp[1], xl[nx], xp[nx], logx) }
function y_of(py) { return at(py, yl[1], yp[1], yl[ny], yp[ny], logy) }
# the value of attribute name in the element on this line ("" when it has none)
function attr(name,    s) {
    if (!match($0, " " name "=\"[^\"]*\"")) return ""
    s = substr($0, RSTART + length(name) + 3, RLENGTH - length(name) - 4)
    return s
}
/font-size="11" text-anchor="middle" fill="#333"/ { nx++; xl[nx] = label($NF); xp[nx] = attr("x") }
/font-size="11" text-anchor="end" fill="#333"/ { ny++; yl[ny] = label($NF); yp[ny] = attr("y") - 4 }
/<rect .*fill="none" stroke="#333"/ {
    left = attr("x"); top = attr("y"); right = left + attr("width"); bottom = top + attr("height")
}
