/* calibrate.c — fits a chip to measured kernel times (calibrate.h). Each case becomes
 * the kernels predict.c times, so the fit and the prediction share one model; the
 * statements printed with `cases` cost the same work through the language, which the
 * tests run to check that both agree with the measurements. */
#include "calibrate.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "json.h"
#include "predict.h"
#include "source.h"

enum { CASE_KERNELS = 3, CASE_TEXT = 1024, NAME_MAX_LEN = 64 };

typedef enum { KIND_MATMUL, KIND_VECTOR, KIND_ATTENTION, KIND_LAUNCH } CaseKind;

typedef struct {
    char name[NAME_MAX_LEN];
    double seconds;          /* the measured median */
    CaseKind kind;
    DType dtype;             /* a matmul's */
    CostKernel k[CASE_KERNELS]; /* attention: k[0] is its first matmul (QK) */
    int nk;
    double flops, bytes;     /* attention: the fused kernel's totals */
    double runs;             /* the kernels run this many times (a graph of 100 adds) */
    bool graph;              /* replayed from a CUDA graph ("graph": true) */
    bool memory_bound;       /* a matmul far below the ridge point (mark_memory_bound) */
    char stmt[CASE_TEXT];    /* the same work in the language */
} Case;

typedef struct {
    Case *items;
    int n, cap;
    char device[200];
    double sms;              /* from the `_device` line; 0 when absent */
    int unknown;             /* lines of a case no model covers */
    char unknown_names[200];
} Cases;

/* ---- Reading the cases ------------------------------------------------------------ */

static bool starts(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* The dtype a case name spells after its first underscore: "add_bf16_2^28" is bf16. */
static DType name_dtype(const char *name)
{
    const char *from = strchr(name, '_'), *to = from ? strchr(from + 1, '_') : NULL;
    int t = from && to ? dtype_lookup(from + 1, (size_t)(to - from - 1)) : -1;
    return t >= 0 ? (DType)t : DT_BF16;
}

static CostKernel vector_kernel(DType t, double flops, double elements)
{
    return (CostKernel){.matrix = false, .dtype = t, .flops = flops,
                        .bytes = elements * dtype_bytes(t), .rows = NAN, .cols = NAN,
                        .depth = NAN, .batch = NAN};
}

/* mm_*: a @ b of [M,K] x [K,N]; int8 writes int32 (costed as f32, 4 bytes), fp8 bf16. */
static bool matmul_case(Case *c, const Json *o)
{
    double m, k, n;
    if (!json_number(o, "M", &m) || !json_number(o, "K", &k) || !json_number(o, "N", &n))
        return false;
    c->kind = KIND_MATMUL;
    c->dtype = starts(c->name, "mm_int8_") ? DT_INT8 : starts(c->name, "mm_fp8_") ? DT_FP8_E4M3
             : starts(c->name, "mm_f16_") ? DT_F16 : DT_BF16;
    DType out = c->dtype == DT_INT8 ? DT_F32 : c->dtype == DT_FP8_E4M3 ? DT_BF16 : c->dtype;
    c->k[c->nk++] = (CostKernel){.matrix = true, .dtype = c->dtype, .flops = 2 * m * k * n,
                                 .bytes = (m * k + k * n) * dtype_bytes(c->dtype) +
                                          m * n * dtype_bytes(out),
                                 .rows = m, .cols = n, .depth = k, .batch = 1};
    const char *in = dtype_name(c->dtype);
    int len = snprintf(c->stmt, CASE_TEXT, "%s[%.17g,%.17g] *_K %s[%.17g,%.17g]", in, m, k, in,
                       k, n);
    if (out != c->dtype)
        snprintf(c->stmt + len, CASE_TEXT - (size_t)len, " -> %s[%.17g,%.17g]", dtype_name(out),
                 m, n);
    return true;
}

/* Elementwise ops over N elements: add, mul, a copy, and two adds in a row (add3). */
static bool elementwise_case(Case *c, const Json *o)
{
    double n;
    if (!json_number(o, "N", &n))
        return false;
    DType t = name_dtype(c->name);
    const char *ty = dtype_name(t);
    c->kind = KIND_VECTOR;
    if (starts(c->name, "copy_")) { /* one read, one write: a unary op's traffic */
        c->k[c->nk++] = vector_kernel(t, n, 2 * n);
        snprintf(c->stmt, CASE_TEXT, "relu(%s[%.17g])", ty, n);
        return true;
    }
    bool three = starts(c->name, "add3_"), mul = starts(c->name, "mul_");
    for (int i = 0; i < (three ? 2 : 1); i++)
        c->k[c->nk++] = vector_kernel(t, n, 3 * n);
    if (three)
        snprintf(c->stmt, CASE_TEXT, "%s[%.17g] + %s[%.17g] + %s[%.17g]", ty, n, ty, n, ty, n);
    else
        snprintf(c->stmt, CASE_TEXT, "%s[%.17g] %s %s[%.17g]", ty, n, mul ? "*" : "+", ty, n);
    return true;
}

/* Reductions of [I,J] rows: sum; softmax as three passes over x (max, sum, normalise:
 * PyTorch's kernel for rows too long to keep on chip); an eager RMS norm as its three
 * kernels (mean of squares, rsqrt, the product). */
static bool rows_case(Case *c, const Json *o)
{
    double i, j;
    if (!json_number(o, "I", &i) || !json_number(o, "J", &j))
        return false;
    DType t = name_dtype(c->name);
    const char *block = starts(c->name, "softmax_") ? "softmax_passes"
                        : starts(c->name, "rmsnorm_") ? "rms_norm_eager" : NULL;
    c->kind = KIND_VECTOR;
    c->k[c->nk++] = vector_kernel(t, i * j, i * j + i);
    if (!block) {
        snprintf(c->stmt, CASE_TEXT, "sum(%s[%.17g,%.17g], 1)", dtype_name(t), i, j);
        return true;
    }
    bool softmax = block[0] == 's';
    c->k[c->nk++] = softmax ? vector_kernel(t, i * j, i * j + i) : vector_kernel(t, i, 2 * i);
    c->k[c->nk++] = vector_kernel(t, i * j, 2 * i * j + i);
    snprintf(c->stmt, CASE_TEXT, "%s(%s[%.17g, %.17g])", block, dtype_name(t), i, j);
    return true;
}

/* tiny_add_*: one add of N elements, launched eagerly, or `kernels` of them in a graph. */
static bool launch_case(Case *c, const Json *o)
{
    double n, kernels = 1;
    if (!json_number(o, "N", &n))
        return false;
    c->kind = KIND_LAUNCH;
    c->graph = starts(c->name, "tiny_add_graph");
    if (c->graph && !json_number(o, "kernels", &kernels))
        return false;
    c->k[c->nk++] = vector_kernel(DT_BF16, n, 3 * n);
    c->runs = kernels;
    if (c->graph)
        snprintf(c->stmt, CASE_TEXT, "mode inference launch graph\nrepeat %.17g { y = bf16[%.17g] "
                 "+ bf16[%.17g] }\nmode inference", kernels, n, n);
    else
        snprintf(c->stmt, CASE_TEXT, "bf16[%.17g] + bf16[%.17g]", n, n);
    return true;
}

/* sdpa_*: flash attention, q [B,N,T,H] against k, v [B,K,S,H] (GQA, G = N/K). A causal
 * prefill computes half the scores: costed as S = T/2 keys. Decode has T = 1. */
static bool attention_case(Case *c, const Json *o)
{
    double b, t = 1, s, n, k, h;
    bool decode = starts(c->name, "sdpa_decode");
    if (!json_number(o, "B", &b) || !json_number(o, "N", &n) || !json_number(o, "K", &k) ||
        !json_number(o, "H", &h) || !json_number(o, decode ? "S" : "T", decode ? &s : &t))
        return false;
    if (!decode)
        s = starts(c->name, "sdpa_prefill_causal") ? t / 2 : t;
    double g = n / k;
    c->kind = KIND_ATTENTION;
    c->k[c->nk++] = (CostKernel){.matrix = true, .dtype = DT_BF16, .flops = 2 * b * t * n * s * h,
                                 .rows = t * g, .cols = s, .depth = h, .batch = b * k};
    c->flops = 4 * b * t * n * s * h + 3 * b * t * n * s;
    c->bytes = 2 * (2 * b * t * n * h + 2 * b * s * k * h);
    snprintf(c->stmt, CASE_TEXT, "sdpa(bf16[%.17g, %.17g, %.17g, %.17g, %.17g], bf16[%.17g, "
             "%.17g, %.17g, %.17g], bf16[%.17g, %.17g, %.17g, %.17g])", b, t, k, g, h, b, s, k,
             h, b, s, k, h);
    return true;
}

static bool case_from(Case *c, const Json *o)
{
    const char *n = c->name;
    if (starts(n, "mm_"))
        return matmul_case(c, o);
    if (starts(n, "add") || starts(n, "mul_") || starts(n, "copy_"))
        return elementwise_case(c, o);
    if (starts(n, "sum_") || starts(n, "softmax_") || starts(n, "rmsnorm_"))
        return rows_case(c, o);
    if (starts(n, "tiny_add_"))
        return launch_case(c, o);
    if (starts(n, "sdpa_"))
        return attention_case(c, o);
    return false;
}

/* A case timed inside a CUDA graph ("graph": true) is costed as one: `launch graph`. */
static void graph_statement(Case *c)
{
    static const char head[] = "mode inference launch graph\n", tail[] = "\nmode inference";
    size_t len = strlen(c->stmt);
    if (len + sizeof head + sizeof tail > CASE_TEXT)
        return; /* no case's statement is near so long */
    memmove(c->stmt + sizeof head - 1, c->stmt, len);
    memcpy(c->stmt, head, sizeof head - 1);
    memcpy(c->stmt + sizeof head - 1 + len, tail, sizeof tail);
}

static void note_device(Cases *cs, const Json *o)
{
    const char *name = json_string(o, "name"), *torch = json_string(o, "torch");
    json_number(o, "sms", &cs->sms);
    snprintf(cs->device, sizeof cs->device, "%s%s%s", name ? name : "an unnamed device",
             torch ? ", torch " : "", torch ? torch : "");
}

static void note_unknown(Cases *cs, const char *name)
{
    size_t used = strlen(cs->unknown_names);
    if (cs->unknown++ < 6)
        snprintf(cs->unknown_names + used, sizeof cs->unknown_names - used, "%s%s",
                 used ? " " : "", name);
}

static bool add_case(Cases *cs, const Case *c)
{
    if (cs->n == cs->cap) {
        int cap = cs->cap ? 2 * cs->cap : 64;
        Case *more = realloc(cs->items, sizeof *more * (size_t)cap);
        if (!more)
            return false;
        cs->items = more;
        cs->cap = cap;
    }
    cs->items[cs->n++] = *c;
    return true;
}

/* One line: the device, a case, or (reported) what cannot be read. */
static bool read_line(Cases *cs, const char *line, size_t len, const CalibrateOptions *opt,
                      int lineno, FILE *err)
{
    Arena arena = {0};
    const char *why = NULL;
    const Json *o = json_parse(line, len, &arena, &why);
    const char *name = o ? json_string(o, "case") : NULL;
    bool ok = true;
    Case c = {.runs = 1};
    if (!o || !name) {
        fprintf(err, "roofline: error: %s:%d: %s\n", opt->path, lineno,
                o ? "a line without a \"case\"" : why);
        ok = false;
    } else if (strcmp(name, "_device") == 0) {
        note_device(cs, o);
    } else if (!(opt->leave_out && strcmp(name, opt->leave_out) == 0)) {
        snprintf(c.name, sizeof c.name, "%s", name);
        double ms;
        bool known = json_number(o, "ms", &ms) && ms > 0 && case_from(&c, o);
        if (known && c.kind != KIND_LAUNCH && json_true(o, "graph")) {
            c.graph = true; /* GPU time alone, no launch */
            graph_statement(&c);
        }
        c.seconds = known ? ms / 1e3 : 0;
        if (!known)
            note_unknown(cs, c.name);
        else if (!add_case(cs, &c))
            ok = false; /* out of memory */
    }
    arena_free(&arena);
    return ok;
}

static bool read_cases(Cases *cs, const CalibrateOptions *opt, FILE *err)
{
    size_t len = 0;
    const char *why = NULL;
    char *text = source_read_file(opt->path, &len, &why);
    if (!text) {
        fprintf(err, "roofline: error: cannot read %s: %s\n", opt->path, why);
        return false;
    }
    bool ok = true;
    int lineno = 0;
    for (char *at = text; ok && at < text + len;) {
        char *end = memchr(at, '\n', (size_t)(text + len - at));
        size_t n = end ? (size_t)(end - at) : (size_t)(text + len - at);
        lineno++;
        if (n > 0 && strspn(at, " \t\r") < n)
            ok = read_line(cs, at, n, opt, lineno, err);
        at += n + 1;
    }
    free(text);
    return ok;
}

/* ---- The fit ------------------------------------------------------------------------ */

static double case_time(const Case *c, const Chip *chip)
{
    if (c->kind == KIND_ATTENTION)
        return predict_kernel(chip, &c->k[0], &c->k[0], c->flops, c->bytes, c->graph, NULL, NULL);
    double t = 0;
    for (int i = 0; i < c->nk; i++)
        t += predict_kernel(chip, &c->k[i], NULL, c->k[i].flops, c->k[i].bytes, c->graph, NULL,
                            NULL);
    return t * c->runs;
}

/* Which cases a field is fitted to. */
typedef struct {
    int kind;           /* a CaseKind, or -1 for the vector kernels timed in a graph */
    int dtype;          /* a matmul's, or -1 for any */
    bool memory_bound;  /* only the memory-bound matmuls */
} Filter;

enum { GRAPH_VECTORS = -1 };

static bool kept(const Case *c, Filter f)
{
    if (f.kind == GRAPH_VECTORS)
        return c->graph && (c->kind == KIND_VECTOR || c->kind == KIND_LAUNCH);
    return (int)c->kind == f.kind && (!f.memory_bound || c->memory_bound) &&
           (f.dtype < 0 || (int)c->dtype == f.dtype ||
            (f.dtype == DT_BF16 && c->dtype == DT_F16));
}

/* A matmul whose FLOPs per byte are under a quarter of the chip's ridge point (its
 * peak over its bandwidth) is memory-bound at any efficiency the fit may find: its
 * time says what bytes and the fixed cost of a kernel take, whatever its tiles. */
static void mark_memory_bound(Cases *cs, const Chip *base)
{
    for (int i = 0; i < cs->n; i++) {
        Case *c = &cs->items[i];
        double ridge;
        c->memory_bound = c->kind == KIND_MATMUL &&
                          chip_ridge(base, chip_peak_field(c->dtype), &ridge) &&
                          c->k[0].flops / c->k[0].bytes < ridge / 4;
    }
}

/* What the fit makes least: the cases kept that miss their measured time by over 10 %,
 * then Σ (log predicted / measured)² over the others. Each of those terms is under
 * log(1.1)² < 0.01, so below 100 cases one more case within 10 % always wins (maximum
 * consensus, then least squares): one outlier, such as a library's slow path at one
 * size, cannot drag the fit away from the cases it does describe. */
static double misfit(const Cases *cs, Filter f, const Chip *chip)
{
    double out = 0, sum = 0, band = log(1.1);
    for (int i = 0; i < cs->n; i++) {
        if (!kept(&cs->items[i], f))
            continue;
        double r = fabs(log(case_time(&cs->items[i], chip) / cs->items[i].seconds));
        if (isnan(r) || r > band)
            out++;
        else
            sum += r * r;
    }
    return out + sum;
}

static int count(const Cases *cs, Filter f)
{
    int n = 0;
    for (int i = 0; i < cs->n; i++)
        n += kept(&cs->items[i], f);
    return n;
}

static void put(Chip *chip, ChipField field, double v)
{
    chip->value[field] = v;
    chip->set[field] = true;
}

/* The misfit with field at v. */
static double misfit_at(const Cases *cs, Filter f, Chip *chip, ChipField field, double v)
{
    put(chip, field, v);
    return misfit(cs, f, chip);
}

/* The value of a fraction in (0, 1] that fits the cases best: the best of a grid of
 * 1/100, then of 1/2000 around it. */
static double fit_fraction(const Cases *cs, Filter f, Chip *chip, ChipField field)
{
    double best = NAN, least = INFINITY;
    for (int step = 1; step <= 100; step++) {
        double m = misfit_at(cs, f, chip, field, step / 100.0);
        if (m < least)
            least = m, best = step / 100.0;
    }
    double around = best;
    for (int step = -20; step <= 20; step++) {
        double v = around + step / 2000.0;
        double m = v > 0 && v <= 1 ? misfit_at(cs, f, chip, field, v) : INFINITY;
        if (m < least)
            least = m, best = v;
    }
    put(chip, field, best);
    return least;
}

/* Whether the memory-bound bf16 matmuls span bytes enough (4x) to tell a fixed cost
 * from a bandwidth: one size cannot. */
static bool spans_sizes(const Cases *cs)
{
    double lo = INFINITY, hi = 0;
    for (int i = 0; i < cs->n; i++)
        if (kept(&cs->items[i], (Filter){KIND_MATMUL, DT_BF16, true})) {
            lo = fmin(lo, cs->items[i].k[0].bytes);
            hi = fmax(hi, cs->items[i].k[0].bytes);
        }
    return hi >= 4 * lo;
}

/* The memory-bound matmuls: the fixed cost mm_t0 (on a grid of 0.05 us to 10 us) and
 * mm_hbm_eff that fit them best. */
static void fit_matmul_bytes(const Cases *cs, Chip *chip)
{
    Filter f = {KIND_MATMUL, DT_BF16, true};
    double least = INFINITY, best_eff = NAN, best_t0 = NAN;
    put(chip, CHIP_TILE_M, 128); /* placeholders, fitted next */
    put(chip, CHIP_TILE_N, 128);
    put(chip, CHIP_MM_EFF, 0.7);
    for (int step_t0 = 1; step_t0 <= 200; step_t0++) {
        put(chip, CHIP_MM_T0, step_t0 * 0.05e-6);
        for (int step = 60; step <= 200; step++) { /* mm_hbm_eff 0.3 to 1 */
            double m = misfit_at(cs, f, chip, CHIP_MM_HBM_EFF, step / 200.0);
            if (m < least)
                least = m, best_eff = step / 200.0, best_t0 = step_t0 * 0.05e-6;
        }
    }
    put(chip, CHIP_MM_HBM_EFF, best_eff);
    put(chip, CHIP_MM_T0, best_t0);
}

/* Matmuls: the tile (of 64, 128, 256 a side) and the fractions that fit best. Where
 * the memory-bound ones span sizes, they give mm_t0 and mm_hbm_eff first (no tile or
 * mm_eff changes their times much); else mm_hbm_eff is fitted with the tiles. */
static void fit_matmuls(const Cases *cs, Chip *chip)
{
    static const double sides[] = {64, 128, 256};
    Filter f = {KIND_MATMUL, DT_BF16, false};
    double least = INFINITY, best[4] = {0};
    bool bytes_first = spans_sizes(cs);
    if (bytes_first)
        fit_matmul_bytes(cs, chip);
    int from = bytes_first ? 0 : 60, to = bytes_first ? 0 : 200; /* mm_hbm_eff 0.3 to 1 */
    for (int a = 0; a < 3; a++)
        for (int b = 0; b < 3; b++) {
            put(chip, CHIP_TILE_M, sides[a]);
            put(chip, CHIP_TILE_N, sides[b]);
            for (int step = from; step <= to; step++) {
                if (!bytes_first)
                    put(chip, CHIP_MM_HBM_EFF, step / 200.0);
                double m = fit_fraction(cs, f, chip, CHIP_MM_EFF);
                if (m < least) {
                    least = m;
                    best[0] = sides[a], best[1] = sides[b];
                    best[2] = chip->value[CHIP_MM_HBM_EFF], best[3] = chip->value[CHIP_MM_EFF];
                }
            }
        }
    put(chip, CHIP_TILE_M, best[0]);
    put(chip, CHIP_TILE_N, best[1]);
    put(chip, CHIP_MM_HBM_EFF, best[2]);
    put(chip, CHIP_MM_EFF, best[3]);
}

/* The floor from a graph of tiny kernels; the launch from one launched eagerly. */
static void fit_launch(const Cases *cs, Chip *chip)
{
    for (int i = 0; i < cs->n; i++) {
        const Case *c = &cs->items[i];
        if (c->kind == KIND_LAUNCH && c->graph)
            put(chip, CHIP_KERNEL_FLOOR, c->seconds / c->runs -
                                         c->k[0].bytes / chip->value[CHIP_HBM_BW]);
    }
    for (int i = 0; i < cs->n; i++) {
        const Case *c = &cs->items[i];
        if (c->kind == KIND_LAUNCH && !c->graph)
            put(chip, CHIP_LAUNCH_EAGER, c->seconds);
    }
}

/* Where vector kernels of several sizes were timed in a graph (on operands in HBM),
 * the floor that fits them all best, on a grid of 0.01 us: a kernel that reads HBM
 * waits for it, which the graph of tiny adds (on operands in L2) does not show. */
static void fit_floor(const Cases *cs, Chip *chip)
{
    Filter f = {GRAPH_VECTORS, -1, false};
    if (count(cs, f) < 2)
        return;
    double best = NAN, least = INFINITY;
    for (int step = 10; step <= 1000; step++) {
        double m = misfit_at(cs, f, chip, CHIP_KERNEL_FLOOR, step * 1e-8);
        if (m < least)
            least = m, best = step * 1e-8;
    }
    put(chip, CHIP_KERNEL_FLOOR, best);
}

/* Decode attention with fewer units of work (a sequence's KV head) than SMs streams at
 * what those SMs can pull: the rate an SM that fits best, on a grid of 1 % steps from
 * 1 GB/s; set only when some case has so few units. */
static void fit_attention_sm(const Cases *cs, Chip *chip)
{
    bool few = false;
    for (int i = 0; i < cs->n; i++) {
        const Case *c = &cs->items[i];
        few = few || (c->kind == KIND_ATTENTION &&
                      c->k[0].batch * ceil(c->k[0].rows / COST_TILE) < chip->value[CHIP_CORES]);
    }
    if (!few)
        return;
    double best = NAN, least = INFINITY;
    for (double bw = 1e9; bw < 1e13; bw *= 1.01) {
        put(chip, CHIP_ATTN_SM_BW, bw);
        double m = misfit(cs, (Filter){KIND_ATTENTION, -1, false}, chip);
        if (m < least) {
            least = m;
            best = bw;
        }
    }
    put(chip, CHIP_ATTN_SM_BW, best);
}

static void matmul_range(const Cases *cs, Chip *chip)
{
    double lo = INFINITY, hi = 0;
    for (int i = 0; i < cs->n; i++)
        if (cs->items[i].kind == KIND_MATMUL) {
            lo = fmin(lo, cs->items[i].k[0].flops);
            hi = fmax(hi, cs->items[i].k[0].flops);
        }
    if (hi > 0) {
        put(chip, CHIP_MM_FLOPS_MIN, lo);
        put(chip, CHIP_MM_FLOPS_MAX, hi);
    }
}

/* Every field the cases can give, in the order each needs the ones before. */
static void fit(const Cases *cs, Chip *chip)
{
    if (cs->sms > 0)
        put(chip, CHIP_CORES, cs->sms);
    fit_launch(cs, chip);
    if (count(cs, (Filter){KIND_VECTOR, -1, false})) {
        fit_fraction(cs, (Filter){KIND_VECTOR, -1, false}, chip, CHIP_HBM_EFF);
        fit_floor(cs, chip);
        fit_fraction(cs, (Filter){KIND_VECTOR, -1, false}, chip, CHIP_HBM_EFF);
    }
    if (count(cs, (Filter){KIND_MATMUL, DT_BF16, false}) && chip->set[CHIP_CORES]) {
        fit_matmuls(cs, chip);
        put(chip, CHIP_FLOPS_EFF, chip->value[CHIP_MM_EFF]);
        if (count(cs, (Filter){KIND_MATMUL, DT_FP8_E4M3, false}))
            fit_fraction(cs, (Filter){KIND_MATMUL, DT_FP8_E4M3, false}, chip, CHIP_MM_EFF_FP8);
        if (count(cs, (Filter){KIND_MATMUL, DT_INT8, false}))
            fit_fraction(cs, (Filter){KIND_MATMUL, DT_INT8, false}, chip, CHIP_MM_EFF_INT8);
        matmul_range(cs, chip);
    }
    if (count(cs, (Filter){KIND_ATTENTION, -1, false}) && chip->set[CHIP_HBM_EFF] &&
        chip->set[CHIP_CORES]) {
        fit_fraction(cs, (Filter){KIND_ATTENTION, -1, false}, chip, CHIP_ATTN_EFF);
        fit_attention_sm(cs, chip);
        fit_fraction(cs, (Filter){KIND_ATTENTION, -1, false}, chip, CHIP_ATTN_EFF);
    }
}

/* ---- The output ------------------------------------------------------------------- */

/* "14 cases: mm_sq_4096 .. mm_mlp_B16384" for the cases a filter keeps. */
static const char *which(const Cases *cs, Filter f, char *buf, size_t size)
{
    const char *first = NULL, *last = NULL;
    for (int i = 0; i < cs->n; i++)
        if (kept(&cs->items[i], f)) {
            first = first ? first : cs->items[i].name;
            last = cs->items[i].name;
        }
    int n = count(cs, f);
    if (n == 1)
        snprintf(buf, size, "%s", first);
    else
        snprintf(buf, size, "%d cases, %s .. %s", n, first ? first : "", last ? last : "");
    return buf;
}

static void field_line(FILE *out, const Chip *chip, ChipField f, const char *from)
{
    if (chip->set[f])
        fprintf(out, "    %-12s = %-10.4g # %s\n", chip_fields[f].name, chip->value[f], from);
}

static void print_matmul_fields(FILE *out, const Cases *cs, const Chip *chip)
{
    char w[160], line[320];
    which(cs, (Filter){KIND_MATMUL, DT_BF16, false}, w, sizeof w);
    snprintf(line, sizeof line, "%s: the tile of 64..256 a side whose waves fit best", w);
    field_line(out, chip, CHIP_TILE_M, line);
    field_line(out, chip, CHIP_TILE_N, line);
    snprintf(line, sizeof line, "%s: their compute-bound waves", w);
    field_line(out, chip, CHIP_MM_EFF, line);
    if (chip->set[CHIP_MM_T0]) {
        which(cs, (Filter){KIND_MATMUL, DT_BF16, true}, w, sizeof w);
        snprintf(line, sizeof line, "%s: the memory-bound ones (under a quarter of the ridge "
                 "point's FLOPs a byte)", w);
        field_line(out, chip, CHIP_MM_HBM_EFF, line);
        field_line(out, chip, CHIP_MM_T0, line);
    } else {
        snprintf(line, sizeof line, "%s: their memory-bound (small M) times", w);
        field_line(out, chip, CHIP_MM_HBM_EFF, line);
    }
    field_line(out, chip, CHIP_FLOPS_EFF, "= mm_eff: the derated bound of a kernel no "
               "measurement covers");
    snprintf(line, sizeof line, "%s", which(cs, (Filter){KIND_MATMUL, DT_FP8_E4M3, false}, w, sizeof w));
    field_line(out, chip, CHIP_MM_EFF_FP8, line);
    snprintf(line, sizeof line, "%s%s", which(cs, (Filter){KIND_MATMUL, DT_INT8, false}, w, sizeof w),
             chip->value[CHIP_MM_EFF_INT8] < 0.25 ? ": a slow library path, not the hardware "
                                                    "(see the note above)" : "");
    field_line(out, chip, CHIP_MM_EFF_INT8, line);
    field_line(out, chip, CHIP_MM_FLOPS_MIN, "the smallest matmul measured, any dtype");
    field_line(out, chip, CHIP_MM_FLOPS_MAX, "the largest matmul measured, any dtype");
}

static void print_fields(FILE *out, const Cases *cs, const Chip *base, const Chip *chip)
{
    char w[160], line[320];
    if (cs->sms > 0 && (!base->set[CHIP_CORES] || base->value[CHIP_CORES] != cs->sms))
        field_line(out, chip, CHIP_CORES, "_device: its SMs");
    snprintf(line, sizeof line, "%s", which(cs, (Filter){KIND_VECTOR, -1, false}, w, sizeof w));
    field_line(out, chip, CHIP_HBM_EFF, line);
    print_matmul_fields(out, cs, chip);
    snprintf(line, sizeof line, "%s", which(cs, (Filter){KIND_ATTENTION, -1, false}, w, sizeof w));
    field_line(out, chip, CHIP_ATTN_EFF, line);
    field_line(out, chip, CHIP_ATTN_SM_BW, "the sdpa_decode cases with fewer (batch, KV head) "
               "pairs than SMs");
    Filter graphed = {GRAPH_VECTORS, -1, false};
    if (count(cs, graphed) >= 2) {
        snprintf(line, sizeof line, "%s: vector kernels timed in a CUDA graph",
                 which(cs, graphed, w, sizeof w));
        field_line(out, chip, CHIP_KERNEL_FLOOR, line);
    } else {
        field_line(out, chip, CHIP_KERNEL_FLOOR, "tiny_add_graph_*: a replay's time per kernel");
    }
    field_line(out, chip, CHIP_LAUNCH_EAGER, "tiny_add_eager_*: a call's time");
}

static void print_notes(FILE *out, const Cases *cs, const Chip *base, const Chip *chip)
{
    if (chip->set[CHIP_MM_EFF_INT8] && chip->value[CHIP_MM_EFF_INT8] < 0.25)
        fprintf(out, "# note: the int8 products reach %.3g%% of flops_int8, far below any "
                "hardware limit: the library path that ran them is slow (torch._int_mm), so "
                "flops_int8 keeps %s's %.4g and mm_eff_int8 prices int8 products as that path "
                "runs them; leave mm_eff_int8 out to price the hardware instead.\n",
                100 * chip->value[CHIP_MM_EFF_INT8], base->name, base->value[CHIP_FLOPS_INT8]);
    bool floor = chip->set[CHIP_KERNEL_FLOOR], launch = chip->set[CHIP_LAUNCH_EAGER];
    if (!floor)
        fputs("# note: kernel_floor not set: the file has no tiny_add_graph_* case, so a "
              "kernel in a CUDA graph costs only its work.\n", out);
    if (!launch)
        fputs("# note: launch_eager not set: the file has no tiny_add_eager_* case, so "
              "`launch eager` costs what `launch graph` does.\n", out);
    if (cs->unknown)
        fprintf(out, "# note: %d case%s no model covers, left out: %s%s\n", cs->unknown,
                cs->unknown > 1 ? "s" : "", cs->unknown_names, cs->unknown > 6 ? " ..." : "");
}

/* In-sample: how many cases the fitted model puts within 10 %, and the worst. */
static void print_fit(FILE *out, const Cases *cs, const Chip *chip)
{
    int within = 0, worst = -1;
    double worst_err = 0;
    for (int i = 0; i < cs->n; i++) {
        double err = case_time(&cs->items[i], chip) / cs->items[i].seconds - 1;
        within += fabs(err) <= 0.10;
        if (isnan(err) || fabs(err) > worst_err) {
            worst_err = isnan(err) ? INFINITY : fabs(err);
            worst = i;
        }
    }
    fprintf(out, "# fit: %d of %d cases within 10%% of their measured time (in sample)", within,
            cs->n);
    double err = worst >= 0 ? case_time(&cs->items[worst], chip) / cs->items[worst].seconds - 1
                            : 0;
    if (worst >= 0 && isnan(err))
        fprintf(out, "; the worst %s, outside the model (a statement prices it at the derated "
                "bound)", cs->items[worst].name);
    else if (worst >= 0)
        fprintf(out, "; the worst %s, %+.1f%%", cs->items[worst].name, 100 * err);
    fputc('\n', out);
}

static const char cases_blocks[] =
    "# flash attention, as the stdlib's attention block runs it (one fused kernel)\n"
    "block sdpa(q: [B, T, K, G, H], keys: [B, S, K, H], values: [B, S, K, H]) {\n"
    "    fused {\n"
    "        s = q *_H keys\n"
    "        e = exp(s)\n"
    "        z = sum(e, S)\n"
    "        p = e / z\n"
    "        o = p *_S values\n"
    "    }\n"
    "    return o\n"
    "}\n"
    "# a softmax over rows too long for one SM: three passes over x (max, sum, normalise)\n"
    "block softmax_passes(x: [I, J]) {\n"
    "    m = max(x, J)\n"
    "    z = sum(x, J)\n"
    "    p = x / z\n"
    "    return p\n"
    "}\n"
    "# F.rms_norm launched eagerly: the mean of squares, rsqrt, the product\n"
    "block rms_norm_eager(x: [I, J]) {\n"
    "    ms = mean(x, J)\n"
    "    r = rsqrt(ms)\n"
    "    y = x * r\n"
    "    return y\n"
    "}\n";

static void print_cases(FILE *out, const Cases *cs, const char *name)
{
    fprintf(out, "\nuse %s\n%s", name, cases_blocks);
    for (int i = 0; i < cs->n; i++)
        fprintf(out, "# case %s %.17g ms\n%s\n", cs->items[i].name, cs->items[i].seconds * 1e3,
                cs->items[i].stmt);
}

static void print_chip(FILE *out, const Cases *cs, const CalibrateOptions *opt,
                       const Chip *base, const Chip *chip)
{
    fprintf(out, "# %s: %s calibrated from %s (%s), %d cases%s%s\n", chip->name, base->name,
            opt->path, cs->device[0] ? cs->device : "no _device line", cs->n,
            opt->leave_out ? ", without " : "", opt->leave_out ? opt->leave_out : "");
    fputs("# Each field is fitted to the measurements named beside it: the value that puts\n"
          "# the most of them within 10%, then the least squares of log time among those.\n"
          "# Statements on this chip report t_predicted (README: Calibrated prediction).\n",
          out);
    print_notes(out, cs, base, chip);
    fprintf(out, "chip %s : %s {\n", chip->name, base->name);
    print_fields(out, cs, base, chip);
    fputs("}\n", out);
    print_fit(out, cs, chip);
}

int calibrate_run(const Chip *base, const CalibrateOptions *opt, FILE *out, FILE *err)
{
    Cases cs = {0};
    if (!read_cases(&cs, opt, err)) {
        free(cs.items);
        return 1;
    }
    mark_memory_bound(&cs, base);
    char name[200];
    snprintf(name, sizeof name, "%s_cal", base->name);
    Chip *chip = cs.n > 0 ? chip_new(name, base) : NULL;
    if (cs.n == 0)
        fprintf(err, "roofline: error: %s holds no case roofline can fit (%d it cannot read)\n",
                opt->path, cs.unknown);
    else if (!chip)
        fputs("roofline: error: out of memory\n", err);
    if (chip) {
        fit(&cs, chip);
        print_chip(out, &cs, opt, base, chip);
        if (opt->cases)
            print_cases(out, &cs, name);
    }
    int status = chip ? 0 : 1;
    chip_free(chip);
    free(cs.items);
    return status;
}
