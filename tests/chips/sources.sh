# Every field of stdlib/chips.roof carries its source in a comment on its own line, and a
# source that runs on is continued by a comment-only line whose # is in the column of the
# first one (how `chip NAME` will show it). Notes of their own start in column 5.
awk '
    /^chip / { inchip = 1; col = 0; next }
    /^}/ { inchip = 0; next }
    !inchip { next }
    /^ *[a-z_0-9]+ *=/ {
        col = index($0, "#")
        if (col == 0) { print FILENAME ":" FNR ": no source: " $0; bad = 1 }
        next
    }
    /^ *#/ {
        c = index($0, "#")
        if (c != col && c != 5) { print FILENAME ":" FNR ": # in column " c ", not " col; bad = 1 }
        if (c == 5) col = 0
        next
    }
    /^ *$/ { next }
    { print FILENAME ":" FNR ": unexpected: " $0; bad = 1 }
    END { if (!bad) print "every field has a source"; exit bad }
' stdlib/chips.roof
