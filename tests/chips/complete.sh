# Every chip in the table has what a roofline needs: an HBM capacity, an HBM bandwidth and
# a bf16 peak. `tpu` is exempt: it is the parent that holds the fields the TPUs share.
"$ROOFLINE" --chips --json | awk '
    {
        name = $0; sub(/^\{"chip":"/, "", name); sub(/".*/, "", name)
        if (name == "tpu") next
        n++
        split("hbm_bytes hbm_bw flops_bf16", need, " ")
        for (i = 1; i <= 3; i++)
            if (index($0, "\"" need[i] "\":") == 0) { print name " has no " need[i]; bad = 1 }
    }
    END {
        if (n == 0) { print "no chips listed"; bad = 1 }
        if (!bad) print "every chip has hbm_bytes, hbm_bw and flops_bf16"
        exit bad
    }'
