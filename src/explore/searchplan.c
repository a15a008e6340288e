/* searchplan.c — the training plan a search ranges over besides the mesh (searchplan.h):
 * reading `with microbatches in [...], remat in [...], schedule in [...], zero in [...]`,
 * setting the world to one plan while a configuration is costed, and writing a plan
 * back as the statements that re-cost it.
 */
#include <math.h>
#include <string.h>

#include "dtype.h"
#include "evalparts.h"
#include "searchplan.h"

static const char *const DIM_NAMES[PLAN_DIMS] = {"microbatches", "remat", "schedule", "zero"};
static const char *const SCHEDULE_WORDS[] = {"one_f_one_b", "gpipe"};

/* "save layer.x, layer.y": a remat setting as the `remat` statement spells it. */
static void remat_text(const Eval *ev, const Remat *r, char *buf, size_t size)
{
    size_t used = (size_t)snprintf(buf, size, "%s", remat_name(r->policy));
    for (int i = 0; i < r->npaths && used < size; i++)
        for (int k = 0; k < r->paths[i].n && used < size; k++)
            used += (size_t)snprintf(buf + used, size - used, "%s%s",
                                     k ? "." : i ? ", " : " ",
                                     eval_spelling(ev, r->paths[i].names[k]));
}

/* ---- Reading the clause ------------------------------------------------------------ */

/* The call's argument that binds the block's batch B: by name, or by place when no
 * model is passed first (`model(llama3_8b, B = 256)` takes its batch by name). */
static int batch_argument(Eval *ev, const Node *call, const BlockDef *b)
{
    int name = intern_id(ev->world->names, "B", 1);
    const Stmt *def = b->def;
    const Binding *args = call->as.call.args;
    for (int i = 0; i < call->as.call.nargs; i++)
        if (args[i].name.name == name)
            return i;
    bool by_model = call->as.call.nargs > 0 && args[0].value->kind == NODE_NAME &&
                    arch_find(&ev->world->archs, args[0].value->as.name);
    for (int i = 0; !by_model && i < call->as.call.nargs; i++)
        if (args[i].name.name < 0 && i < def->as.block.nparams &&
            def->as.block.params[i].name.name == name)
            return i;
    return -1;
}

/* The step's sequences, kept while the microbatches change: B · those in force. */
static bool find_batch(Eval *ev, const SearchRange *r, const Node *call, const BlockDef *b,
                       Plan *p)
{
    p->batch_arg = batch_argument(ev, call, b);
    if (p->batch_arg < 0)
        return eval_fail(ev, r->dim.span, "microbatches keeps the step's batch: the call "
                         "must give %s's batch B, as %s(B = 256, ...)",
                         eval_spelling(ev, b->def->as.block.name.name),
                         eval_spelling(ev, b->def->as.block.name.name));
    const Node *value = call->as.call.args[p->batch_arg].value;
    double batch;
    if (!eval_number(ev, value, &batch))
        return false;
    p->global_batch = batch * ev->world->microbatches;
    p->batch = (Node){.kind = NODE_NUMBER, .span = value->span, .depth = 1};
    return true;
}

static bool whole_choice(Eval *ev, const SearchChoice *c, const char *dim, double *out)
{
    if (!c->value)
        return eval_fail(ev, c->span, "%s takes numbers", dim);
    return eval_number(ev, c->value, out);
}

static bool read_microbatches(Eval *ev, const SearchRange *r, const Node *call,
                              const BlockDef *b, Plan *p)
{
    if (!find_batch(ev, r, call, b, p))
        return false;
    for (int i = 0; i < r->choices->n; i++) {
        const SearchChoice *c = r->choices->items[i];
        double m;
        if (!whole_choice(ev, c, "microbatches", &m))
            return false;
        if (m < 1 || m > LIMIT_REPEAT || m != floor(m))
            return eval_fail(ev, c->span, "microbatches takes whole counts, 1 to 1e9 (here %g)",
                             m);
        if (fmod(p->global_batch, m) != 0)
            return eval_fail(ev, c->span, "%g microbatches do not divide the step's %g "
                             "sequences (the call's B times the microbatches in force)", m,
                             p->global_batch);
        for (int k = 0; k < i; k++)
            if (p->microbatches[k] == m)
                return eval_fail(ev, c->span, "%g microbatches is listed twice", m);
        p->microbatches[i] = m;
    }
    return true;
}

/* A listed remat choice as the statement that sets it: `full`, or `save(layer.x)`. */
static bool remat_statement(Eval *ev, const SearchChoice *c, Stmt *out)
{
    if (c->remat) {
        *out = *c->remat;
        return true;
    }
    const char *word = c->value->kind == NODE_NAME ? eval_spelling(ev, c->value->as.name) : "";
    if (strcmp(word, "none") != 0 && strcmp(word, "selective") != 0 &&
        strcmp(word, "full") != 0)
        return eval_fail(ev, c->span, "remat takes none, selective, full and save with the "
                         "paths it keeps, as `remat in [none, full, save(layer.x, layer.y)]`");
    *out = (Stmt){.kind = STMT_REMAT, .span = c->span};
    out->as.setting.name = (NameRef){c->value->as.name, c->value->span};
    return true;
}

/* Each choice is set once here, so a bad one stops the search where it is written. */
static bool read_remat(Eval *ev, const SearchRange *r, Plan *p)
{
    World *w = ev->world;
    for (int i = 0; i < r->choices->n; i++) {
        if (!remat_statement(ev, r->choices->items[i], &p->remat[i]) ||
            !stmt_run(ev, &p->remat[i]))
            return false;
        p->remat_in_force = i;
        p->policy[i] = w->remat.policy;
        remat_text(ev, &w->remat, p->remat_text[i], PLAN_TEXT);
        for (int k = 0; k < i; k++)
            if (strcmp(p->remat_text[k], p->remat_text[i]) == 0)
                return eval_fail(ev, p->remat[i].span, "remat %s is listed twice",
                                 p->remat_text[i]);
    }
    return true;
}

static bool read_schedule(Eval *ev, const SearchRange *r, Plan *p)
{
    for (int i = 0; i < r->choices->n; i++) {
        const SearchChoice *c = r->choices->items[i];
        const char *word = c->value && c->value->kind == NODE_NAME
                               ? eval_spelling(ev, c->value->as.name) : "";
        int s = strcmp(word, SCHEDULE_WORDS[0]) == 0 ? SCHEDULE_1F1B
                : strcmp(word, SCHEDULE_WORDS[1]) == 0 ? SCHEDULE_GPIPE : -1;
        if (s < 0)
            return eval_fail(ev, c->span, "schedule takes one_f_one_b (1F1B) and gpipe");
        for (int k = 0; k < i; k++)
            if ((int)p->schedule[k] == s)
                return eval_fail(ev, c->span, "schedule %s is listed twice", word);
        p->schedule[i] = (Schedule)s;
    }
    return true;
}

static bool read_zero(Eval *ev, const SearchRange *r, Plan *p)
{
    for (int i = 0; i < r->choices->n; i++) {
        const SearchChoice *c = r->choices->items[i];
        double z;
        if (!whole_choice(ev, c, "zero", &z))
            return false;
        if (z != 0 && z != 1 && z != 2)
            return eval_fail(ev, c->span, z == 3 ? "zero 3 is the fsdp strategy, which the "
                             "search gives axes to; zero takes 0, 1 and 2 here"
                             : "zero takes 0, 1 (moments and master weights sharded) and 2 "
                             "(gradients too)");
        for (int k = 0; k < i; k++)
            if (p->zero[k] == (int)z)
                return eval_fail(ev, c->span, "zero %g is listed twice", z);
        p->zero[i] = (int)z;
    }
    return true;
}

static bool read_range(Eval *ev, const SearchRange *r, const Node *call, const BlockDef *b,
                       Plan *p)
{
    const char *word = eval_spelling(ev, r->dim.name);
    int d = 0;
    while (d < PLAN_DIMS && strcmp(word, DIM_NAMES[d]) != 0)
        d++;
    if (d == PLAN_DIMS)
        return eval_fail(ev, r->dim.span, "a search's `with` ranges over microbatches, remat, "
                         "schedule and zero (here %s)", word);
    if (p->listed[d])
        return eval_fail(ev, r->dim.span, "%s is listed twice", word);
    if (!ev->world->training)
        return eval_fail(ev, r->dim.span, "%s is training's: put `mode training` before the "
                         "search", word);
    if (r->choices->n > PLAN_MAX_CHOICES)
        return eval_fail(ev, r->span, "a search tries at most %d choices of %s",
                         PLAN_MAX_CHOICES, word);
    p->listed[d] = true;
    p->n[d] = r->choices->n;
    if (d == PLAN_REMAT) { /* the script's remat, kept aside until the search ends */
        p->was.remat = ev->world->remat;
        ev->world->remat = (Remat){REMAT_NONE, NULL, 0};
    }
    switch ((PlanDim)d) {
    case PLAN_MICROBATCHES:
        return read_microbatches(ev, r, call, b, p);
    case PLAN_REMAT:
        return read_remat(ev, r, p);
    case PLAN_SCHEDULE:
        return read_schedule(ev, r, p);
    default:
        return read_zero(ev, r, p);
    }
}

bool searchplan_read(Eval *ev, const Stmt *search, const BlockDef *b, Plan *p)
{
    World *w = ev->world;
    *p = (Plan){.batch_arg = -1, .remat_in_force = -1, .saved = true};
    p->was.microbatches = w->microbatches;
    p->was.schedule = w->schedule;
    p->was.zero = w->optimizer.zero;
    for (int d = 0; d < PLAN_DIMS; d++)
        p->n[d] = 1;
    p->microbatches[0] = w->microbatches;
    p->policy[0] = w->remat.policy;
    remat_text(ev, &w->remat, p->remat_text[0], PLAN_TEXT);
    p->schedule[0] = w->schedule;
    p->zero[0] = w->optimizer.zero;
    const AstList *ranges = search->as.expr.ranges;
    for (int i = 0; ranges && i < ranges->n; i++)
        if (!read_range(ev, ranges->items[i], search->as.expr.value, b, p))
            return false;
    return true;
}

/* ---- Setting a plan ---------------------------------------------------------------- */

bool searchplan_apply(Eval *ev, Plan *p, PlanPick k)
{
    World *w = ev->world;
    w->microbatches = p->microbatches[k.at[PLAN_MICROBATCHES]];
    w->schedule = p->schedule[k.at[PLAN_SCHEDULE]];
    w->optimizer.zero = p->zero[k.at[PLAN_ZERO]];
    if (p->batch_arg >= 0)
        p->batch.as.number = p->global_batch / w->microbatches;
    int remat = k.at[PLAN_REMAT];
    if (!p->listed[PLAN_REMAT] || p->remat_in_force == remat)
        return true;
    p->remat_in_force = remat;
    return stmt_run(ev, &p->remat[remat]);
}

void searchplan_restore(Eval *ev, Plan *p)
{
    World *w = ev->world;
    if (!p->saved)
        return;
    w->microbatches = p->was.microbatches;
    w->schedule = p->was.schedule;
    w->optimizer.zero = p->was.zero;
    if (p->listed[PLAN_REMAT]) {
        remat_free(&w->remat);
        w->remat = p->was.remat;
    }
    p->saved = false;
}

int searchplan_count(const Plan *p)
{
    int n = 1;
    for (int d = 0; d < PLAN_DIMS; d++)
        n *= p->n[d];
    return n;
}

bool searchplan_pick(const Plan *p, int i, bool pipelined, PlanPick *k)
{
    for (int d = PLAN_DIMS - 1; d >= 0; d--) {
        k->at[d] = (unsigned char)(i % p->n[d]);
        i /= p->n[d];
    }
    return pipelined || k->at[PLAN_SCHEDULE] == 0;
}

/* ---- Writing a plan ---------------------------------------------------------------- */

/* The dtype of that many bytes an element, as `optimizer` takes it. */
static const char *bytes_dtype(double bytes)
{
    for (int t = 0; t < DT_COUNT; t++)
        if (dtype_bytes((DType)t) == bytes)
            return dtype_name((DType)t);
    return "fp32";
}

void searchplan_settings(const Eval *ev, const Plan *p, PlanPick k, SearchSettings *s)
{
    const World *w = ev->world;
    const Optimizer *o = &w->optimizer;
    *s = (SearchSettings){
        .overlap_step = w->training == COST_TRAIN_STEP,
        .microbatches = p->microbatches[k.at[PLAN_MICROBATCHES]],
        .gpipe = p->schedule[k.at[PLAN_SCHEDULE]] == SCHEDULE_GPIPE,
        .axes_add = w->axes_add, .launch_graph = w->launch_graph,
        .sends_overlap = w->sends_overlap, .run_tokens = w->run_tokens,
        .remat = p->remat_text[k.at[PLAN_REMAT]],
    };
    if (!p->listed[PLAN_ZERO])
        return;
    s->optimizer = optimizer_name(o->kind);
    s->moments = o->moment_bytes != 4 ? bytes_dtype(o->moment_bytes) : NULL;
    s->master = o->master_bytes > 0 ? bytes_dtype(o->master_bytes) : NULL;
    s->gradients = o->grad_bytes > 0 ? bytes_dtype(o->grad_bytes) : NULL;
    s->zero = p->zero[k.at[PLAN_ZERO]];
}

void searchplan_record(const Plan *p, PlanPick k, bool pipelined, SearchPlanPick *r)
{
    *r = (SearchPlanPick){
        .microbatches = p->microbatches[k.at[PLAN_MICROBATCHES]],
        .remat = remat_name(p->policy[k.at[PLAN_REMAT]]),
        .remat_text = p->remat_text[k.at[PLAN_REMAT]],
        .pipelined = pipelined,
        .gpipe = p->schedule[k.at[PLAN_SCHEDULE]] == SCHEDULE_GPIPE,
        .zero = p->zero[k.at[PLAN_ZERO]],
    };
}

void searchplan_choices(const Plan *p, PlanChoices *c)
{
    for (int i = 0; i < p->n[PLAN_REMAT]; i++)
        c->remats[i] = p->remat_text[i];
    for (int i = 0; i < p->n[PLAN_SCHEDULE]; i++)
        c->gpipe[i] = p->schedule[i] == SCHEDULE_GPIPE;
    c->choices = (SearchPlanChoices){
        .microbatches = p->microbatches, .nmicrobatches = p->n[PLAN_MICROBATCHES],
        .remats = c->remats, .nremats = p->n[PLAN_REMAT],
        .gpipe = c->gpipe, .nschedules = p->n[PLAN_SCHEDULE],
        .zeros = p->zero, .nzeros = p->n[PLAN_ZERO],
        .global_batch = p->batch_arg >= 0 ? p->global_batch : NAN,
    };
}
