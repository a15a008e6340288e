/* caps.h — every limit on what a program may ask for, in one place. Each is checked
 * where it applies and reported as a located error; none is a crash or a hang. */
#ifndef ROOFLINE_CAPS_H
#define ROOFLINE_CAPS_H

enum {
    LIMIT_SOURCE_BYTES = 64 << 20,   /* one file or buffer */
    /* The syntax tree of one file or buffer, parsed whole before it runs: about 30 bytes
     * per byte of source (1,000,000 statements `x = bf16[B, D] *_D bf16[D, F]` take
     * 0.9 GB, 60 MB of `let x = 1+1+...` would take 3 GB). Past it the file is refused,
     * at 1 GiB of memory rather than 3; split it into files that include each other
     * (each included file's tree is freed once it has run). */
    LIMIT_TREE_BYTES = 1 << 30,
    LIMIT_ERRORS = 20,               /* errors reported before a run stops */
    LIMIT_EXPR_DEPTH = 1000,         /* operations chained or nested in one expression */
    LIMIT_PARSE_DEPTH = 10000,       /* brackets nested (the parser's stack) */
    LIMIT_CALL_DEPTH = 64,           /* blocks calling blocks */
    LIMIT_REPEAT_DEPTH = 256,        /* repeat bodies inside repeat bodies (calls too) */
    LIMIT_INCLUDE_DEPTH = 16,        /* files including files */
    LIMIT_MESH_CHIPS = 1 << 20,      /* chips along one mesh axis */
    /* Distinct symbols (named dims) in one term of a cost polynomial (poly.h): a
     * tensor's size is one term, so a tensor names at most 12 distinct dims (a dim
     * written as a number, or a name repeated, adds none); a contraction's FLOPs are
     * one term over both operands' dims. Each term holds its symbols inline, so the
     * cap is the size of every term of every polynomial: the book's largest tensors
     * name 6 (attention's [B, T, S, K, G, H]). */
    LIMIT_TERM_DIMS = 12,
    LIMIT_SWEEP_POINTS = 10000000,   /* values of one sweep (for a chart) */
    LIMIT_SWEEP_ROWS = 1000000       /* rows a sweep prints: points × statements */
};

#define LIMIT_REPEAT 1e9             /* runs of one repeat */

#endif
