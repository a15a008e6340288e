# labels.awk — checks a chart's text labels by the boxes the SVG writer gives them
# (data-box="x0 y0 x1 y1"): every <text> has one; a label drawn over the plot (inside
# the clip group of the marks) lies inside the plot area, every other inside the
# SVG's viewport; and no two boxes intersect. Prints one line per chart, "NAME: N
# labels", or what is wrong, one line per fault.
# Usage: awk -v name=NAME -f tests/plot/labels.awk chart.svg
function attr(key,    s) {
    if (!match($0, " " key "=\"[^\"]*\"")) return ""
    return substr($0, RSTART + length(key) + 3, RLENGTH - length(key) - 4)
}
function text(    s) { s = $0; sub(/^[^>]*>/, "", s); sub(/<\/text>.*/, "", s); return s }
/^<svg/ { vw = attr("width") + 0; vh = attr("height") + 0 }
/<clipPath/ {
    sub(/.*<clipPath/, "")
    ax0 = attr("x") + 0; ay0 = attr("y") + 0; ax1 = ax0 + attr("width"); ay1 = ay0 + attr("height")
}
/^<g clip-path/ { inside = 1 }
/^<\/g>/ { inside = 0 }
/<text / {
    n++
    what[n] = text()
    if (attr("data-box") == "") { bad++; printf "%s: \"%s\" has no data-box\n", name, what[n]; next }
    split(attr("data-box"), b, " ")
    x0[n] = b[1] + 0; y0[n] = b[2] + 0; x1[n] = b[3] + 0; y1[n] = b[4] + 0
    if (inside && (x0[n] < ax0 || y0[n] < ay0 || x1[n] > ax1 || y1[n] > ay1)) {
        bad++; printf "%s: \"%s\" leaves the plot area\n", name, what[n]
    }
    if (!inside && (x0[n] < 0 || y0[n] < 0 || x1[n] > vw || y1[n] > vh)) {
        bad++; printf "%s: \"%s\" leaves the chart\n", name, what[n]
    }
}
END {
    for (i = 1; i <= n; i++)
        for (j = i + 1; j <= n; j++)
            if (x0[i] < x1[j] && x0[j] < x1[i] && y0[i] < y1[j] && y0[j] < y1[i]) {
                bad++; printf "%s: \"%s\" and \"%s\" overlap\n", name, what[i], what[j]
            }
    if (!bad) printf "%s: %d labels\n", name, n
}
