# A TPU's bf16 peak is cores x MXUs x side² x 2 FLOPs x clock. For each chip that gives
# all four, the peak its anatomy implies and the table's, worked by hand:
#   v3   2 x 2 x 128² x 2 x 940e6  = 1.2321e14 against the book's 1.4e14 (0.880; Google
#        says 123 TFLOPs)
#   v4p  2 x 4 x 128² x 2 x 1.05e9 = 2.7525e14 against 2.75e14 (1.001); v4 the same
#   v5e  1 x 4 x 128² x 2 x 1.5e9  = 1.9661e14 against 1.97e14 (0.998)
"$ROOFLINE" --chips --json | awk '
    function field(name,    s) {
        if (!match($0, "\"" name "\":[^,}]*")) return ""
        s = substr($0, RSTART, RLENGTH); sub(/^[^:]*:/, "", s); return s
    }
    {
        chip = field("chip"); gsub(/"/, "", chip)
        c = field("cores"); m = field("mxus"); s = field("mxu_size"); f = field("clock")
        if (c == "" || m == "" || s == "" || f == "") next
        implied = c * m * s * s * 2 * f; peak = field("flops_bf16")
        printf "%-6s %s x %s x %s^2 x 2 x %s = %.5g, table %.5g (%.3f)\n", chip, c, m, s, f,
               implied, peak, implied / peak
    }'
