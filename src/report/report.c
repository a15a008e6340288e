/* report.c — the text block and the JSON line of a statement, and the writers of JSON
 * strings and CSV fields that every format shares. */
#include "report.h"

#include <ctype.h>
#include <math.h>
#include <string.h>

#include "diag.h"
#include "json.h"
#include "num.h"
#include "utf8.h"

enum { FORMULA_MAX = 1024, VALUE_MAX = 1024, ROWS_MAX = 64, ALIGN_MAX = 44 };

typedef struct {
    const char *label;
    char formula[FORMULA_MAX];
    char value[VALUE_MAX];
} Row;

typedef struct {
    Row rows[ROWS_MAX];
    int n;
} Table;

/* ---- Pieces shared by both formats ---------------------------------------- */

static char *poly_text(const Report *r, const Poly *p, PolyStyle style, char *buf, size_t n)
{
    return poly_format(p, style, r->namer, r->ctx, buf, n);
}

/* A polynomial whose coefficients carry a unit: "2.725 µs·B + 1.309 ms". */
static char *unit_poly(const Report *r, const Poly *p, Unit unit, char *buf, size_t size)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < poly_nterms(p) && used < size; i++) {
        double coef;
        Poly *mono = poly_term(p, i, &coef);
        char c[64], m[256];
        num_format_unit(i > 0 && coef < 0 ? -coef : coef, unit, 0, c, sizeof c);
        double one;
        bool constant = !mono || poly_is_const(mono, &one);
        if (mono)
            poly_text(r, mono, POLY_STYLE_TEXT, m, sizeof m);
        used += (size_t)snprintf(buf + used, size - used, "%s%s%s%s",
                                 i == 0 ? "" : coef < 0 ? " - " : " + ", c,
                                 constant ? "" : "·", constant ? "" : m);
        poly_free(mono);
    }
    if (poly_nterms(p) == 0)
        num_format_unit(0, unit, 0, buf, size);
    return buf;
}

static char *quantity_text(const Report *r, const Quantity *q, Unit unit, char *buf,
                           size_t size)
{
    return q->known ? num_format_unit(q->value, unit, 0, buf, size)
                    : unit_poly(r, q->now, unit, buf, size);
}

/* FLOPs and bytes not yet known: the exact polynomial in the dims still unbound, or
 * nothing when no dim of the formula is bound yet (it would only repeat it). */
static char *count_text(const Report *r, const Quantity *q, Unit unit, char *buf,
                        size_t size)
{
    buf[0] = '\0';
    if (q->known)
        num_format_unit(q->value, unit, 0, buf, size);
    else if (!poly_equal(q->formula, q->now))
        poly_text(r, q->now, POLY_STYLE_TEXT, buf, size);
    return buf;
}

/* Some dim of the statement is bound, so its times have a value worth showing; with
 * none bound the formulas say all there is. */
static bool some_dim_bound(const Roofline *f)
{
    return !poly_equal(f->flops.formula, f->flops.now) ||
           !poly_equal(f->bytes.formula, f->bytes.now);
}

void report_text_line(FILE *out, const char *text, size_t len)
{
    bool space = false;
    for (size_t i = 0; i < len; i++) {
        if (strchr(" \t\r\n", text[i])) {
            space = true;
            continue;
        }
        if (space)
            fputc(' ', out);
        space = false;
        size_t run = 1;
        while (i + run < len && !strchr(" \t\r\n", text[i + run]))
            run++;
        diag_escaped(out, text + i, run);
        i += run - 1;
    }
}

/* ---- Text ------------------------------------------------------------------ */

static Row *add_row(Table *t, const char *label)
{
    Row *row = &t->rows[t->n++];
    row->label = label;
    row->formula[0] = row->value[0] = '\0';
    return row;
}

/* How a prediction came about, for its row: "launch eager" or "launch graph". */
static const char *launch_word(const Report *r)
{
    return r->launch_graph ? "launch graph" : "launch eager";
}

/* t_predicted's formula: the kernel's model, or the kernels and what fell back. */
static void prediction_formula(const Report *r, const Prediction *p, char *buf, size_t size)
{
    if (p->fallbacks == p->kernels)
        snprintf(buf, size, "the derated bound + launch: %s", p->why);
    else if (p->fallbacks > 0)
        snprintf(buf, size, "%d kernels, %s; %d at the derated bound: %s", p->kernels,
                 launch_word(r), p->fallbacks, p->why);
    else if (p->kernels == 1)
        snprintf(buf, size, "%s; %s", p->how, launch_word(r));
    else
        snprintf(buf, size, "%d kernels as measured, %s", p->kernels, launch_word(r));
}

/* On a calibrated chip: the time its measured kernels predict, beside the bounds. */
static void prediction_row(const Report *r, Table *t, const Prediction *p)
{
    if (!p->made || !p->known)
        return;
    Row *row = add_row(t, "t_predicted");
    prediction_formula(r, p, row->formula, sizeof row->formula);
    num_format_unit(p->t, UNIT_SECONDS, 0, row->value, sizeof row->value);
}

/* Display width: UTF-8 continuation bytes take no column. */
static int width(const char *s)
{
    return num_width(s);
}

static void print_table(const Table *t, FILE *out)
{
    int align = 0, label = 10;
    for (int i = 0; i < t->n; i++)
        if ((int)strlen(t->rows[i].label) > label)
            label = (int)strlen(t->rows[i].label);
    for (int i = 0; i < t->n; i++)
        if (t->rows[i].value[0] && width(t->rows[i].formula) <= ALIGN_MAX &&
            width(t->rows[i].formula) > align)
            align = width(t->rows[i].formula);
    for (int i = 0; i < t->n; i++) {
        const Row *row = &t->rows[i];
        int pad = align - width(row->formula);
        fprintf(out, "  %-*s %s", label, row->label, row->formula);
        if (row->value[0])
            fprintf(out, "%*s%s%s", row->formula[0] ? (pad > 0 ? pad : 0) + 1 : 0, "",
                    row->formula[0] ? "= " : "",
                    row->value);
        fputc('\n', out);
    }
}

/* A dim's shard on one chip, with the world's values: size / the chips of its axes,
 * padded as the figures pad it (tensor_dim_shard_size). NULL when out of memory. */
static Poly *local_dim(const Report *r, const Dim *d)
{
    Poly *now = poly_subst(d->size, r->values, r->ctx);
    if (!now)
        return NULL;
    Poly *shard = tensor_dim_shard_size(now, mesh_span(r->mesh, tensor_dim_axes(d, r->mesh)), NULL);
    poly_free(now);
    return shard;
}

/* "  (a chip: bf16[256,8192])" after a sharded result: the shape one chip holds (ch. 3). */
static void local_shape_text(const Report *r, char *buf, size_t size)
{
    size_t used = strlen(buf);
    if (!r->mesh || !r->mesh->n || !tensor_axes(r->result, r->mesh) || used >= size)
        return;
    used += (size_t)snprintf(buf + used, size - used, "  (a chip: %s[",
                             dtype_name(r->result->dtype));
    for (int i = 0; i < r->result->ndims && used < size; i++) {
        Poly *shard = local_dim(r, &r->result->dims[i]);
        char dim[256] = "?";
        if (shard)
            poly_text(r, shard, POLY_STYLE_TEXT, dim, sizeof dim);
        poly_free(shard);
        used += (size_t)snprintf(buf + used, size - used, "%s%s", i ? "," : "", dim);
    }
    if (used < size)
        snprintf(buf + used, size - used, "])");
}

/* "8 (X=4, Y=2)": the chips and the mesh's axes. */
static void mesh_text(const Report *r, char *buf, size_t size)
{
    size_t used = (size_t)snprintf(buf, size, "%.0f (", r->roof->chips);
    for (int a = 0; a < r->mesh->n && used < size; a++)
        used += (size_t)snprintf(buf + used, size - used, "%s%s=%d%s", a ? ", " : "",
                                 r->namer(r->mesh->axes[a].name, r->ctx),
                                 r->mesh->axes[a].size, r->mesh->axes[a].dcn ? " dcn" : "");
    if (used < size)
        snprintf(buf + used, size - used, ")%s", r->cost->read ? "; the figures are per chip"
                                                              : "");
}

static void cost_rows(const Report *r, Table *t)
{
    const Roofline *f = r->roof;
    char read[64], written[64];
    Row *row = add_row(t, "result");
    tensor_format(r->result, r->namer, r->ctx, row->formula, sizeof row->formula);
    local_shape_text(r, row->formula, sizeof row->formula);
    if (r->mesh->n) {
        row = add_row(t, "chips");
        mesh_text(r, row->formula, sizeof row->formula);
    }
    if (!r->cost->read)
        return;
    row = add_row(t, "flops");
    poly_text(r, f->flops.formula, POLY_STYLE_TEXT, row->formula, sizeof row->formula);
    count_text(r, &f->flops, UNIT_FLOPS, row->value, sizeof row->value);
    row = add_row(t, "bytes");
    poly_text(r, f->bytes.formula, POLY_STYLE_TEXT, row->formula, sizeof row->formula);
    count_text(r, &f->bytes, UNIT_BYTES, row->value, sizeof row->value);
    if (f->read.known && f->written.known)
        snprintf(row->value + strlen(row->value), sizeof row->value - strlen(row->value),
                 "  (read %s, write %s)",
                 num_format_unit(f->read.value, UNIT_BYTES, 0, read, sizeof read),
                 num_format_unit(f->written.value, UNIT_BYTES, 0, written, sizeof written));
    row = add_row(t, "intensity");
    double constant;
    if (poly_is_const(f->flops.formula, &constant) && poly_is_const(f->bytes.formula, &constant))
        snprintf(row->formula, sizeof row->formula, "flops / bytes");
    else if (poly_is_const(f->intensity_formula.num, &constant) && constant > 0 &&
             constant < 1 && 1 / constant == floor(1 / constant))
        snprintf(row->formula, sizeof row->formula, "1/%.0f", 1 / constant);
    else
        poly_ratio_format(&f->intensity_formula, POLY_STYLE_TEXT, r->namer, r->ctx,
                          row->formula, sizeof row->formula);
    if (f->intensity_known)
        snprintf(row->value, sizeof row->value, "%s FLOP/B",
                 num_format_unit(f->intensity, UNIT_NONE, 0, read, sizeof read));
    else if (some_dim_bound(f))
        poly_ratio_format(&f->intensity_now, POLY_STYLE_TEXT, r->namer, r->ctx, row->value,
                          sizeof row->value);
}

static void math_formula(const Report *r, char *buf, size_t size)
{
    const Roofline *f = r->roof;
    char peak[64];
    if (!f->mixed) {
        snprintf(buf, size, "flops / %s", num_format_plain(f->peak, peak, sizeof peak));
        return;
    }
    snprintf(buf, size, "sum of flops / peak over dtypes and units");
}

/* When a ratio beats a threshold: "B > 255.2", or the comparison itself when it does
 * not reduce to one dim. Returns the crossing's sense (roof.h), or 1 when unsolved.
 * TEXT style rounds for people; ASCII keeps every digit for programs. */
static int condition(const Report *r, const PolyRatio *ratio, double threshold,
                     PolyStyle style, char *buf, size_t size)
{
    Crossing c;
    char t[64], formula[VALUE_MAX / 4];
    bool text = style == POLY_STYLE_TEXT;
    if (text)
        num_format_unit(threshold, UNIT_NONE, 0, t, sizeof t);
    else
        num_format_plain(threshold, t, sizeof t);
    if (!roof_crossing(ratio, threshold, &c)) {
        poly_ratio_format(ratio, style, r->namer, r->ctx, formula, sizeof formula);
        snprintf(buf, size, "%s > %s", formula, t);
        return 1;
    }
    snprintf(buf, size, text ? "%s %s %.5g" : "%s %s %.17g", r->namer(c.sym, r->ctx),
             c.sense > 0 ? ">" : "<", c.value);
    return c.sense;
}

/* Training with overlap per pass, and collectives that can make the passes differ
 * from max(t_math, t_hbm): the report shows each pass. */
static bool per_pass_rows(const Roofline *f)
{
    return f->per_pass && f->ncomm;
}

static void times_known_bound(const Report *r, char *buf, size_t size)
{
    const Roofline *f = r->roof;
    char a[64], b[64], c[64];
    if (!f->computes) {
        snprintf(buf, size, "comm (a collective alone)");
        return;
    }
    if (!f->ncomm && !f->mixed) {
        snprintf(buf, size, "%s (%s %s %s)", roof_bound_name(f->bound),
                 num_format_unit(f->intensity, UNIT_NONE, 0, a, sizeof a),
                 f->bound == BOUND_COMPUTE ? ">=" : "<",
                 num_format_unit(f->ridge, UNIT_NONE, 0, b, sizeof b));
        return;
    }
    if (per_pass_rows(f)) {
        snprintf(buf, size, "%s (forward %s, backward %s)", roof_bound_name(f->bound),
                 roof_bound_name(f->pass[0].bound), roof_bound_name(f->pass[1].bound));
        return;
    }
    snprintf(buf, size, "%s (t_math %s, t_hbm %s, t_comm %s)", roof_bound_name(f->bound),
             num_format_unit(f->t_math.value, UNIT_SECONDS, 0, a, sizeof a),
             num_format_unit(f->t_hbm.value, UNIT_SECONDS, 0, b, sizeof b),
             num_format_unit(f->t_comm.value, UNIT_SECONDS, 0, c, sizeof c));
}

/* Before the times are known: when the statement is compute-bound. */
static void bound_condition(const Report *r, PolyStyle style, char *buf, size_t size)
{
    const Roofline *f = r->roof;
    char hbm[VALUE_MAX / 2], net[VALUE_MAX / 2];
    if (f->mixed || (f->ncomm && (!roof_has_network_ratio(f) || !r->cost->read))) {
        snprintf(buf, size, "compute when t_math beats t_hbm%s",
                 !f->ncomm ? "" : f->per_pass ? " and each pass's t_comm" : " and t_comm");
    } else if (!f->ncomm) {
        int sense = condition(r, &f->intensity_now, f->ridge, style, hbm, sizeof hbm);
        if (sense == 0 || sense == 2)
            snprintf(buf, size, "%s whatever the dims (the intensity stays %s the ridge)",
                     sense ? "compute" : "memory", sense ? "above" : "below");
        else
            snprintf(buf, size, "compute when %s, else memory", hbm);
    } else {
        int on_hbm = condition(r, &f->intensity_now, f->ridge, style, hbm, sizeof hbm);
        int on_net = condition(r, &f->net_now, f->net_ridge, style, net, sizeof net);
        if (on_hbm == 0 || on_net == 0)
            snprintf(buf, size, "never compute, whatever the dims (the %s stays below %s)",
                     on_hbm == 0 ? "intensity" : "network intensity",
                     on_hbm == 0 ? "the ridge" : "net_ridge");
        else if (on_hbm == 2 && on_net == 2)
            snprintf(buf, size, "compute whatever the dims (both intensities stay above their ridges)");
        else if (on_hbm == 2 || on_net == 2)
            snprintf(buf, size, "compute when %s (%s)", on_hbm == 2 ? net : hbm,
                     on_hbm == 2 ? "network" : "HBM");
        else
            snprintf(buf, size, "compute when %s (HBM) and %s (network)", hbm, net);
    }
}

static void bound_text(const Report *r, char *buf, size_t size)
{
    if (r->roof->times_known || r->roof->bound != BOUND_UNKNOWN)
        times_known_bound(r, buf, size);
    else
        bound_condition(r, POLY_STYLE_TEXT, buf, size);
}

static char *lanes_text(const Report *r, int which, PolyStyle style, char *buf, size_t size);
static void per_pass_lanes(const Report *r, PolyStyle style, char *buf, size_t size);

/* T_upper before every dim is bound: the sum as one polynomial. */
static Poly *upper_now(const Roofline *f)
{
    Poly *two = poly_add(f->t_math.now, f->t_hbm.now);
    Poly *three = two && f->ncomm ? poly_add(two, f->t_comm.now) : NULL;
    if (!f->ncomm)
        return two;
    poly_free(two);
    return three;
}

static void upper_text(const Report *r, char *buf, size_t size)
{
    if (r->roof->overlapped) { /* the busiest link's time is no polynomial */
        char m[VALUE_MAX / 4], h[VALUE_MAX / 4], c[VALUE_MAX / 2];
        if (per_pass_rows(r->roof))
            per_pass_lanes(r, POLY_STYLE_TEXT, c, sizeof c);
        else
            lanes_text(r, 0, POLY_STYLE_TEXT, c, sizeof c);
        snprintf(buf, size, "%s + %s + %s",
                 quantity_text(r, &r->roof->t_math, UNIT_SECONDS, m, sizeof m),
                 quantity_text(r, &r->roof->t_hbm, UNIT_SECONDS, h, sizeof h), c);
        return;
    }
    Poly *sum = upper_now(r->roof);
    buf[0] = '\0';
    if (sum)
        unit_poly(r, sum, UNIT_SECONDS, buf, size);
    poly_free(sum);
}

/* "XY" or "pods,X": the names of a set of axes. */
static void axes_text(const Report *r, AxisSet axes, char *buf, size_t size)
{
    size_t used = 0;
    bool letters = true;
    buf[0] = '\0';
    for (int a = 0; a < r->mesh->n; a++)
        letters = letters && strlen(r->namer(r->mesh->axes[a].name, r->ctx)) == 1;
    for (int a = 0; a < r->mesh->n && used < size; a++)
        if (axes & 1u << a)
            used += (size_t)snprintf(buf + used, size - used, "%s%s",
                                     used && !letters ? "," : "",
                                     r->namer(r->mesh->axes[a].name, r->ctx));
}

/* ", ICI ring, 8 hops": the network, and the hops (ring steps) a byte waits through. */
static void link_text(const LinkCost *link, char *buf, size_t size)
{
    int n = snprintf(buf, size, ", %s", link->network);
    if (link->floor > 0 && n > 0 && (size_t)n < size)
        snprintf(buf + n, size - (size_t)n, ", %g %s", link->hops,
                 link->hops == 1 ? "hop" : "hops");
}

/* With one collective on a network that has a latency: the floor, and the array size
 * below which it holds (the bandwidth time factor · V / W beats it above V = floor ·
 * W / factor). */
static void latency_row(const Report *r, Table *t)
{
    const LinkCost *link = &r->roof->links[0];
    if (r->roof->ncomm != 1 || link->floor <= 0 || link->factor <= 0)
        return;
    char a[48], b[48], c[48];
    Row *row = add_row(t, "latency");
    snprintf(row->formula, sizeof row->formula, "%g %s × %s", link->hops,
             link->hops == 1 ? "hop" : "hops",
             num_format_unit(link->floor / link->hops, UNIT_SECONDS, 0, a, sizeof a));
    double under = link->floor * link->bandwidth / link->factor;
    num_format_unit(link->floor, UNIT_SECONDS, 0, b, sizeof b);
    if (isfinite(under)) /* a floor near the largest double: no size a double holds */
        snprintf(row->value, sizeof row->value, "%s: latency-bound while the array is under %s",
                 b, num_format_unit(under, UNIT_BYTES, 0, c, sizeof c));
    else
        snprintf(row->value, sizeof row->value, "%s: latency-bound at any array size", b);
}

/* The latency fields a statement's collectives lack (LinkCost.unset). */
static ChipFieldSet unset_latencies(const Roofline *f)
{
    ChipFieldSet unset = 0;
    for (int i = 0; i < f->ncomm; i++)
        unset |= f->links[i].unset;
    return unset;
}

/* "nvlink_latency, node_latency": the names of a set of fields. */
static char *field_names(ChipFieldSet set, char *buf, size_t size)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int f = 0; f < CHIP_FIELD_COUNT && used < size; f++)
        if (set & CHIP_FIELD_BIT(f))
            used += (size_t)snprintf(buf + used, size - used, "%s%s", used ? ", " : "",
                                     chip_fields[f].name);
    return buf;
}

/* A network the chip gives no latency for: its floor is unset, not zero. */
static void unset_row(const Report *r, Table *t)
{
    ChipFieldSet unset = unset_latencies(r->roof);
    if (!unset)
        return;
    char names[128];
    Row *row = add_row(t, "latency");
    snprintf(row->formula, sizeof row->formula, "%s gives no %s", r->roof->chip->name,
             field_names(unset, names, sizeof names));
    snprintf(row->value, sizeof row->value, "unset: those hops add no latency floor");
}

/* The same in JSON: "latency_unset", the fields' names (empty when none is missing). */
static void json_unset(FILE *out, ChipFieldSet unset)
{
    fputs(",\"latency_unset\":[", out);
    for (int f = 0, n = 0; f < CHIP_FIELD_COUNT; f++)
        if (unset & CHIP_FIELD_BIT(f))
            fprintf(out, "%s\"%s\"", n++ ? "," : "", chip_fields[f].name);
    fputc(']', out);
}

/* What moves: "allreduce of bf16[B,F] over D (2 chips, ICI ring)", then why. */
static void collective_rows(const Report *r, Table *t)
{
    for (int i = 0; i < r->cost->ncolls; i++) {
        const Collective *c = &r->cost->colls[i];
        char array[FORMULA_MAX / 2], axes[64], net[80] = "";
        tensor_format(c->array, r->namer, r->ctx, array, sizeof array);
        axes_text(r, c->axes, axes, sizeof axes);
        if (r->roof->chip)
            link_text(&r->roof->links[i], net, sizeof net);
        Row *row = add_row(t, "collective");
        snprintf(row->formula, sizeof row->formula, "%s of %s over %s (%.0f chips%s)",
                 coll_name(c->kind), array, axes, mesh_span(r->mesh, c->axes), net);
        if (c->why)
            snprintf(add_row(t, "")->formula, FORMULA_MAX, "%s", c->why);
    }
}

/* The collectives that keep lane l busy, as a bit set over the collectives. */
static unsigned lane_users(const Roofline *f, int l)
{
    unsigned users = 0;
    for (int i = 0; i < f->ncomm; i++)
        users |= (f->links[i].lanes >> l & 1u) << i;
    return users;
}

/* "XY": the lanes that the same collectives keep busy as lane l, named together; false
 * when an earlier lane already named them. */
static bool lane_group(const Report *r, int l, char *buf, size_t size)
{
    const Roofline *f = r->roof;
    unsigned users = lane_users(f, l);
    size_t used = 0;
    buf[0] = '\0';
    for (int k = 0; k < MESH_LANES && used < size; k++) {
        if (!(f->lanes >> k & 1u) || lane_users(f, k) != users)
            continue;
        if (k < l)
            return false;
        const char *name = roof_lane_name(r->mesh, k, r->namer, r->ctx);
        used += (size_t)snprintf(buf + used, size - used, "%s%s",
                                 used && (strlen(name) > 1 || strlen(buf) > 1) ? "," : "", name);
    }
    return true;
}

/* Overlapped lanes (roof.h): "max(Z 168.6 µs, XY 372.8 µs)", each group of lanes' time
 * (which: 0 the step's, 1 the forward passes', 2 the rest) as a number with its unit
 * once known (text), else as a formula: with units in text, bare in ASCII (JSON). */
static char *lanes_text(const Report *r, int which, PolyStyle style, char *buf, size_t size)
{
    const Roofline *f = r->roof;
    bool text = style == POLY_STYLE_TEXT;
    size_t used = (size_t)snprintf(buf, size, "max(");
    for (int l = 0; l < MESH_LANES && used < size; l++) {
        char name[64], one[FORMULA_MAX / 4] = "?";
        if (!(f->lanes >> l & 1u) || !lane_group(r, l, name, sizeof name))
            continue;
        Poly *rest = which == 2 ? poly_sub(f->lane_time[l].now, f->lane_fwd[l].now) : NULL;
        const Poly *p = which == 0 ? f->lane_time[l].now : which == 1 ? f->lane_fwd[l].now : rest;
        double value;
        if (text && which == 0 && f->t_comm.known) /* with its latency floors */
            num_format_unit(f->lane_value[l], UNIT_SECONDS, 0, one, sizeof one);
        else if (p && text && poly_is_const(p, &value))
            num_format_unit(value, UNIT_SECONDS, 0, one, sizeof one);
        else if (p && text)
            unit_poly(r, p, UNIT_SECONDS, one, sizeof one);
        else if (p)
            poly_text(r, p, style, one, sizeof one);
        used += (size_t)snprintf(buf + used, size - used, "%s%s%s%s", used > 4 ? ", " : "",
                                 text ? name : "", text ? " " : "", one);
        poly_free(rest);
    }
    if (used + 1 < size)
        strcat(buf, ")");
    return buf;
}

/* Per pass: the forward passes' busiest lane plus the backward passes'. */
static void per_pass_lanes(const Report *r, PolyStyle style, char *buf, size_t size)
{
    char fwd[VALUE_MAX / 2], bwd[VALUE_MAX / 2];
    snprintf(buf, size, "%s + %s", lanes_text(r, 1, style, fwd, sizeof fwd),
             lanes_text(r, 2, style, bwd, sizeof bwd));
}

/* Overlapped lanes: t_comm is the busiest lane's time (per pass, roof.h). */
static void lanes_row(const Report *r, Row *row)
{
    const Roofline *f = r->roof;
    char lanes[VALUE_MAX / 2], a[48];
    snprintf(row->formula, sizeof row->formula, "%s",
             per_pass_rows(f) ? "each pass's busiest link (axes at once)"
                              : "the busiest link (axes at once)");
    lanes_text(r, 0, POLY_STYLE_TEXT, lanes, sizeof lanes);
    if (f->t_comm.known) /* "372.8 µs (Z 168.6 µs, XY 372.8 µs)": lanes without "max" */
        snprintf(row->value, sizeof row->value, "%s (%s%s",
                 num_format_unit(f->t_comm.value, UNIT_SECONDS, 0, a, sizeof a),
                 per_pass_rows(f) ? "the step's on each: " : "", lanes + 4);
    else if (per_pass_rows(f))
        per_pass_lanes(r, POLY_STYLE_TEXT, row->value, sizeof row->value);
    else
        snprintf(row->value, sizeof row->value, "%s", lanes);
}

/* Whether the report gives the book's form of a lone collective beside the exact
 * one (Roofline.t_comm_book). */
static bool book_shown(const Roofline *f)
{
    return f->chip && f->ncomm == 1 && f->t_comm_book > 0 && f->t_comm_exact > 0;
}

/* The book's V/W (2V/W for an AllReduce), the ring's (N−1)/N taken as 1: the figure a
 * chapter prints, and how far the exact ring is from it. */
static void book_row(const Report *r, Table *t)
{
    const Roofline *f = r->roof;
    if (!book_shown(f))
        return;
    char a[64], b[64], c[64];
    bool reduce = r->cost->colls[0].kind == COLL_ALLREDUCE;
    Row *row = add_row(t, "t_comm_book");
    snprintf(row->formula, sizeof row->formula, "%sV / %s, the book's", reduce ? "2·" : "",
             num_format_plain(f->links[0].bandwidth, a, sizeof a));
    snprintf(row->value, sizeof row->value, "%s; exactly %s, (N−1)/N = %s of it",
             num_format_unit(f->t_comm_book, UNIT_SECONDS, 0, a, sizeof a),
             num_format_unit(f->t_comm_exact, UNIT_SECONDS, 0, b, sizeof b),
             num_format_unit(f->t_comm_exact / f->t_comm_book, UNIT_NONE, 0, c, sizeof c));
}

static void comm_rows(const Report *r, Table *t)
{
    const Roofline *f = r->roof;
    char a[64], b[64];
    Row *row = add_row(t, "comm_bytes");
    poly_text(r, f->comm_bytes.formula, POLY_STYLE_TEXT, row->formula, sizeof row->formula);
    count_text(r, &f->comm_bytes, UNIT_BYTES, row->value, sizeof row->value);
    row = add_row(t, "t_comm");
    /* trained, a forward collective runs twice, each run with its floor (roof.c) */
    bool twice = r->cost->mode != COST_INFERENCE && !r->cost->colls[0].backward;
    if (f->overlapped)
        lanes_row(r, row);
    else if (f->link_bw && f->latency_bound && f->ncomm == 1)
        snprintf(row->formula, sizeof row->formula, twice ? "2·max(comm_bytes / (2·%s), %s)"
                                                          : "max(comm_bytes / %s, %s)",
                 num_format_plain(f->link_bw, a, sizeof a),
                 num_format_unit(f->links[0].floor, UNIT_SECONDS, 0, b, sizeof b));
    else if (f->link_bw)
        snprintf(row->formula, sizeof row->formula, "comm_bytes / %s",
                 num_format_plain(f->link_bw, a, sizeof a));
    else
        snprintf(row->formula, sizeof row->formula, "sum over the collectives");
    if (!f->overlapped && (f->t_comm.known ||
                           !poly_equal(f->comm_bytes.formula, f->comm_bytes.now)))
        quantity_text(r, &f->t_comm, UNIT_SECONDS, row->value, sizeof row->value);
    if (f->latency_bound)
        strncat(row->value, " (the latency floor: hops × hop latency)",
                sizeof row->value - strlen(row->value) - 1);
    book_row(r, t);
    latency_row(r, t);
    unset_row(r, t);
    if (!roof_has_network_ratio(f) || !r->cost->read)
        return;
    row = add_row(t, "net_intensity");
    poly_ratio_format(&f->net_formula, POLY_STYLE_TEXT, r->namer, r->ctx, row->formula,
                      sizeof row->formula);
    if (f->net_known)
        snprintf(row->value, sizeof row->value, "%s FLOP/B%s",
                 num_format_unit(f->net_intensity, UNIT_NONE, 0, a, sizeof a), roof_net_pass(f));
    row = add_row(t, "net_ridge");
    snprintf(row->formula, sizeof row->formula, "%s / %s", num_format_plain(f->peak, a, sizeof a),
             num_format_plain(f->link_bw, b, sizeof b));
    snprintf(row->value, sizeof row->value, "%s FLOP/B",
             num_format_unit(f->net_ridge, UNIT_NONE, 0, a, sizeof a));
}

/* What a chip holds against its HBM: its operands and results. */
static void memory_row(const Report *r, Table *t)
{
    const Roofline *f = r->roof;
    if (!f->memory_known || !f->chip->set[CHIP_HBM_BYTES] || !r->cost->read)
        return;
    double hbm = f->chip->value[CHIP_HBM_BYTES], percent = 100 * f->memory / hbm;
    char a[64], b[64], c[64] = "";
    Row *row = add_row(t, "memory");
    snprintf(row->formula, sizeof row->formula, "operands + result");
    /* A tiny HBM makes the share overflow: then the share goes, not the row. */
    if (isfinite(percent))
        snprintf(c, sizeof c, " (%s)", num_format_percent(percent, a, sizeof a));
    snprintf(row->value, sizeof row->value, "%s of %s HBM%s%s",
             num_format_unit(f->memory, UNIT_BYTES, 0, a, sizeof a),
             num_format_unit(hbm, UNIT_BYTES, 0, b, sizeof b), c,
             f->memory > hbm ? ": does NOT fit" : "");
}

/* The FLOPs the matrix unit runs on a weight's padding, and the share of its work
 * that is useful; shown once both are numbers and it is 1% of the FLOPs or more
 * (8000-wide dims waste 0.8%: noise beside the book's figures); in JSON always. */
#define PADDING_SHOWN 0.01
static void padding_row(const Report *r, Table *t)
{
    const Roofline *f = r->roof;
    char a[48], b[48];
    Row *row = add_row(t, "padding");
    snprintf(row->formula, sizeof row->formula, "weight dims up to multiples of %s",
             num_format_plain(f->chip->value[CHIP_MXU_SIZE], a, sizeof a));
    if (f->padding.known && f->flops.known)
        snprintf(row->value, sizeof row->value, "%s more run, not in t_math (the unit %s busy)",
                 num_format_unit(f->padding.value, UNIT_FLOPS, 0, a, sizeof a),
                 num_format_percent(100 * f->flops.value / (f->flops.value + f->padding.value),
                                    b, sizeof b));
    else
        quantity_text(r, &f->padding, UNIT_FLOPS, row->value, sizeof row->value);
}

/* The chip's side of the computation: ridge, T_math, T_hbm. */
static void compute_rows(const Report *r, Table *t, bool partly)
{
    const Roofline *f = r->roof;
    char a[VALUE_MAX / 2 - 16], b[VALUE_MAX / 2 - 16];
    Row *row = add_row(t, "ridge");
    snprintf(row->formula, sizeof row->formula, "%s / %s",
             num_format_plain(f->peak, a, sizeof a), num_format_plain(f->hbm_bw, b, sizeof b));
    snprintf(row->value, sizeof row->value, "%s FLOP/B (%s, %s)",
             num_format_unit(f->ridge, UNIT_NONE, 0, a, sizeof a), f->chip->name,
             f->vector ? "vector unit"
             : f->compute == DT_INT32 ? "int32, at f32's peak" /* dtype.h: no int32 peak */
                                      : dtype_name(f->compute));
    if (f->padding.known && f->flops.known && f->padding.value >= PADDING_SHOWN * f->flops.value)
        padding_row(r, t);
    row = add_row(t, "t_math");
    math_formula(r, row->formula, sizeof row->formula);
    if (partly || f->t_math.known)
        quantity_text(r, &f->t_math, UNIT_SECONDS, row->value, sizeof row->value);
    row = add_row(t, "t_hbm");
    snprintf(row->formula, sizeof row->formula, "bytes / %s",
             num_format_plain(f->hbm_bw, a, sizeof a));
    if (partly || f->t_hbm.known)
        quantity_text(r, &f->t_hbm, UNIT_SECONDS, row->value, sizeof row->value);
}

/* Each pass of a training step, when the collectives overlap only their own (roof.h). */
static void pass_rows(const Roofline *f, Table *t)
{
    static const char *const label[2] = {"t_forward", "t_backward"};
    static const char *const formula[2] = {"max(t_math/3, t_hbm/3, its t_comm)",
                                           "max(2·t_math/3, 2·t_hbm/3, its t_comm)"};
    static const char *const per_microbatch[2] = {
        "M × max(t_math/3M, t_hbm/3M, its t_comm/M)",
        "Σ over M: max(2·t_math/3M, 2·t_hbm/3M, its t_comm)"};
    for (int k = 0; k < 2; k++) {
        Row *row = add_row(t, label[k]);
        /* Over microbatches each one's pass is a max of its own; the last backward pass
         * has the gradients' collectives too (roof.h). */
        snprintf(row->formula, sizeof row->formula, "%s",
                 f->microbatches > 1 ? per_microbatch[k] : formula[k]);
        if (!f->times_known)
            continue;
        char a[64], b[64];
        snprintf(row->value, sizeof row->value, "%s (%s; its t_comm %s)",
                 num_format_unit(f->pass[k].t_lower, UNIT_SECONDS, 0, a, sizeof a),
                 roof_bound_name(f->pass[k].bound),
                 num_format_unit(f->pass[k].t_comm, UNIT_SECONDS, 0, b, sizeof b));
    }
}

static void time_rows(const Report *r, Table *t)
{
    const Roofline *f = r->roof;
    char a[VALUE_MAX / 2 - 16], b[VALUE_MAX / 2 - 16];
    bool partly = some_dim_bound(f);
    Row *row;
    if (r->cost->read)
        compute_rows(r, t, partly);
    if (f->ncomm)
        comm_rows(r, t);
    if (!r->cost->read) { /* collectives only: nothing else takes time */
        bound_text(r, add_row(t, "bound")->value, VALUE_MAX);
        return;
    }
    if (per_pass_rows(f))
        pass_rows(f, t);
    row = add_row(t, "t_lower");
    snprintf(row->formula, sizeof row->formula, "%s",
             per_pass_rows(f) ? "t_forward + t_backward"
             : f->ncomm      ? "max(t_math, t_hbm, t_comm)"
                             : "max(t_math, t_hbm)");
    if (f->times_known)
        num_format_unit(f->t_lower, UNIT_SECONDS, 0, row->value, sizeof row->value);
    else if (partly && !f->ncomm)
        snprintf(row->value, sizeof row->value, "max(%s, %s)",
                 quantity_text(r, &f->t_math, UNIT_SECONDS, a, sizeof a),
                 quantity_text(r, &f->t_hbm, UNIT_SECONDS, b, sizeof b));
    row = add_row(t, "t_upper");
    snprintf(row->formula, sizeof row->formula, f->ncomm ? "t_math + t_hbm + t_comm"
                                                        : "t_math + t_hbm");
    if (f->times_known)
        num_format_unit(f->t_upper, UNIT_SECONDS, 0, row->value, sizeof row->value);
    else if (partly)
        upper_text(r, row->value, sizeof row->value);
    if (f->derated && f->times_known) {
        row = add_row(t, "t_derated");
        const Chip *c = f->chip;
        double fe = c->set[CHIP_FLOPS_EFF] ? c->value[CHIP_FLOPS_EFF] : 1;
        double he = c->set[CHIP_HBM_EFF] ? c->value[CHIP_HBM_EFF] : 1;
        double ne = c->set[CHIP_NET_EFF] ? c->value[CHIP_NET_EFF] : 1;
        if (per_pass_rows(f))
            snprintf(row->formula, sizeof row->formula, "t_lower's passes at t_math/%g, "
                     "t_hbm/%g, t_comm/%g", fe, he, ne);
        else if (f->ncomm)
            snprintf(row->formula, sizeof row->formula, "max(t_math/%g, t_hbm/%g, t_comm/%g)",
                     fe, he, ne);
        else
            snprintf(row->formula, sizeof row->formula, "max(t_math/%g, t_hbm/%g)", fe, he);
        num_format_unit(f->t_derated, UNIT_SECONDS, 0, row->value, sizeof row->value);
    }
    prediction_row(r, t, &f->predict);
    row = add_row(t, "bound");
    snprintf(row->formula, sizeof row->formula, "%s",
             per_pass_rows(f)        ? "comm if a pass waits on its t_comm"
             : f->mixed || f->ncomm ? "the largest time"
                                    : "intensity vs ridge");
    bound_text(r, row->value, sizeof row->value);
    if (f->times_known && r->cost->read) {
        row = add_row(t, "attained");
        snprintf(row->formula, sizeof row->formula, "flops / t_lower");
        snprintf(row->value, sizeof row->value, "%s (%s of peak)",
                 num_format_unit(f->attained, UNIT_RATE, 0, a, sizeof a),
                 num_format_percent(f->mixed ? 100 * f->t_math.value / f->t_lower
                                             : 100 * f->attained / f->peak, b, sizeof b));
    }
    memory_row(r, t);
}

/* What the figures do not show on their own: padded shards, a mesh no dim uses. */
static void note_rows(const Report *r, int width)
{
    for (int i = 0; i < r->nnotes; i++)
        fprintf(r->out, "  %-*s %s\n", width, "note", r->notes[i]);
}

static void json_notes(const Report *r)
{
    if (r->nnotes == 0)
        return;
    fputs(",\"notes\":[", r->out);
    for (int i = 0; i < r->nnotes; i++) {
        fputs(i ? "," : "", r->out);
        json_write_string(r->out, r->notes[i], strlen(r->notes[i]));
    }
    fputc(']', r->out);
}

static void no_chip_row(Table *t)
{
    Row *row = add_row(t, "chip");
    snprintf(row->formula, sizeof row->formula, "none: add `on v5e` or `use v5e` for times "
             "and the bound (`roofline --chips` lists the chips)");
}

static void text_statement(const Report *r)
{
    Table t = {.n = 0};
    report_text_line(r->out, r->stmt, r->stmt_len);
    char tag[96];
    fprintf(r->out, "%s\n", report_step_tag(r->training, r->cost->microbatches, tag, sizeof tag));
    cost_rows(r, &t);
    collective_rows(r, &t);
    if (r->roof->chip)
        time_rows(r, &t);
    else
        no_chip_row(&t);
    print_table(&t, r->out);
    note_rows(r, 13);
    fputc('\n', r->out);
}

/* ---- JSON ------------------------------------------------------------------ */

static void json_key(FILE *out, const char *key)
{
    fprintf(out, ",\"%s\":", key);
}

static void json_or_null(FILE *out, const char *key, bool known, double v)
{
    char buf[64];
    json_key(out, key);
    fputs(known ? num_format_json(v, buf, sizeof buf) : "null", out);
}

/* On a calibrated chip: t_predicted, and why some of it is the derated bound. */
static void json_prediction_keys(const Report *r, bool known, double t, double kernels,
                                 double fallbacks, const char *why)
{
    json_or_null(r->out, "t_predicted", known, t);
    json_or_null(r->out, "kernels", known, kernels);
    json_or_null(r->out, "kernels_derated", known, fallbacks);
    if (known && fallbacks > 0 && why[0]) {
        json_key(r->out, "derated_why");
        json_write_string(r->out, why, strlen(why));
    }
}

static void json_prediction(const Report *r, const Prediction *p)
{
    if (p->made)
        json_prediction_keys(r, p->known, p->t, p->kernels, p->fallbacks, p->why);
}

static void json_op_prediction(const Report *r, const Op *op)
{
    if (op->predicted)
        json_prediction_keys(r, op->known, op->t_predicted, op->kernels, op->fallbacks,
                             op->fallback);
}

/* `shape`, the result's global dims, or `local_shape`, the shard of them one chip holds
 * (local_dim). */
static void json_shape(const Report *r, bool local)
{
    json_key(r->out, local ? "local_shape" : "shape");
    fputc('[', r->out);
    for (int i = 0; i < r->result->ndims; i++) {
        Poly *now = local ? local_dim(r, &r->result->dims[i])
                          : poly_subst(r->result->dims[i].size, r->values, r->ctx);
        double v;
        char buf[256];
        fputs(i ? "," : "", r->out);
        if (now && poly_is_const(now, &v))
            fputs(num_format_json(v, buf, sizeof buf), r->out);
        else if (now)
            poly_text(r, now, POLY_STYLE_ASCII, buf, sizeof buf), json_write_string(r->out, buf, strlen(buf));
        else
            fputs("null", r->out);
        poly_free(now);
    }
    fputc(']', r->out);
}

static void json_formula_poly(const Report *r, const char *key, const Quantity *q, bool first)
{
    char buf[FORMULA_MAX];
    poly_text(r, q->known ? q->formula : q->now, POLY_STYLE_ASCII, buf, sizeof buf);
    fprintf(r->out, "%s\"%s\":", first ? "" : ",", key);
    json_write_string(r->out, buf, strlen(buf));
}

static void json_formula_text(const Report *r, const char *key, const char *text)
{
    fprintf(r->out, ",\"%s\":", key);
    json_write_string(r->out, text, strlen(text));
}

/* The sum over the collectives on lane l (every one when l < 0) of max(its bandwidth
 * time, its latency floor), in ASCII. */
static size_t floored_sum(const Report *r, int l, char *buf, size_t size)
{
    const Roofline *f = r->roof;
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < f->ncomm && used < size; i++) {
        const LinkCost *link = &f->links[i];
        if (l >= 0 && !(link->lanes >> l & 1u))
            continue;
        Poly *now = poly_subst(r->cost->colls[i].bytes, r->lookup, r->lookup_ctx);
        Poly *t = now ? poly_scale(now, link->factor / link->bandwidth) : NULL;
        char one[FORMULA_MAX / 4], floor_s[32];
        poly_text(r, t, POLY_STYLE_ASCII, one, sizeof one);
        num_format_json(link->floor, floor_s, sizeof floor_s);
        used += (size_t)snprintf(buf + used, size - used, "%s%s%s%s%s%s", used ? " + " : "",
                                 link->floor > 0 ? "max(" : "", t ? one : "?",
                                 link->floor > 0 ? ", " : "", link->floor > 0 ? floor_s : "",
                                 link->floor > 0 ? ")" : "");
        poly_free(now);
        poly_free(t);
    }
    return used;
}

/* Overlapped lanes, floors written out: max(each group of lanes' floored sum). */
static void floored_lanes(const Report *r, char *buf, size_t size)
{
    size_t used = (size_t)snprintf(buf, size, "max(");
    for (int l = 0; l < MESH_LANES && used < size; l++) {
        char name[64];
        if (!(r->roof->lanes >> l & 1u) || !lane_group(r, l, name, sizeof name))
            continue;
        if (used > 4)
            used += (size_t)snprintf(buf + used, size - used, ", ");
        if (used < size)
            used += floored_sum(r, l, buf + used, size - used);
    }
    if (used + 1 < size)
        strcat(buf, ")");
}

/* t_comm as a formula in the dims still unbound: in inference the sum over the
 * collectives of max(its bandwidth time, its latency floor) (roof.c prices each so),
 * over overlapped lanes the largest of such sums; otherwise, or with no floor, the
 * bandwidth times' polynomial (or their lanes' largest). */
static char *comm_formula(const Report *r, char *buf, size_t size, bool *floored)
{
    const Roofline *f = r->roof;
    bool floors = false;
    for (int i = 0; i < f->ncomm; i++)
        floors = floors || f->links[i].floor > 0;
    floors = floors && r->cost->mode == COST_INFERENCE && r->cost->microbatches == 1 &&
             f->ncomm == r->cost->ncolls;
    *floored = floors || f->overlapped; /* written out: no polynomial says it */
    if (f->overlapped && per_pass_rows(f))
        per_pass_lanes(r, POLY_STYLE_ASCII, buf, size);
    else if (f->overlapped && floors)
        floored_lanes(r, buf, size);
    else if (f->overlapped)
        lanes_text(r, 0, POLY_STYLE_ASCII, buf, size);
    else if (floors)
        floored_sum(r, -1, buf, size);
    else
        poly_text(r, f->t_comm.now, POLY_STYLE_ASCII, buf, size);
    return buf;
}

/* T_lower's formula before the times are known: max(t_math, t_hbm[, t_comm]), or per
 * pass max((t_math)/3, (t_hbm)/3, t_comm fwd) + max(2*(t_math)/3, 2*(t_hbm)/3, the rest). */
static void lower_formula(const Report *r, char *buf, size_t size)
{
    const Roofline *f = r->roof;
    char m[FORMULA_MAX / 4], h[FORMULA_MAX / 4], fwd[FORMULA_MAX / 4], bwd[FORMULA_MAX / 4];
    poly_text(r, f->t_math.now, POLY_STYLE_ASCII, m, sizeof m);
    poly_text(r, f->t_hbm.now, POLY_STYLE_ASCII, h, sizeof h);
    if (per_pass_rows(f) && f->overlapped) {
        snprintf(buf, size, "max((%s)/3, (%s)/3, %s) + max(2*(%s)/3, 2*(%s)/3, %s)", m, h,
                 lanes_text(r, 1, POLY_STYLE_ASCII, fwd, sizeof fwd), m, h,
                 lanes_text(r, 2, POLY_STYLE_ASCII, bwd, sizeof bwd));
        return;
    }
    if (per_pass_rows(f)) {
        Poly *rest = poly_sub(f->t_comm.now, f->t_comm_fwd.now);
        poly_text(r, f->t_comm_fwd.now, POLY_STYLE_ASCII, fwd, sizeof fwd);
        bwd[0] = '\0';
        if (rest)
            poly_text(r, rest, POLY_STYLE_ASCII, bwd, sizeof bwd);
        poly_free(rest);
        snprintf(buf, size, "max((%s)/3, (%s)/3, %s) + max(2*(%s)/3, 2*(%s)/3, %s)", m, h, fwd,
                 m, h, bwd);
        return;
    }
    bool floored;
    if (f->ncomm)
        snprintf(buf, size, "max(%s, %s, %s)", m, h, comm_formula(r, fwd, sizeof fwd, &floored));
    else
        snprintf(buf, size, "max(%s, %s)", m, h);
}

/* Formulas: flops, bytes and intensity always; every other figure that is null. */
static void json_formulas(const Report *r)
{
    const Roofline *f = r->roof;
    char buf[2 * FORMULA_MAX];
    json_key(r->out, "formula");
    fputc('{', r->out);
    json_formula_poly(r, "flops", &f->flops, true);
    json_formula_poly(r, "bytes", &f->bytes, false);
    if (f->computes)
        poly_ratio_format(f->intensity_known ? &f->intensity_formula : &f->intensity_now,
                          POLY_STYLE_ASCII, r->namer, r->ctx, buf, sizeof buf);
    else
        snprintf(buf, sizeof buf, "0/0 (a collective alone moves no HBM bytes)");
    json_formula_text(r, "intensity", buf);
    if (!f->read.known)
        json_formula_poly(r, "bytes_read", &f->read, false);
    if (!f->written.known)
        json_formula_poly(r, "bytes_written", &f->written, false);
    if (f->chip && !f->times_known) {
        json_formula_poly(r, "t_math", &f->t_math, false);
        json_formula_poly(r, "t_hbm", &f->t_hbm, false);
        lower_formula(r, buf, sizeof buf);
        json_formula_text(r, "t_lower", buf);
        char comm[FORMULA_MAX], m[FORMULA_MAX / 4], h[FORMULA_MAX / 4];
        bool floored = false;
        if (f->ncomm)
            comm_formula(r, comm, sizeof comm, &floored);
        Poly *sum = floored ? NULL : upper_now(f);
        if (floored) /* the polynomial sum would leave the floors out */
            snprintf(buf, sizeof buf, "%s + %s + %s",
                     poly_text(r, f->t_math.now, POLY_STYLE_ASCII, m, sizeof m),
                     poly_text(r, f->t_hbm.now, POLY_STYLE_ASCII, h, sizeof h), comm);
        json_formula_text(r, "t_upper", floored ? buf
                                        : sum ? poly_text(r, sum, POLY_STYLE_ASCII, buf,
                                                          sizeof buf)
                                              : "");
        poly_free(sum);
        if (f->ncomm) {
            json_formula_poly(r, "comm_bytes", &f->comm_bytes, false);
            json_formula_text(r, "t_comm", comm);
        }
        if (f->bound == BOUND_UNKNOWN) {
            bound_condition(r, POLY_STYLE_ASCII, buf, sizeof buf);
            json_formula_text(r, "bound", buf);
        }
    }
    fputc('}', r->out);
}

/* "allreduce", or "allgather+allreduce" for a statement with several, or null. */
static void json_collective(const Report *r)
{
    json_key(r->out, "collective");
    if (!r->cost->ncolls) {
        fputs("null", r->out);
        return;
    }
    fputc('"', r->out);
    for (int i = 0; i < r->cost->ncolls; i++)
        fprintf(r->out, "%s%s", i ? "+" : "", coll_name(r->cost->colls[i].kind));
    fputc('"', r->out);
}

/* Overlapped lanes: "t_comm_links":{"XY":0.00037,"Z":0.00017}, each group of links'
 * time in the step (with latency floors), the largest of which makes t_comm. */
static void json_links(const Report *r)
{
    const Roofline *f = r->roof;
    json_key(r->out, "t_comm_links");
    fputc('{', r->out);
    bool first = true;
    for (int l = 0; l < MESH_LANES; l++) {
        char name[64], v[64];
        if (!(f->lanes >> l & 1u) || !lane_group(r, l, name, sizeof name))
            continue;
        fputs(first ? "" : ",", r->out);
        json_write_string(r->out, name, strlen(name));
        fprintf(r->out, ":%s", num_format_json(f->lane_value[l], v, sizeof v));
        first = false;
    }
    fputc('}', r->out);
}

/* The dims bound to numbers that the statement names, as {"B":256,"D":8192}: what the
 * figures were costed at. */
static void json_dims(const Report *r)
{
    json_key(r->out, "dims");
    fputc('{', r->out);
    int shown[64], nshown = 0;
    for (size_t i = 0; i < r->stmt_len && nshown < 64;) {
        size_t len = 0;
        while (i + len < r->stmt_len && (isalnum((unsigned char)r->stmt[i + len]) ||
                                         r->stmt[i + len] == '_'))
            len++;
        if (len == 0 || isdigit((unsigned char)r->stmt[i])) {
            i += len ? len : 1;
            continue;
        }
        char name[64];
        snprintf(name, sizeof name, "%.*s", (int)len, r->stmt + i);
        i += len;
        int id;
        double value;
        bool bound = r->number(name, &value, &id, r->ctx);
        if (!bound && strchr(name, '_')) { /* D_X: the dim D */
            *strchr(name, '_') = '\0';
            bound = r->number(name, &value, &id, r->ctx);
        }
        bool seen = false;
        for (int k = 0; k < nshown; k++)
            seen = seen || shown[k] == id;
        if (!bound || seen)
            continue;
        char num[64];
        fprintf(r->out, "%s\"%s\":%s", nshown ? "," : "", name,
                num_format_json(value, num, sizeof num));
        shown[nshown++] = id;
    }
    fputc('}', r->out);
}

/* What the statement was costed as: mode (and in training, remat and microbatches),
 * the mesh, the dims. For the HTML page, which states each section's configuration. */
static void json_config(const Report *r)
{
    report_json_mode(r->out, r->training);
    if (r->training && r->remat)
        fprintf(r->out, ",\"remat\":\"%s\"", remat_name(r->remat->policy));
    if (r->mesh && r->mesh->n > 0) { /* {"X":4,"Y":2}, as a search's records give it */
        json_key(r->out, "mesh");
        for (int i = 0; i < r->mesh->n; i++) {
            const char *axis = r->namer(r->mesh->axes[i].name, r->ctx);
            fputs(i ? "," : "{", r->out);
            json_write_string(r->out, axis, strlen(axis));
            fprintf(r->out, ":%d", r->mesh->axes[i].size);
        }
        fputc('}', r->out);
    }
    json_dims(r);
}

static void json_statement(const Report *r)
{
    const Roofline *f = r->roof;
    bool chip = f->chip != NULL, times = chip && f->times_known;
    fputs("{\"stmt\":", r->out);
    json_write_string(r->out, r->stmt, r->stmt_len);
    report_json_where(r->out, r->line, r->file);
    json_key(r->out, "chip");
    chip ? json_write_string(r->out, f->chip->name, strlen(f->chip->name)) : (void)fputs("null", r->out);
    fprintf(r->out, ",\"chips\":%.17g,\"dtype\":\"%s\"", f->chips,
            dtype_name(r->result->dtype));
    json_config(r);
    if (chip && f->link_bw > 0)
        json_or_null(r->out, "link_bw", true, f->link_bw);
    json_shape(r, false);
    if (r->mesh && r->mesh->n)
        json_shape(r, true);
    json_or_null(r->out, "flops", f->flops.known, f->flops.value);
    json_or_null(r->out, "bytes", f->bytes.known, f->bytes.value);
    json_or_null(r->out, "bytes_read", f->read.known, f->read.value);
    json_or_null(r->out, "bytes_written", f->written.known, f->written.value);
    json_or_null(r->out, "intensity", f->intensity_known, f->intensity);
    json_or_null(r->out, "ridge", chip, f->ridge);
    if (chip && f->computes)
        fprintf(r->out, ",\"unit\":\"%s\"", f->vector ? "vector" : "matrix");
    if (chip && f->padding.formula)
        json_or_null(r->out, "padding_flops", f->padding.known, f->padding.value);
    json_or_null(r->out, "t_math", chip && f->t_math.known, f->t_math.value);
    json_or_null(r->out, "t_hbm", chip && f->t_hbm.known, f->t_hbm.value);
    json_or_null(r->out, "t_comm", chip && f->t_comm.known, f->t_comm.value);
    json_or_null(r->out, "comm_bytes", chip && f->comm_bytes.known, f->comm_bytes.value);
    if (chip && f->overlapped && f->t_comm.known)
        json_links(r);
    json_collective(r);
    if (book_shown(f)) {
        json_or_null(r->out, "t_comm_book", true, f->t_comm_book);
        json_or_null(r->out, "t_comm_exact", true, f->t_comm_exact);
    }
    if (chip && f->ncomm > 0) {
        double hops = 0;
        for (int i = 0; i < f->ncomm; i++)
            hops = f->links[i].hops > hops ? f->links[i].hops : hops;
        json_or_null(r->out, "hops", true, hops);
        fprintf(r->out, ",\"latency_bound\":%s", f->latency_bound ? "true" : "false");
        json_unset(r->out, unset_latencies(f));
    }
    if (r->cost->microbatches > 1)
        json_or_null(r->out, "microbatches", true, r->cost->microbatches);
    json_or_null(r->out, "t_lower", times, f->t_lower);
    json_or_null(r->out, "t_upper", times, f->t_upper);
    json_or_null(r->out, "t_derated", times, f->derated ? f->t_derated : f->t_lower);
    json_prediction(r, &f->predict);
    json_key(r->out, "bound");
    if (f->bound == BOUND_UNKNOWN)
        fputs("null", r->out);
    else
        fprintf(r->out, "\"%s\"", roof_bound_name(f->bound));
    json_notes(r);
    json_formulas(r);
    fputs("}\n", r->out);
}

void report_statement(const Report *r)
{
    if (r->json)
        json_statement(r);
    else
        text_statement(r);
}

void report_json_where(FILE *out, int line, const char *file)
{
    fprintf(out, ",\"line\":%d,\"file\":", line);
    json_write_string(out, file, strlen(file));
}

void report_json_mode(FILE *out, CostMode mode)
{
    fprintf(out, ",\"mode\":\"%s\"", mode != COST_INFERENCE ? "training" : "inference");
}

const char *report_mode_tag(CostMode mode)
{
    switch (mode) {
    case COST_TRAIN_PASS: return "  [training: forward + backward]";
    case COST_TRAIN_STEP: return "  [training: forward + backward, overlap step]";
    default: return "";
    }
}

/* A tag "  [...]" with ", M microbatches" before its bracket when M > 1. */
static const char *with_microbatches(const char *tag, double microbatches, char *buf,
                                     size_t size)
{
    size_t n = strlen(tag);
    if (microbatches <= 1 || n == 0)
        snprintf(buf, size, "%s", tag);
    else
        snprintf(buf, size, "%.*s, %g microbatches]", (int)(n - 1), tag, microbatches);
    return buf;
}

const char *report_step_tag(CostMode mode, double microbatches, char *buf, size_t size)
{
    return with_microbatches(report_mode_tag(mode), microbatches, buf, size);
}

/* ---- Statements without a cost ---------------------------------------------- */

/* Whether a statement already reads as its value: "3", or "x = 3" (no "x = 3 = 3"). */
static bool says_already(const char *stmt, size_t len, const char *value)
{
    size_t n = strlen(value);
    if (n > len || memcmp(stmt + len - n, value, n) != 0)
        return false;
    size_t i = len - n; /* where the value starts: the whole statement, or after "=" */
    if (i == 0)
        return true;
    while (i > 0 && stmt[i - 1] == ' ')
        i--;
    return i > 0 && stmt[i - 1] == '=';
}

/* A number's value as reports print one: whole numbers in full (8192), others to four
 * digits (1.011); the full value is in --json. */
static void number_text(const Report *r, const Poly *p, char *buf, size_t size)
{
    double v;
    if (poly_is_const(p, &v) && isfinite(v) && v != floor(v))
        num_format_unit(v, UNIT_NONE, 0, buf, size);
    else
        poly_text(r, p, POLY_STYLE_TEXT, buf, size);
}

/* {"stmt":..., "line":..., "value":...}: a number's full value, when it is one. */
static void number_json(const Report *r, const Poly *p)
{
    double v;
    if (!p || !poly_is_const(p, &v))
        return;
    fputs("{\"stmt\":", r->out);
    json_write_string(r->out, r->stmt, r->stmt_len);
    report_json_where(r->out, r->line, r->file);
    report_json_mode(r->out, r->training);
    json_write_field(r->out, "value", v);
    fputs("}\n", r->out);
}

void report_number(const Report *r, const Poly *value)
{
    char now[FORMULA_MAX];
    Poly *sub = poly_subst(value, r->lookup, r->lookup_ctx);
    if (r->json) {
        number_json(r, sub);
        poly_free(sub);
        return;
    }
    number_text(r, sub ? sub : value, now, sizeof now);
    report_text_line(r->out, r->stmt, r->stmt_len);
    if (!says_already(r->stmt, r->stmt_len, now))
        fprintf(r->out, " = %s", now);
    fputc('\n', r->out);
    poly_free(sub);
}

void report_tensor(const Report *r, const char *name)
{
    if (r->json)
        return;
    char shape[FORMULA_MAX], bytes[FORMULA_MAX];
    Quantity q = {.formula = tensor_bytes(r->result)};
    q.now = q.formula ? poly_subst(q.formula, r->lookup, r->lookup_ctx) : NULL;
    tensor_format(r->result, r->namer, r->ctx, shape, sizeof shape);
    if (q.now) {
        q.known = poly_is_const(q.now, &q.value);
        if (q.known)
            num_format_unit(q.value, UNIT_BYTES, 0, bytes, sizeof bytes);
        else
            snprintf(bytes + strlen(poly_text(r, q.now, POLY_STYLE_TEXT, bytes, sizeof bytes - 8)),
                     8, " bytes");
        char local[FORMULA_MAX] = "";
        local_shape_text(r, local, sizeof local);
        fprintf(r->out, "%s%s%s  (%s)%s\n", name ? name : "", name ? ": " : "", shape, bytes,
                local);
    }
    poly_free(q.formula);
    poly_free(q.now);
}

/* ---- Blocks ------------------------------------------------------------------------ */

enum { LABEL_WIDTH = 40 };

/* A repeat of one thing reads as that thing run N times. */
static const Op *through_repeat(const Op *op, double *runs)
{
    *runs = op->runs;
    while (!op->leaf && op->nchildren == 1 && strncmp(op->label, "repeat ", 7) == 0) {
        op = op->children[0];
        *runs *= op->runs;
    }
    return op;
}

/* An operation that moves and computes nothing (a collective over no axes): no bound. */
static bool idle(const Op *op)
{
    return op->leaf && op->flops == 0 && op->bytes == 0 && op->comm_bytes == 0;
}

static void block_row(const Report *r, const Op *op, int depth, double scale, double total)
{
    double runs;
    const Op *shown = through_repeat(op, &runs);
    char label[LABEL_WIDTH + 8], flops[32], bytes[32], time[32], comm[32], share[32];
    snprintf(label, sizeof label, "%*s%.*s", 2 * depth, "", LABEL_WIDTH - 2 * depth, shown->label);
    double all = scale * runs * shown->t_lower;
    int coll = op_collective(shown);
    num_format_unit(shown->t_lower, UNIT_SECONDS, 0, time, sizeof time);
    num_format_unit(shown->t_comm, UNIT_SECONDS, 0, comm, sizeof comm);
    if (shown->known)
        fprintf(r->out, "  %-*s %6g %12s %12s %*s %-8s %7s %*s %s\n", LABEL_WIDTH, label,
                runs, num_format_unit(shown->flops, UNIT_FLOPS, 0, flops, sizeof flops),
                num_format_unit(shown->bytes, UNIT_BYTES, 0, bytes, sizeof bytes),
                num_columns(time, 11), time, idle(shown) ? "-" : roof_bound_name(shown->bound),
                num_format_percent(total > 0 ? 100 * all / total : 0, share, sizeof share),
                num_columns(coll < 0 ? "-" : comm, 11), coll < 0 ? "-" : comm,
                coll < 0 ? "-" : coll_name((CollKind)coll));
    else
        fprintf(r->out, "  %-*s %6g   (depends on dims not bound, or no chip)\n", LABEL_WIDTH,
                label, runs);
    for (int i = 0; i < shown->nchildren; i++)
        block_row(r, shown->children[i], depth + 1, scale * runs, total);
}

/* The time of each bound, as shares of the sum of lower bounds. */
static void total_row(const Report *r, const char *label, const char *formula, double v, Unit u)
{
    char buf[64];
    fprintf(r->out, "  %-12s %-34s = %s\n", label, formula, num_format_unit(v, u, 0, buf, sizeof buf));
}

/* Each leaf whose kernels fell back to the derated bound, once, with why. */
static void fallback_rows(const Report *r, const Op *op, int *shown)
{
    enum { SHOWN_MAX = 12 };
    if (op->leaf && op->fallbacks > 0 && (*shown)++ < SHOWN_MAX)
        fprintf(r->out, "  %-12s %s: %s\n", *shown == 1 ? "derated" : "", op->label,
                op->fallback);
    for (int i = 0; i < op->nchildren; i++)
        fallback_rows(r, op->children[i], shown);
}

/* On a calibrated chip: the sum of the kernels' predictions, then the rows that fell
 * back to the derated bound. */
static void prediction_totals(const Report *r, const Op *one, const Op *all)
{
    if (!all->predicted)
        return;
    char formula[96];
    snprintf(formula, sizeof formula, "%.0f kernel%s as measured, %s", all->kernels,
             all->kernels == 1 ? "" : "s", launch_word(r));
    total_row(r, "t_predicted", formula, all->t_predicted, UNIT_SECONDS);
    int shown = 0;
    fallback_rows(r, one, &shown);
    if (shown > 12)
        fprintf(r->out, "  %-12s and %d more rows at the derated bound\n", "", shown - 12);
}

/* One row of a training step's memory: a part, its bytes a chip, what it is. */
static void memory_part(const Report *r, const char *part, double bytes, const char *what)
{
    char a[64];
    if (bytes > 0)
        fprintf(r->out, "    %-12s %10s  %s\n", part,
                num_format_unit(bytes, UNIT_BYTES, 0, a, sizeof a), what);
}

static const char *dtype_of_bytes(double bytes)
{
    return bytes == 4 ? "fp32" : bytes == 2 ? "bf16" : bytes == 1 ? "8-bit" : bytes == 8
           ? "f64" : "";
}

/* "fits, 26.7 GB free" or "does NOT fit (1 GB over)", and the line's end. */
static void fit_verdict(const Report *r, double memory, double hbm)
{
    char a[64];
    if (memory <= hbm)
        fprintf(r->out, "fits, %s free\n", num_format_unit(hbm - memory, UNIT_BYTES, 0, a, sizeof a));
    else
        fprintf(r->out, "does NOT fit (%s over)\n",
                num_format_unit(memory - hbm, UNIT_BYTES, 0, a, sizeof a));
}

/* Training: the total against HBM, then a row per part (training.c). */
static void training_memory(const Report *r, const Op *op, double memory, double hbm)
{
    char a[64], b[64], what[128];
    const Optimizer *o = r->optimizer;
    fprintf(r->out, "  %-12s %s of %s per chip: ", "memory",
            num_format_unit(memory, UNIT_BYTES, 0, a, sizeof a),
            num_format_unit(hbm, UNIT_BYTES, 0, b, sizeof b));
    fit_verdict(r, memory, hbm);
    memory_part(r, "params", op->param_bytes, "the weights, as their types shard them");
    snprintf(what, sizeof what, "%s a parameter%s", dtype_of_bytes(o->grad_bytes),
             o->zero >= 2 ? ", ZeRO-2: over the chips that share each shard" : "");
    memory_part(r, "gradients", op->grad_bytes, what);
    snprintf(what, sizeof what, "%s a parameter%s", dtype_of_bytes(o->master_bytes),
             o->zero >= 1 ? ", ZeRO-1: over the chips that share each shard" : "");
    memory_part(r, "master", op->master_bytes, what);
    snprintf(what, sizeof what, "%s, %s moments%s", optimizer_name(o->kind),
             dtype_of_bytes(o->moment_bytes),
             o->zero >= 1 ? ", ZeRO-1: over the chips that share each shard" : "");
    memory_part(r, "optimizer", op->optim_bytes, what);
    snprintf(what, sizeof what, "kept for the backward pass (remat %s)",
             remat_name(r->remat->policy));
    memory_part(r, "activations", op->act_bytes, what);
    memory_part(r, "KV cache", op->cache_bytes, "");
    memory_part(r, "working set", op_working_set(op),
                "transient: the largest block recomputed at once (not in the total)");
}

static void memory_rows(const Report *r, const Op *op)
{
    char a[64], b[64], c[64];
    double memory = op_block_memory(op, r->training);
    if (op->params > 0)
        fprintf(r->out, "  %-12s %s parameters, %s per chip\n", "params",
                num_format_unit(op->params, UNIT_NONE, 0, a, sizeof a),
                num_format_unit(op->param_bytes, UNIT_BYTES, 0, b, sizeof b));
    if (!r->chip || !r->chip->set[CHIP_HBM_BYTES] || memory <= 0)
        return;
    double hbm = r->chip->value[CHIP_HBM_BYTES];
    if (r->training) {
        training_memory(r, op, memory, hbm);
        return;
    }
    fprintf(r->out, "  %-12s params %s", "memory", num_format_unit(op->param_bytes, UNIT_BYTES, 0,
                                                                     a, sizeof a));
    if (op->cache_bytes > 0)
        fprintf(r->out, " + KV cache %s", num_format_unit(op->cache_bytes, UNIT_BYTES, 0, a,
                                                          sizeof a));
    fprintf(r->out, " = %s of %s per chip: ", num_format_unit(memory, UNIT_BYTES, 0, b, sizeof b),
            num_format_unit(hbm, UNIT_BYTES, 0, c, sizeof c));
    fit_verdict(r, memory, hbm);
}

/* "  [training, remat save, 8 microbatches]": the mode and what changes a step. */
static const char *block_tag(const Report *r, char *buf, size_t size)
{
    char base[96];
    with_microbatches(r->training == COST_TRAIN_STEP ? "  [training, overlap step]"
                      : r->training ? "  [training]" : "", r->microbatches, base, sizeof base);
    size_t n = strlen(base);
    if (!r->training || !r->remat || r->remat->policy == REMAT_NONE || n == 0)
        snprintf(buf, size, "%s", base);
    else
        snprintf(buf, size, "%.*s, remat %s]", (int)(n - 1), base, remat_name(r->remat->policy));
    return buf;
}

static void text_block(const Report *r, const Op *one)
{
    double by[4] = {0, 0, 0, 0};
    Op all = op_scaled(one);
    const Op *op = &all;
    char tag[96];
    report_text_line(r->out, r->stmt, r->stmt_len);
    fprintf(r->out, "%s\n  %-*s %6s %12s %12s %11s %-8s %7s %11s %s\n",
            block_tag(r, tag, sizeof tag), LABEL_WIDTH, "operation (figures per chip, per run)",
            "runs", "flops", "bytes", "t_lower", "bound", "share", "t_comm", "collective");
    block_row(r, one, 0, 1, op->t_lower);
    if (!op->known) {
        fputs("  totals need every dim bound and a chip\n\n", r->out);
        return;
    }
    total_row(r, "flops", "all the operations", op->flops, UNIT_FLOPS);
    total_row(r, "bytes", "HBM, all the operations", op->bytes, UNIT_BYTES);
    if (op->comm_bytes > 0)
        total_row(r, "comm_bytes", "network, all the collectives", op->comm_bytes, UNIT_BYTES);
    total_row(r, "t_lower", "the sum of the operations' t_lower", op->t_lower, UNIT_SECONDS);
    total_row(r, "t_upper", "the sum of their t_upper", op->t_upper, UNIT_SECONDS);
    if (roof_has_derating(r->chip))
        total_row(r, "t_derated", "at the chip's achievable fractions", op->t_derated,
                  UNIT_SECONDS);
    prediction_totals(r, one, op);
    if (op->latency_unset) {
        char names[128];
        fprintf(r->out, "  %-12s unset: %s gives no %s; those hops add no latency floor\n",
                "latency", r->chip ? r->chip->name : "the chip",
                field_names(op->latency_unset, names, sizeof names));
    }
    op_bound_shares(one, 1, by);
    double sum = by[1] + by[2] + by[3];
    char c[32], m[32], n[32];
    if (sum > 0)
        fprintf(r->out, "  %-12s compute %s, memory %s, comm %s of the time\n", "by bound",
                num_format_percent(100 * by[1] / sum, c, sizeof c),
                num_format_percent(100 * by[2] / sum, m, sizeof m),
                num_format_percent(100 * by[3] / sum, n, sizeof n));
    summary_rows_text(r->out, r->summary);
    memory_rows(r, op);
    note_rows(r, 12);
    fputc('\n', r->out);
}

/* The memory by part, per chip: a training step's, or in inference the params and the
 * KV cache (all it counts). */
static void json_memory_parts(const Report *r, const Op *op)
{
    json_or_null(r->out, "memory_params", op->known, op->param_bytes);
    if (r->training) {
        json_or_null(r->out, "memory_gradients", op->known, op->grad_bytes);
        json_or_null(r->out, "memory_master", op->known, op->master_bytes);
        json_or_null(r->out, "memory_optimizer", op->known, op->optim_bytes);
        json_or_null(r->out, "memory_activations", op->known, op->act_bytes);
        json_or_null(r->out, "memory_working_set", op->known, op_working_set(op));
    }
    json_or_null(r->out, "memory_cache", op->known, op->cache_bytes);
}

/* The step's microbatches (at the top, when several) and a pipelined repeat's stages
 * and microbatches in flight (pipeline.c). */
static void json_pipeline(const Report *r, const Op *op, bool root)
{
    if (root && r->microbatches > 1)
        json_or_null(r->out, "microbatches", true, r->microbatches);
    if (op->stages > 1) {
        json_or_null(r->out, "stages", true, op->stages);
        json_or_null(r->out, "in_flight", true, op->in_flight);
    }
}

/* The top object counts every run (its `runs` is 1); the ones below count one run
 * each, with `runs` per run of their parent, so the top's runs go to its children. */
static void json_op(const Report *r, const Op *one, bool root, double parent_runs)
{
    Op all = root ? op_scaled(one) : *one;
    const Op *op = root ? &all : one;
    fputs("{\"stmt\":", r->out);
    if (root)
        json_write_string(r->out, r->stmt, r->stmt_len);
    else
        json_write_string(r->out, op->label, strlen(op->label));
    if (root) {
        report_json_where(r->out, r->line, r->file);
        json_key(r->out, "chip");
        r->chip ? json_write_string(r->out, r->chip->name, strlen(r->chip->name))
                : (void)fputs("null", r->out);
        fprintf(r->out, ",\"chips\":%.17g", r->mesh ? mesh_chips(r->mesh) : 1);
        json_config(r);
    }
    json_or_null(r->out, "runs", true, parent_runs * op->runs);
    json_pipeline(r, op, root);
    json_or_null(r->out, "flops", op->known, op->flops);
    json_or_null(r->out, "bytes", op->known, op->bytes);
    json_or_null(r->out, "intensity", op->known && op->bytes > 0, op->flops / op->bytes);
    json_or_null(r->out, "t_math", op->known, op->t_math);
    json_or_null(r->out, "t_hbm", op->known, op->t_hbm);
    json_or_null(r->out, "t_comm", op->known, op->t_comm);
    json_or_null(r->out, "comm_bytes", op->known, op->comm_bytes);
    if (op->leaf && op->link_bw > 0) /* the network roof its chart point lies under */
        json_or_null(r->out, "link_bw", true, op->link_bw);
    json_key(r->out, "collective");
    if (op_collective(op) >= 0)
        fprintf(r->out, "\"%s\"", coll_name((CollKind)op_collective(op)));
    else
        fputs("null", r->out);
    json_or_null(r->out, "t_lower", op->known, op->t_lower);
    json_or_null(r->out, "t_upper", op->known, op->t_upper);
    json_key(r->out, "bound");
    if (op->known && op->bound != BOUND_UNKNOWN)
        fprintf(r->out, "\"%s\"", roof_bound_name(op->bound));
    else
        fputs("null", r->out);
    json_or_null(r->out, "t_derated", op->known, op->t_derated);
    json_op_prediction(r, op);
    json_or_null(r->out, "params", op->known, op->params);
    json_or_null(r->out, "memory", op->known, op_block_memory(op, r->training));
    if (root) {
        summary_rows_json(r->out, r->summary);
        json_memory_parts(r, op);
        json_notes(r);
        json_unset(r->out, op->latency_unset);
    }
    fputs(",\"ops\":[", r->out);
    for (int i = 0; i < one->nchildren; i++) {
        fputs(i ? "," : "", r->out);
        json_op(r, one->children[i], false, root ? one->runs : 1);
    }
    fputs("]}", r->out);
    if (root)
        fputc('\n', r->out);
}

/* Whether any operation lies below. */
static bool has_operations(const Op *op)
{
    if (op->leaf)
        return true;
    for (int i = 0; i < op->nchildren; i++)
        if (has_operations(op->children[i]))
            return true;
    return false;
}

void report_block(const Report *r, const Op *op)
{
    /* A statement that only calls one block reads as that block. */
    if (!op->leaf && op->nchildren == 1 && op->runs == 1 &&
        strncmp(op->label, "repeat ", 7) != 0 && !op->own[0] && !op->own[3])
        op = op->children[0];
    if (!has_operations(op) && !r->json) {
        report_text_line(r->out, r->stmt, r->stmt_len);
        fputs("\n  (no operations)\n", r->out);
        memory_rows(r, op);
        fputc('\n', r->out);
        return;
    }
    if (r->json)
        json_op(r, op, true, 1);
    else
        text_block(r, op);
}
