/* check.c — `expect`: regression checks on the figures of the last report, so a
 * model's cost can be tested in CI. A failed check is a located error (exit 1). */
#include <math.h>
#include <stdarg.h>
#include <string.h>

#include "eval.h"
#include "num.h"
#include "spell.h"

const char *const check_expect_fields[FIELD_COUNT + 1] = {
    "flops", "bytes", "intensity", "t_math", "t_hbm", "t_comm", "t_lower", "t_upper",
    "t_derated", "params", "param_bytes", "memory", "cache_bytes", "chips", "comm_bytes",
    "gradient_bytes", "master_bytes", "optimizer_bytes", "activation_bytes", "bound",
    "batch", "kv_per_seq", "ttft", "tpot", "tpot_first", "tpot_last",
    "decode_tokens_per_s", "tokens_per_s", "usd_per_mtok", "finishing", "evicted_tokens",
    "evicted_bytes", "qps", "qps_prefill", "prefill_ratio", "ridge", "padding_flops", "hops",
    "t_predicted",
    "tokens", "model_flops", "mfu", "tokens_per_s_all", "run_time", "chip_hours", "run_usd",
    NULL,
};

static const Unit field_units[FIELD_COUNT] = {
    UNIT_FLOPS, UNIT_BYTES, UNIT_NONE, UNIT_SECONDS, UNIT_SECONDS, UNIT_SECONDS, UNIT_SECONDS,
    UNIT_SECONDS, UNIT_SECONDS, UNIT_NONE, UNIT_BYTES, UNIT_BYTES, UNIT_BYTES, UNIT_NONE,
    UNIT_BYTES, UNIT_BYTES, UNIT_BYTES, UNIT_BYTES, UNIT_BYTES, UNIT_NONE,
    UNIT_NONE, UNIT_BYTES, UNIT_SECONDS, UNIT_SECONDS, UNIT_SECONDS,
    UNIT_SECONDS, UNIT_NONE, UNIT_NONE, UNIT_NONE,
    UNIT_NONE, UNIT_NONE, UNIT_BYTES, UNIT_NONE, UNIT_NONE, UNIT_NONE, /* serve's pool */
    UNIT_NONE, UNIT_FLOPS, UNIT_NONE,
    UNIT_SECONDS,
    UNIT_NONE, UNIT_FLOPS, UNIT_NONE, UNIT_NONE, UNIT_SECONDS, UNIT_NONE, UNIT_NONE,
};

static void set(LastReport *last, ExpectField f, bool known, double v)
{
    last->known[f] = known && isfinite(v);
    last->value[f] = v;
}

void check_remember_statement(Eval *ev, const Stmt *s, const Roofline *r)
{
    LastReport *last = &ev->world->last;
    memset(last, 0, sizeof *last);
    last->set = true;
    last->span = s->span;
    bool t = r->chip && r->times_known;
    set(last, FIELD_FLOPS, r->flops.known, r->flops.value);
    set(last, FIELD_BYTES, r->bytes.known, r->bytes.value);
    set(last, FIELD_INTENSITY, r->intensity_known, r->intensity);
    set(last, FIELD_T_MATH, r->chip && r->t_math.known, r->t_math.value);
    set(last, FIELD_T_HBM, r->chip && r->t_hbm.known, r->t_hbm.value);
    set(last, FIELD_T_COMM, r->chip && r->t_comm.known, r->t_comm.value);
    set(last, FIELD_T_LOWER, t, r->t_lower);
    set(last, FIELD_T_UPPER, t, r->t_upper);
    set(last, FIELD_T_DERATED, t, r->t_derated);
    set(last, FIELD_MEMORY, r->memory_known, r->memory);
    set(last, FIELD_CHIPS, true, r->chips);
    set(last, FIELD_COMM_BYTES, r->chip && r->comm_bytes.known, r->comm_bytes.value);
    set(last, FIELD_RIDGE, r->chip, r->ridge);
    double hops = 0;
    for (int i = 0; r->chip && i < r->ncomm; i++)
        hops = fmax(hops, r->links[i].hops);
    set(last, FIELD_HOPS, r->chip != NULL, hops);
    set(last, FIELD_PADDING_FLOPS, r->chip && (!r->padding.formula || r->padding.known),
        r->padding.formula ? r->padding.value : 0);
    set(last, FIELD_T_PREDICTED, t && r->predict.known, r->predict.t);
    last->bound = r->bound;
    last->known[FIELD_BOUND] = r->bound != BOUND_UNKNOWN;
    last->plain = true;
}

void check_remember_transfer(Eval *ev, const Stmt *s, double bytes, double t, double hops,
                       double chips)
{
    LastReport *last = &ev->world->last;
    memset(last, 0, sizeof *last);
    last->set = true;
    last->span = s->span;
    last->plain = true;
    set(last, FIELD_COMM_BYTES, true, bytes);
    set(last, FIELD_T_COMM, true, t);
    set(last, FIELD_T_LOWER, true, t);
    set(last, FIELD_T_UPPER, true, t);
    set(last, FIELD_HOPS, true, hops);
    set(last, FIELD_CHIPS, true, chips);
    last->bound = BOUND_COMM;
    last->known[FIELD_BOUND] = true;
}

void check_remember_block(Eval *ev, const Stmt *s, const Op *one, const Chip *chip, double chips)
{
    Op all = op_scaled(one);
    const Op *op = &all;
    LastReport *last = &ev->world->last;
    memset(last, 0, sizeof *last);
    last->set = true;
    last->span = s->span;
    bool t = op->known && chip;
    double v[FIELD_COUNT] = {op->flops, op->bytes, op->bytes > 0 ? op->flops / op->bytes : 0,
                             op->t_math, op->t_hbm, op->t_comm, op->t_lower, op->t_upper,
                             op->t_derated, op->params, op->param_bytes,
                             op_block_memory(op, ev->world->training), op->cache_bytes, chips,
                             op->comm_bytes, op->grad_bytes, op->master_bytes, op->optim_bytes,
                             op->act_bytes, 0};
    for (int f = 0; f < FIELD_BOUND; f++)
        set(last, (ExpectField)f, f <= FIELD_INTENSITY || f >= FIELD_PARAMS ? op->known : t, v[f]);
    set(last, FIELD_CHIPS, true, chips);
    set(last, FIELD_T_PREDICTED, t && op->predicted, op->t_predicted);
    last->bound = op->bound;
    last->known[FIELD_BOUND] = t && op->bound != BOUND_UNKNOWN;
}

/* --json's names for the memory parts of a block's report: the same figures. */
static const struct {
    const char *json;
    ExpectField field;
} json_names[] = {
    {"memory_params", FIELD_PARAM_BYTES},        {"memory_gradients", FIELD_GRADIENT_BYTES},
    {"memory_master", FIELD_MASTER_BYTES},       {"memory_optimizer", FIELD_OPTIMIZER_BYTES},
    {"memory_activations", FIELD_ACTIVATION_BYTES}, {"memory_cache", FIELD_CACHE_BYTES},
};
enum { JSON_NAMES = sizeof json_names / sizeof json_names[0] };

static int field_index(const char *name)
{
    for (int f = 0; f < FIELD_COUNT; f++)
        if (strcmp(check_expect_fields[f], name) == 0)
            return f;
    for (int i = 0; i < JSON_NAMES; i++)
        if (strcmp(json_names[i].json, name) == 0)
            return (int)json_names[i].field;
    return -1;
}

/* The figures of serve (`of_serve`) or of every other report, into buf. */
static void field_list(bool of_serve, char *buf, size_t size)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int f = 0; f < FIELD_COUNT && used < size; f++)
        if ((f >= FIELD_BATCH && f <= FIELD_PREFILL_RATIO) == of_serve)
            used += (size_t)snprintf(buf + used, size - used, "%s%s", used ? " " : "",
                                     check_expect_fields[f]);
}

/* The notes under "knows no figure": the nearest name, then every name it knows. */
static void known_names(Eval *ev, const char *field)
{
    SpellNear near = spell_begin(field);
    for (int f = 0; f < FIELD_COUNT; f++)
        spell_offer(&near, check_expect_fields[f]);
    for (int i = 0; i < JSON_NAMES; i++)
        spell_offer(&near, json_names[i].json);
    if (near.best)
        diag_note(ev->diag, "did you mean %s?", near.best);
    char list[800];
    field_list(false, list, sizeof list);
    diag_note(ev->diag, "the figures: %s", list);
    field_list(true, list, sizeof list);
    diag_note(ev->diag, "after serve: %s", list);
    size_t used = 0;
    for (int i = 0; i < JSON_NAMES && used < sizeof list; i++)
        used += (size_t)snprintf(list + used, sizeof list - used, " %s", json_names[i].json);
    diag_note(ev->diag, "and as --json names the memory parts:%s", list);
}

/* The factor of a unit written after the number (`2 ms`, `16 GB`, `1.2 PFLOP`), or 0
 * when it is unknown or not of the field's kind. */
static double unit_factor(const char *unit, Unit kind)
{
    static const struct {
        const char *name;
        double factor;
        Unit kind;
    } units[] = {
        {"s", 1, UNIT_SECONDS}, {"ms", 1e-3, UNIT_SECONDS}, {"us", 1e-6, UNIT_SECONDS},
        {"ns", 1e-9, UNIT_SECONDS}, {"ps", 1e-12, UNIT_SECONDS}, {"h", 3600, UNIT_SECONDS},
        {"days", 86400, UNIT_SECONDS},
        {"B", 1, UNIT_BYTES}, {"kB", 1e3, UNIT_BYTES}, {"MB", 1e6, UNIT_BYTES},
        {"GB", 1e9, UNIT_BYTES}, {"TB", 1e12, UNIT_BYTES}, {"PB", 1e15, UNIT_BYTES},
        {"KiB", 1024.0, UNIT_BYTES}, {"MiB", 1048576.0, UNIT_BYTES},
        {"GiB", 1073741824.0, UNIT_BYTES},
        {"FLOP", 1, UNIT_FLOPS}, {"kFLOP", 1e3, UNIT_FLOPS}, {"MFLOP", 1e6, UNIT_FLOPS},
        {"GFLOP", 1e9, UNIT_FLOPS}, {"TFLOP", 1e12, UNIT_FLOPS}, {"PFLOP", 1e15, UNIT_FLOPS},
        {"EFLOP", 1e18, UNIT_FLOPS},
    };
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
        if (strcmp(units[i].name, unit) == 0)
            return units[i].kind == kind ? units[i].factor : 0;
    return 0;
}

static bool compare(double a, int cmp, double b, double tol)
{
    switch (cmp) {
    case CMP_EQ: return fabs(a - b) <= tol * fabs(b);
    case CMP_NE: return fabs(a - b) > tol * fabs(b);
    case CMP_LT: return a < b;
    case CMP_LE: return a <= b;
    case CMP_GT: return a > b;
    default: return a >= b;
    }
}

static const char *cmp_text(int cmp)
{
    static const char *const text[] = {"==", "!=", "<", "<=", ">", ">="};
    return text[cmp];
}

static bool expect_bound(Eval *ev, const Stmt *s, const LastReport *last)
{
    const Node *v = s->as.expect.value;
    int cmp = s->as.expect.cmp;
    const char *want = v->kind == NODE_NAME ? intern_name(ev->world->names, v->as.name) : "";
    if ((cmp != CMP_EQ && cmp != CMP_NE) ||
        (strcmp(want, "compute") && strcmp(want, "memory") && strcmp(want, "comm")))
        return eval_fail(ev, v->span, "bound is compared with == or != to compute, memory or comm");
    bool same = strcmp(roof_bound_name(last->bound), want) == 0;
    if (same != (cmp == CMP_EQ))
        return eval_fail(ev, s->span, "expect failed: the bound is %s",
                         roof_bound_name(last->bound));
    if (!ev->json)
        fprintf(ev->out, "ok: %.*s  (bound = %s)\n", s->span.end - s->span.begin,
                ev->src->text + s->span.begin, roof_bound_name(last->bound));
    return true;
}

/* The expected number, with the last report's figures as names: `6 * params * B`. */
static bool expected_value(Eval *ev, const Stmt *s, const LastReport *last, double *out)
{
    int names[FIELD_COUNT];
    BoundValue saved[FIELD_COUNT];
    int n = 0;
    for (int f = 0; f < FIELD_COUNT; f++) {
        if (!last->known[f] || f == FIELD_BOUND)
            continue;
        names[n] = intern_id(ev->world->names, check_expect_fields[f], strlen(check_expect_fields[f]));
        if (names[n] >= 0 &&
            world_swap(ev->world, names[n], (BoundValue){.kind = VAL_NUMBER, .number = last->value[f]}, &saved[n]))
            n++;
    }
    bool ok = eval_number(ev, s->as.expect.value, out);
    while (n-- > 0)
        world_restore(ev->world, names[n], saved[n]);
    return ok;
}

static bool tolerance(Eval *ev, const Stmt *s, double *tol)
{
    *tol = 1e-9;
    if (!s->as.expect.within)
        return true;
    double pct;
    if (!eval_number(ev, s->as.expect.within, &pct))
        return false;
    if (pct < 0 || pct > 100)
        return eval_fail(ev, s->as.expect.within->span, "within takes a percentage, 0 to 100");
    *tol = pct / 100;
    return true;
}

static bool report_check(Eval *ev, const Stmt *s, int f, double actual, double want)
{
    char a[64], b[64];
    num_format_unit(actual, field_units[f], 0, a, sizeof a);
    num_format_unit(want, field_units[f], 0, b, sizeof b);
    int cmp = s->as.expect.cmp;
    double tol;
    if (!tolerance(ev, s, &tol))
        return false;
    if (!compare(actual, cmp, want, tol)) {
        eval_fail(ev, s->span, "expect failed: %s is %s, not %s %s%s", check_expect_fields[f], a,
                  cmp_text(cmp), b, s->as.expect.within ? " (within the tolerance)" : "");
        diag_note(ev->diag, "exactly: %s = %.17g, expected %s %.17g", check_expect_fields[f], actual,
                  cmp_text(cmp), want);
        return false;
    }
    if (!ev->json)
        fprintf(ev->out, "ok: %.*s  (%s = %s)\n", s->span.end - s->span.begin,
                ev->src->text + s->span.begin, check_expect_fields[f], a);
    return true;
}

/* A whole-model statement's figure (summary.h): one must be the last report, and the
 * run's figures need a token budget, the cost a price. */
static bool whole_model_field(Eval *ev, const Stmt *s, const LastReport *last, int f)
{
    if (f < FIELD_TOKENS || f > FIELD_RUN_USD)
        return true;
    const char *field = check_expect_fields[f];
    if (!last->whole)
        return eval_fail(ev, s->span, "%s is a figure of a whole-model statement (a call of a "
                         "block with parameters B and T, as model and decode), and the last "
                         "report is not one", field);
    if (f >= FIELD_RUN_TIME && !last->known[FIELD_RUN_TIME])
        return eval_fail(ev, s->span, "%s is a figure of a training run: give its tokens, "
                         "`mode training tokens 15e12`", field);
    if (f == FIELD_RUN_USD && !last->known[f])
        return eval_fail(ev, s->span, "the chip has no price, so there is no run_usd: give it "
                         "one (`chip mine : v5p { price = 4.2 }`)");
    return true;
}

bool check_expect(Eval *ev, const Stmt *s)
{
    const LastReport *last = &ev->world->last;
    const char *field = intern_name(ev->world->names, s->as.expect.field.name);
    int f = field_index(field);
    if (f < 0) {
        eval_fail(ev, s->as.expect.field.span, "expect knows no figure %s", field);
        known_names(ev, field);
        return false;
    }
    if (!last->set)
        return eval_fail(ev, s->span,
                         "expect checks the statement reported before it; there is none");
    if (!last->known[f] && last->plain &&
        (f == FIELD_PARAMS || f == FIELD_PARAM_BYTES || f == FIELD_CACHE_BYTES))
        return eval_fail(ev, s->span, "the last report is of a statement, which counts no %s: "
                         "expect %s checks a block call or a repeat", field, field);
    if (f >= FIELD_BATCH && f <= FIELD_PREFILL_RATIO && !last->served &&
        !(f == FIELD_TOKENS_PER_S && last->whole))
        return eval_fail(ev, s->span, "%s is a figure of serve%s, and the last report is not "
                         "one", field, f == FIELD_TOKENS_PER_S ? " or of a whole-model statement"
                                                                : "");
    if (!whole_model_field(ev, s, last, f))
        return false;
    if (f == FIELD_USD_PER_MTOK && !last->known[f])
        return eval_fail(ev, s->span, "the chip has no price, so there is no usd_per_mtok: "
                         "give it one (`chip mine : v5e { price = 1.2 }`)");
    if (!last->known[f])
        return eval_fail(ev, s->span, "the last report's %s is not a number (a dim is unbound, or "
                         "there is no chip)", field);
    if (f == FIELD_BOUND)
        return expect_bound(ev, s, last);
    double want, factor = 1;
    const char *unit = s->as.expect.unit.name >= 0
                           ? intern_name(ev->world->names, s->as.expect.unit.name) : NULL;
    if (unit && !(factor = unit_factor(unit, field_units[f])))
        return eval_fail(ev, s->as.expect.unit.span, "%s is not a unit of %s (times: s ms us ns h days; "
                         "bytes: B kB MB GB TB; flops: FLOP ... PFLOP)", unit, field);
    return expected_value(ev, s, last, &want) &&
           report_check(ev, s, f, last->value[f], want * factor);
}
