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
#include "gen.h"

#include <stdbool.h>
#include <stdlib.h>

/* Six statements after the prelude: enough for one to use what another defined (a chip,
 * a block, a mode), and a program short enough for thousands a second (in a minute, 24
 * ran 2,107 a second and 8 ran 2,968, to coverage within 4%: BENCHMARKS.md). */
enum { STATEMENTS_MAX = 6, DEPTH_MAX = 4 };

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

static void expr(Gen *g, int depth)
{
    unsigned form = depth >= DEPTH_MAX ? gen_pick(g, 2) : gen_pick(g, 6);
    switch (form) {
    case 0: gen_emit(g, "%s", GEN_PICK(g, numbers)); break;
    case 1: gen_emit(g, "%s", GEN_PICK(g, dims)); break;
    case 2: case 3: case 4:
        expr(g, depth + 1);
        gen_emit(g, " %c ", "+-*/"[gen_pick(g, 4)]);
        expr(g, depth + 1);
        break;
    default: gen_emit(g, "("); expr(g, depth + 1); gen_emit(g, ")"); break;
    }
}

/* A dim of a tensor: a name, maybe split over an axis, or a number. */
static void dim(Gen *g, const char *name)
{
    switch (gen_pick(g, 4)) {
    case 0: gen_emit(g, "%s_%s", name, GEN_PICK(g, axes)); break;
    case 1: if (gen_pick(g, 2)) { gen_emit(g, "%s", GEN_PICK(g, numbers)); break; } /* fall through */
    default: gen_emit(g, "%s", name); break;
    }
}

static void tensor(Gen *g, const char *first, const char *second, bool operand)
{
    gen_emit(g, "%s%s[", operand && gen_pick(g, 6) == 0 ? "param " : "", GEN_PICK(g, dtypes));
    dim(g, first);
    if (second) {
        gen_emit(g, ", ");
        dim(g, second);
    }
    gen_emit(g, "]");
}

static void on_chip(Gen *g)
{
    if (gen_pick(g, 3))
        gen_emit(g, " on %s%s", GEN_PICK(g, chips), GEN_PICK(g, meshes));
}

/* `A[x, k] *_k B[k, y]`, with extras: an output layout, a chip, a shard. */
static void contraction(Gen *g)
{
    const char *x = GEN_PICK(g, dims), *k = GEN_PICK(g, dims), *y = GEN_PICK(g, dims);
    tensor(g, x, k, true);
    gen_emit(g, " *_%s ", k);
    tensor(g, k, y, true);
    if (gen_pick(g, 5) == 0) {
        gen_emit(g, " -> ");
        tensor(g, x, y, false);
    }
    on_chip(g);
    if (gen_pick(g, 5) == 0)
        gen_emit(g, " shard %s over %s", k, GEN_PICK(g, numbers));
}

static void chip_definition(Gen *g)
{
    gen_emit(g, "chip v5e_mine : %s {", GEN_PICK(g, chips));
    for (unsigned n = gen_pick(g, 3) + 1; n > 0; n--) {
        gen_emit(g, " %s = ", GEN_PICK(g, fields));
        expr(g, DEPTH_MAX - 1);
        gen_emit(g, n > 1 ? "," : "");
    }
    gen_emit(g, " }");
}

static void block_definition(Gen *g)
{
    const char *d = GEN_PICK(g, dims);
    gen_emit(g, "block step(x, W = %s) {\n    y = x *_%s bf16[%s, %s]\n", GEN_PICK(g, numbers), d, d,
         GEN_PICK(g, dims));
    if (gen_pick(g, 2))
        gen_emit(g, "    repeat %s { y = x *_%s bf16[%s, %s] }\n", GEN_PICK(g, numbers), d, d, d);
    gen_emit(g, "    return %s\n}\nstep(", gen_pick(g, 4) ? "y" : "x");
    tensor(g, GEN_PICK(g, dims), d, true);
    gen_emit(g, ")");
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
    gen_emit(g, "%s", GEN_PICK(g, calls));
    on_chip(g);
}

/* A statement that runs the stdlib's whole model (a call, fit, search, serve) takes a
 * millisecond or more, a hundred times a contraction: one choice in HEAVY_ODDS is
 * one of them (at 4 they were a quarter of the target's time), so the target stays
 * near the others' thousands of inputs a second. */
enum { HEAVY_FIRST = 13, HEAVY_LAST = 16, HEAVY_ODDS = 8 };

static void statement(Gen *g)
{
    unsigned kind = gen_pick(g, 18);
    if (kind >= HEAVY_FIRST && kind <= HEAVY_LAST && gen_pick(g, HEAVY_ODDS) != 0)
        kind = gen_pick(g, HEAVY_FIRST); /* a light one instead */
    switch (kind) {
    case 0: case 1: gen_emit(g, "let %s = ", GEN_PICK(g, dims)); expr(g, 0); break;
    case 2: case 3: contraction(g); break;
    case 4: gen_emit(g, "q = "); expr(g, 0); break;
    case 5: gen_emit(g, "use %s%s", GEN_PICK(g, chips), GEN_PICK(g, meshes)); break;
    case 6: chip_definition(g); break;
    case 7: gen_emit(g, "mode %s", gen_pick(g, 2) ? "training microbatches 4" : "inference"); break;
    case 8:
        gen_emit(g, "%s ", GEN_PICK(g, collectives));
        tensor(g, GEN_PICK(g, dims), GEN_PICK(g, dims), true);
        gen_emit(g, " over %s", GEN_PICK(g, axes));
        on_chip(g);
        break;
    case 9: block_definition(g); break;
    case 10: gen_emit(g, "expect %s", GEN_PICK(g, expected)); break;
    case 11: gen_emit(g, "solve %s: ", GEN_PICK(g, dims)); contraction(g); break;
    case 12:
        /* up to 128 points: a point costs what a contraction does */
        gen_emit(g, "sweep %s in 1 .. %d%s { ", GEN_PICK(g, dims), 2 << gen_pick(g, 7),
             gen_pick(g, 2) ? " log 8" : "");
        contraction(g);
        gen_emit(g, " }");
        break;
    case 13: gen_emit(g, "fit %s: ", GEN_PICK(g, dims)); stdlib_call(g); break;
    case 14: stdlib_call(g); break;
    case 15:
        /* 2 or 4 chips: a search costs every mesh and axis assignment, seconds
         * under ASan for the slices of examples/search_llama3_70b.roof */
        gen_emit(g, "search %s over [%d]", gen_pick(g, 2) ? "model(B, T, D, F, N, K, H, L, V) on v5p"
                                                  : "decode(B, S, D, F, N, K, H, L, V) on v5e",
             2 << gen_pick(g, 1));
        break;
    case 16:
        gen_emit(g, "serve B, S: decode(B, S, D, F, N, K, H, L, V, tp = {X, Y}) on v5e 4x4 with "
                "prompt = %s, output = %s", GEN_PICK(g, numbers), GEN_PICK(g, numbers));
        break;
    default:
        gen_emit(g, "%s", gen_pick(g, 2) ? "remat full" : "optimizer adam gradients bf16 master fp32 zero 1");
        break;
    }
    gen_emit(g, "\n\f"); /* each statement its own run: an error does not stop the rest */
}

/* Every dim bound (but the first, now and then, so costs stay symbolic), a chip of
 * their own and a mesh with axes X and Y: most statements after it can run. */
static void prelude(Gen *g)
{
    static const char *const sizes[] = {"1", "8", "128", "1024", "4096", "8192", "32768"};
    gen_emit(g, "chip v5e_mine : v5e { hbm_bw = 1e12 }\nlet ");
    for (size_t i = gen_pick(g, 4) == 0; i < sizeof dims / sizeof *dims; i++)
        gen_emit(g, "%s = %s%s", dims[i], GEN_PICK(g, sizes), i + 1 < sizeof dims / sizeof *dims ? ", " : "\n");
    gen_emit(g, "use %s 4x2\n", GEN_PICK(g, chips));
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
