/* fuzz_gen.c — libFuzzer target: programs from the grammar. The input's bytes are
 * choices, not text: each picks the next statement form, name, number or chip, so
 * every input becomes a program that parses (lets, contractions on chips and meshes,
 * sharding, collectives, chip definitions, blocks and their calls, sweep, solve, fit,
 * search, serve, expect, the training modes) and the evaluator sees far more of them
 * than the byte mutator's. The program runs like fuzz_eval's (the length of the input
 * picks --json, --csv, --exact), a statement a run, as in the REPL. With ROOFLINE_FUZZ_SHOW set the program is printed
 * to stderr first, so `ROOFLINE_FUZZ_SHOW=1 build/fuzz-replay-gen FIND` shows a find
 * as roofline. */
#include "fuzz.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

/* Six statements after the prelude: enough for one to use what another defined (a chip,
 * a block, a mode), and a program short enough for thousands a second (in a minute, 24
 * ran 2,107 a second and 8 ran 2,968, to coverage within 4%: BENCHMARKS.md). */
enum { PROGRAM_MAX = 1 << 16, STATEMENTS_MAX = 6, DEPTH_MAX = 4 };

typedef struct {
    const uint8_t *choice; /* the input: one byte a choice; zeros when used up */
    size_t left;
    char text[PROGRAM_MAX];
    size_t len;
} Gen;

#define PICK(g, words) (words)[pick((g), sizeof(words) / sizeof *(words))]

static const char *const dims[] = {"B", "D", "F", "T", "S", "N", "K", "H", "L", "V", "E"};
static const char *const axes[] = {"X", "Y", "XY"};
static const char *const numbers[] = {"0", "1", "2", "3", "8", "64", "128", "1024", "4096",
                                      "8192", "65536", "1e3", "0.5", "2.5e14",
                                      "-1", "4M", "7"};
static const char *const dtypes[] = {"bf16", "fp32", "int8", "fp8", "int4", "fp16"};
static const char *const chips[] = {"v5e", "v5p", "v6e", "H100", "B200", "tpu7x", "A100",
                                    "v5e_mine"};
static const char *const meshes[] = {"", " 4x2", " 16x16", " 8x4", " 2x2x2", " 1x1",
                                     " 256x8"};
static const char *const fields[] = {"hbm_bw", "flops_bf16", "ici_bw", "hbm", "price",
                                     "hop_latency", "flops_int8"};
static const char *const collectives[] = {"allgather", "allreduce", "reducescatter",
                                          "alltoall"};
static const char *const expected[] = {"bound == compute", "bound == memory",
                                       "bound == comm", "flops == 2 * B * D * F",
                                       "bytes > 0", "t_lower < 1"};

static unsigned pick(Gen *g, size_t n)
{
    if (!g->left)
        return 0;
    g->left--;
    return (unsigned)(*g->choice++ % n);
}

static void emit(Gen *g, const char *format, ...)
{
    va_list ap;
    va_start(ap, format);
    int n = vsnprintf(g->text + g->len, sizeof g->text - g->len, format, ap);
    va_end(ap);
    if (n > 0)
        g->len += (size_t)n < sizeof g->text - g->len ? (size_t)n : sizeof g->text - g->len - 1;
}

static void expr(Gen *g, int depth)
{
    unsigned form = depth >= DEPTH_MAX ? pick(g, 2) : pick(g, 6);
    switch (form) {
    case 0: emit(g, "%s", PICK(g, numbers)); break;
    case 1: emit(g, "%s", PICK(g, dims)); break;
    case 2: case 3: case 4:
        expr(g, depth + 1);
        emit(g, " %c ", "+-*/"[pick(g, 4)]);
        expr(g, depth + 1);
        break;
    default: emit(g, "("); expr(g, depth + 1); emit(g, ")"); break;
    }
}

/* A dim of a tensor: a name, maybe split over an axis, or a number. */
static void dim(Gen *g, const char *name)
{
    switch (pick(g, 4)) {
    case 0: emit(g, "%s_%s", name, PICK(g, axes)); break;
    case 1: if (pick(g, 2)) { emit(g, "%s", PICK(g, numbers)); break; } /* fall through */
    default: emit(g, "%s", name); break;
    }
}

static void tensor(Gen *g, const char *first, const char *second, bool operand)
{
    emit(g, "%s%s[", operand && pick(g, 6) == 0 ? "param " : "", PICK(g, dtypes));
    dim(g, first);
    if (second) {
        emit(g, ", ");
        dim(g, second);
    }
    emit(g, "]");
}

static void on_chip(Gen *g)
{
    if (pick(g, 3))
        emit(g, " on %s%s", PICK(g, chips), PICK(g, meshes));
}

/* `A[x, k] *_k B[k, y]`, with extras: an output layout, a chip, a shard. */
static void contraction(Gen *g)
{
    const char *x = PICK(g, dims), *k = PICK(g, dims), *y = PICK(g, dims);
    tensor(g, x, k, true);
    emit(g, " *_%s ", k);
    tensor(g, k, y, true);
    if (pick(g, 5) == 0) {
        emit(g, " -> ");
        tensor(g, x, y, false);
    }
    on_chip(g);
    if (pick(g, 5) == 0)
        emit(g, " shard %s over %s", k, PICK(g, numbers));
}

static void chip_definition(Gen *g)
{
    emit(g, "chip v5e_mine : %s {", PICK(g, chips));
    for (unsigned n = pick(g, 3) + 1; n > 0; n--) {
        emit(g, " %s = ", PICK(g, fields));
        expr(g, DEPTH_MAX - 1);
        emit(g, n > 1 ? "," : "");
    }
    emit(g, " }");
}

static void block_definition(Gen *g)
{
    const char *d = PICK(g, dims);
    emit(g, "block step(x, W = %s) {\n    y = x *_%s bf16[%s, %s]\n", PICK(g, numbers), d, d,
         PICK(g, dims));
    if (pick(g, 2))
        emit(g, "    repeat %s { y = x *_%s bf16[%s, %s] }\n", PICK(g, numbers), d, d, d);
    emit(g, "    return %s\n}\nstep(", pick(g, 4) ? "y" : "x");
    tensor(g, PICK(g, dims), d, true);
    emit(g, ")");
    on_chip(g);
}

static void stdlib_call(Gen *g)
{
    static const char *const calls[] = {
        "model(B, T, D, F, N, K, H, L, V)",
        "model(B, T, D, F, N, K, H, L, V, fsdp = X, tp = Y)",
        "decode(B, S, D, F, N, K, H, L, V, tp = {X, Y})",
        "rms_norm(bf16[B, T, D])",
        "mlp(bf16[B, T, D], F)",
    };
    emit(g, "%s", PICK(g, calls));
    on_chip(g);
}

/* A statement that runs the stdlib's whole model (a call, fit, search, serve) takes a
 * millisecond or more, a hundred times a contraction: one choice in HEAVY_ODDS is
 * one of them (at 4 they were a quarter of the target's time), so the target stays
 * near the others' thousands of inputs a second. */
enum { HEAVY_FIRST = 13, HEAVY_LAST = 16, HEAVY_ODDS = 8 };

static void statement(Gen *g)
{
    unsigned kind = pick(g, 18);
    if (kind >= HEAVY_FIRST && kind <= HEAVY_LAST && pick(g, HEAVY_ODDS) != 0)
        kind = pick(g, HEAVY_FIRST); /* a light one instead */
    switch (kind) {
    case 0: case 1: emit(g, "let %s = ", PICK(g, dims)); expr(g, 0); break;
    case 2: case 3: contraction(g); break;
    case 4: emit(g, "q = "); expr(g, 0); break;
    case 5: emit(g, "use %s%s", PICK(g, chips), PICK(g, meshes)); break;
    case 6: chip_definition(g); break;
    case 7: emit(g, "mode %s", pick(g, 2) ? "training microbatches 4" : "inference"); break;
    case 8:
        emit(g, "%s ", PICK(g, collectives));
        tensor(g, PICK(g, dims), PICK(g, dims), true);
        emit(g, " over %s", PICK(g, axes));
        on_chip(g);
        break;
    case 9: block_definition(g); break;
    case 10: emit(g, "expect %s", PICK(g, expected)); break;
    case 11: emit(g, "solve %s: ", PICK(g, dims)); contraction(g); break;
    case 12:
        /* up to 128 points: a point costs what a contraction does */
        emit(g, "sweep %s in 1 .. %d%s { ", PICK(g, dims), 2 << pick(g, 7),
             pick(g, 2) ? " log 8" : "");
        contraction(g);
        emit(g, " }");
        break;
    case 13: emit(g, "fit %s: ", PICK(g, dims)); stdlib_call(g); break;
    case 14: stdlib_call(g); break;
    case 15:
        /* 2 or 4 chips: a search costs every mesh and axis assignment, seconds
         * under ASan for the slices of examples/search_llama3_70b.roof */
        emit(g, "search %s over [%d]", pick(g, 2) ? "model(B, T, D, F, N, K, H, L, V) on v5p"
                                                  : "decode(B, S, D, F, N, K, H, L, V) on v5e",
             2 << pick(g, 1));
        break;
    case 16:
        emit(g, "serve B, S: decode(B, S, D, F, N, K, H, L, V, tp = {X, Y}) on v5e 4x4 with "
                "prompt = %s, output = %s", PICK(g, numbers), PICK(g, numbers));
        break;
    default:
        emit(g, "%s", pick(g, 2) ? "remat full" : "optimizer adam gradients bf16 master fp32 zero 1");
        break;
    }
    emit(g, "\n\f"); /* each statement its own run: an error does not stop the rest */
}

/* Every dim bound (but the first, now and then, so costs stay symbolic), a chip of
 * their own and a mesh with axes X and Y: most statements after it can run. */
static void prelude(Gen *g)
{
    static const char *const sizes[] = {"1", "8", "128", "1024", "4096", "8192", "32768"};
    emit(g, "chip v5e_mine : v5e { hbm_bw = 1e12 }\nlet ");
    for (size_t i = pick(g, 4) == 0; i < sizeof dims / sizeof *dims; i++)
        emit(g, "%s = %s%s", dims[i], PICK(g, sizes), i + 1 < sizeof dims / sizeof *dims ? ", " : "\n");
    emit(g, "use %s 4x2\n", PICK(g, chips));
}

/* The program the input steers: statements until the choices run out. */
static size_t generate(Gen *g, const uint8_t *data, size_t size)
{
    g->choice = data;
    g->left = size;
    g->len = 0;
    prelude(g);
    for (int i = 0; g->left && i < STATEMENTS_MAX; i++)
        statement(g);
    return g->len;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static Gen g;
    size_t len = generate(&g, data, size);
    if (getenv("ROOFLINE_FUZZ_SHOW"))
        fprintf(stderr, "%.*s", (int)len, g.text);
    SessionOptions opt = {.json = size % 3 == 1, .csv = size % 3 == 2, .exact = size % 2 == 1};
    fuzz_run(opt, (const uint8_t *)g.text, len, FUZZ_PIECES);
    return 0;
}
