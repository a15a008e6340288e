/* records.c — the JSON records of the explore statements, as records.h describes. */
#include "records.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "json.h"
#include "nomem.h"
#include "num.h"
#include "report.h"

RecordStmt records_stmt(const Source *src, Span span)
{
    int line, col;
    source_position(src, span.begin, &line, &col);
    return (RecordStmt){src->text + span.begin, (size_t)(span.end - span.begin), line, src->name};
}

void records_json_head(FILE *out, const RecordStmt *s)
{
    fputs("{\"stmt\":", out);
    json_write_string(out, s->text, s->len);
    report_json_where(out, s->line, s->file);
}

/* "hbm" and "fits", null when the chip gives no capacity. */
static void json_fits(FILE *out, const SweepPoint *p)
{
    if (p->fits < 0) {
        fputs(",\"hbm\":null,\"fits\":null", out);
        return;
    }
    json_write_field(out, "hbm", p->hbm);
    fprintf(out, ",\"fits\":%s", p->fits ? "true" : "false");
}

void records_sweep_point(FILE *out, const SweepPoint *p)
{
    fputs("{\"stmt\":", out);
    json_write_string(out, p->stmt, strlen(p->stmt));
    fprintf(out, ",\"at\":{\"%s\":", p->dim);
    if (p->at_chip)
        json_write_string(out, p->at_chip, strlen(p->at_chip));
    else
        fputs(p->at, out);
    fputc('}', out);
    report_json_where(out, p->line, p->file);
    if (p->chip) {
        fputs(",\"chip\":", out);
        json_write_string(out, p->chip, strlen(p->chip));
    }
    if (p->roof)
        json_write_field(out, "chips", p->chips);
    report_json_mode(out, p->mode);
    json_write_field(out, "flops", p->flops);
    json_write_field(out, "bytes", p->bytes);
    if (p->roof) {
        json_write_field(out, "intensity", p->intensity);
        json_write_field(out, "ridge", p->ridge);
    }
    json_write_field(out, "t_math", p->t_math);
    json_write_field(out, "t_hbm", p->t_hbm);
    json_write_field(out, "t_comm", p->t_comm);
    json_write_field(out, "comm_bytes", p->comm_bytes);
    json_write_field(out, "t_lower", p->t_lower);
    json_write_field(out, "t_upper", p->t_upper);
    json_write_field(out, "t_derated", p->t_derated);
    fprintf(out, ",\"bound\":\"%s\"", roof_bound_name(p->bound));
    if (p->roof)
        json_write_field(out, "attained", p->attained);
    if (p->memory) {
        json_write_field(out, "memory", p->memory_bytes);
        json_fits(out, p);
    }
    fputs("}\n", out);
}

void records_sweep_header(FILE *out, const char *label, CostMode mode, double microbatches,
                          const char *dim, bool comm)
{
    char tag[96];
    report_text_line(out, label, strlen(label));
    fprintf(out, "%s\n  %12s %12s %12s %10s %12s %12s",
            report_step_tag(mode, microbatches, tag, sizeof tag), dim,
            "flops", "bytes", "intensity", "t_math", "t_hbm");
    if (comm)
        fprintf(out, " %12s", "t_comm");
    fprintf(out, " %12s %-8s %14s\n", "t_lower", "bound", "attained");
}

void records_sweep_row(FILE *out, double x, const RoofPoint *p, bool comm)
{
    char b[10][32];
    fprintf(out, "  %12s %12s %12s %10s", num_format_given(x, b[9], 32),
            num_format_unit(p->flops, UNIT_FLOPS, 0, b[0], 32),
            num_format_unit(p->bytes, UNIT_BYTES, 0, b[1], 32),
            num_format_unit(p->intensity, UNIT_NONE, 0, b[2], 32));
    double times[] = {p->t_math, p->t_hbm, p->t_comm, p->t_lower};
    for (int i = 0; i < 4; i++) /* µs takes two bytes and one column */
        if (i != 2 || comm) {
            num_format_unit(times[i], UNIT_SECONDS, 0, b[3], 32);
            fprintf(out, " %*s", num_columns(b[3], 12), b[3]);
        }
    fprintf(out, " %-8s %14s\n", roof_bound_name(p->bound),
            num_format_unit(p->attained, UNIT_RATE, 0, b[7], 32));
}

void records_scan_header(FILE *out, const char *label, CostMode mode, const char *dim)
{
    report_text_line(out, label, strlen(label));
    fprintf(out, "%s  [costed whole at each %s]\n  %12s %12s %12s %12s %12s %12s %12s "
            "%-8s %12s\n", mode ? "  [training: forward + backward]" : "", dim, dim, "flops",
            "bytes", "t_math", "t_hbm", "t_comm", "t_lower", "bound", "memory");
}

void records_scan_row(FILE *out, double x, const SweepPoint *p)
{
    char b[8][32];
    fprintf(out, "  %12s %12s %12s", p->at_chip ? p->at_chip : num_format_given(x, b[7], 32),
            num_format_unit(p->flops, UNIT_FLOPS, 0, b[0], 32),
            num_format_unit(p->bytes, UNIT_BYTES, 0, b[1], 32));
    double times[] = {p->t_math, p->t_hbm, p->t_comm, p->t_lower};
    for (int i = 0; i < 4; i++) { /* µs takes two bytes and one column */
        num_format_unit(times[i], UNIT_SECONDS, 0, b[2], 32);
        fprintf(out, " %*s", num_columns(b[2], 12), b[2]);
    }
    fprintf(out, " %-8s %12s", roof_bound_name(p->bound),
            num_format_unit(p->memory_bytes, UNIT_BYTES, 0, b[6], 32));
    if (p->fits == 0)
        fprintf(out, "  does NOT fit %s HBM", num_format_unit(p->hbm, UNIT_BYTES, 0, b[5], 32));
    fputc('\n', out);
}

static void send_text(FILE *out, const SendRecord *r)
{
    const Transfer *t = r->move;
    char a[48], b[48], c[48];
    fprintf(out, "%.*s\n", (int)r->stmt.len, r->stmt.text);
    fprintf(out, "  bytes      %s", num_format_unit(t->bytes, UNIT_BYTES, 0, a, sizeof a));
    if (t->whole != t->bytes)
        fprintf(out, ", the shard the chip holds of %s",
                num_format_unit(t->whole, UNIT_BYTES, 0, b, sizeof b));
    if (t->share != 1)
        fprintf(out, ", %s of it moves", num_format_unit(t->share * t->bytes, UNIT_BYTES, 0, b,
                                                         sizeof b));
    fprintf(out, "\n  path       %s over %s: %g %s\n", t->path, t->network, t->hops,
            t->hops == 1 ? "hop" : "hops");
    fprintf(out, "  bandwidth  %g link%s × %s = %s\n", t->links, t->links == 1 ? "" : "s",
            num_format_unit(t->bandwidth, UNIT_BW, 0, a, sizeof a),
            num_format_unit(t->links * t->bandwidth, UNIT_BW, 0, b, sizeof b));
    fprintf(out, "  t_first    %g %s × %s = %s\n", t->hops, t->hops == 1 ? "hop" : "hops",
            num_format_unit(t->latency, UNIT_SECONDS, 0, a, sizeof a),
            num_format_unit(t->hops * t->latency, UNIT_SECONDS, 0, b, sizeof b));
    fprintf(out, "  t_comm     bytes moved / bandwidth + t_first = %s + %s = %s\n",
            num_format_unit(t->t - t->hops * t->latency, UNIT_SECONDS, 0, a, sizeof a),
            num_format_unit(t->hops * t->latency, UNIT_SECONDS, 0, b, sizeof b),
            num_format_unit(t->t, UNIT_SECONDS, 0, c, sizeof c));
    fprintf(out, "  bound      comm (a transfer alone)\n\n");
}

static void send_json(FILE *out, const SendRecord *r)
{
    const Transfer *t = r->move;
    records_json_head(out, &r->stmt);
    fputs(",\"chip\":", out);
    json_write_string(out, r->chip, strlen(r->chip));
    report_json_mode(out, r->mode); /* the session's: a transfer costs the same */
    fprintf(out, ",\"network\":\"%s\"", t->network);
    json_write_field(out, "bytes", t->bytes);
    json_write_field(out, "comm_bytes", t->share * t->bytes);
    json_write_field(out, "hops", t->hops);
    json_write_field(out, "links", t->links);
    json_write_field(out, "bandwidth", t->links * t->bandwidth);
    json_write_field(out, "t_latency", t->hops * t->latency);
    json_write_field(out, "t_comm", t->t);
    fputs(",\"bound\":\"comm\"}\n", out);
}

void records_send(FILE *out, const SendRecord *r, bool json)
{
    if (json)
        send_json(out, r);
    else
        send_text(out, r);
}

char *records_bytes_beside(double v, const char *beside, char *buf, size_t size)
{
    num_format_unit(v, UNIT_BYTES, 0, buf, size);
    if (strcmp(buf, beside) == 0)
        snprintf(buf, size, "%.0f B", v);
    return buf;
}

static void fit_json(FILE *out, const FitRecord *r)
{
    records_json_head(out, &r->stmt);
    fprintf(out, ",\"fit\":\"%s\"", r->dim);
    report_json_mode(out, r->mode);
    json_write_field(out, "largest", r->largest);
    json_write_field(out, "memory", r->memory);
    json_write_field(out, "hbm", r->hbm);
    json_write_field(out, "next_memory", r->next_memory);
    fputs("}\n", out);
}

void records_fit(FILE *out, const FitRecord *r, bool json)
{
    char a[32], b[32], c[32];
    if (json) {
        fit_json(out, r);
        return;
    }
    num_format_unit(r->hbm, UNIT_BYTES, 0, b, sizeof b);
    fprintf(out, "%.*s\n  %-13s %s = %.17g fits: %s of %s HBM per chip; %s = %.17g needs %s\n\n",
            (int)r->stmt.len, r->stmt.text, "largest", r->dim, r->largest,
            records_bytes_beside(r->memory, b, a, sizeof a), b, r->dim, r->largest + 1,
            records_bytes_beside(r->next_memory, b, c, sizeof c));
}

/* "memory for B < 120.12; compute for B > 120.12", in a buffer of the row's size. */
static void segments_text(const SolveRecord *r, char *buf, size_t size)
{
    const char *x = r->dim;
    const SolveSegment *seg = r->seg;
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < r->n && used < size; i++) {
        const char *b = roof_bound_name(seg[i].bound), *sep = i ? "; " : "";
        bool lo = i > 0 || seg[i].from > 1, hi = isfinite(seg[i].to);
        if (lo && hi)
            used += (size_t)snprintf(buf + used, size - used, "%s%s for %.5g < %s < %.5g", sep, b,
                                     seg[i].from, x, seg[i].to);
        else if (hi)
            used += (size_t)snprintf(buf + used, size - used, "%s%s for %s < %.5g", sep, b, x,
                                     seg[i].to);
        else if (lo)
            used += (size_t)snprintf(buf + used, size - used, "%s%s for %s > %.5g", sep, b, x,
                                     seg[i].from);
        else
            used += (size_t)snprintf(buf + used, size - used, "%s for every %s", b, x);
    }
}

static void asymptote_text(FILE *out, const SolveAsymptote *a)
{
    char ridge[32];
    if (a->whatever_dim)
        fprintf(out, "  %-13s the intensity is %s whatever %s", a->label, a->lead, a->dim);
    else if (a->others[0])
        fprintf(out, "  %-13s as %s %s, the intensity → %s", a->label, a->others,
                strchr(a->others, ',') ? "grow" : "grows", a->lead);
    else
        fprintf(out, "  %-13s the intensity is %s whatever the other dims", a->label, a->lead);
    if (a->sense == 1 || a->sense == -1)
        fprintf(out, ": compute-bound when %s %s %.5g", a->cross_dim, a->sense == 1 ? ">" : "<",
                a->at);
    else if (a->sense != SOLVE_NO_VERDICT && isnan(a->ridge))
        fprintf(out, ": %s", a->sense ? "always compute-bound" : "never compute-bound");
    else if (a->sense != SOLVE_NO_VERDICT)
        fprintf(out, ": %s compute-bound (ridge %s)", a->sense ? "always" : "never",
                num_format_unit(a->ridge, UNIT_NONE, 0, ridge, sizeof ridge));
    fputc('\n', out);
}

static void solve_text(FILE *out, const SolveRecord *r)
{
    char a[64], b[64], line[1024], tag[96];
    fprintf(out, "%.*s%s\n", (int)r->stmt.len, r->stmt.text,
            report_step_tag(r->mode, r->microbatches, tag, sizeof tag));
    if (r->computes) {
        if (strcmp(r->intensity, r->intensity_now) == 0)
            fprintf(out, "  %-13s %s\n", "intensity", r->intensity);
        else
            fprintf(out, "  %-13s %s = %s\n", "intensity", r->intensity, r->intensity_now);
        fprintf(out, "  %-13s %s FLOP/B (%s, %s)\n", "ridge",
                num_format_unit(r->ridge, UNIT_NONE, 0, a, sizeof a), r->chip, r->compute);
    }
    if (r->computes && r->network)
        fprintf(out, "  %-13s %s%s against net_ridge %s FLOP/B\n", "net_intensity",
                r->net_intensity, r->net_pass,
                num_format_unit(r->net_ridge, UNIT_NONE, 0, b, sizeof b));
    segments_text(r, line, sizeof line);
    fprintf(out, "  %-13s %s\n", "bound", line);
    if (r->plans > 1)
        fprintf(out, "  %-13s at each %s, the faster of gathering the sharded operand and "
                "partial sums + allreduce (the formulas here are the gather's)\n", "plan",
                r->dim);
    if (!isnan(r->limit))
        fprintf(out, "  %-13s as %s grows, the intensity → %s FLOP/B (ridge %s)\n", "limit",
                r->dim, num_format_unit(r->limit, UNIT_NONE, 0, b, sizeof b),
                num_format_unit(r->ridge, UNIT_NONE, 0, a, sizeof a));
    for (int i = 0; i < r->nasymptotes; i++)
        asymptote_text(out, &r->asymptotes[i]);
    fputc('\n', out);
}

/* The rows the text report gives above the bound: the ridge and the intensity (as a
 * statement's record gives them: a number, or null with its formula under "formula"),
 * and against the network, net_ridge and net_intensity. */
static void solve_json_ratios(FILE *out, const SolveRecord *r)
{
    json_write_field(out, "ridge", r->ridge);
    json_write_field(out, "intensity", r->intensity_value);
    if (r->network) {
        json_write_field(out, "net_ridge", r->net_ridge);
        json_write_field(out, "net_intensity", r->net_intensity_value);
    }
}

static void solve_json_formulas(FILE *out, const SolveRecord *r)
{
    fputs(",\"formula\":{\"intensity\":", out);
    json_write_string(out, r->intensity_json, strlen(r->intensity_json));
    if (r->network) {
        fputs(",\"net_intensity\":", out);
        json_write_string(out, r->net_json, strlen(r->net_json));
    }
    fputc('}', out);
}

static void solve_json(FILE *out, const SolveRecord *r)
{
    char buf[64];
    records_json_head(out, &r->stmt);
    fprintf(out, ",\"solve\":\"%s\",\"chip\":\"%s\"", r->dim, r->chip);
    report_json_mode(out, r->mode);
    if (r->computes)
        solve_json_ratios(out, r);
    fputs(",\"segments\":[", out);
    for (int i = 0; i < r->n; i++)
        fprintf(out, "%s{\"from\":%s,\"to\":%s,\"bound\":\"%s\"}", i ? "," : "",
                num_format_json(r->seg[i].from, buf, sizeof buf),
                isinf(r->seg[i].to) ? "null" : num_format_json(r->seg[i].to, buf + 32, 32),
                roof_bound_name(r->seg[i].bound));
    fprintf(out, "],\"limit_intensity\":%s",
            isnan(r->limit) ? "null" : num_format_json(r->limit, buf, sizeof buf));
    if (r->computes)
        solve_json_formulas(out, r);
    fputs("}\n", out);
}

void records_solve(FILE *out, const SolveRecord *r, bool json)
{
    if (json)
        solve_json(out, r);
    else
        solve_text(out, r);
}

static char *fmt(double v, Unit unit, char *buf, size_t size)
{
    return num_format_unit(v, unit, 0, buf, size);
}

/* A row: the figure's name, how it is derived padded to a column (counted in
 * characters: a UTF-8 '·' is two bytes), its value. */
static void row(FILE *out, const char *name, const char *how, const char *value)
{
    int width = num_width(how);
    fprintf(out, "  %-12s %s%*s = %s\n", name, how, width < 44 ? 44 - width : 0, "", value);
}

static void batch_row(FILE *out, const ServeRecord *r)
{
    const Served *v = r->served;
    char how[96], val[160], a[32], b[32], c[32];
    const char *bn = r->batch_name;
    fmt(v->hbm, UNIT_BYTES, b, sizeof b);
    records_bytes_beside(v->at_batch.memory, b, a, sizeof a);
    snprintf(how, sizeof how, "%s, %s at S = %.17g", bn, v->largest ? "the largest that fits"
                                                                  : "as given", v->context);
    int len; /* a value longer than val is cut at its end */
    if (v->largest)
        len = snprintf(val, sizeof val, "%.17g: %s of %s per chip (%s = %.17g needs %s)", v->batch,
                       a, b, bn, v->batch + 1,
                       records_bytes_beside(v->next_memory, b, c, sizeof c));
    else
        len = snprintf(val, sizeof val, "%.17g: %s of %s per chip", v->batch, a, b);
    row(out, "batch", how, len > 0 ? val : "");
}

/* With a draft: what a round of speculative decoding yields and costs. */
static void draft_row(FILE *out, const ServeRecord *r)
{
    const Served *v = r->served;
    char how[96], val[160], a[32], b[32];
    snprintf(how, sizeof how, "k = %.17g, accept = %.4g: (1 - a^(k+1)) / (1 - a)", r->k,
             r->accept);
    snprintf(val, sizeof val, "%.4g tokens a round; at S = %.17g a draft step %s, the model over "
             "k + 1 tokens %s", v->per_round, v->mid, fmt(v->draft.t_lower, UNIT_SECONDS, a, sizeof a),
             fmt(v->verify.t_lower, UNIT_SECONDS, b, sizeof b));
    row(out, "draft", how, val);
}

static void time_rows(FILE *out, const ServeRecord *r)
{
    const Served *v = r->served;
    char how[96], val[160], a[32], b[32], c[32];
    snprintf(how, sizeof how, "%s B = 1, T = S = prompt = %.17g",
             r->draft ? "model + draft prefill," : "the prefill:", r->prompt);
    snprintf(val, sizeof val, "%s (%s)", fmt(v->ttft.t_lower, UNIT_SECONDS, a, sizeof a),
             roof_bound_name(v->ttft.bound));
    row(out, "ttft", how, val);
    if (r->draft)
        draft_row(out, r);
    snprintf(how, sizeof how, "%s at S = prompt + output/2 = %.17g",
             r->draft ? "a round / its tokens" : "a decode step", v->mid);
    snprintf(val, sizeof val, "%s (%s); S = %.17g: %s, S = %.17g: %s",
             fmt(v->tpot.t_lower, UNIT_SECONDS, a, sizeof a), roof_bound_name(v->tpot.bound),
             r->prompt, fmt(v->first.t_lower, UNIT_SECONDS, b, sizeof b), v->context,
             fmt(v->last.t_lower, UNIT_SECONDS, c, sizeof c));
    row(out, "tpot", how, val);
}

static void rate_rows(FILE *out, const Served *v)
{
    char val[160], a[32], b[32], c[32];
    snprintf(val, sizeof val, "%s tokens/s per chip", fmt(v->decode_rate, UNIT_NONE, a, sizeof a));
    row(out, "decode", "B / (tpot · chips)", val);
    snprintf(val, sizeof val, "%s tokens/s per chip, prefills included",
             fmt(v->rate, UNIT_NONE, a, sizeof a));
    row(out, "throughput", "B·output / ((B·ttft + output·tpot) · chips)", val);
    if (!v->chip->set[CHIP_PRICE]) {
        fprintf(out, "  %-12s no price for %s: give one in USD per chip-hour, `chip mine : %s "
                "{ price = 1.2 }`\n", "cost", v->chip->name, v->chip->name);
        return;
    }
    snprintf(val, sizeof val, "$%s per 1M output tokens at $%s per chip-hour ($%s decoding alone)",
             fmt(v->usd, UNIT_NONE, a, sizeof a), fmt(v->chip->value[CHIP_PRICE], UNIT_NONE, b, sizeof b),
             fmt(v->usd_decode, UNIT_NONE, c, sizeof c));
    row(out, "cost", "price · 1e6 / (3600 · throughput)", val);
    char note[256];
    chip_price_value(v->chip->name, v->chip->value[CHIP_PRICE], note, sizeof note);
    row(out, "price", "USD per chip-hour", note);
}

static void pool_rows(FILE *out, const Served *v)
{
    char val[160], a[32], b[32];
    const ServePool *p = &v->pool;
    snprintf(val, sizeof val, "%s sequences a step", fmt(p->finishing, UNIT_NONE, a, sizeof a));
    row(out, "finishing", "B / output", val);
    snprintf(val, sizeof val, "%s tokens of KV cache a step: %s",
             fmt(p->evicted_tokens, UNIT_NONE, a, sizeof a),
             fmt(p->evicted_bytes, UNIT_BYTES, b, sizeof b));
    row(out, "evicted", "B·(prompt + output) / output", val);
    snprintf(val, sizeof val, "%s queries/s per chip (%s with the prefills on the same chips)",
             fmt(p->qps_decode, UNIT_NONE, a, sizeof a), fmt(p->qps, UNIT_NONE, b, sizeof b));
    row(out, "qps", "B / (tpot · output · chips)", val);
    snprintf(val, sizeof val, "%s prefill servers a generate server, each on %.17g chip%s",
             fmt(p->prefill_ratio, UNIT_NONE, a, sizeof a), v->chips, v->chips == 1 ? "" : "s");
    row(out, "prefill:gen", "ttft · B / (tpot · output)", val);
}

static void serve_text(FILE *out, const ServeRecord *r)
{
    const Served *v = r->served;
    char a[32], b[32], how[96];
    if (r->number == 1)
        fprintf(out, "%.*s\n", (int)r->stmt.len, r->stmt.text);
    char which[32] = "";
    if (r->of > 1)
        snprintf(which, sizeof which, "%d of %d: ", r->number, r->of);
    fprintf(out, "  %-12s %sprompt %.17g + output %.17g tokens a request, on %.17g chip%s of "
            "%s\n", "mix", which, r->prompt, r->output, v->chips, v->chips == 1 ? "" : "s",
            v->chip->name);
    snprintf(how, sizeof how, "one sequence at S = prompt + output = %.17g", v->context);
    char val[96];
    snprintf(val, sizeof val, "%s (%s per chip)", fmt(v->kv_per_seq, UNIT_BYTES, a, sizeof a),
             fmt(v->kv_per_seq / v->chips, UNIT_BYTES, b, sizeof b));
    row(out, "kv_per_seq", how, val);
    batch_row(out, r);
    time_rows(out, r);
    rate_rows(out, v);
    pool_rows(out, v);
    fputc('\n', out);
}

static void serve_json(FILE *out, const ServeRecord *r)
{
    const Served *v = r->served;
    records_json_head(out, &r->stmt);
    fprintf(out, ",\"mix\":%d,\"chip\":", r->number);
    json_write_string(out, v->chip->name, strlen(v->chip->name));
    report_json_mode(out, COST_INFERENCE); /* serve costs the inference of each mix */
    const struct {
        const char *key;
        double value;
    } fields[] = {
        {"chips", v->chips}, {"prompt", r->prompt}, {"output", r->output},
        {"context", v->context}, {"kv_per_seq", v->kv_per_seq}, {"batch", v->batch},
        {"memory", v->at_batch.memory}, {"hbm", v->hbm}, {"ttft", v->ttft.t_lower},
        {"tpot", v->tpot.t_lower}, {"tpot_context", v->mid}, {"tpot_first", v->first.t_lower},
        {"tpot_last", v->last.t_lower}, {"decode_tokens_per_s", v->decode_rate},
        {"tokens_per_s", v->rate},
        {"price", v->chip->set[CHIP_PRICE] ? v->chip->value[CHIP_PRICE] : NAN},
        {"usd_per_mtok", v->usd}, {"usd_per_mtok_decode", v->usd_decode},
        {"k", r->draft ? r->k : NAN}, {"accept", r->draft ? r->accept : NAN},
        {"tokens_per_round", r->draft ? v->per_round : NAN},
        {"t_draft", r->draft ? v->draft.t_lower : NAN},
        {"t_verify", r->draft ? v->verify.t_lower : NAN},
        {"finishing", v->pool.finishing}, {"evicted_tokens", v->pool.evicted_tokens},
        {"evicted_bytes", v->pool.evicted_bytes}, {"qps", v->pool.qps_decode},
        {"qps_prefill", v->pool.qps}, {"prefill_ratio", v->pool.prefill_ratio},
    };
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++)
        json_write_field(out, fields[i].key, fields[i].value);
    fprintf(out, ",\"largest\":%s,\"ttft_bound\":\"%s\",\"tpot_bound\":\"%s\"}\n",
            v->largest ? "true" : "false", roof_bound_name(v->ttft.bound),
            roof_bound_name(v->tpot.bound));
}


void records_serve(FILE *out, const ServeRecord *r, bool json)
{
    if (json)
        serve_json(out, r);
    else
        serve_text(out, r);
}

/* ---- solve over statements costed whole ----------------------------------------- */

static int group_end(const ScanRun *runs, int n, int i, bool by_fit)
{
    int j = i + 1;
    while (j < n && (by_fit ? runs[j].fits == runs[i].fits : runs[j].bound == runs[i].bound))
        j++;
    return j;
}

/* "compute for n <= 7; comm for 8 <= n <= 16", by bound or by fit. */
static void groups_text(FILE *out, const char *d, const ScanRun *runs, int n, bool by_fit)
{
    char a[32], b[32];
    for (int i = 0, j; i < n; i = j) {
        j = group_end(runs, n, i, by_fit);
        num_format_plain(runs[i].from, a, sizeof a);
        num_format_plain(runs[j - 1].to, b, sizeof b);
        fprintf(out, "%s%s for ", i ? "; " : " ", by_fit ? (runs[i].fits ? "fits" : "does NOT fit")
                                                        : roof_bound_name(runs[i].bound));
        if (runs[i].from == runs[j - 1].to)
            fprintf(out, "%s = %s", d, a);
        else if (i == 0)
            fprintf(out, "%s <= %s", d, b);
        else
            fprintf(out, "%s <= %s <= %s", a, d, b);
    }
}

/* The fit's rows: "memory of 16 GB HBM per chip: fits for n <= 7; ..." (none without
 * a capacity). */
static void fits_text(FILE *out, const ScanSolveRecord *r)
{
    char a[32];
    if (r->hbm <= 0)
        return;
    fprintf(out, "\n  %-13s of %s HBM per chip:", "memory",
            num_format_unit(r->hbm, UNIT_BYTES, 0, a, sizeof a));
    groups_text(out, r->dim, r->runs, r->nruns, true);
}

static const char *decider_name(Bound b, bool alone)
{
    static const char *const time[] = {"?", "t_math", "t_hbm", "t_comm"};
    static const char *const share[] = {"?", "compute-bound time", "memory-bound time",
                                        "comm-bound time"};
    return alone ? time[b] : share[b];
}

/* "compute = comm at n = 7.412 (t_math 234.4 ms/n, t_comm 23.86 ms − 23.86 ms/n; ...)" */
static void crossings_text(FILE *out, const ScanSolveRecord *r)
{
    const char *d = r->dim;
    const ScanCrossing *c = r->crossings;
    for (int i = 0; i < r->ncrossings; i++) {
        char lf[96], lt[96], a[32], b[32];
        fprintf(out, "\n  %-13s %s = %s at %s = %.6g (%s %s, %s %s; each a + b·%s + c/%s "
                "through %s = %s .. %s)", i ? "" : "crossing", roof_bound_name(c[i].from),
                roof_bound_name(c[i].to), d, c[i].at,
                decider_name(c[i].from, c[i].alone),
                crossing_format(&c[i].from_law, d, c[i].at, lf, sizeof lf),
                decider_name(c[i].to, c[i].alone),
                crossing_format(&c[i].to_law, d, c[i].at, lt, sizeof lt), d, d, d,
                num_format_plain(c[i].first, a, sizeof a), num_format_plain(c[i].last, b, sizeof b));
    }
}

static void crossings_json(FILE *out, const ScanSolveRecord *r)
{
    char a[40];
    const ScanCrossing *c = r->crossings;
    fputs(",\"crossings\":[", out);
    for (int i = 0; i < r->ncrossings; i++)
        fprintf(out, "%s{\"at\":%s,\"from\":\"%s\",\"to\":\"%s\"}", i ? "," : "",
                num_format_json(c[i].at, a, sizeof a), roof_bound_name(c[i].from),
                roof_bound_name(c[i].to));
    fputs("]", out);
}

/* The statement, with the training tag of a scanned one. */
static void scan_stmt_text(FILE *out, const RecordStmt *s, CostMode mode)
{
    fprintf(out, "%.*s%s\n", (int)s->len, s->text, mode ? "  [training: forward + backward]" : "");
}

/* "stopped  at n = 64: why", when the doubling ended before its last try. */
static void stopped_text(FILE *out, const char *d, double top, const char *why)
{
    char a[32];
    if (why)
        fprintf(out, "  %-13s at %s = %s: %s\n", "stopped", d,
                num_format_plain(2 * top, a, sizeof a), why);
}

static void scan_solve_text(FILE *out, const ScanSolveRecord *r)
{
    const char *d = r->dim;
    char a[32];
    scan_stmt_text(out, &r->stmt, r->mode);
    fprintf(out, "  %-13s the whole statement at %s = 1, 2, 4, ..., %s, then bisected\n",
            "costed", d, num_format_plain(r->top, a, sizeof a));
    stopped_text(out, d, r->top, r->why);
    fprintf(out, "  %-13s", "bound");
    groups_text(out, d, r->runs, r->nruns, false);
    crossings_text(out, r);
    fits_text(out, r);
    fputs("\n\n", out);
}

/* The keys of every solve over a dim: the statement, the dim, the chip's HBM, and each
 * run a segment (a segment ends where the bound or the fit changes). */
static void scan_solve_json_head(FILE *out, const ScanSolveRecord *r)
{
    char a[40], b[40];
    records_json_head(out, &r->stmt);
    fprintf(out, ",\"solve\":\"%s\"", r->dim);
    report_json_mode(out, r->mode);
    if (r->hbm > 0)
        json_write_field(out, "hbm", r->hbm);
    else
        fputs(",\"hbm\":null", out);
    fputs(",\"segments\":[", out);
    for (int i = 0; i < r->nruns; i++)
        fprintf(out, "%s{\"from\":%s,\"to\":%s,\"bound\":\"%s\",\"fits\":%s}", i ? "," : "",
                num_format_json(r->runs[i].from, a, sizeof a),
                num_format_json(r->runs[i].to, b, sizeof b), roof_bound_name(r->runs[i].bound),
                r->runs[i].fits < 0 ? "null" : r->runs[i].fits ? "true" : "false");
    fputs("]", out);
    crossings_json(out, r);
}

void records_scan_solve(FILE *out, const ScanSolveRecord *r, bool json)
{
    if (!json) {
        scan_solve_text(out, r);
        return;
    }
    scan_solve_json_head(out, r);
    fputs("}\n", out);
}

static void split_list_text(FILE *out, const char *d, const ScanSplitRecord *sp)
{
    char a[32];
    fprintf(out, "%s = ", d);
    for (int i = 0; i < sp->n; i++) {
        if (sp->n > 12 && i == 5) {
            fputs(", ...", out);
            i = sp->n - 4;
        }
        fprintf(out, "%s%s", i ? ", " : "", num_format_plain(sp->points[i].x, a, sizeof a));
    }
    if (sp->n > 12)
        fprintf(out, " (%d splits)", sp->n);
}

static void split_optimum_text(FILE *out, const char *d, const ScanSplitRecord *sp)
{
    char a[32], b[32], law[96];
    fprintf(out, "\n  %-13s ", "optimum");
    if (sp->ninterior < 4) {
        fprintf(out, "none claimed: %d split%s with every axis in use, 4 needed to fit the "
                "collectives' law and check it", sp->ninterior, sp->ninterior == 1 ? "" : "s");
        return;
    }
    num_format_plain(sp->first, a, sizeof a);
    num_format_plain(sp->last, b, sizeof b);
    if (!sp->fitted) {
        fprintf(out, "none claimed: the collectives' times added up follow no one law "
                "a + b·%s + c/%s over %s = %s .. %s (the topology changes, a shard is padded or a latency floor binds)",
                d, d, d, a, b);
        return;
    }
    crossing_format(&sp->law, d, sp->has_least ? sp->least : sp->points[sp->best].x, law,
                    sizeof law);
    if (!sp->has_least)
        fprintf(out, "none between %s = %s and %s: the collectives' times added up, %s, "
                "are least at an end", d, a, b, law);
    else
    {
        char bs[32], cs[32];
        fprintf(out, "%s = %.6g (continuous): the collectives' times added up, %s, least at "
                "%s = √(c/b) = √(%s / %s) (a + b·%s + c/%s through %s = %s .. %s)", d,
                sp->least, law, d, num_format_unit(sp->law.c, UNIT_SECONDS, 0, cs, sizeof cs),
                num_format_unit(sp->law.b, UNIT_SECONDS, 0, bs, sizeof bs), d, d, d, a, b);
    }
}

static void split_text(FILE *out, const ScanSplitRecord *sp)
{
    const ScanSolveRecord *r = &sp->solve;
    const char *d = r->dim;
    char a[32], b[32], c[32];
    const ScanSplitPoint *best = &sp->points[sp->best];
    scan_stmt_text(out, &r->stmt, r->mode);
    fprintf(out, "  %-13s the whole statement at each %s that splits its %s chips into whole "
            "axes: ", "costed", d, num_format_plain(sp->chips, a, sizeof a));
    split_list_text(out, d, sp);
    fprintf(out, "\n  %-13s", "bound");
    groups_text(out, d, r->runs, r->nruns, false);
    fprintf(out, "\n  %-13s %s = %s: t_comm %s, the least of the splits (t_lower %s, %s)",
            "best split", d, num_format_plain(best->x, a, sizeof a),
            num_format_unit(best->t_comm, UNIT_SECONDS, 0, b, sizeof b),
            num_format_unit(best->t_lower, UNIT_SECONDS, 0, c, sizeof c),
            roof_bound_name(best->bound));
    split_optimum_text(out, d, sp);
    fits_text(out, r);
    fputs("\n\n", out);
}

static void split_json(FILE *out, const ScanSplitRecord *sp)
{
    char a[40];
    scan_solve_json_head(out, &sp->solve);
    json_write_field(out, "chips", sp->chips);
    fputs(",\"splits\":[", out);
    for (int i = 0; i < sp->n; i++) {
        const ScanSplitPoint *p = &sp->points[i];
        fprintf(out, "%s{\"at\":%s", i ? "," : "", num_format_json(p->x, a, sizeof a));
        json_write_field(out, "t_comm", p->t_comm);
        json_write_field(out, "t_comm_summed", p->summed);
        json_write_field(out, "t_lower", p->t_lower);
        fprintf(out, ",\"bound\":\"%s\"}", roof_bound_name(p->bound));
    }
    fprintf(out, "],\"best\":%s,\"optimum\":", num_format_json(sp->points[sp->best].x, a, sizeof a));
    if (!sp->has_least) {
        fputs("null}\n", out);
        return;
    }
    fprintf(out, "{\"at\":%s", num_format_json(sp->least, a, sizeof a));
    json_write_field(out, "a", sp->law.a);
    json_write_field(out, "b", sp->law.b);
    json_write_field(out, "c", sp->law.c);
    fputs("}}\n", out);
}

void records_scan_split(FILE *out, const ScanSplitRecord *r, bool json)
{
    if (json)
        split_json(out, r);
    else
        split_text(out, r);
}

static void equal_row(FILE *out, const ScanEqualRecord *r, const ScanEqualRow *row)
{
    char at[32], ta[32], tb[32];
    if (!row->known)
        return;
    fprintf(out, "%s = %s (%s against %s)", r->dim, num_format_plain(row->x, at, sizeof at),
            num_format_unit(row->left, r->unit, 0, ta, 32),
            num_format_unit(row->right, r->unit, 0, tb, 32));
}

static void meet_text(FILE *out, const ScanEqualRecord *r, const ScanMeet *m)
{
    fputs(m->exact ? (m->from == m->to ? "at " : "from ") : "between ", out);
    equal_row(out, r, &m->rows[0]);
    if (!m->exact || m->to != m->from) {
        fputs(m->exact ? " to " : " and ", out);
        equal_row(out, r, &m->rows[1]);
    }
}

/* equal[i]..equal_to[i] holds the i-th meet: the tie's whole numbers when exact[i], else
 * the two whole numbers it lies between. */
static void meets_json(FILE *out, const ScanMeet *meets, int n)
{
    char a[40];
    fputs(",\"equal\":[", out);
    for (int i = 0; i < n; i++)
        fprintf(out, "%s%s", i ? "," : "", num_format_json(meets[i].from, a, sizeof a));
    fputs("],\"equal_to\":[", out);
    for (int i = 0; i < n; i++)
        fprintf(out, "%s%s", i ? "," : "", num_format_json(meets[i].exact ? meets[i].to
                                                                : meets[i].from + 1, a, sizeof a));
    fputs("],\"exact\":[", out);
    for (int i = 0; i < n; i++)
        fprintf(out, "%s%s", i ? "," : "", meets[i].exact ? "true" : "false");
    fputs("]", out);
}

static void equal_json(FILE *out, const ScanEqualRecord *r)
{
    records_json_head(out, &r->stmt);
    fprintf(out, ",\"solve\":\"%s\",\"figure\":\"%s\"", r->dim, r->figure);
    report_json_mode(out, r->mode);
    meets_json(out, r->meets, r->n);
    fputs("}\n", out);
}

static void equal_text(FILE *out, const ScanEqualRecord *r)
{
    const char *d = r->dim;
    char a[32];
    fprintf(out, "%.*s\n  %-13s %s of each side at %s = 1, 2, 4, ..., %s, then bisected\n",
            (int)r->stmt.len, r->stmt.text, "costed", r->figure, d,
            num_format_plain(r->top, a, sizeof a));
    stopped_text(out, d, r->top, r->why);
    bool time = r->unit == UNIT_SECONDS;
    int first = r->first_side;
    fprintf(out, "  %-13s the left side is %s", "from 1",
            first < 0 ? (time ? "faster" : "smaller")
            : first > 0 ? (time ? "slower" : "larger") : (time ? "as fast" : "as large"));
    for (int i = 0; i < r->n; i++) {
        fprintf(out, "\n  %-13s ", i ? "" : "equal");
        meet_text(out, r, &r->meets[i]);
    }
    if (r->n == 0)
        fprintf(out, "\n  %-13s never, for %s up to %s", "equal", d,
                num_format_plain(r->top, a, sizeof a));
    fputs("\n\n", out);
}

void records_scan_equal(FILE *out, const ScanEqualRecord *r, bool json)
{
    if (json)
        equal_json(out, r);
    else
        equal_text(out, r);
}

void records_chart_written(FILE *out, const char *path, const char *title)
{
    fputs("wrote ", out);
    diag_escaped(out, path, strlen(path)); /* a path may hold any byte */
    fprintf(out, ": %s\n\n", title);
}

/* ---- search ----------------------------------------------------------------------- */

static const char SEARCH_LETTERS[] = "XYZ";

/* "  plan: microbatches 1, 2, 4 (a step of 256 sequences); remat none, full; ..." */
static void search_plan_line(FILE *out, const SearchPlanChoices *c)
{
    fputs("  plan: microbatches", out);
    for (int i = 0; i < c->nmicrobatches; i++)
        fprintf(out, "%s%g", i ? ", " : " ", c->microbatches[i]);
    if (!isnan(c->global_batch))
        fprintf(out, " (a step of %g sequences)", c->global_batch);
    fputs("; remat", out);
    for (int i = 0; i < c->nremats; i++)
        fprintf(out, "%s%s", i ? ", " : " ", c->remats[i]);
    fputs("; schedule", out);
    for (int i = 0; i < c->nschedules; i++)
        fprintf(out, "%s%s", i ? ", " : " ", c->gpipe[i] ? "gpipe" : "one_f_one_b");
    fputs("; zero", out);
    for (int i = 0; i < c->nzeros; i++)
        fprintf(out, "%s%d", i ? ", " : " ", c->zeros[i]);
    fputc('\n', out);
}

static void search_column_heads(FILE *out, const SearchHead *h)
{
    fprintf(out, "  %s%s\n  %4s %5s %-9s %-17s", h->derated ? "t_step derated; " : "",
            "* on the Pareto front", "rank", "chips", "mesh", "strategy");
    if (h->training)
        fprintf(out, " %3s %-9s %-5s %4s", "mb", "remat", "sched", "zero");
    fprintf(out, " %9s %6s %9s %9s %-7s %s\n", "t_step", "mfu", "memory", "headroom",
            "bound", "collective");
}

void records_search_head(FILE *out, const SearchHead *h)
{
    char hbm[48] = "HBM (the chip gives no capacity: all)";
    if (!isnan(h->hbm)) {
        num_format_unit(h->hbm, UNIT_BYTES, 0, hbm, sizeof hbm);
        strcat(hbm, " of HBM a chip");
    }
    fprintf(out, "%.*s%s\n  %d configurations: %d fit in %s, %d do not", (int)h->stmt.len,
            h->stmt.text, h->training ? "  [training]" : "", h->configurations, h->fit, hbm,
            h->unfit);
    if (h->dropped)
        fprintf(out, "; %d dropped: cannot fit HBM (a bound, before costing)", h->dropped);
    if (h->uneven)
        fprintf(out, "; %d dropped: their pipeline stages do not divide the layers "
                "(before costing)", h->uneven);
    if (h->failed)
        fprintf(out, ", %d could not be costed (%s)", h->failed, h->why ? h->why : "");
    if (h->oversplit)
        fprintf(out, ";\n  %d split a dim over more chips than it has elements (%s): "
                "not ranked", h->oversplit, h->split);
    if (h->twins)
        fprintf(out, ";\n  %d more are these reshuffled (the same chips, the axes alike): "
                "not listed", h->twins);
    fputc('\n', out);
    if (h->training)
        search_plan_line(out, &h->plan);
    search_column_heads(out, h);
}

static void search_settings(FILE *out, const SearchSettings *s)
{
    fputs("mode training", out);
    if (s->overlap_step)
        fputs(" overlap step", out);
    if (s->microbatches != 1)
        fprintf(out, " microbatches %.17g", s->microbatches);
    if (s->gpipe)
        fputs(" schedule gpipe", out);
    if (s->axes_add)
        fputs(" axes add", out);
    if (s->launch_graph)
        fputs(" launch graph", out);
    if (s->run_tokens > 0)
        fprintf(out, " tokens %.17g", s->run_tokens);
    if (s->sends_overlap)
        fputs(" sends overlap", out);
    fprintf(out, "; remat %s; ", s->remat);
    if (!s->optimizer)
        return;
    fprintf(out, "optimizer %s", s->optimizer);
    if (s->moments)
        fprintf(out, " moments %s", s->moments);
    if (s->master)
        fprintf(out, " master %s", s->master);
    if (s->gradients)
        fprintf(out, " gradients %s", s->gradients);
    fprintf(out, " zero %d; ", s->zero);
}

static void search_reproduce(FILE *out, const SearchReproduce *r)
{
    if (r->training)
        search_settings(out, &r->settings);
    fprintf(out, "%s(", r->callee);
    for (int i = 0; i < r->nargs; i++) {
        const SearchArg *a = &r->args[i];
        fputs(i ? ", " : "", out);
        if (a->name)
            fprintf(out, "%s = ", a->name);
        if (a->value)
            fprintf(out, "%.*s", a->len, a->value);
        else
            fprintf(out, "%.17g", a->batch);
    }
    for (int i = 0; i < r->naxes_args; i++)
        fprintf(out, "%s%s = %s%s%s", i || r->nargs ? ", " : "", r->axes[i].name,
                r->axes[i].braces ? "{" : "", r->axes[i].axes, r->axes[i].braces ? "}" : "");
    fprintf(out, ") on %s", r->chip);
    if (r->compute)
        fprintf(out, " compute %s", r->compute);
    for (int a = 0; a < r->naxes; a++)
        fprintf(out, "%s%c = %d", a ? ", " : " mesh ", SEARCH_LETTERS[a], r->sizes[a]);
}

static void search_row_text(FILE *out, const SearchRow *r)
{
    char t[4][32], mfu[16];
    if (isnan(r->mfu))
        snprintf(mfu, sizeof mfu, "-");
    else
        num_format_percent(100 * r->mfu, mfu, sizeof mfu);
    num_format_unit(r->t_derated, UNIT_SECONDS, 0, t[0], 32);
    fprintf(out, "  %4d %5.0f %-9s %-17s", r->rank, r->chips, r->mesh, r->strategy);
    if (r->training)
        fprintf(out, " %3.0f %-9s %-5s %4d", r->plan.microbatches, r->plan.remat,
                !r->plan.pipelined ? "-" : r->plan.gpipe ? "gpipe" : "1f1b", r->plan.zero);
    fprintf(out, " %*s %6s %9s %9s %-7s %s%s\n", num_columns(t[0], 9), t[0], mfu,
            num_format_unit(r->memory, UNIT_BYTES, 0, t[1], 32),
            isnan(r->hbm) ? "-" : num_format_unit(r->hbm - r->memory, UNIT_BYTES, 0, t[2], 32),
            roof_bound_name(r->bound), r->collective ? r->collective : "none",
            r->pareto ? " *" : "");
    fputs("        reproduce: ", out);
    search_reproduce(out, r->reproduce);
    fputc('\n', out);
}

/* ,"mesh":{"X":2,...},"strategy":{"fsdp":["X"],...} */
static void search_axes_json(FILE *out, const SearchRow *r)
{
    fputs(",\"mesh\":{", out);
    for (int a = 0; a < r->naxes; a++)
        fprintf(out, "%s\"%c\":%d", a ? "," : "", SEARCH_LETTERS[a], r->sizes[a]);
    fputs("},\"strategy\":{", out);
    for (int p = 0; p < r->nparams; p++) {
        fprintf(out, "%s\"%s\":[", p ? "," : "", r->params[p]);
        for (int a = 0, n = 0; a < r->naxes; a++)
            if (r->owner[a] == p)
                fprintf(out, "%s\"%c\"", n++ ? "," : "", SEARCH_LETTERS[a]);
        fputc(']', out);
    }
    fputc('}', out);
}

static void search_row_json(FILE *out, const SearchRow *r)
{
    records_json_head(out, &r->stmt);
    fputs(",\"chip\":", out);
    json_write_string(out, r->chip, strlen(r->chip));
    report_json_mode(out, r->training);
    search_axes_json(out, r);
    if (r->training) {
        fprintf(out, ",\"plan\":{\"microbatches\":%.17g,\"remat\":", r->plan.microbatches);
        json_write_string(out, r->plan.remat_text, strlen(r->plan.remat_text));
        fprintf(out, ",\"schedule\":\"%s\",\"zero\":%d}",
                r->plan.gpipe ? "gpipe" : "one_f_one_b", r->plan.zero);
    }
    json_write_field(out, "chips", r->chips);
    json_write_field(out, "t_step", r->t_step);
    json_write_field(out, "t_derated", r->t_derated);
    json_write_field(out, "mfu", r->mfu);
    json_write_field(out, "flops", r->flops);
    json_write_field(out, "memory", r->memory);
    fprintf(out, ",\"fits\":%s,\"oversplit\":%s,\"bound\":\"%s\",\"collective\":",
            r->fits ? "true" : "false", r->oversplit ? "true" : "false",
            roof_bound_name(r->bound));
    if (r->collective)
        fprintf(out, "\"%s\"", r->collective);
    else
        fputs("null", out);
    char *text = NULL;
    size_t size = 0;
    FILE *mem = nomem_note(open_memstream(&text, &size)); /* the statement then fails */
    if (mem) {
        search_reproduce(mem, r->reproduce);
        fclose(mem);
    }
    fputs(",\"reproduce\":", out);
    json_write_string(out, text ? text : "", text ? size : 0);
    free(text);
    fprintf(out, ",\"pareto\":%s,\"rank\":", r->pareto ? "true" : "false");
    if (r->rank)
        fprintf(out, "%d}\n", r->rank);
    else
        fputs("null}\n", out);
}

void records_search_row(FILE *out, const SearchRow *r, bool json)
{
    if (json)
        search_row_json(out, r);
    else
        search_row_text(out, r);
}

void records_search_title(FILE *out, const char *title)
{
    fprintf(out, "  %s\n", title);
}

void records_search_more(FILE *out, int more)
{
    if (more > 0)
        fprintf(out, "  ... %d more ranked (--json lists every configuration)\n", more);
}

void records_search_end(FILE *out)
{
    fputc('\n', out);
}
