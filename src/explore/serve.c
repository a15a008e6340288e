/* serve.c — `serve B, S: CALL on CHIP with prompt = P, output = G`: what serving a
 * request mix costs, from one decode block called at several batches and contexts.
 *
 * Every request brings P prompt tokens and wants G output tokens, so its KV cache
 * grows to S = P + G. The statement finds the largest batch B whose weights and caches
 * at that S fit each chip's HBM (fit's search, explore.c), or takes `batch = N`, then
 * prices:
 *   TTFT  the prefill of one prompt: the call with B = 1, S = P and T = P (every
 *         prompt token at once, attending to the prompt), so the block must take T;
 *   TPOT  a decode step at batch B, at the mean context S = P + G/2 (rounded down),
 *         with the first (S = P) and last (S = P + G) steps beside it;
 * and from them the tokens per second per chip, decoding alone (B / (TPOT · chips)),
 * and with the prefills taking their turn on the same chips: a batch of B requests
 * needs B prefills and G decode steps for its B·G output tokens,
 *   tokens/s per chip = B·G / ((B·TTFT + G·TPOT) · chips);
 * and the cost of a million output tokens at the chip's `price` per chip-hour,
 *   USD = price · 1e6 / (3600 · tokens/s per chip).
 * The serving pool (the book's ch. 8): a sequence finishes every G steps, so B/G
 * sequences finish a step and their caches, P + G tokens each, are evicted:
 * B·(P + G)/G tokens a step; a chip answers B / (TPOT · G · chips) queries a second;
 * and a disaggregated deployment, prefill servers at batch 1 feeding generate servers
 * (each on the statement's chips), keeps both saturated with TTFT · B / (TPOT · G)
 * prefill servers a generate server: each prefills 1/TTFT sequences a second, and a
 * generate server takes in as many as finish, B / (TPOT · G).
 * With `draft = CALL, k = K, accept = A` (speculative decoding) a draft model proposes K
 * tokens a round and the model checks them in one pass over K + 1 tokens; a round yields
 * (1 - A^(K+1)) / (1 - A) tokens on average, and TPOT is its time over them. The draft
 * shares the chips: its weights and caches count in the memory, its prefill in TTFT.
 * Each time is the call's T_lower (the sum of its operations' lower bounds), costed in
 * inference mode whatever `mode` says. Each further `with` is another mix, reported in
 * turn; `expect` sees the last.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "eval.h"
#include "layout.h"
#include "num.h"
#include "records.h"

/* A request mix and the names it binds. */
typedef struct {
    int batch_name, context_name;
    int number, of;               /* the mix's place among the statement's `with`s */
    int t_name;                   /* T, the tokens of one pass */
    int r_name;                   /* R, the positions whose logits a pass computes */
    double prompt, output, batch; /* batch 0: the largest that fits */
    Span batch_span;
    const Node *draft;            /* speculative decoding: the draft model's call, or NULL */
    double k, accept;             /* tokens it drafts a round; the fraction accepted */
} Mix;

/* A whole number of at least 1 from a `with` option. */
static bool option_count(Eval *ev, const Binding *b, double *out)
{
    if (!eval_number(ev, b->value, out))
        return false;
    if (!(*out >= 1) || *out != floor(*out) || *out > 0x1p53)
        return eval_fail(ev, b->value->span, "%s must be a whole number of tokens of at least 1, "
                         "not %.17g", eval_spelling(ev, b->name.name), *out);
    return true;
}

/* The fraction of drafted tokens accepted, 0 to 1. */
static bool option_fraction(Eval *ev, const Binding *b, double *out)
{
    if (!eval_number(ev, b->value, out))
        return false;
    if (!(*out >= 0 && *out <= 1))
        return eval_fail(ev, b->value->span, "accept is the fraction of drafted tokens accepted, "
                         "from 0 to 1, not %.17g", *out);
    return true;
}

/* The options a `with` takes. */
enum { OPT_PROMPT, OPT_OUTPUT, OPT_BATCH, OPT_DRAFT, OPT_K, OPT_ACCEPT, OPT_COUNT };

/* One `with` option into the mix. */
static bool read_option(Eval *ev, const Binding *b, Mix *mix, bool *seen)
{
    static const char *const names[OPT_COUNT] = {"prompt", "output", "batch", "draft", "k",
                                                 "accept"};
    const char *name = eval_spelling(ev, b->name.name);
    int which = -1;
    for (int i = 0; i < OPT_COUNT; i++)
        if (strcmp(name, names[i]) == 0)
            which = i;
    if (which < 0)
        return eval_fail(ev, b->name.span, "serve takes prompt, output, batch, and draft, k and "
                         "accept (speculative decoding) after `with`, not %s", name);
    if (seen[which])
        return eval_fail(ev, b->name.span, "%s is given twice", name);
    seen[which] = true;
    double *counts[OPT_COUNT] = {[OPT_PROMPT] = &mix->prompt, [OPT_OUTPUT] = &mix->output,
                                 [OPT_BATCH] = &mix->batch, [OPT_K] = &mix->k};
    if (which == OPT_BATCH)
        mix->batch_span = b->value->span;
    if (which == OPT_DRAFT)
        return (mix->draft = b->value) != NULL;
    if (which == OPT_ACCEPT)
        return option_fraction(ev, b, &mix->accept);
    return option_count(ev, b, counts[which]);
}

static bool read_options(Eval *ev, const Stmt *s, const ServeMix *with, Mix *mix)
{
    bool seen[OPT_COUNT] = {false};
    for (int i = 0; i < with->nwith; i++)
        if (!read_option(ev, &with->with[i], mix, seen))
            return false;
    if (!seen[OPT_PROMPT] || !seen[OPT_OUTPUT])
        return eval_fail(ev, s->span, "serve needs the request mix: `with prompt = 2048, "
                         "output = 512` (tokens per request)");
    int speculative = seen[OPT_DRAFT] + seen[OPT_K] + seen[OPT_ACCEPT];
    if (speculative > 0 && speculative < 3)
        return eval_fail(ev, s->span, "speculative decoding takes draft = CALL, k = N and "
                         "accept = FRACTION together");
    return true;
}

/* The two names must differ. */
static bool check_names(Eval *ev, const Stmt *s, const Mix *mix)
{
    if (mix->context_name < 0)
        return eval_fail(ev, s->as.expr.context.span, "serve takes two names, the batch's and the "
                         "context length's: `serve B, S: decode(B, S, ...)`");
    if (mix->batch_name == mix->context_name)
        return eval_fail(ev, s->as.expr.context.span, "the batch and the context need two names");
    return true;
}

/* A call (the model's, or its draft's) must be a block's, take T (for the prefill) and
 * use both names. */
static bool check_call(Eval *ev, const Stmt *s, const Node *call, const Mix *mix)
{
    const char *what = call == s->as.expr.value ? "call" : "draft";
    const BlockDef *b = arch_call_target(ev, call);
    if (!b)
        return eval_fail(ev, call->span, "serve takes a call of a decode block, such as the "
                         "stdlib's decode(B, S, D, F, N, K, H, L, V, tp = Y)");
    bool takes_t = false;
    for (int i = 0; i < b->def->as.block.nparams; i++)
        takes_t |= b->def->as.block.params[i].name.name == mix->t_name;
    if (!takes_t)
        return eval_fail(ev, call->span, "serve prices the prefill as %s with T = prompt, and %s "
                         "takes no T", eval_spelling(ev, b->name), eval_spelling(ev, b->name));
    for (int i = 0; i < call->as.call.nargs; i++)
        if (call->as.call.args[i].name.name == mix->t_name)
            return eval_fail(ev, call->as.call.args[i].name.span, "serve sets T itself (1 to "
                             "decode, the prompt to prefill): leave it out of the call");
    const int names[2] = {mix->batch_name, mix->context_name};
    for (int k = 0; k < 2; k++)
        if (!ast_expr_mentions_dim(call, names[k]))
            return eval_fail(ev, k == 0 ? s->as.expr.target.span : s->as.expr.context.span,
                             "the %s never uses %s: pass it as the %s", what, eval_spelling(ev, names[k]),
                             k == 0 ? "batch" : "context length (S)");
    return true;
}

/* Costs the statement quietly with the batch and context names at b and ctx. */
static bool step_at(Eval *ev, const Stmt *s, const Mix *mix, double b, double ctx, ServeStep *out)
{
    Op *root = op_new("serve");
    ev->world->values[mix->batch_name] = (BoundValue){.kind = VAL_NUMBER, .number = b};
    ev->world->values[mix->context_name] = (BoundValue){.kind = VAL_NUMBER, .number = ctx};
    bool ok = root && eval_quietly(ev, s, root);
    if (ok) {
        op_total(root);
        Op all = op_scaled(root);
        *out = (ServeStep){all.t_lower, op_block_memory(&all, false), all.cache_bytes, all.params,
                      all.param_bytes, root->bound};
        if (!root->known || root->bound == BOUND_UNKNOWN)
            ok = eval_fail(ev, s->span, "its times are not numbers: every dim but %s and %s "
                           "must be bound", eval_spelling(ev, mix->batch_name),
                           eval_spelling(ev, mix->context_name));
        else if (!op_finite(root))
            ok = eval_fail(ev, s->span, "a figure overflows");
    } else if (!root) {
        eval_oom(ev, s->span);
    }
    op_free(root);
    return ok;
}

/* Whether the call's block has a parameter of that name that the call leaves to its
 * default. */
static bool leaves_param(Eval *ev, const Node *call, int name)
{
    const BlockDef *b = world_block(ev->world, call->as.call.callee.name);
    bool takes = false;
    for (int i = 0; b && i < b->def->as.block.nparams; i++)
        takes |= b->def->as.block.params[i].name.name == name;
    for (int i = 0; i < call->as.call.nargs; i++)
        takes &= call->as.call.args[i].name.name != name;
    return takes;
}

/* Costs a call (the statement's, or the draft's) on the statement's chip at B = b and
 * S = ctx, with T = t added to its arguments when t > 0; a prefill (`last`) also passes
 * R = 1 when the block takes R: only the last prompt token's logits are computed. */
static bool call_at(Eval *ev, const Stmt *s, const Node *call, const Mix *mix, double b,
                    double ctx, double t, bool last, ServeStep *out)
{
    int n = call->as.call.nargs;
    Binding *args = NULL;
    Node tokens = {.kind = NODE_NUMBER, .span = call->span, .depth = 1, .as.number = t};
    Node one = {.kind = NODE_NUMBER, .span = call->span, .depth = 1, .as.number = 1};
    Node with_t = *call;
    if (t > 0) {
        if (!(args = calloc((size_t)n + 2, sizeof *args)))
            return eval_oom(ev, s->span);
        memcpy(args, call->as.call.args, sizeof *args * (size_t)n);
        args[n] = (Binding){.name = {mix->t_name, call->span}, .value = &tokens};
        if (last && leaves_param(ev, call, mix->r_name))
            args[++n] = (Binding){.name = {mix->r_name, call->span}, .value = &one};
        with_t.as.call.args = args;
        with_t.as.call.nargs = n + 1;
    }
    Stmt st = *s;
    st.as.expr.value = &with_t;
    bool ok = step_at(ev, &st, mix, b, ctx, out);
    free(args);
    return ok;
}

/* Two costings run one after the other, on the same chips: times and memory add up. */
static ServeStep step_sum(ServeStep a, ServeStep b)
{
    return (ServeStep){a.t_lower + b.t_lower, a.memory + b.memory, a.cache_bytes + b.cache_bytes,
                  a.params + b.params, a.param_bytes + b.param_bytes, a.bound};
}

/* The model (with its draft) at B = b, S = ctx, T = t (0: one decode step). */
static bool model_at(Eval *ev, const Stmt *s, const Mix *mix, double b, double ctx, double t,
                     ServeStep *out)
{
    ServeStep draft;
    if (!call_at(ev, s, s->as.expr.value, mix, b, ctx, t, true, out))
        return false;
    if (!mix->draft)
        return true;
    if (!call_at(ev, s, mix->draft, mix, b, ctx, t, true, &draft))
        return false;
    *out = step_sum(*out, draft);
    return true;
}

/* The tokens a round of speculative decoding yields on average: the first rejected of
 * k drafts ends the round, and the target's pass gives one token more, so
 * 1 + a + ... + a^k = (1 - a^(k+1)) / (1 - a). */
static double tokens_per_round(const Mix *mix)
{
    double a = mix->accept;
    return a == 1 ? mix->k + 1 : (1 - pow(a, mix->k + 1)) / (1 - a);
}

/* The time of an output token at context ctx: a decode step, or with a draft a round
 * (k draft steps, then the target over k + 1 tokens) over the tokens it yields. */
static bool token_time(Eval *ev, const Stmt *s, const Mix *mix, double b, double ctx,
                       Served *v, ServeStep *out)
{
    if (!mix->draft)
        return call_at(ev, s, s->as.expr.value, mix, b, ctx, 0, false, out);
    ServeStep draft, verify;
    if (!call_at(ev, s, mix->draft, mix, b, ctx, 0, false, &draft) ||
        !call_at(ev, s, s->as.expr.value, mix, b, ctx, mix->k + 1, false, &verify))
        return false;
    *out = verify;
    out->t_lower = (mix->k * draft.t_lower + verify.t_lower) / v->per_round;
    if (ctx == v->mid)
        v->draft = draft, v->verify = verify;
    return true;
}

/* The batch: `batch = N` when it fits, else the largest that does. */
static bool pick_batch(Eval *ev, const Stmt *s, const Mix *mix, Served *v)
{
    if (mix->batch > 0) {
        v->batch = mix->batch;
        if (!model_at(ev, s, mix, v->batch, v->context, 0, &v->at_batch))
            return false;
        if (v->at_batch.memory > v->hbm) {
            char held[32], cap[32];
            return eval_fail(ev, mix->batch_span, "batch = %.17g does not fit: %s of %s HBM per "
                             "chip at S = %.17g", v->batch,
                             num_format_unit(v->at_batch.memory, UNIT_BYTES, 0, held, sizeof held),
                             num_format_unit(v->hbm, UNIT_BYTES, 0, cap, sizeof cap), v->context);
        }
        return true;
    }
    FitResult fit;
    Stmt draft = *s;
    draft.as.expr.value = (Node *)mix->draft;
    const Stmt *both[2] = {s, &draft};
    ev->world->values[mix->context_name] = (BoundValue){.kind = VAL_NUMBER, .number = v->context};
    if (!explore_fit_largest(ev, both, mix->draft ? 2 : 1, mix->batch_name, v->hbm, &fit))
        return false;
    v->batch = fit.largest;
    v->next_memory = fit.next_memory;
    v->largest = true;
    return model_at(ev, s, mix, v->batch, v->context, 0, &v->at_batch);
}

/* Tokens per second per chip and what a million of them cost. */
static void rates(const Mix *mix, Served *v)
{
    double g = mix->output, b = v->batch;
    v->decode_rate = b / (v->tpot.t_lower * v->chips);
    v->rate = b * g / ((b * v->ttft.t_lower + g * v->tpot.t_lower) * v->chips);
    double price = v->chip->set[CHIP_PRICE] ? v->chip->value[CHIP_PRICE] : NAN;
    v->usd_decode = price * 1e6 / (3600 * v->decode_rate);
    v->usd = price * 1e6 / (3600 * v->rate);
}

/* The pool: what finishes and is evicted a step, queries a chip answers, and the
 * prefill servers a generate server needs. A query is one request of G tokens. */
static void pool(const Mix *mix, Served *v)
{
    double g = mix->output, b = v->batch;
    ServePool *p = &v->pool;
    p->finishing = b / g;
    p->evicted_tokens = b * v->context / g;
    p->evicted_bytes = p->evicted_tokens * v->kv_per_seq / v->context;
    p->qps_decode = v->decode_rate / g;
    p->qps = v->rate / g;
    p->prefill_ratio = v->ttft.t_lower * b / (v->tpot.t_lower * g);
}

/* A price near the largest double, or a step near zero seconds, makes a rate or a cost
 * overflow: an error at the statement, never "$inf". */
static bool finite_rates(Eval *ev, const Stmt *s, const Served *v)
{
    bool priced = v->chip->set[CHIP_PRICE];
    if (isfinite(v->decode_rate) && isfinite(v->rate) && isfinite(v->pool.prefill_ratio) &&
        (!priced || (isfinite(v->usd) && isfinite(v->usd_decode))))
        return true;
    return eval_fail(ev, s->span, "the cost overflows: a figure is too large for a double");
}

static bool measure(Eval *ev, const Stmt *s, const Mix *mix, Served *v)
{
    ServeStep one;
    v->context = mix->prompt + mix->output;
    v->mid = mix->prompt + floor(mix->output / 2);
    v->per_round = mix->draft ? tokens_per_round(mix) : 1;
    if (!model_at(ev, s, mix, 1, v->context, 0, &one))
        return false;
    if (one.cache_bytes <= 0) /* without one, no batch is the largest that fits */
        return eval_fail(ev, s->as.expr.value->span, "serve needs a decode block, one that "
                         "reads a KV cache of S tokens (`cache bf16[B, S, K, H]`, as the stdlib's "
                         "decode does): this call holds no cache");
    if (!pick_batch(ev, s, mix, v))
        return false;
    v->kv_per_seq = one.cache_bytes * v->chips;
    bool ok = token_time(ev, s, mix, v->batch, v->mid, v, &v->tpot) &&
              token_time(ev, s, mix, v->batch, mix->prompt, v, &v->first) &&
              token_time(ev, s, mix, v->batch, v->context, v, &v->last) &&
              model_at(ev, s, mix, 1, mix->prompt, mix->prompt, &v->ttft);
    if (ok) {
        rates(mix, v);
        pool(mix, v);
    }
    return ok && finite_rates(ev, s, v);
}

/* ---- the report ------------------------------------------------------------------ */

/* The mix's record: what report/ needs of the statement and the mix. */
static void report_mix(Eval *ev, const Stmt *s, const Mix *mix, const Served *v)
{
    ServeRecord r = {
        .stmt = records_stmt(ev->src, s->span), .number = mix->number, .of = mix->of,
        .batch_name = eval_spelling(ev, mix->batch_name), .prompt = mix->prompt,
        .output = mix->output, .draft = mix->draft != NULL, .k = mix->k, .accept = mix->accept,
        .served = v,
    };
    records_serve(ev->out, &r, ev->json);
}

/* For `expect`: the serve figures, and the decode step's memory at the batch. */
static void remember_served(Eval *ev, const Stmt *s, const Served *v)
{
    LastReport *last = &ev->world->last;
    memset(last, 0, sizeof *last);
    last->set = true;
    last->span = s->span;
    last->served = true;
    const struct {
        ExpectField f;
        double value;
    } figures[] = {
        {FIELD_MEMORY, v->at_batch.memory}, {FIELD_CACHE_BYTES, v->at_batch.cache_bytes},
        {FIELD_PARAMS, v->at_batch.params}, {FIELD_PARAM_BYTES, v->at_batch.param_bytes},
        {FIELD_CHIPS, v->chips}, {FIELD_BATCH, v->batch}, {FIELD_KV_PER_SEQ, v->kv_per_seq},
        {FIELD_TTFT, v->ttft.t_lower}, {FIELD_TPOT, v->tpot.t_lower},
        {FIELD_TPOT_FIRST, v->first.t_lower}, {FIELD_TPOT_LAST, v->last.t_lower},
        {FIELD_DECODE_TOKENS_PER_S, v->decode_rate}, {FIELD_TOKENS_PER_S, v->rate},
        {FIELD_USD_PER_MTOK, v->usd}, {FIELD_FINISHING, v->pool.finishing},
        {FIELD_EVICTED_TOKENS, v->pool.evicted_tokens},
        {FIELD_EVICTED_BYTES, v->pool.evicted_bytes}, {FIELD_QPS, v->pool.qps_decode},
        {FIELD_QPS_PREFILL, v->pool.qps}, {FIELD_PREFILL_RATIO, v->pool.prefill_ratio},
    };
    for (size_t i = 0; i < sizeof figures / sizeof figures[0]; i++) {
        last->value[figures[i].f] = figures[i].value;
        last->known[figures[i].f] = isfinite(figures[i].value);
    }
    last->bound = v->tpot.bound;
    last->known[FIELD_BOUND] = true;
}

/* Frees the two names for the statement, costs, and puts them back. */
static bool serve_with_names(Eval *ev, const Stmt *s, const Mix *mix, Served *v)
{
    BoundValue saved_b, saved_s;
    for (int k = 0; k < 2; k++) {
        int name = k == 0 ? mix->batch_name : mix->context_name;
        if (world_value(ev->world, name)->kind == VAL_TENSOR)
            return eval_fail(ev, k == 0 ? s->as.expr.target.span : s->as.expr.context.span,
                             "%s is a tensor, not a dim", eval_spelling(ev, name));
    }
    if (!world_swap(ev->world, mix->batch_name, (BoundValue){.kind = VAL_UNBOUND}, &saved_b))
        return eval_oom(ev, s->span);
    if (!world_swap(ev->world, mix->context_name, (BoundValue){.kind = VAL_UNBOUND}, &saved_s)) {
        world_restore(ev->world, mix->batch_name, saved_b);
        return eval_oom(ev, s->span);
    }
    CostMode mode = ev->world->training;
    ev->world->training = COST_INFERENCE;
    bool ok = measure(ev, s, mix, v);
    ev->world->training = mode;
    world_restore(ev->world, mix->context_name, saved_s);
    world_restore(ev->world, mix->batch_name, saved_b);
    return ok;
}

/* The chip, its HBM and the number of chips the statement runs on. */
static bool serve_chip(Eval *ev, const Stmt *s, Served *v)
{
    v->chip = eval_chip_of(ev, s);
    if (!v->chip || !v->chip->set[CHIP_HBM_BYTES])
        return eval_fail(ev, s->span, "serve needs a chip with an HBM capacity (hbm_bytes): add "
                         "`on v5e 4x4` or `use v5e 4x4`");
    Layout layout;
    LayoutEnv lx = eval_layout(ev);
    if (!layout_from_clauses(&lx, &s->as.expr.clauses, v->chip, s->span, &layout))
        return false;
    v->chips = mesh_chips(&layout.mesh);
    v->hbm = v->chip->value[CHIP_HBM_BYTES];
    return true;
}

/* One mix: its options, its figures, its report. */
static bool serve_mix(Eval *ev, const Stmt *s, Mix mix, const Served *base)
{
    Served v = *base;
    if (!read_options(ev, s, &s->as.expr.mixes[mix.number - 1], &mix) ||
        (mix.draft && !check_call(ev, s, mix.draft, &mix)) || !serve_with_names(ev, s, &mix, &v))
        return false;
    report_mix(ev, s, &mix, &v);
    remember_served(ev, s, &v);
    return true;
}

bool serve_run(Eval *ev, const Stmt *s)
{
    Mix mix = {.batch_name = s->as.expr.target.name, .context_name = s->as.expr.context.name,
               .of = s->as.expr.nmixes, .t_name = intern_id(ev->world->names, "T", 1),
               .r_name = intern_id(ev->world->names, "R", 1)};
    Served base = {0};
    if (mix.t_name < 0)
        return eval_oom(ev, s->span);
    if (!check_names(ev, s, &mix) || !check_call(ev, s, s->as.expr.value, &mix) ||
        !serve_chip(ev, s, &base))
        return false;
    for (mix.number = 1; mix.number <= mix.of; mix.number++)
        if (!serve_mix(ev, s, mix, &base))
            return false;
    return true;
}
