/* summary_rows.c — a whole-model statement's summary as the report writes it: its rows
 * in the text report, its keys in the statement's JSON object (summary_rows.h). */
#include "summary_rows.h"

#include <math.h>

#include "chip.h"
#include "json.h"
#include "num.h"

static void row(FILE *out, const char *name, const char *how, const char *value)
{
    int width = num_width(how);
    fprintf(out, "  %-12s %s%*s = %s\n", name, how, width < 34 ? 34 - width : 0, "", value);
}

static char *fmt(double v, Unit unit, char *buf, size_t size)
{
    return num_format_unit(v, unit, 0, buf, size);
}

static void tokens_row(FILE *out, const Summary *sm)
{
    char val[160], a[32], m[48] = "";
    if (sm->microbatches > 1)
        snprintf(m, sizeof m, ", %.17g microbatches", sm->microbatches);
    snprintf(val, sizeof val, "%s: B = %.17g, T = %.17g%s", num_format_plain(sm->tokens, a, sizeof a),
             sm->batch, sm->seq, m);
    row(out, "tokens", sm->microbatches > 1 ? "B·T·microbatches a step" : "B·T a step", val);
}

static void mfu_row(FILE *out, const Summary *sm)
{
    char val[240], a[32], b[32], c[32], d[32];
    if (isnan(sm->model.flops))
        snprintf(val, sizeof val, "unknown: the call cannot be costed on one chip");
    else if (isnan(sm->peak))
        snprintf(val, sizeof val, "unknown: %s has no %s peak", sm->chip,
                 dtype_name(sm->model.dtype));
    else
        snprintf(val, sizeof val, "%s: %s / (%s · %.17g · %s %s), at the bound: an upper limit",
                 num_format_percent(100 * sm->mfu, a, sizeof a),
                 fmt(sm->model.flops, UNIT_FLOPS, b, sizeof b), fmt(sm->t_lower, UNIT_SECONDS, c,
                                                                     sizeof c),
                 sm->chips, fmt(sm->peak, UNIT_RATE, d, sizeof d), dtype_name(sm->model.dtype));
    row(out, "mfu", "model_flops / (t_lower·chips·peak)", val);
}

static void run_row(FILE *out, const Summary *sm)
{
    char how[96], val[240], a[32], b[32], c[32], cost[96] = "";
    snprintf(how, sizeof how, "%s tokens / tokens · t_lower", num_format_plain(sm->run_tokens, a,
                                                                               sizeof a));
    if (!isnan(sm->run_usd))
        snprintf(cost, sizeof cost, ", $%s at $%s per chip-hour",
                 fmt(sm->run_usd, UNIT_NONE, c, sizeof c), fmt(sm->price, UNIT_NONE, a, sizeof a));
    else
        snprintf(cost, sizeof cost, " (no price for %s)", sm->chip);
    char time[48];
    if (sm->run_time >= 86400)
        snprintf(time, sizeof time, "%s days", fmt(sm->run_time / 86400, UNIT_NONE, a, sizeof a));
    else
        fmt(sm->run_time, UNIT_SECONDS, time, sizeof time);
    snprintf(val, sizeof val, "%s on %.17g chips (%s steps): %s chip-hours%s", time, sm->chips,
             fmt(sm->steps, UNIT_NONE, b, sizeof b), fmt(sm->chip_hours, UNIT_NONE, c, sizeof c),
             cost);
    row(out, "run", how, val);
}

void summary_rows_text(FILE *out, const Summary *sm)
{
    char val[160], a[32], b[32];
    if (!sm || !sm->whole)
        return;
    tokens_row(out, sm);
    mfu_row(out, sm);
    snprintf(val, sizeof val, "%s in all, %s per chip", fmt(sm->tokens_per_s, UNIT_NONE, a, sizeof a),
             fmt(sm->tokens_per_s_chip, UNIT_NONE, b, sizeof b));
    row(out, "tokens/s", "tokens / t_lower", val);
    if (sm->run_tokens > 0)
        run_row(out, sm);
    if (sm->run_tokens > 0 && !isnan(sm->run_usd)) {
        char note[256];
        chip_price_value(sm->chip, sm->price, note, sizeof note);
        row(out, "price", "USD per chip-hour", note);
    }
}

void summary_rows_json(FILE *out, const Summary *sm)
{
    if (!sm || !sm->whole)
        return;
    bool run = sm->run_tokens > 0;
    json_write_field(out, "tokens", sm->tokens);
    json_write_field(out, "model_flops", sm->model.flops);
    json_write_field(out, "mfu", sm->mfu);
    json_write_field(out, "tokens_per_s", sm->tokens_per_s_chip);
    json_write_field(out, "tokens_per_s_all", sm->tokens_per_s);
    json_write_field(out, "run_tokens", run ? sm->run_tokens : NAN);
    json_write_field(out, "run_steps", run ? sm->steps : NAN);
    json_write_field(out, "run_time", run ? sm->run_time : NAN);
    json_write_field(out, "chip_hours", run ? sm->chip_hours : NAN);
    json_write_field(out, "run_usd", run ? sm->run_usd : NAN);
    json_write_field(out, "price", run ? sm->price : NAN);
}
