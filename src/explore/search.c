/* search.c — `search model(...) on v5p over 256`: every way to lay the chips out as a
 * mesh and to give its axes to the block's strategies, costed and ranked.
 *
 * The meshes: each ordered factorization of a chip count into one to three axes of
 * at least 2 chips (X, Y, Z), that fits the chip's pod, or the slices listed. The
 * strategies: the block's axis parameters the call leaves open (`dp`, `fsdp`, `tp`,
 * ...), each mesh axis given to one of them; an axis parameter the call gives is kept.
 * The plan: microbatches, remat, the pipeline's schedule and the ZeRO stage, those
 * `with` lists or those in force (searchplan.h). Each configuration is the call with
 * those arguments on that mesh under that plan, costed whole; its `reproduce:` line is
 * that statement, to paste.
 *
 * Fewer rows: configurations that are the same chips reshuffled (their axes given to
 * the same strategies, axes alike in size and, on a GPU, in how much of them a node
 * holds) cost the same, so one of each is costed (config_key). Those that cannot fit
 * HBM are dropped before they are costed: a step holds at least what the call holds on
 * one chip, spread over all the chips (memory_bound), and as much as the first costed
 * configuration that gives each parameter as many chips under the same plan
 * (class_key).
 *
 * Ranked by step time (derated when the chip gives its achievable fractions) among
 * those whose memory fits the chip's HBM; the Pareto front is of time against chips
 * in training, of time against time × chips (the cost of a token) in inference. MFU is
 * the model's FLOPs (summary.h: the call on one chip, nothing recomputed) over chips ×
 * the peak of their dtype × step time.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eval.h"
#include "interrupt.h"
#include "jobs.h"
#include "layout.h"
#include "nomem.h"
#include "num.h"
#include "records.h"
#include "report.h"
#include "searchplan.h"
#include "summary.h"

/* The axes of a searched mesh, outermost first, as a slice shape names them. */
static const char letters[] = "XYZ";

enum { SEARCH_AXES = 3, SEARCH_MAX_PARAMS = 8, SEARCH_SHOWN = 20, SEARCH_MAX_CONFIGS = 1000000 };
/* --jobs: each process costs at least this many configurations (fewer are quicker
 * costed than a process is started). */
enum { SEARCH_JOB_CONFIGS = 50 };

/* One configuration: a mesh, and for each searched parameter the axes it gets. */
typedef struct {
    int sizes[SEARCH_AXES];
    int naxes;
    int order;                        /* when it was made */
    unsigned char owner[SEARCH_AXES]; /* the searched parameter each axis goes to */
    int inside[SEARCH_AXES];          /* chips of each axis in one GPU node (TPU: all) */
    PlanPick plan;
    bool pipelined;                   /* a pipeline's axes have chips: the schedule counts */
    bool costed, fits, pareto, shown;
    bool dropped;                     /* it cannot fit HBM: not costed */
    bool oversplit;                   /* a dim split over more chips than it has */
    Oversplit split;                  /* the first such dim */
    int rank;                         /* 1 = best; 0 when it does not fit */
    double chips, t_step, t_derated, mfu, memory, flops;
    Bound bound;
    int collective;                   /* the CollKind with the most time, or -1 */
} Config;

typedef struct {
    Config *items;
    int n, cap;
} Configs;

/* What every configuration shares: the call rewritten with the searched parameters. */
typedef struct {
    const Stmt *stmt;
    const Chip *chip;
    int params[SEARCH_MAX_PARAMS]; /* interned names of the searched parameters */
    int nparams;
    int axis_names[SEARCH_AXES];   /* X, Y, Z */
    Node call, axes[SEARCH_MAX_PARAMS], sizes[SEARCH_AXES];
    NameRef picked[SEARCH_MAX_PARAMS][SEARCH_AXES];
    MeshAxisDef mesh[SEARCH_AXES];
    Stmt probe;                    /* the statement costed for each configuration */
    Plan plan;
    bool pipeline_param[SEARCH_MAX_PARAMS]; /* a repeat pipelines over it (pp) */
    bool given_pipeline;           /* the call gives a pipeline's parameter itself */
    ModelFlops model[PLAN_MAX_CHOICES]; /* by microbatches: the model's FLOPs (summary.h),
                                         * what MFU counts */
    double alone[PLAN_MAX_CHOICES][PLAN_MAX_CHOICES]; /* by microbatches and remat: the
                                         * memory of the call on one chip; 0 unknown */
    int twins;                     /* configurations costed once with a twin */
    int dropped;                   /* dropped by the memory bound */
    double layers[PLAN_MAX_CHOICES][PLAN_MAX_CHOICES]; /* by microbatches and remat: what
                                         * the stages of the searched parameter `pipe`
                                         * must divide (UnderWay.pipeline_layers); 0
                                         * unknown */
    int pipe;                      /* that parameter's index, or -1 */
    int uneven;                    /* dropped: their stages do not divide the layers */
    double peak;                   /* the chip's peak for their dtype; NaN when none */
    int oversplit;                 /* configurations that split a dim too finely */
    int failed;                    /* configurations that could not be costed */
    char *why;                     /* the first one's reason */
} Search;

static bool add_config(Configs *c, Config x)
{
    if (c->n == c->cap) {
        int cap = c->cap ? 2 * c->cap : 256;
        Config *items = realloc(c->items, sizeof *items * (size_t)cap);
        if (!items)
            return false;
        c->items = items;
        c->cap = cap;
    }
    c->items[c->n++] = x;
    return true;
}

/* Adds a configuration, or fails the statement: past the most a search tries, or out
 * of memory. */
static bool add_or_fail(Eval *ev, const Search *z, Configs *c, Config x)
{
    if (c->n == SEARCH_MAX_CONFIGS)
        return eval_fail(ev, z->stmt->span, "a search tries at most %d configurations",
                         SEARCH_MAX_CONFIGS);
    return add_config(c, x) || eval_oom(ev, z->stmt->span);
}

/* ---- The searched parameters and the rewritten call -------------------------------- */

/* The call's argument for the block's parameter, by name or by place; NULL if none. */
static const Binding *given(const Node *call, const Stmt *def, int param)
{
    for (int i = 0; i < call->as.call.nargs; i++) {
        int name = call->as.call.args[i].name.name;
        if (name == def->as.block.params[param].name.name || (name < 0 && i == param))
            return &call->as.call.args[i];
    }
    return NULL;
}

/* Whether an argument gives no axes, `pp = {}`. */
static bool no_axes(const Binding *arg)
{
    return arg->value->kind == NODE_AXES && arg->value->as.axes.n == 0;
}

/* Whether a statement of a block's body runs a pipeline over `param` (`repeat L over
 * pp`), through the bodies of repeats and fused regions. */
static bool pipelines_over(const AstList *body, int param)
{
    for (int i = 0; body && i < body->n; i++) {
        const Stmt *s = body->items[i];
        if (s->kind != STMT_REPEAT && s->kind != STMT_FUSED)
            continue;
        if ((s->kind == STMT_REPEAT && s->as.repeat.over.name == param) ||
            pipelines_over(s->as.repeat.body, param))
            return true;
    }
    return false;
}

/* The call's block and the axis parameters it leaves open; in inference not those a
 * pipeline runs over, which only training costs (pipeline.c): the configurations that
 * gave them axes would all be set aside as not costed. */
static bool open_params(Eval *ev, Search *z)
{
    const Node *call = z->stmt->as.expr.value;
    const BlockDef *b = arch_call_target(ev, call);
    if (!b)
        return eval_fail(ev, call->span, "search takes a call of a block, e.g. `search model(...) "
                         "on v5p over 256`");
    const Stmt *def = b->def;
    for (int i = 0; i < def->as.block.nparams; i++) {
        if (!call_block_axis_param(&def->as.block.params[i]))
            continue;
        bool pipeline = pipelines_over(def->as.block.body, def->as.block.params[i].name.name);
        const Binding *arg = given(call, def, i);
        if (arg) {
            z->given_pipeline = z->given_pipeline || (pipeline && !no_axes(arg));
            continue;
        }
        if (!ev->world->training && pipeline)
            continue;
        if (z->nparams == SEARCH_MAX_PARAMS)
            return eval_fail(ev, call->span, "search ranges over at most %d axis parameters; "
                             "give the others in the call", SEARCH_MAX_PARAMS);
        z->pipeline_param[z->nparams] = pipeline;
        z->params[z->nparams++] = def->as.block.params[i].name.name;
    }
    if (z->nparams == 0)
        return eval_fail(ev, call->span, "%s has no axis parameter left to search: it takes none, "
                         "or the call gives them all", eval_spelling(ev, def->as.block.name.name));
    return true;
}

/* The call again with one named argument per searched parameter, and the statement
 * with a mesh clause; the configurations fill in the axes and sizes. */
static bool build_probe(Eval *ev, Search *z)
{
    const Node *call = z->stmt->as.expr.value;
    int n = call->as.call.nargs;
    Binding *args = calloc((size_t)(n + z->nparams), sizeof *args);
    if (!args)
        return eval_oom(ev, z->stmt->span);
    if (n) /* a call without arguments has no array to copy */
        memcpy(args, call->as.call.args, sizeof *args * (size_t)n);
    if (z->plan.batch_arg >= 0) /* the batch of one of the plan's microbatches */
        args[z->plan.batch_arg].value = &z->plan.batch;
    for (int i = 0; i < z->nparams; i++) {
        z->axes[i] = (Node){.kind = NODE_AXES, .span = call->span, .depth = 1};
        z->axes[i].as.axes.dim = -1;
        z->axes[i].as.axes.names = z->picked[i];
        args[n + i] = (Binding){.name = {z->params[i], call->span}, .value = &z->axes[i]};
    }
    z->call = *call;
    z->call.as.call.args = args;
    z->call.as.call.nargs = n + z->nparams;
    for (int a = 0; a < SEARCH_AXES; a++) {
        z->axis_names[a] = intern_id(ev->world->names, letters + a, 1);
        z->sizes[a] = (Node){.kind = NODE_NUMBER, .span = call->span, .depth = 1};
        z->mesh[a] = (MeshAxisDef){{z->axis_names[a], call->span}, &z->sizes[a], {-1, call->span}};
    }
    z->probe = *z->stmt;
    z->probe.kind = STMT_EXPR;
    z->probe.as.expr.value = &z->call;
    z->probe.as.expr.clauses.chip.shape = NULL;
    z->probe.as.expr.clauses.mesh = z->mesh;
    return true;
}

/* ---- The configurations ------------------------------------------------------------ */

static bool fits_pod(const Config *c, const Search *z)
{
    Mesh m = {.n = 0};
    for (int a = 0; a < c->naxes; a++)
        mesh_add(&m, z->axis_names[a], c->sizes[a], false);
    double limit;
    return mesh_misfit(&m, z->chip, &limit) == MESH_FITS;
}

/* The chips of each axis inside one GPU node, as the cost model places them (mesh.h:
 * the last axes fill a node first); on a TPU every axis is of one network: its size. */
static void node_shares(const Search *z, Config *c)
{
    const Chip *chip = z->chip;
    bool gpu = !chip->set[CHIP_ICI_BW] && chip->set[CHIP_NODE_GPUS];
    double room = gpu ? chip->value[CHIP_NODE_GPUS] : INFINITY;
    for (int a = c->naxes - 1; a >= 0; a--) {
        double size = c->sizes[a];
        double inside = size <= room ? size : fmod(size, room) == 0 ? room : 1;
        room = size <= room ? room / size : 1;
        c->inside[a] = (int)inside;
    }
}

/* Whether a pipeline's parameter has chips: the call's own, or a searched one's axes. */
static bool pipelined(const Search *z, const Config *c)
{
    bool yes = z->given_pipeline;
    for (int a = 0; a < c->naxes; a++)
        yes = yes || z->pipeline_param[c->owner[a]];
    return yes;
}

/* The plans a configuration is tried under: all, but a single schedule where no
 * pipeline runs. */
static int plans_of(const Search *z, const Config *c)
{
    int n = 0;
    PlanPick k;
    for (int i = 0, all = searchplan_count(&z->plan); i < all; i++)
        n += searchplan_pick(&z->plan, i, c->pipelined, &k);
    return n;
}

/* Each configuration under every plan, in the order made. */
static bool add_plans(Eval *ev, Search *z, Configs *c)
{
    Configs out = {0};
    for (int k = 0; k < c->n; k++) {
        Config x = c->items[k];
        for (int i = 0, n = searchplan_count(&z->plan); i < n; i++) {
            if (!searchplan_pick(&z->plan, i, x.pipelined, &x.plan))
                continue;
            x.order = out.n;
            if (!add_or_fail(ev, z, &out, x)) {
                free(out.items);
                return false;
            }
        }
    }
    free(c->items);
    *c = out;
    return true;
}

/* Every way to give the mesh's axes to the searched parameters. */
static bool add_owners(Eval *ev, Search *z, Config c, Configs *out)
{
    long long ways = 1;
    node_shares(z, &c);
    for (int a = 0; a < c.naxes; a++)
        ways *= z->nparams;
    for (long long w = 0; w < ways; w++) {
        long long k = w;
        for (int a = 0; a < c.naxes; a++, k /= z->nparams)
            c.owner[a] = (unsigned char)(k % z->nparams);
        c.pipelined = pipelined(z, &c);
        c.order = out->n;
        if (!add_or_fail(ev, z, out, c))
            return false;
    }
    return true;
}

/* The meshes of `chips`: factors of at least 2, each axis after the first dividing
 * what is left, one to three axes. */
static bool add_factorizations(Eval *ev, Search *z, Config c, int left, Configs *out)
{
    if (left == 1)
        return c.naxes == 0 || !fits_pod(&c, z) || add_owners(ev, z, c, out);
    if (c.naxes == SEARCH_AXES)
        return true;
    for (int f = 2; f <= left; f++)
        if (left % f == 0) {
            Config d = c;
            d.sizes[d.naxes++] = f;
            if (!add_factorizations(ev, z, d, left / f, out))
                return false;
        }
    return true;
}

static bool add_size(Eval *ev, Search *z, const SearchSize *size, Configs *out)
{
    Config c = {.naxes = 0};
    if (size->shape) {
        Mesh m;
        LayoutEnv lx = eval_layout(ev);
        if (!layout_shape_mesh(&lx, size->shape, size->span, &m) ||
            !layout_check_fit(&lx, &m, z->chip, size->span))
            return false;
        for (int a = 0; a < m.n; a++)
            c.sizes[c.naxes++] = m.axes[a].size;
        return add_owners(ev, z, c, out);
    }
    double chips;
    if (!eval_number(ev, size->count, &chips))
        return false;
    if (chips < 2 || chips > LIMIT_MESH_CHIPS || chips != floor(chips))
        return eval_fail(ev, size->span, "a search spans a whole number of chips, 2 to %d",
                         LIMIT_MESH_CHIPS);
    int before = out->n;
    if (!add_factorizations(ev, z, c, (int)chips, out))
        return false;
    if (out->n == before)
        return eval_fail(ev, size->span, "no mesh of %.0f %s chips fits its pod", chips,
                         z->chip->name);
    return true;
}

/* What a configuration gives each parameter, as one comparable key: for each axis its
 * owner, size and chips inside a node, sorted, then the plan. Two configurations with
 * one key cost the same: the cost model sees an axis through its size and, on a GPU,
 * how a node holds it (mesh.h: a collective's group is D GPUs in each of M nodes, the
 * products over its axes), never through its place; on a TPU each ICI axis is a ring
 * or line of its size, with links of its own. */
enum { KEY_LENGTH = SEARCH_AXES + PLAN_DIMS };

static void config_key(const Config *c, long long *key)
{
    const long long span = LIMIT_MESH_CHIPS + 1;
    int n = 0;
    for (int a = 0; a < c->naxes; a++)
        key[n++] = (c->owner[a] * span + c->sizes[a]) * span + c->inside[a];
    for (; n < SEARCH_AXES; n++)
        key[n] = -1;
    for (int i = 1; i < SEARCH_AXES; i++) /* insertion sort of three */
        for (int j = i; j > 0 && key[j] < key[j - 1]; j--) {
            long long t = key[j];
            key[j] = key[j - 1];
            key[j - 1] = t;
        }
    for (int d = 0; d < PLAN_DIMS; d++)
        key[n++] = c->plan.at[d];
}

static int compare_keys(const Config *a, const Config *b)
{
    long long ka[KEY_LENGTH], kb[KEY_LENGTH];
    config_key(a, ka);
    config_key(b, kb);
    for (int i = 0; i < KEY_LENGTH; i++)
        if (ka[i] != kb[i])
            return ka[i] < kb[i] ? -1 : 1;
    return 0;
}

static int by_key(const void *a, const void *b)
{
    int k = compare_keys(a, b);
    return k ? k : ((const Config *)a)->order - ((const Config *)b)->order;
}

static int by_order(const void *a, const void *b)
{
    return ((const Config *)a)->order - ((const Config *)b)->order;
}

/* One configuration of each key (the first made), in the order they were made; the
 * twins counted under each of their plans. */
static void drop_twins(Search *z, Configs *c)
{
    if (c->n < 2)
        return;
    qsort(c->items, (size_t)c->n, sizeof *c->items, by_key);
    int kept = 1;
    for (int i = 1; i < c->n; i++)
        if (compare_keys(&c->items[kept - 1], &c->items[i]) != 0)
            c->items[kept++] = c->items[i];
        else
            z->twins += plans_of(z, &c->items[i]);
    c->n = kept;
    qsort(c->items, (size_t)c->n, sizeof *c->items, by_order);
}

/* ---- Costing one configuration ----------------------------------------------------- */

static void set_probe(Search *z, const Config *c)
{
    for (int i = 0; i < z->nparams; i++)
        z->axes[i].as.axes.n = 0;
    for (int a = 0; a < c->naxes; a++) {
        Node *axes = &z->axes[c->owner[a]];
        z->picked[c->owner[a]][axes->as.axes.n++] = (NameRef){z->axis_names[a], z->call.span};
        z->sizes[a].as.number = c->sizes[a];
    }
    z->probe.as.expr.clauses.nmesh = c->naxes;
}

/* The configuration's figures; false when it cannot be costed (its reason kept). */
static bool cost_config(Eval *ev, Search *z, Config *c)
{
    set_probe(z, c);
    if (!searchplan_apply(ev, &z->plan, c->plan))
        return false;
    Op *root = op_new("search");
    DiagHold hold;
    if (!root || !diag_hold(&hold)) {
        op_free(root);
        return eval_oom(ev, z->stmt->span);
    }
    Diag *loud = ev->diag;
    ev->diag = &hold.diag;
    ev->world->under_way.oversplit.count = 0;
    ev->world->under_way.pipeline_over = -1;
    bool ok = eval_quietly(ev, &z->probe, root);
    ev->diag = loud;
    char *why = diag_release(&hold);
    if (ok) {
        op_total(root);
        ok = root->known && op_finite(root);
    }
    if (ok) {
        const Chip *chip = z->chip;
        c->chips = 1;
        for (int a = 0; a < c->naxes; a++)
            c->chips *= c->sizes[a];
        c->t_step = root->t_lower;
        c->t_derated = root->t_derated;
        c->flops = root->flops;
        c->memory = op_block_memory(root, ev->world->training);
        c->fits = !chip->set[CHIP_HBM_BYTES] || c->memory <= chip->value[CHIP_HBM_BYTES];
        double model = z->model[c->plan.at[PLAN_MICROBATCHES]].flops;
        c->mfu = c->t_derated > 0 ? model / (c->chips * z->peak * c->t_derated) : NAN;
        c->bound = root->bound;
        c->collective = op_collective(root);
        c->oversplit = ev->world->under_way.oversplit.count > 0;
        c->split = ev->world->under_way.oversplit;
        z->oversplit += c->oversplit;
        c->costed = true;
    } else if (z->failed++ == 0) {
        z->why = why ? why : strdup("its figures are not numbers (a dim is unbound)");
        why = NULL;
    }
    free(why);
    op_free(root);
    return true;
}

/* ---- Ranking, the Pareto front ---------------------------------------------------- */

/* Ranked: it fits HBM and splits no dim over more chips than it has. */
static bool eligible(const Config *c)
{
    return c->fits && !c->oversplit;
}

static int by_time(const void *a, const void *b)
{
    const Config *x = a, *y = b;
    if (eligible(x) != eligible(y))
        return eligible(x) ? -1 : 1;
    if (x->t_derated != y->t_derated)
        return x->t_derated < y->t_derated ? -1 : 1;
    if (x->memory != y->memory)
        return x->memory < y->memory ? -1 : 1;
    if (x->chips != y->chips)
        return x->chips < y->chips ? -1 : 1;
    if (x->naxes != y->naxes) /* the simpler mesh first */
        return x->naxes - y->naxes;
    return x->order - y->order;
}

/* The two costs a configuration is judged by: both smaller is better. */
static void costs(const Config *c, bool training, double *first, double *second)
{
    *first = c->t_derated;
    *second = training ? c->chips : c->t_derated * c->chips;
}

/* Sorted by time, a configuration is on the front when no faster one (or as fast,
 * ranked before it) beats it on the second cost. */
static void mark_pareto(Configs *c, bool training)
{
    double best = INFINITY;
    for (int i = 0; i < c->n && eligible(&c->items[i]); i++) {
        double t, other;
        costs(&c->items[i], training, &t, &other);
        c->items[i].pareto = other < best;
        if (other < best)
            best = other;
    }
}

/* ---- Output ------------------------------------------------------------------------ */

static const char *const COLL_NAMES[] = {"allgather", "reducescatter", "allreduce", "alltoall"};

static void mesh_text(const Config *c, char *buf, size_t size)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int a = 0; a < c->naxes && used < size; a++)
        used += (size_t)snprintf(buf + used, size - used, a ? "x%d" : "%d", c->sizes[a]);
}

static void strategy_text(Eval *ev, const Search *z, const Config *c, char *buf, size_t size)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int p = 0; p < z->nparams && used < size; p++) {
        char axes[SEARCH_AXES + 1];
        int n = 0;
        for (int a = 0; a < c->naxes; a++)
            if (c->owner[a] == p)
                axes[n++] = letters[a];
        axes[n] = '\0';
        if (n)
            used += (size_t)snprintf(buf + used, size - used, "%s%s=%s", used ? " " : "",
                                     eval_spelling(ev, z->params[p]), axes);
    }
}

/* "fsdp = Y, tp = {X, Z}": the searched parameters' axes as the call takes them; one
 * that gets none is left out when its default is none, `{}`. Their count. */
static int call_axes(Eval *ev, const Search *z, const Config *c, SearchAxesArg *out,
                     char (*axes)[3 * SEARCH_AXES])
{
    const Stmt *def = arch_call_target(ev, z->stmt->as.expr.value)->def;
    int k = 0;
    for (int p = 0; p < z->nparams; p++) {
        int n = 0;
        for (int a = 0; a < c->naxes; a++)
            n += c->owner[a] == p;
        const Node *fallback = NULL;
        for (int i = 0; i < def->as.block.nparams; i++)
            if (def->as.block.params[i].name.name == z->params[p])
                fallback = def->as.block.params[i].value;
        if (n == 0 && fallback && fallback->kind == NODE_AXES && fallback->as.axes.n == 0)
            continue;
        size_t used = 0;
        axes[k][0] = '\0';
        for (int a = 0; a < c->naxes; a++)
            if (c->owner[a] == p)
                used += (size_t)snprintf(axes[k] + used, sizeof axes[k] - used, "%s%c",
                                         used ? ", " : "", letters[a]);
        out[k] = (SearchAxesArg){eval_spelling(ev, z->params[p]), axes[k], n != 1};
        k++;
    }
    return k;
}

/* The call's arguments as the reproduce line gives them: the batch's, that of one
 * microbatch. The caller frees them; NULL when memory ran out (noted). */
static SearchArg *call_args(Eval *ev, const Search *z, const Config *c)
{
    const Node *call = z->stmt->as.expr.value;
    SearchArg *args = nomem_note(malloc(sizeof *args * (size_t)(call->as.call.nargs + 1)));
    if (!args)
        return NULL;
    for (int i = 0; i < call->as.call.nargs; i++) {
        const Binding *arg = &call->as.call.args[i];
        bool batch = i == z->plan.batch_arg;
        args[i] = (SearchArg){
            .name = arg->name.name >= 0 ? eval_spelling(ev, arg->name.name) : NULL,
            .value = batch ? NULL : ev->src->text + arg->value->span.begin,
            .len = arg->value->span.end - arg->value->span.begin,
            .batch = z->plan.global_batch /
                     z->plan.microbatches[c->plan.at[PLAN_MICROBATCHES]],
        };
    }
    return args;
}

/* The statement that costs c alone: its plan's settings, then the call with the batch
 * of one microbatch and the searched axes, on the chip and mesh. */
static SearchReproduce reproduce_of(Eval *ev, const Search *z, const Config *c,
                                    const SearchArg *args, SearchAxesArg *axes,
                                    char (*axes_text)[3 * SEARCH_AXES])
{
    const Node *call = z->stmt->as.expr.value;
    int compute = z->stmt->as.expr.clauses.compute;
    SearchReproduce r = {
        .training = ev->world->training,
        .callee = eval_spelling(ev, call->as.call.callee.name),
        .args = args, .nargs = call->as.call.nargs,
        .axes = axes, .naxes_args = call_axes(ev, z, c, axes, axes_text),
        .chip = z->chip->name, .compute = compute >= 0 ? dtype_name((DType)compute) : NULL,
        .sizes = c->sizes, .naxes = c->naxes,
    };
    if (ev->world->training)
        searchplan_settings(ev, &z->plan, c->plan, &r.settings);
    return r;
}

/* Configuration c's row: its record, with the texts formatted here. */
static void write_row(Eval *ev, const Search *z, const Config *c, const RecordStmt *at)
{
    char mesh[32], strategy[64];
    const char *params[SEARCH_MAX_PARAMS];
    mesh_text(c, mesh, sizeof mesh);
    strategy_text(ev, z, c, strategy, sizeof strategy);
    for (int p = 0; p < z->nparams; p++)
        params[p] = eval_spelling(ev, z->params[p]);
    SearchArg *args = call_args(ev, z, c);
    if (!args)
        return; /* noted: the statement then fails */
    SearchAxesArg axes[SEARCH_MAX_PARAMS];
    char axes_text[SEARCH_MAX_PARAMS][3 * SEARCH_AXES];
    SearchReproduce reproduce = reproduce_of(ev, z, c, args, axes, axes_text);
    SearchRow r = {
        .stmt = *at, .chip = z->chip->name, .training = ev->world->training,
        .sizes = c->sizes, .owner = c->owner, .naxes = c->naxes,
        .params = params, .nparams = z->nparams,
        .mesh = mesh, .strategy = strategy, .reproduce = &reproduce,
        .rank = c->rank, .chips = c->chips, .t_step = c->t_step, .t_derated = c->t_derated,
        .mfu = c->mfu, .flops = c->flops, .memory = c->memory,
        .hbm = z->chip->set[CHIP_HBM_BYTES] ? z->chip->value[CHIP_HBM_BYTES] : NAN,
        .fits = c->fits, .oversplit = c->oversplit, .pareto = c->pareto, .bound = c->bound,
        .collective = c->collective >= 0 ? COLL_NAMES[c->collective] : NULL,
    };
    searchplan_record(&z->plan, c->plan, c->pipelined, &r.plan);
    records_search_row(ev->out, &r, ev->json);
    free(args);
}

static void row_text(Eval *ev, const Search *z, const Config *c)
{
    RecordStmt at = records_stmt(ev->src, z->stmt->span);
    write_row(ev, z, c, &at);
}

static int by_memory(const void *a, const void *b)
{
    const Config *x = *(Config *const *)a, *y = *(Config *const *)b;
    if (x->memory != y->memory)
        return x->memory < y->memory ? -1 : 1;
    return x->t_derated < y->t_derated ? -1 : x->t_derated > y->t_derated;
}

/* When none fits: the configurations that come closest. */
static void least_memory(Eval *ev, const Search *z, const Configs *c)
{
    const Config **order = malloc(sizeof *order * (size_t)c->n);
    if (!order)
        return;
    for (int i = 0; i < c->n; i++)
        order[i] = &c->items[i];
    qsort(order, (size_t)c->n, sizeof *order, by_memory);
    records_search_title(ev->out, "none fits; the least memory a chip:");
    for (int i = 0; i < c->n && i < 5; i++)
        row_text(ev, z, order[i]);
    free(order);
}

/* "K = 8 over 64 chips": the first dim a configuration split too finely. */
static void oversplit_text(Eval *ev, const Oversplit *o, char *buf, size_t size)
{
    char n[32];
    num_format_plain(o->size, n, sizeof n);
    if (o->dim >= 0)
        snprintf(buf, size, "%s = %s over %.0f chips", eval_spelling(ev, o->dim), n, o->chips);
    else
        snprintf(buf, size, "a dim of %s over %.0f chips", n, o->chips);
}

/* The dim split too finely by the first configuration made that splits one. */
static const Oversplit *first_oversplit(const Configs *c)
{
    const Config *first = NULL;
    for (int i = 0; i < c->n; i++)
        if (c->items[i].oversplit && (!first || c->items[i].order < first->order))
            first = &c->items[i];
    return &first->split;
}

static void header_text(Eval *ev, const Search *z, const Configs *c, int fit, int costed)
{
    char split[96] = "";
    if (z->oversplit)
        oversplit_text(ev, first_oversplit(c), split, sizeof split);
    PlanChoices plan;
    searchplan_choices(&z->plan, &plan);
    SearchHead h = {
        .stmt = records_stmt(ev->src, z->stmt->span), .training = ev->world->training,
        .derated = roof_has_derating(z->chip),
        .configurations = c->n + z->failed + z->dropped + z->uneven,
        .fit = fit, .unfit = costed - fit, .dropped = z->dropped, .uneven = z->uneven,
        .failed = z->failed, .why = z->why, .oversplit = z->oversplit, .split = split,
        .twins = z->twins,
        .hbm = z->chip->set[CHIP_HBM_BYTES] ? z->chip->value[CHIP_HBM_BYTES] : NAN,
        .plan = plan.choices,
    };
    records_search_head(ev->out, &h);
}

/* A section's rows: those ranked that `in` takes and no section above has shown. */
static int section(Eval *ev, const Search *z, Configs *c, const char *title,
                   bool (*in)(const Configs *, int), int most)
{
    int shown = 0;
    for (int i = 0; i < c->n && c->items[i].rank && shown < most; i++) {
        Config *x = &c->items[i];
        if (x->shown || !in(c, i))
            continue;
        if (shown++ == 0)
            records_search_title(ev->out, title);
        row_text(ev, z, x);
        x->shown = true;
    }
    return shown;
}

static bool on_front(const Configs *c, int i)
{
    return c->items[i].pareto;
}

/* Ranked in time order: the first of its chip count is the best there. */
static bool best_of_count(const Configs *c, int i)
{
    for (int k = 0; k < i; k++)
        if (c->items[k].chips == c->items[i].chips)
            return false;
    return true;
}

static bool any(const Configs *c, int i)
{
    (void)c;
    (void)i;
    return true;
}

static void report_text(Eval *ev, const Search *z, Configs *c)
{
    int fit = 0, costed = 0, ranked = 0;
    for (int i = 0; i < c->n; i++) {
        fit += c->items[i].costed && c->items[i].fits;
        costed += c->items[i].costed;
        ranked += c->items[i].rank > 0;
    }
    header_text(ev, z, c, fit, costed);
    int shown = section(ev, z, c, ev->world->training
                        ? "the Pareto front: no plan on fewer chips is as fast"
                        : "the Pareto front: no plan is as fast for less (t_step x chips)",
                        on_front, c->n);
    shown += section(ev, z, c, "the best of each other chip count", best_of_count, c->n);
    shown += section(ev, z, c, "the fastest of the rest", any, SEARCH_SHOWN);
    records_search_more(ev->out, ranked - shown);
    if (fit == 0)
        least_memory(ev, z, c);
    records_search_end(ev->out);
}

/* ---- The statement ----------------------------------------------------------------- */

/* The model's FLOPs (summary.h: the call on one chip, nothing recomputed) of each
 * microbatch count, a step of the same sequences, and their peak. MFU counts these, not
 * what a chip computes (a strategy that repeats work gains none). */
static bool model_flops(Eval *ev, Search *z)
{
    Config alone = {.naxes = 0};
    set_probe(z, &alone);
    for (int m = 0; m < z->plan.n[PLAN_MICROBATCHES]; m++) {
        alone.plan.at[PLAN_MICROBATCHES] = (unsigned char)m;
        if (!searchplan_apply(ev, &z->plan, alone.plan) ||
            !summary_model_flops(ev, &z->probe, NULL, &z->model[m]))
            return false;
    }
    ChipField peak = chip_peak_field(z->model[0].dtype);
    z->peak = z->chip->set[peak] ? z->chip->value[peak] : NAN;
    return true;
}

/* What the stages of the searched pipeline parameter must divide, as the call just
 * costed pipelined its layers: 0 unknown (no pipeline, or one over a parameter the
 * search does not range over, or over several). */
static double searched_layers(Eval *ev, Search *z)
{
    const UnderWay *u = &ev->world->under_way;
    if (z->given_pipeline || !ev->world->training)
        return 0;
    for (int p = 0; p < z->nparams; p++)
        if (z->pipeline_param[p] && z->params[p] == u->pipeline_over) {
            z->pipe = p;
            return u->pipeline_layers;
        }
    return 0;
}

/* What the call holds on one chip under each microbatch count and remat policy (the
 * schedule needs a pipeline, ZeRO copies of the state, and one chip has neither); 0
 * when it cannot be costed there. Spread over N chips it bounds the memory a chip of
 * a configuration holds from below: every element the one chip holds, some chip holds
 * (a shard of it, padded, or a copy), and a pipeline's stage keeps at least the one
 * microbatch that one chip keeps. */
static bool one_chip_memory(Eval *ev, Search *z)
{
    int failed = z->failed, oversplit = z->oversplit;
    char *why = z->why;
    z->why = NULL;
    for (int m = 0; m < z->plan.n[PLAN_MICROBATCHES]; m++)
        for (int r = 0; r < z->plan.n[PLAN_REMAT]; r++) {
            Config alone = {.naxes = 0};
            alone.plan.at[PLAN_MICROBATCHES] = (unsigned char)m;
            alone.plan.at[PLAN_REMAT] = (unsigned char)r;
            if (!cost_config(ev, z, &alone))
                return false;
            z->alone[m][r] = alone.costed ? alone.memory : 0;
            z->layers[m][r] = alone.costed ? searched_layers(ev, z) : 0;
        }
    free(z->why);
    z->why = why;
    z->failed = failed;
    z->oversplit = oversplit;
    return true;
}

static double memory_bound(const Search *z, const Config *c)
{
    double chips = 1;
    for (int a = 0; a < c->naxes; a++)
        chips *= c->sizes[a];
    return z->alone[c->plan.at[PLAN_MICROBATCHES]][c->plan.at[PLAN_REMAT]] / chips;
}

/* Sets aside, for good, the configurations whose pipeline stages do not divide the
 * layers: costing them would fail (pipeline.c). */
static void drop_uneven(Search *z, Configs *c)
{
    int kept = 0;
    for (int i = 0; i < c->n; i++) {
        const Config *x = &c->items[i];
        double layers = z->layers[x->plan.at[PLAN_MICROBATCHES]][x->plan.at[PLAN_REMAT]];
        double stages = 1;
        for (int a = 0; a < x->naxes; a++)
            stages *= x->owner[a] == z->pipe ? x->sizes[a] : 1;
        if (layers > 0 && fmod(layers, stages) != 0)
            z->uneven++;
        else
            c->items[kept++] = *x;
    }
    c->n = kept;
}

/* Marks dropped those whose bound exceeds HBM. */
static void drop_by_bound(const Search *z, Configs *c)
{
    if (!z->chip->set[CHIP_HBM_BYTES])
        return;
    for (int i = 0; i < c->n; i++)
        c->items[i].dropped = memory_bound(z, &c->items[i]) > z->chip->value[CHIP_HBM_BYTES];
}

/* The chips each searched parameter gets, and the plan. Configurations of one class
 * hold the same memory: a tensor's shard on a chip is its dims over the chips of the
 * parameters that split them (padded alike), a pipeline's stage its layers over the
 * stages, ZeRO's share its state over the copies, wherever those chips lie. */
enum { CLASS_LENGTH = SEARCH_MAX_PARAMS + PLAN_DIMS };

static void class_key(const Config *c, long long *key)
{
    for (int p = 0; p < SEARCH_MAX_PARAMS; p++)
        key[p] = 1;
    for (int a = 0; a < c->naxes; a++)
        key[c->owner[a]] *= c->sizes[a];
    for (int d = 0; d < PLAN_DIMS; d++)
        key[SEARCH_MAX_PARAMS + d] = c->plan.at[d];
}

static int compare_classes(const Config *a, const Config *b)
{
    long long ka[CLASS_LENGTH], kb[CLASS_LENGTH];
    class_key(a, ka);
    class_key(b, kb);
    for (int i = 0; i < CLASS_LENGTH; i++)
        if (ka[i] != kb[i])
            return ka[i] < kb[i] ? -1 : 1;
    return 0;
}

static int by_class(const void *a, const void *b)
{
    const Config *x = *(Config *const *)a, *y = *(Config *const *)b;
    int k = compare_classes(x, y);
    return k ? k : x->order - y->order;
}

/* Those of order[begin, end), whole classes, in order. With `drop`, when the first of
 * a class does not fit HBM, the others are dropped uncosted. */
static bool cost_range(Eval *ev, Search *z, Config **order, int begin, int end, bool drop,
                       Progress *progress)
{
    const Config *first = NULL;
    for (int i = begin; i < end; i++) {
        if (!first || compare_classes(first, order[i]) != 0)
            first = order[i];
        else if (drop && first->costed && !first->fits)
            order[i]->dropped = true;
        if (interrupt_pending()) /* Ctrl-C in the REPL: the session goes on */
            return eval_interrupted(ev);
        if (!order[i]->dropped && !cost_config(ev, z, order[i]))
            return false;
        if (progress)
            progress_advance(progress, 1);
    }
    return true;
}

/* ---- Costing in several processes (--jobs) ---------------------------------------- *
 * The configurations, sorted by class, are cut into runs of whole classes; a process
 * forked for each run but the last costs it as one job would (a copy of everything,
 * so nothing is shared) and sends back each configuration's figures and what its run
 * adds to the counts; this one costs the last run, then takes the others' in order.
 * Costing is deterministic, so the figures are those one job finds, and the counts
 * and the first reason a configuration could not be costed are merged in the order
 * one job meets them. Should anything fail (a process or pipe not made, a worker that
 * ran out of memory, Ctrl-C, an error), every run is costed again here, in order, as
 * one job does, which then says what one job says. */

/* What a worker sends for one configuration. */
typedef struct {
    bool costed, fits, dropped, oversplit;
    Oversplit split;
    double chips, t_step, t_derated, mfu, memory, flops;
    Bound bound;
    int collective;
} Figures;

/* What a run adds to the search's counts, then the first reason (why_length bytes). */
typedef struct {
    int failed, oversplit;
    size_t why_length;
} Tally;

/* What a worker is handed: the costing it does as one job would. */
typedef struct {
    Eval *ev;
    Search *z;
    Config **order;
    bool drop;
} Run;

static void figures_of(const Config *c, Figures *f)
{
    memset(f, 0, sizeof *f); /* the padding too: all of it is written */
    *f = (Figures){c->costed, c->fits, c->dropped, c->oversplit, c->split, c->chips,
                   c->t_step, c->t_derated, c->mfu, c->memory, c->flops, c->bound,
                   c->collective};
}

static void figures_into(Config *c, const Figures *f)
{
    c->costed = f->costed, c->fits = f->fits, c->dropped = f->dropped;
    c->oversplit = f->oversplit, c->split = f->split, c->chips = f->chips;
    c->t_step = f->t_step, c->t_derated = f->t_derated, c->mfu = f->mfu;
    c->memory = f->memory, c->flops = f->flops, c->bound = f->bound;
    c->collective = f->collective;
}

/* Where run k of `jobs` begins: about k/jobs of the way, moved on to a class's first. */
static int run_start(Config **order, int n, int jobs, int k)
{
    int i = (int)((long long)n * k / jobs);
    while (i > 0 && i < n && compare_classes(order[i - 1], order[i]) == 0)
        i++;
    return i;
}

/* In the forked process (jobs.h): its run costed, its counts and figures sent. */
static bool work(void *ctx, const JobsWorker *w, int fd)
{
    const Run *r = ctx;
    Search *z = r->z;
    z->failed = z->oversplit = 0;
    z->why = NULL;
    bool ok = cost_range(r->ev, z, r->order, w->begin, w->end, r->drop, NULL);
    Tally t = {z->failed, z->oversplit, z->why ? strlen(z->why) : 0};
    ok = ok && jobs_send(fd, &t, sizeof t) && jobs_send(fd, z->why, t.why_length);
    for (int i = w->begin; ok && i < w->end; i++) {
        Figures f;
        figures_of(r->order[i], &f);
        ok = jobs_send(fd, &f, sizeof f);
    }
    return ok;
}

/* Adds a run's counts, as one job meets them: its reason is the search's first when
 * none failed before. Takes `why`. */
static void add_tally(Search *z, const Tally *t, char *why)
{
    if (t->failed && z->failed == 0) {
        free(z->why);
        z->why = why;
    } else {
        free(why);
    }
    z->failed += t->failed;
    z->oversplit += t->oversplit;
}

/* A worker's figures and counts taken in; false when it did not send them all or did
 * not end well. The process is waited for either way. */
static bool gather(Search *z, Config **order, JobsWorker *w)
{
    Tally t;
    char *why = NULL;
    bool ok = w->pid > 0 && jobs_receive(w->fd, &t, sizeof t);
    if (ok && t.why_length) {
        why = t.why_length < (size_t)1 << 20 ? malloc(t.why_length + 1) : NULL;
        ok = why && jobs_receive(w->fd, why, t.why_length);
        if (ok)
            why[t.why_length] = '\0';
    }
    for (int i = w->begin; ok && i < w->end; i++) {
        Figures f;
        ok = jobs_receive(w->fd, &f, sizeof f);
        if (ok)
            figures_into(order[i], &f);
    }
    ok = jobs_end(w, ok);
    if (ok)
        add_tally(z, &t, why);
    else
        free(why);
    return ok;
}

static bool cost_in_parallel(Eval *ev, Search *z, Config **order, int n, bool drop,
                             int jobs, Progress *progress)
{
    JobsWorker workers[JOBS_MAX];
    Run run = {ev, z, order, drop};
    for (int k = 0; k < jobs - 1; k++) {
        workers[k].begin = run_start(order, n, jobs, k);
        workers[k].end = run_start(order, n, jobs, k + 1);
        jobs_start(&workers[k], work, &run);
    }
    int failed = z->failed, oversplit = z->oversplit;
    char *why = z->why;
    z->failed = z->oversplit = 0;
    z->why = NULL;
    DiagHold hold;
    bool held = diag_hold(&hold), ok = held;
    Diag *loud = ev->diag;
    if (held) {
        ev->diag = &hold.diag;
        ok = cost_range(ev, z, order, run_start(order, n, jobs, jobs - 1), n, drop, NULL);
        ev->diag = loud;
        free(diag_release(&hold));
    }
    Tally last = {z->failed, z->oversplit, 0};
    char *last_why = z->why;
    z->failed = failed;
    z->oversplit = oversplit;
    z->why = why;
    for (int k = 0; k < jobs - 1; k++)
        ok = gather(z, order, &workers[k]) && ok;
    if (ok) {
        add_tally(z, &last, last_why);
        progress_advance(progress, n);
        return true;
    }
    free(last_why); /* again, as one job: the counts as they were, nothing costed */
    if (z->why != why)
        free(z->why);
    z->why = why;
    z->failed = failed;
    z->oversplit = oversplit;
    for (int i = 0; i < n; i++)
        order[i]->costed = order[i]->dropped = false;
    return cost_range(ev, z, order, 0, n, drop, progress);
}

/* The configurations not dropped, costed class by class, each with a progress line: a
 * large search takes minutes. With `drop`, when the first of a class does not fit HBM,
 * the others are dropped uncosted. */
static bool cost_by_class(Eval *ev, Search *z, Configs *c, bool drop)
{
    Config **order = malloc(sizeof *order * (size_t)(c->n ? c->n : 1));
    if (!order)
        return eval_oom(ev, z->stmt->span);
    int n = 0;
    for (int i = 0; i < c->n; i++)
        if (!c->items[i].dropped && !c->items[i].costed)
            order[n++] = &c->items[i];
    qsort(order, (size_t)n, sizeof *order, by_class);
    Progress progress;
    eval_progress_begin(ev, &progress, "search", "configurations", n);
    int jobs = jobs_count(ev->jobs, n, SEARCH_JOB_CONFIGS);
    bool ok = jobs > 1 ? cost_in_parallel(ev, z, order, n, drop, jobs, &progress)
                       : cost_range(ev, z, order, 0, n, drop, &progress);
    eval_progress_end(ev, &progress);
    free(order);
    return ok;
}

/* The dropped, set aside after the others (c->n counts the others). */
static void set_aside(Search *z, Configs *c)
{
    int kept = 0, aside = 0;
    Config *dropped = nomem_note(malloc(sizeof *dropped * (size_t)(c->n ? c->n : 1)));
    if (!dropped) { /* no room to set them aside: they stay, uncosted, and the statement
                     * fails (nomem.h) */
        for (int i = 0; i < c->n; i++)
            z->dropped += c->items[i].dropped;
        return;
    }
    for (int i = 0; i < c->n; i++)
        if (c->items[i].dropped)
            dropped[aside++] = c->items[i];
        else
            c->items[kept++] = c->items[i];
    memcpy(c->items + kept, dropped, sizeof *dropped * (size_t)aside);
    free(dropped);
    z->dropped = aside;
    c->n = kept;
}

/* The configurations costed, or dropped; all costed when none of those costed fits
 * (the closest ones are then listed, and they may be among the dropped). */
static bool cost_all(Eval *ev, Search *z, Configs *c)
{
    drop_by_bound(z, c);
    if (!cost_by_class(ev, z, c, true))
        return false;
    set_aside(z, c);
    for (int i = 0; i < c->n; i++)
        if (c->items[i].costed && c->items[i].fits)
            return true;
    c->n += z->dropped;
    z->dropped = 0;
    for (int i = 0; i < c->n; i++)
        c->items[i].dropped = false;
    return cost_by_class(ev, z, c, false);
}

static bool run_search(Eval *ev, Search *z, Configs *c)
{
    const AstList *sizes = z->stmt->as.expr.sizes;
    if (!model_flops(ev, z))
        return false;
    for (int i = 0; sizes && i < sizes->n; i++)
        if (!add_size(ev, z, sizes->items[i], c))
            return false;
    drop_twins(z, c); /* before the plans: a configuration's twins are its twins under each */
    if (!add_plans(ev, z, c) || !one_chip_memory(ev, z))
        return false;
    drop_uneven(z, c);
    if (!cost_all(ev, z, c))
        return false;
    int kept = 0;
    for (int i = 0; i < c->n; i++)
        if (c->items[i].costed)
            c->items[kept++] = c->items[i];
    c->n = kept;
    if (kept == 0)
        return eval_fail(ev, z->stmt->span, "no configuration could be costed: %s",
                         z->why ? z->why : "");
    qsort(c->items, (size_t)c->n, sizeof *c->items, by_time);
    for (int i = 0; i < c->n; i++)
        c->items[i].rank = eligible(&c->items[i]) ? i + 1 : 0;
    mark_pareto(c, ev->world->training);
    if (!ev->json) {
        report_text(ev, z, c);
        return true;
    }
    RecordStmt at = records_stmt(ev->src, z->stmt->span);
    for (int i = 0; i < c->n; i++)
        write_row(ev, z, &c->items[i], &at);
    return true;
}

bool search_run(Eval *ev, const Stmt *s)
{
    Search z = {.stmt = s, .chip = eval_chip_of(ev, s), .pipe = -1};
    if (!z.chip)
        return eval_fail(ev, s->span, "search needs a chip: add `on v5p`");
    if (s->as.expr.clauses.chip.shape || s->as.expr.clauses.mesh || s->as.expr.clauses.shards)
        return eval_fail(ev, s->span, "search lays out the chips itself: give their number or "
                         "slices after `over`, not a slice, mesh or shard clause");
    Configs c = {0};
    bool ok = open_params(ev, &z) &&
              searchplan_read(ev, s, arch_call_target(ev, s->as.expr.value), &z.plan) &&
              build_probe(ev, &z) && run_search(ev, &z, &c);
    searchplan_restore(ev, &z.plan);
    free((void *)z.call.as.call.args);
    free(z.why);
    free(c.items);
    return ok;
}
