/* test_props.c — invariants that hold for every statement, checked over generated
 * ones. A seeded generator (the choices-to-text machinery of tests/fuzz/gen.h, steered
 * by a fixed pseudo-random stream instead of libFuzzer) writes random but valid
 * programs: contractions of operands of 1 to 4 dims, shardings over meshes of 1 to 3
 * axes, elementwise ops and reductions, collectives, stdlib blocks with strategies,
 * user blocks, search; inference and training; TPUs and GPUs. Each runs through a
 * session as `roofline --json` runs it, and its records must hold:
 *
 *   bounds  t_lower <= t_upper; t_lower >= t_math and t_hbm, and >= t_comm in inference;
 *           a block's t_comm is at least its largest operation's and at most their sum
 *           (true whether collectives on different axes add up or overlap); in every
 *           object of the breakdown
 *   text    the text report's figures are the JSON's, to the four digits it prints
 *   grow    doubling a dim never lowers t_lower; nor flops, bytes, t_math, t_hbm,
 *           t_comm or comm_bytes of any object of the breakdown that made no choice
 *           (see choice_free: a contraction with collectives picks the faster of a
 *           gather and partial sums, and another size may pick the other)
 *   split   doubling a mesh axis never raises the per-chip flops or bytes of an object
 *           that made no choice
 *   inline  a block's totals are the sums of its statements written out one by one
 *           (in training each statement with a param is a step with its own update,
 *           and the updates of the parts add up to the block's)
 *   search  search's best configuration, costed alone, takes the time search printed
 *   copy    a chip defined field by field as a built-in one (no parent) gives the
 *           built-in's figures, every one
 *
 * ROOFLINE_PROPS_SEED (default 1) and ROOFLINE_PROPS_COUNT (default 1000 cases) choose
 * the programs; ROOFLINE_PROPS_VERBOSE=1 prints each and why it was skipped. A failure
 * prints both programs it compared, so it reproduces with `roofline --json -`. */
#include "check.h"
#include "../fuzz/gen.h"
#include "arena.h"
#include "json.h"
#include "session.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { DEFAULT_COUNT = 1000, CHOICES = 512, LINES_MAX = 4, LINE_MAX = 512, CARD_MAX = 8192 };

/* ---- the choices: splitmix64, so a seed names the same programs everywhere ---------- */

static uint64_t rng_state;

static uint64_t rng_next(void)
{
    uint64_t z = (rng_state += 0x9E3779B97F4A7C15u);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
    return z ^ (z >> 31);
}

static uint8_t choices[CHOICES];

/* A new string of choices for the next case. */
static void gen_start(Gen *g)
{
    for (size_t i = 0; i < CHOICES; i++)
        choices[i] = (uint8_t)(rng_next() >> 56);
    g->choice = choices;
    g->left = CHOICES;
    g->len = 0;
}

/* ---- a case: the dims, the mode, the chip and mesh, and the statement ---------------- */

enum { DIMS = 12 };
static const char *const dim_names[DIMS] = {"B", "T", "S", "D", "F", "N",
                                            "K", "H", "L", "V", "E", "R"};
/* Powers of two, so that doubling a dim or an axis keeps every split whole. */
static const double dim_values[DIMS][3] = {
    {8, 32, 256},     {64, 512, 2048}, {128, 1024, 4096}, {256, 1024, 4096},
    {512, 4096, 16384}, {8, 16, 32},   {1, 2, 8},         {64, 128, 128},
    {2, 4, 8},        {1024, 8192, 32768}, {4, 8, 16},   {16, 64, 1024}};

static const char *const modes[] = {"inference", "training", "training microbatches 4",
                                    "training overlap step"};
static const char *const chips[] = {"v5e", "v5p", "v6e", "tpu7x", "v4p", "v3",
                                    "A100", "H100", "H200", "B200"};
/* The dtypes each chip has a peak for, beyond bf16 and int8 (as `chip NAME` lists). */
static const char *const more_dtypes[] = {"", "", "", "fp8", "", "", "f32 f16", "f32 fp8",
                                          "f32 fp8", "fp8 f16"};

typedef enum { KIND_PLAIN, KIND_INLINE, KIND_SEARCH } CaseKind;

typedef struct {
    CaseKind kind;
    double value[DIMS];
    int mode;
    const char *chip;
    int axes; /* mesh axes X, Y, Z: 0 for one chip */
    int axis_size[3];
    char lines[LINES_MAX][LINE_MAX]; /* the statements (a block's body), without `on` */
    int n_lines;
    char call[LINE_MAX]; /* KIND_SEARCH: the call searched */
    int search_chips;
    int bound; /* KIND_INLINE: the last rN its body binds, which it returns */
} Case;

static bool training(const Case *c) { return c->mode != 0; }

/* ---- generating statements ------------------------------------------------------- */

/* A dim of a tensor, split over some of the axes the tensor does not use yet. */
static void sharded_dim(Gen *g, const Case *c, int dim, unsigned *used)
{
    gen_emit(g, "%s", dim_names[dim]);
    if (!c->axes || gen_pick(g, 3))
        return;
    const char *sep = "_";
    for (int a = 0, n = (int)gen_pick(g, 2) + 1; a < c->axes && n > 0; a++) {
        if (*used & (1u << a) || gen_pick(g, 2))
            continue;
        *used |= 1u << a;
        gen_emit(g, "%s%c", sep, "XYZ"[a]);
        sep = "";
        n--;
    }
}

static void tensor(Gen *g, const Case *c, const int *dims, int n, const char *dtype, bool param)
{
    unsigned used = 0;
    gen_emit(g, "%s%s[", param ? "param " : "", dtype);
    for (int i = 0; i < n; i++) {
        gen_emit(g, i ? ", " : "");
        sharded_dim(g, c, dims[i], &used);
    }
    gen_emit(g, "]");
}

/* n distinct dims of the contraction pool (B T S D F H V R), shuffled. */
static int distinct_dims(Gen *g, int *out, int n)
{
    static const int pool[] = {0, 1, 2, 3, 4, 7, 9, 11};
    int perm[8];
    for (int i = 0; i < 8; i++)
        perm[i] = pool[i];
    for (int i = 7; i > 0; i--) {
        int j = (int)gen_pick(g, (size_t)i + 1), t = perm[i];
        perm[i] = perm[j];
        perm[j] = t;
    }
    for (int i = 0; i < n; i++)
        out[i] = perm[i];
    return n;
}

static void shuffle(Gen *g, int *v, int n)
{
    for (int i = n - 1; i > 0; i--) {
        int j = (int)gen_pick(g, (size_t)i + 1), t = v[i];
        v[i] = v[j];
        v[j] = t;
    }
}

/* bf16 mostly; else int8, or a dtype the chip has a peak for. */
static const char *dtype(Gen *g, const Case *c)
{
    static const char *const names[] = {"bf16", "bf16", "bf16", "int8", "fp8", "f32", "f16"};
    const char *name = GEN_PICK(g, names);
    size_t i = 0;
    while (strcmp(chips[i], c->chip) != 0)
        i++;
    return name[0] == 'b' || name[0] == 'i' || strstr(more_dtypes[i], name) ? name : "bf16";
}

/* A *_{C} B: C contracted (1 or 2 dims), a batch dim maybe, free dims each side, so
 * that each operand has 1 to 4 dims. */
static void contraction(Gen *g, const Case *c)
{
    int d[8], n_con = (int)gen_pick(g, 2) + 1, n_batch = (int)gen_pick(g, 3) == 0;
    int n_left = (int)gen_pick(g, 3), n_right = (int)gen_pick(g, 3);
    if (n_con + n_batch + n_left > 4)
        n_left = 4 - n_con - n_batch;
    if (n_con + n_batch + n_right > 4)
        n_right = 4 - n_con - n_batch;
    distinct_dims(g, d, n_con + n_batch + n_left + n_right);
    int left[4], right[4], nl = 0, nr = 0;
    for (int i = 0; i < n_con + n_batch; i++)
        left[nl++] = right[nr++] = d[i];
    for (int i = 0; i < n_left; i++)
        left[nl++] = d[n_con + n_batch + i];
    for (int i = 0; i < n_right; i++)
        right[nr++] = d[n_con + n_batch + n_left + i];
    shuffle(g, left, nl);
    shuffle(g, right, nr);
    tensor(g, c, left, nl, dtype(g, c), false);
    if (n_con == 1)
        gen_emit(g, " *_%s ", dim_names[d[0]]);
    else
        gen_emit(g, " *_{%s, %s} ", dim_names[d[0]], dim_names[d[1]]);
    tensor(g, c, right, nr, dtype(g, c), gen_pick(g, 3) == 0);
}

/* x + x, exp(x), sum(x, DIM), gather(x, DIM): one tensor of 1 to 3 dims. */
static void elementwise(Gen *g, const Case *c)
{
    int d[3], n = (int)gen_pick(g, 3) + 1;
    distinct_dims(g, d, n);
    Gen t = {.choice = g->choice, .left = g->left};
    tensor(&t, c, d, n, dtype(&t, c), false);
    g->choice = t.choice;
    g->left = t.left;
    switch (gen_pick(g, 5)) {
    case 0: gen_emit(g, "%s + %s", t.text, t.text); break;
    case 1: gen_emit(g, "%s * %s", t.text, t.text); break;
    case 2: gen_emit(g, "exp(%s)", t.text); break;
    case 3: gen_emit(g, "sum(%s, %s)", t.text, dim_names[d[gen_pick(g, (size_t)n)]]); break;
    default: gen_emit(g, "gather(%s, %s)", t.text, dim_names[d[gen_pick(g, (size_t)n)]]); break;
    }
}

/* allgather, allreduce, reducescatter or alltoall of a two-dim tensor over one axis. */
static void collective(Gen *g, const Case *c)
{
    int d[2];
    distinct_dims(g, d, 2);
    const char *a = (const char *[]){"X", "Y", "Z"}[gen_pick(g, (size_t)(c->axes ? c->axes : 1))];
    const char *x = dim_names[d[0]], *y = dim_names[d[1]];
    switch (gen_pick(g, 4)) {
    case 0: gen_emit(g, "allgather bf16[%s_%s, %s] over %s", x, a, y, a); break;
    case 1: gen_emit(g, "allreduce bf16[%s, %s] over %s", x, y, a); break;
    case 2:
        gen_emit(g, "reducescatter bf16[%s, %s] over %s -> bf16[%s, %s_%s]", x, y, a, x, y, a);
        break;
    default:
        gen_emit(g, "alltoall bf16[%s_%s, %s] over %s -> bf16[%s, %s_%s]", x, a, y, a, x, y, a);
        break;
    }
}

/* `, tp = {X, Y}`: each mesh axis to one of the block's strategies, or to none. */
static void strategies(Gen *g, const Case *c, const char *const *params, int n)
{
    unsigned given[8] = {0}; /* a strategy's axes: bit a for axis a */
    for (int a = 0; a < c->axes; a++) {
        unsigned p = gen_pick(g, (size_t)n + 1);
        if (p < (unsigned)n)
            given[p] |= 1u << a;
    }
    for (int p = 0; p < n; p++) {
        if (!given[p])
            continue;
        gen_emit(g, ", %s = {", params[p]);
        for (int a = 0, first = 1; a < 3; a++)
            if (given[p] & (1u << a)) {
                gen_emit(g, "%s%c", first ? "" : ", ", "XYZ"[a]);
                first = 0;
            }
        gen_emit(g, "}");
    }
}

static const char *const layer_params[] = {"dp", "fsdp", "tp", "ws"};
static const char *const moe_params[] = {"dp", "fsdp", "tp", "ws", "ep"};
static const char *const model_params[] = {"dp", "fsdp", "tp", "sp", "pp"};
static const char *const decode_params[] = {"tp", "ws", "sp"};

/* A call of the stdlib's transformer blocks; `strategy` false leaves the axes open. */
static void stdlib_call(Gen *g, const Case *c, bool strategy)
{
    static const char *const calls[] = {
        "mlp(bf16[B, T, D], F", "gated_mlp(bf16[B, T, D], F", "rms_norm(bf16[B, T, D]",
        "attention(bf16[B, T, D], bf16[B, S, K, H], bf16[B, S, K, H], N",
        "layer(bf16[B, T, D], bf16[B, S, K, H], bf16[B, S, K, H], F, N",
        "moe(bf16[B, T, D], F, E, 2", "model(B, T, D, F, N, K, H, L, V",
        "decode(B, S, D, F, N, K, H, L, V"};
    unsigned k = gen_pick(g, sizeof calls / sizeof *calls);
    gen_emit(g, "%s", calls[k]);
    if (strategy && k == 5)
        strategies(g, c, moe_params, 5);
    else if (strategy && k == 6)
        strategies(g, c, model_params, training(c) ? 5 : 4);
    else if (strategy && k == 7)
        strategies(g, c, decode_params, 3);
    else if (strategy && k != 2)
        strategies(g, c, layer_params, 4);
    gen_emit(g, ")");
}

/* The mesh: 0 to 3 axes of 2, 4 or 8 chips (at most 2 on a 2D torus). */
static void pick_mesh(Gen *g, Case *c)
{
    bool flat = strcmp(c->chip, "v5e") == 0 || strcmp(c->chip, "v6e") == 0 ||
                strcmp(c->chip, "v3") == 0;
    c->axes = (int)gen_pick(g, flat ? 3 : 4);
    for (int a = 0; a < c->axes; a++)
        c->axis_size[a] = 2 << gen_pick(g, 3);
}

static void pick_dims(Gen *g, Case *c)
{
    for (int i = 0; i < DIMS; i++)
        c->value[i] = dim_values[i][gen_pick(g, 3)];
}

/* Copies what fits of src into dst, a buffer of `size` bytes. */
static void copy_text(char *dst, size_t size, const char *src)
{
    size_t n = strnlen(src, size - 1);
    memcpy(dst, src, n);
    dst[n] = '\0';
}

/* Statement i of a case into g's text. A block's body (KIND_INLINE) binds r0, r1, ...
 * (a collective binds nothing, and comes after one that does) and holds no call of a
 * block, whose breakdown a written-out call would not sum. */
static void statement(Gen *g, Case *c, int i)
{
    g->len = 0;
    unsigned form = gen_pick(g, 10);
    bool one_chip = c->axes == 0, inline_block = c->kind == KIND_INLINE;
    if (form >= 7 && form < 9 && !one_chip && (!inline_block || i > 0)) {
        collective(g, c);
        return;
    }
    if (inline_block)
        gen_emit(g, "r%d = ", c->bound = i);
    if (form < 5 || (form >= 7 && inline_block))
        contraction(g, c);
    else if (form < 9 || inline_block)
        elementwise(g, c);
    else
        stdlib_call(g, c, true);
}

/* A case: its setting, then its statements (a search: the call it searches). */
static void generate(Gen *g, Case *c)
{
    gen_start(g);
    memset(c, 0, sizeof *c);
    pick_dims(g, c);
    c->mode = (int)gen_pick(g, 2) ? 0 : (int)gen_pick(g, 4);
    c->chip = GEN_PICK(g, chips);
    pick_mesh(g, c);
    unsigned kind = gen_pick(g, 20);
    c->kind = kind < 2 ? KIND_INLINE : kind < 3 ? KIND_SEARCH : KIND_PLAIN;
    if (c->kind == KIND_SEARCH) {
        g->len = 0;
        do {
            g->len = 0;
            stdlib_call(g, c, false);
        } while (strncmp(g->text, "rms_norm", 8) == 0); /* it has no strategy to choose */
        copy_text(c->call, sizeof c->call, g->text);
        c->search_chips = 4 << gen_pick(g, 2);
        return;
    }
    c->n_lines = c->kind == KIND_INLINE ? (int)gen_pick(g, 3) + 2 : 1;
    for (int i = 0; i < c->n_lines; i++) {
        statement(g, c, i);
        copy_text(c->lines[i], LINE_MAX, g->text);
    }
}

/* ---- writing a case's program ------------------------------------------------------ */

/* The `on` clause: the chip (its name given, for the copies) and the mesh. */
static void on_clause(Gen *out, const Case *c, const char *chip)
{
    gen_emit(out, " on %s", chip);
    for (int a = 0; a < c->axes; a++)
        gen_emit(out, "%s%c = %d", a ? ", " : " mesh ", "XYZ"[a], c->axis_size[a]);
}

static void setting(Gen *out, const Case *c)
{
    out->len = 0;
    gen_emit(out, "let ");
    for (int i = 0; i < DIMS; i++)
        gen_emit(out, "%s = %.17g%s", dim_names[i], c->value[i], i + 1 < DIMS ? ", " : "\n");
    gen_emit(out, "mode %s\n", modes[c->mode]);
}

/* The program: a statement on `chip`, preceded by `prefix` (a chip's definition).
 * KIND_INLINE as a block and its call, or (`written_out`) its statements one by one. */
static void program(Gen *out, const Case *c, const char *chip, const char *prefix, bool written_out)
{
    setting(out, c);
    gen_emit(out, "%s", prefix);
    if (c->kind == KIND_SEARCH)
        gen_emit(out, "search %s on %s over %d\n", c->call, chip, c->search_chips);
    else if (c->kind == KIND_INLINE && !written_out) {
        gen_emit(out, "block blk() {\n");
        for (int i = 0; i < c->n_lines; i++)
            gen_emit(out, "    %s\n", c->lines[i]);
        gen_emit(out, "    return r%d\n}\nblk()", c->bound);
        on_clause(out, c, chip);
        gen_emit(out, "\n");
    } else {
        for (int i = 0; i < c->n_lines; i++) {
            gen_emit(out, "%s", c->lines[i]);
            on_clause(out, c, chip);
            gen_emit(out, "\n");
        }
    }
}

/* ---- running a program ------------------------------------------------------------ */

typedef struct {
    char *text; /* what the session printed (malloc'd) */
    size_t len;
    RunStatus status;
} Output;

static Session *session(void)
{
    static Session *s;
    static FILE *null;
    if (!s) {
        null = fopen("/dev/null", "w");
        SessionOptions quiet = {.out = null, .err = null};
        if (!null || !(s = session_new(&quiet)) || !session_snapshot(s))
            abort();
    }
    return s;
}

static Output run(const char *text, bool json, char **errors)
{
    Output o = {0};
    size_t err_len = 0;
    FILE *out = open_memstream(&o.text, &o.len), *err = open_memstream(errors, &err_len);
    SessionOptions opt = {.json = json, .out = out, .err = err};
    if (!out || !err || !session_reset(session(), &opt))
        abort();
    o.status = session_run(session(), "<props>", text, strlen(text), false);
    fclose(out);
    fclose(err);
    return o;
}

/* The records of JSON Lines output, parsed into `arena`; their number. */
static int records(const Output *o, Arena *arena, const Json **out, int max)
{
    int n = 0;
    for (const char *p = o->text, *end = o->text + o->len; p < end && n < max;) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);
        const char *why = NULL;
        const Json *r = json_parse(p, len, arena, &why);
        if (!r)
            abort(); /* output_check's tests hold the JSON itself */
        out[n++] = r;
        p += len + 1;
    }
    return n;
}

/* ---- reporting ------------------------------------------------------------------- */

static uint64_t seed;
static int case_number;
static int skipped[3], ran[3];
static bool verbose;

/* A failed invariant: what, and the programs that show it. */
static void fail(const char *invariant, const char *what, const char *program_a,
                 const char *program_b)
{
    failed++;
    printf("FAIL %s (seed %llu, case %d): %s\n--- program\n%s", invariant,
           (unsigned long long)seed, case_number, what, program_a);
    if (program_b)
        printf("--- against\n%s", program_b);
    printf("---\n");
}

static const char *const invariants[] = {"bounds", "text", "grow", "split",
                                         "inline", "search", "copy"};
enum { INVARIANTS = sizeof invariants / sizeof *invariants };
static int checked[INVARIANTS];

static void hold(bool ok, const char *invariant, const char *what, const char *a, const char *b)
{
    for (int i = 0; i < INVARIANTS; i++)
        checked[i] += strcmp(invariants[i], invariant) == 0;
    if (ok)
        passed++;
    else
        fail(invariant, what, a, b);
}

static double number(const Json *r, const char *key)
{
    double v;
    return json_number(r, key, &v) ? v : NAN;
}

static const double EPS = 1e-9;

static bool close_to(double a, double b) { return fabs(a - b) <= EPS * fmax(fabs(a), fabs(b)); }
static bool at_most(double a, double b) { return a <= b + EPS * fabs(b); }

/* ---- bounds --------------------------------------------------------------------- */

/* t_comm of a block against its operations': between the largest and the sum. */
static void check_comm_of_ops(const Json *r, const char *program)
{
    const Json *ops = json_get(r, "ops");
    if (!ops || ops->kind != JSON_ARRAY || ops->n == 0)
        return;
    double largest = 0, sum = 0, t_comm = number(r, "t_comm");
    for (int i = 0; i < ops->n; i++) {
        double t = number(&ops->items[i], "t_comm") * number(&ops->items[i], "runs");
        largest = fmax(largest, t);
        sum += t;
    }
    char what[256];
    snprintf(what, sizeof what, "%s: t_comm %.17g is not between its largest operation's "
             "%.17g and their sum %.17g", json_string(r, "stmt"), t_comm, largest, sum);
    hold(at_most(largest, t_comm) && at_most(t_comm, sum), "bounds", what, program, NULL);
}

/* The bounds in a record and every object of its breakdown. */
static void check_bounds(const Json *r, bool inference, const char *program)
{
    double lower = number(r, "t_lower"), upper = number(r, "t_upper");
    double terms[3] = {number(r, "t_math"), number(r, "t_hbm"), number(r, "t_comm")};
    if (isnan(lower) || isnan(upper))
        return; /* a pipeline's bubble has no bound; search and serve other keys */
    char what[256];
    snprintf(what, sizeof what, "%s: t_lower %.17g, t_upper %.17g, t_math %.17g, t_hbm "
             "%.17g, t_comm %.17g", json_string(r, "stmt"), lower, upper, terms[0], terms[1],
             terms[2]);
    bool ok = at_most(lower, upper) && at_most(terms[0], lower) && at_most(terms[1], lower);
    hold(ok && (!inference || at_most(terms[2], lower)), "bounds", what, program, NULL);
    check_comm_of_ops(r, program);
    const Json *ops = json_get(r, "ops");
    for (int i = 0; ops && ops->kind == JSON_ARRAY && i < ops->n; i++)
        check_bounds(&ops->items[i], inference, program);
}

/* ---- text: the report's figures are the JSON's, to the digits it prints ------------- */

/* The unit a text figure is written in, and its SI prefix: the scale to base units. */
static bool unit_scale(const char *word, size_t len, double *scale)
{
    static const char *const units[] = {"FLOP/B", "FLOP/s", "FLOP", "B/s", "B", "s"};
    static const char *const prefixes[] = {"f", "p", "n", "\xc2\xb5", "m", "",
                                           "k", "M", "G", "T", "P", "E"};
    for (size_t u = 0; u < sizeof units / sizeof *units; u++) {
        size_t ulen = strlen(units[u]);
        if (len < ulen || strncmp(word + len - ulen, units[u], ulen) != 0)
            continue;
        for (size_t p = 0; p < sizeof prefixes / sizeof *prefixes; p++)
            if (strlen(prefixes[p]) == len - ulen && strncmp(word, prefixes[p], len - ulen) == 0) {
                *scale = pow(10, 3 * ((double)p - 5));
                return true;
            }
    }
    return false;
}

/* The figure of the report row `  NAME  formula = 12.34 kB ...`, in base units. */
static bool text_figure(const char *report, const char *name, double *out)
{
    size_t n = strlen(name);
    for (const char *line = report; line && *line; line = strchr(line, '\n'), line += !!line) {
        if (strncmp(line, "  ", 2) != 0 || strncmp(line + 2, name, n) != 0 || line[2 + n] != ' ')
            continue;
        const char *eq = strstr(line, " = "), *end = strchr(line, '\n');
        if (!eq || (end && eq > end))
            return false;
        char *p;
        double v = strtod(eq + 3, &p), scale = 1;
        size_t word = *p == ' ' ? strcspn(p + 1, " \n(:;,") : 0;
        if (p == eq + 3 || (word && !unit_scale(p + 1, word, &scale)))
            return false;
        *out = v * scale;
        return true;
    }
    return false;
}

/* Four significant digits: within half a unit of the fourth. */
static bool same_to_printed(double json, double text)
{
    if (json == 0)
        return text == 0;
    double unit = pow(10, floor(log10(fabs(json))) - 3);
    return fabs(json - text) <= 0.5 * unit * (1 + 1e-6);
}

static void check_text(const Json *r, const char *program)
{
    static const char *const keys[] = {"flops", "bytes", "intensity", "ridge", "t_math",
                                       "t_hbm", "comm_bytes", "t_comm", "t_lower",
                                       "t_upper", "t_derated"};
    char *errors = NULL;
    Output o = run(program, false, &errors);
    int compared = 0;
    for (size_t k = 0; k < sizeof keys / sizeof *keys; k++) {
        double json = number(r, keys[k]), text;
        if (isnan(json) || !text_figure(o.text, keys[k], &text))
            continue;
        char what[256];
        snprintf(what, sizeof what, "%s: JSON %.17g, text %.17g", keys[k], json, text);
        hold(same_to_printed(json, text), "text", what, program, o.text);
        compared++;
    }
    const Json *ops = json_get(r, "ops");
    if (!ops || ops->n > 0) /* a block of no operations prints "(no operations)" */
        hold(compared >= 2, "text", "fewer than two figures in the text report", program, o.text);
    free(o.text);
    free(errors);
}

/* ---- grow and split: a bigger dim costs no less, more chips no more per chip -------- */

/* An operation whose figures follow the shardings alone: one with no collective, or a
 * collective alone (no FLOPs). A contraction with collectives chose the faster way to
 * combine its operands (gather one, or partial sums), and another size may choose
 * another way: with more chips, a gather can win that leaves each chip more FLOPs. A
 * block is choice-free when all its operations are. */
static bool choice_free(const Json *r)
{
    const Json *ops = json_get(r, "ops");
    if (ops && ops->kind == JSON_ARRAY && ops->n > 0) {
        for (int i = 0; i < ops->n; i++)
            if (!choice_free(&ops->items[i]))
                return false;
        return true;
    }
    return !json_string(r, "collective") || number(r, "flops") == 0;
}

/* Each key's figure in `small` is at most its figure in `big`, in each object of the
 * breakdown that is choice-free in both (the two trees have the same shape: the same
 * statement at other sizes). */
static void check_order(const char *invariant, const char *const *keys, int n,
                        const Json *small, const Json *big, const char *a, const char *b)
{
    const Json *ops_s = json_get(small, "ops"), *ops_b = json_get(big, "ops");
    bool both = ops_s && ops_b && ops_s->kind == JSON_ARRAY && ops_b->kind == JSON_ARRAY &&
                ops_s->n == ops_b->n;
    for (int i = 0; both && i < ops_s->n; i++)
        check_order(invariant, keys, n, &ops_s->items[i], &ops_b->items[i], a, b);
    if (!choice_free(small) || !choice_free(big))
        return;
    for (int k = 0; k < n; k++) {
        double s = number(small, keys[k]), l = number(big, keys[k]);
        if (isnan(s) && isnan(l))
            continue;
        char what[256];
        snprintf(what, sizeof what, "%s of %s: %.17g, then %.17g (%s)", keys[k],
                 json_string(small, "stmt"), s, l,
                 invariant[0] == 'g' ? "should not fall" : "should not rise");
        hold(at_most(s, l), invariant, what, a, b);
    }
}

static Gen base_text, variant_text;

/* The last record a program prints, into `arena`; NULL when it fails. */
static const Json *last_record(const char *program, Arena *arena)
{
    char *errors = NULL;
    Output o = run(program, true, &errors);
    const Json *r[64] = {0};
    int n = o.status == RUN_OK ? records(&o, arena, r, 64) : 0;
    if (verbose && o.status != RUN_OK)
        printf("variant failed:\n%s%s", program, errors);
    free(o.text);
    free(errors);
    return n ? r[n - 1] : NULL;
}

/* Whether a statement uses a dim: its letter, not inside a word (D_X and *_D are D). */
static bool mentions(const Case *c, const char *name)
{
    for (int i = 0; i < c->n_lines; i++)
        for (const char *p = c->lines[i]; (p = strchr(p, name[0])); p++)
            if ((p == c->lines[i] || !isalnum((unsigned char)p[-1])) &&
                !isalnum((unsigned char)p[1]))
                return true;
    return false;
}

static const char *const figures[] = {"flops", "bytes", "t_math", "t_hbm", "t_comm",
                                      "comm_bytes", "t_lower"};

static void check_grow(Case *c, const Json *base, Arena *arena)
{
    int d = (int)(rng_next() % DIMS);
    for (int tries = 0; tries < 8 && !mentions(c, dim_names[d]); tries++)
        d = (int)(rng_next() % DIMS);
    c->value[d] *= 2;
    program(&variant_text, c, c->chip, "", false);
    c->value[d] /= 2;
    const Json *grown = last_record(variant_text.text, arena);
    if (!grown)
        return;
    check_order("grow", figures, 7, base, grown, base_text.text, variant_text.text);
    char what[256];
    snprintf(what, sizeof what, "t_lower: %.17g, then %.17g (should not fall)",
             number(base, "t_lower"), number(grown, "t_lower"));
    hold(at_most(number(base, "t_lower"), number(grown, "t_lower")), "grow", what,
         base_text.text, variant_text.text);
}

static void check_split(Case *c, const Json *base, Arena *arena)
{
    if (c->axes == 0)
        return;
    int a = (int)(rng_next() % (uint64_t)c->axes);
    c->axis_size[a] *= 2;
    program(&variant_text, c, c->chip, "", false);
    c->axis_size[a] /= 2;
    const Json *split = last_record(variant_text.text, arena);
    if (split)
        check_order("split", figures, 2, split, base, variant_text.text, base_text.text);
}

/* ---- inline: a block's totals are its statements' sums --------------------------- */

static const char *const summed[] = {"flops", "bytes", "t_math", "t_hbm", "comm_bytes",
                                     "t_lower", "t_upper"};
enum { SUMMED = sizeof summed / sizeof *summed };

/* A block's totals, its `optimizer` row included: in training a statement with a
 * param is a step too, and the update is linear in the params. */
static void block_totals(const Json *r, double *totals)
{
    for (int k = 0; k < SUMMED; k++)
        totals[k] = number(r, summed[k]);
}

static void check_inline(const Case *c, const Json *block, Arena *arena)
{
    program(&variant_text, c, c->chip, "", true);
    char *errors = NULL;
    Output o = run(variant_text.text, true, &errors);
    const Json *r[LINES_MAX] = {0};
    int n = o.status == RUN_OK ? records(&o, arena, r, LINES_MAX) : 0;
    /* a statement that does nothing (a gather of a whole dim) prints no record */
    hold(o.status == RUN_OK, "inline", errors, base_text.text, variant_text.text);
    double totals[SUMMED], sums[SUMMED] = {0}, largest = 0, comm = 0;
    block_totals(block, totals);
    for (int i = 0; i < n; i++) {
        for (int k = 0; k < SUMMED; k++)
            sums[k] += number(r[i], summed[k]);
        largest = fmax(largest, number(r[i], "t_comm"));
        comm += number(r[i], "t_comm");
    }
    for (int k = 0; k < SUMMED && o.status == RUN_OK; k++) {
        char what[256];
        snprintf(what, sizeof what, "%s: the block's %.17g, its statements' %.17g", summed[k],
                 totals[k], sums[k]);
        hold(close_to(totals[k], sums[k]), "inline", what, base_text.text, variant_text.text);
    }
    double t_comm = number(block, "t_comm");
    if (o.status == RUN_OK)
        hold(at_most(largest, t_comm) && at_most(t_comm, comm), "inline",
             "the block's t_comm is not between its statements' largest and their sum",
             base_text.text, variant_text.text);
    free(o.text);
    free(errors);
}

/* ---- search: the best configuration, costed alone -------------------------------- */

/* `, dp = {X, Y}` for each strategy of a search record that has axes. */
static void strategy_arguments(Gen *out, const Json *strategy)
{
    for (int i = 0; strategy && strategy->kind == JSON_OBJECT && i < strategy->n; i++) {
        const Json *axes = &strategy->items[i];
        if (axes->kind != JSON_ARRAY || axes->n == 0)
            continue;
        gen_emit(out, ", %s = {", strategy->keys[i]);
        for (int a = 0; a < axes->n; a++)
            gen_emit(out, "%s%s", a ? ", " : "", axes->items[a].string);
        gen_emit(out, "}");
    }
}

/* The call of a search with the configuration of its record, on the same chip. */
static void configured_call(Gen *out, const Case *c, const Json *best)
{
    const Json *mesh = json_get(best, "mesh");
    setting(out, c);
    gen_emit(out, "%.*s", (int)strlen(c->call) - 1, c->call); /* without its `)` */
    strategy_arguments(out, json_get(best, "strategy"));
    gen_emit(out, ") on %s", c->chip);
    for (int i = 0; mesh && mesh->kind == JSON_OBJECT && i < mesh->n; i++)
        gen_emit(out, "%s%s = %.17g", i ? ", " : " mesh ", mesh->keys[i], mesh->items[i].number);
    gen_emit(out, "\n");
}

static void check_search(const Case *c, const Json *const *r, int n, Arena *arena)
{
    const Json *best = NULL;
    for (int i = 0; i < n && !best; i++)
        if (number(r[i], "rank") == 1)
            best = r[i];
    if (!best) {
        skipped[c->kind]++; /* nothing fitted */
        return;
    }
    configured_call(&variant_text, c, best);
    const Json *alone = last_record(variant_text.text, arena);
    static const char *const pairs[][2] = {{"t_step", "t_lower"}, {"t_derated", "t_derated"},
                                           {"flops", "flops"}, {"memory", "memory"}};
    for (size_t k = 0; k < sizeof pairs / sizeof *pairs; k++) {
        double searched = number(best, pairs[k][0]);
        double costed = alone ? number(alone, pairs[k][1]) : NAN;
        char what[256];
        snprintf(what, sizeof what, "search's %s %.17g, the call's %s %.17g", pairs[k][0],
                 searched, pairs[k][1], costed);
        hold(close_to(searched, costed), "search", what, base_text.text, variant_text.text);
    }
}

/* ---- copy: a built-in chip written out field by field ---------------------------- */

/* `chip props_copy { FIELD = VALUE ... }` with every field `chip NAME` prints. */
static const char *chip_copy(const char *chip)
{
    static char card[sizeof chips / sizeof *chips][CARD_MAX];
    size_t i = 0;
    while (strcmp(chips[i], chip) != 0)
        i++;
    if (card[i][0])
        return card[i];
    char program_text[64], *errors = NULL;
    snprintf(program_text, sizeof program_text, "chip %s\n", chip);
    Output o = run(program_text, true, &errors);
    Arena arena = {0};
    const Json *r[1];
    if (o.status != RUN_OK || records(&o, &arena, r, 1) != 1)
        abort();
    const Json *fields = json_get(r[0], "fields");
    Gen *text = &variant_text;
    text->len = 0;
    gen_emit(text, "chip props_copy {\n");
    for (int f = 0; fields && f < fields->n; f++)
        gen_emit(text, "    %s = %.17g\n", fields->keys[f], number(&fields->items[f], "value"));
    gen_emit(text, "}\n");
    copy_text(card[i], CARD_MAX, text->text);
    arena_free(&arena);
    free(o.text);
    free(errors);
    return card[i];
}

/* Two records equal in every key but the chip's name, the statement's text and its
 * line (the copy's definition comes first), and a search row's statement that costs it
 * alone (it names the chip). */
static bool same_json(const Json *a, const Json *b, char *why, size_t size)
{
    if (a->kind != b->kind || a->n != b->n)
        return snprintf(why, size, "a different kind or size"), false;
    if (a->kind == JSON_NUMBER && a->number != b->number)
        return snprintf(why, size, "%.17g, the copy's %.17g", a->number, b->number), false;
    if (a->kind == JSON_STRING && strcmp(a->string, b->string) != 0)
        return snprintf(why, size, "\"%s\", the copy's \"%s\"", a->string, b->string), false;
    if (a->kind == JSON_BOOL && a->truth != b->truth)
        return snprintf(why, size, "%d, the copy's %d", a->truth, b->truth), false;
    for (int i = 0; i < a->n; i++) {
        const char *key = a->kind == JSON_OBJECT ? a->keys[i] : "";
        if (strcmp(key, "chip") == 0 || strcmp(key, "stmt") == 0 || strcmp(key, "line") == 0 ||
            strcmp(key, "reproduce") == 0)
            continue;
        if (a->kind == JSON_OBJECT && strcmp(key, b->keys[i]) != 0)
            return snprintf(why, size, "key %s, the copy's %s", key, b->keys[i]), false;
        if (!same_json(&a->items[i], &b->items[i], why, size)) {
            size_t used = strlen(why);
            snprintf(why + used, size - used, " in %s", *key ? key : "[]");
            return false;
        }
    }
    return true;
}

static void check_copy(const Case *c, const Json *const *r, int n, Arena *arena)
{
    program(&variant_text, c, "props_copy", chip_copy(c->chip), false);
    char *errors = NULL;
    Output o = run(variant_text.text, true, &errors);
    const Json *copy[64] = {0};
    int m = o.status == RUN_OK ? records(&o, arena, copy, 64) : 0;
    char why[512] = "";
    bool same = m == n;
    if (!same)
        snprintf(why, sizeof why, "%d records, the copy %d: %s", n, m, errors ? errors : "");
    for (int i = 0; same && i < n; i++)
        same = same_json(r[i], copy[i], why, sizeof why);
    hold(same, "copy", why, base_text.text, variant_text.text);
    free(o.text);
    free(errors);
}

/* ---- the cases ----------------------------------------------------------------- */

static void check_case(Case *c, const Json *const *r, int n, Arena *arena)
{
    for (int i = 0; i < n; i++)
        check_bounds(r[i], !training(c), base_text.text);
    if (c->kind == KIND_SEARCH) {
        check_search(c, r, n, arena);
    } else {
        check_text(r[n - 1], base_text.text);
        check_grow(c, r[n - 1], arena);
        check_split(c, r[n - 1], arena);
        if (c->kind == KIND_INLINE)
            check_inline(c, r[n - 1], arena);
    }
    check_copy(c, r, n, arena);
}

static void one_case(Gen *g)
{
    Case c;
    generate(g, &c);
    program(&base_text, &c, c.chip, "", false);
    char *errors = NULL;
    Output o = run(base_text.text, true, &errors);
    Arena arena = {0};
    const Json *r[64];
    int n = o.status == RUN_OK ? records(&o, &arena, r, 64) : 0;
    if (verbose)
        printf("case %d: %s\n%s%s", case_number, n ? "ran" : "skipped", base_text.text,
               n ? "" : errors);
    if (n) {
        ran[c.kind]++;
        check_case(&c, r, n, &arena);
    } else {
        skipped[c.kind]++;
    }
    arena_free(&arena);
    free(o.text);
    free(errors);
}

static unsigned long env_number(const char *name, unsigned long fallback)
{
    const char *v = getenv(name);
    return v && *v ? strtoul(v, NULL, 10) : fallback;
}

int main(void)
{
    static Gen g;
    seed = env_number("ROOFLINE_PROPS_SEED", 1);
    int count = (int)env_number("ROOFLINE_PROPS_COUNT", DEFAULT_COUNT);
    verbose = env_number("ROOFLINE_PROPS_VERBOSE", 0) != 0;
    rng_state = seed;
    for (case_number = 0; case_number < count; case_number++)
        one_case(&g);
    printf("cases run: %d plain, %d inline, %d search; skipped (an error) %d, %d, %d\nchecks:",
           ran[KIND_PLAIN], ran[KIND_INLINE], ran[KIND_SEARCH], skipped[KIND_PLAIN],
           skipped[KIND_INLINE], skipped[KIND_SEARCH]);
    bool each = true; /* every invariant was checked, or it holds of nothing */
    for (int i = 0; i < INVARIANTS; i++) {
        printf(" %s %d", invariants[i], checked[i]);
        each = each && checked[i] > 0;
    }
    printf("\n");
    check(each && ran[KIND_PLAIN] * 2 >= count / 2, __FILE__, __LINE__,
          "too many generated programs fail to run, or an invariant was never checked");
    session_free(session());
    printf("%d passed, %d failed\n", passed, failed);
    return failed != 0;
}
