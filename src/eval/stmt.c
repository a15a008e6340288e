/* stmt.c — runs one statement: the dispatcher, and the statements that set what
 * the ones after them run on (use, mesh, chip, mode). Expressions, let, repeat and
 * return are eval.c's; blocks call.c's; solve, sweep, search and serve explore/'s.
 */
#include "eval.h"

#include <math.h>
#include <string.h>

#include "chipcard.h"
#include "evalparts.h"
#include "layout.h"
#include "predict.h"
#include "spell.h"

static const Chip *find_chip(Eval *ev, const NameRef *ref)
{
    const Chip *c = chip_find(&ev->world->chips, eval_spelling(ev, ref->name));
    const BoundValue *v = world_value(ev->world, ref->name);
    if (!c && v->kind == VAL_CHIP) /* `on c` in a sweep over chips */
        c = v->chip;
    if (!c) {
        SpellNear near = spell_begin(eval_spelling(ev, ref->name));
        for (int i = 0; i < ev->world->chips.n; i++)
            spell_offer(&near, ev->world->chips.chips[i]->name);
        const Chip *by_memory = chip_by_memory(&ev->world->chips, eval_spelling(ev, ref->name));
        if (by_memory)
            near.best = by_memory->name;
        eval_fail(ev, ref->span, "unknown chip %s", eval_spelling(ev, ref->name));
        if (near.best)
            diag_note(ev->diag, "did you mean %s?", near.best);
        diag_note(ev->diag, "`chips` in the REPL lists them; define one with "
                  "`chip NAME : PARENT { field = value }`");
    }
    return c;
}

static bool eval_use(Eval *ev, const Stmt *s)
{
    const ChipRef *c = &s->as.use;
    LayoutEnv lx = eval_layout(ev);
    Mesh mesh;
    if (!find_chip(ev, &c->name))
        return false;
    if (c->shape && !layout_shape_mesh(&lx, c->shape, c->shape_span, &mesh))
        return false;
    if (c->shape && !layout_check_fit(&lx, &mesh, find_chip(ev, &c->name), c->shape_span))
        return false;
    ev->world->use_chip = c->name.name;
    if (c->shape)
        ev->world->mesh = mesh;
    return true;
}

/* `mesh X = 4, Y = 2` (an axis tagged `dcn` joins pods): the mesh from here on. */
static bool eval_mesh(Eval *ev, const Stmt *s)
{
    LayoutEnv lx = eval_layout(ev);
    Mesh mesh;
    if (!layout_mesh_from(&lx, s->as.mesh.axes, s->as.mesh.n, &mesh))
        return false;
    const Chip *chip = ev->world->use_chip >= 0
                           ? chip_find(&ev->world->chips, eval_spelling(ev, ev->world->use_chip))
                           : NULL;
    if (!layout_check_fit(&lx, &mesh, chip, s->span))
        return false;
    ev->world->mesh = mesh;
    return true;
}

static bool set_field(Eval *ev, Chip *c, const Binding *b)
{
    const char *field = eval_spelling(ev, b->name.name);
    int f = chip_field_lookup(field);
    if (f < 0) {
        eval_fail(ev, b->name.span, "a chip has no field %s", field);
        SpellNear near = spell_begin(field);
        for (int i = 0; i < CHIP_FIELD_COUNT; i++)
            spell_offer(&near, chip_fields[i].name);
        if (near.best)
            diag_note(ev->diag, "did you mean %s?", near.best);
        diag_note(ev->diag, "`chip v5e` lists every field with its meaning and source");
        return false;
    }
    double v = 0;
    bool ok = eval_number(ev, b->value, &v);
    const char *why = ok ? chip_field_check((ChipField)f, v) : NULL;
    if (why)
        ok = eval_fail(ev, b->value->span, "%s %s", field, why);
    if (!ok)
        return false;
    char source[512];
    size_t len = ev->src ? source_trailing_comment(ev->src, b->value->span.end, source,
                                                   sizeof source)
                         : 0;
    if (!chip_set(c, (ChipField)f, v, len ? source : NULL, len))
        return eval_oom(ev, b->value->span);
    return true;
}

static bool eval_chip(Eval *ev, const Stmt *s)
{
    if (s->as.chip.show) {
        const Chip *shown = find_chip(ev, &s->as.chip.name);
        if (shown)
            chipcard_print(shown, ev->json, ev->out);
        return shown != NULL;
    }
    const Chip *parent = NULL;
    if (s->as.chip.parent.name >= 0 && !(parent = find_chip(ev, &s->as.chip.parent)))
        return false;
    Chip *c = chip_new(eval_spelling(ev, s->as.chip.name.name), parent);
    if (!c)
        return eval_oom(ev, s->span);
    for (int i = 0; i < s->as.chip.nfields; i++) {
        const Binding *f = &s->as.chip.fields[i];
        bool again = false;
        for (int j = 0; j < i && !again; j++)
            again = s->as.chip.fields[j].name.name == f->name.name;
        if (again ? !eval_fail(ev, f->name.span, "field %s given twice; keep one",
                               eval_spelling(ev, f->name.name))
                  : !set_field(ev, c, f)) {
            chip_free(c);
            return false;
        }
    }
    ev->world->predicting = ev->world->predicting || predict_calibrated(c);
    if (!chip_table_put(&ev->world->chips, c)) {
        chip_free(c);
        return eval_oom(ev, s->span);
    }
    return true;
}

/* The chip a statement runs on: `on CHIP`, else the one in `use`, else none. */
bool stmt_chip(Eval *ev, const Clauses *c, const Chip **chip)
{
    *chip = NULL;
    if (c->chip.name.name >= 0)
        return (*chip = find_chip(ev, &c->chip.name)) != NULL;
    if (ev->world->use_chip >= 0)
        *chip = chip_find(&ev->world->chips, eval_spelling(ev, ev->world->use_chip));
    return true;
}

/* What a `mode` statement sets; each statement sets all of it, from the defaults. */
typedef struct {
    CostMode mode;
    double microbatches;
    Schedule schedule;
    bool axes_add;
    bool launch_graph;
    double run_tokens; /* 0: none given */
    bool sends_overlap;
} ModeSetting;

/* The value of an option that takes a word: its index in `words`, or -1 (reported). */
static int option_word(Eval *ev, const Binding *o, const char *const *words, const char *says)
{
    const char *value = o->value->kind == NODE_NAME ? eval_spelling(ev, o->value->as.name) : "";
    for (int i = 0; words[i]; i++)
        if (strcmp(value, words[i]) == 0)
            return i;
    eval_fail(ev, o->value->span, "%s", says);
    return -1;
}

/* `overlap pass` (the default) or `overlap step`. */
static bool mode_overlap(Eval *ev, const Binding *o, ModeSetting *set)
{
    static const char *const words[] = {"pass", "step", NULL};
    int w = option_word(ev, o, words, "overlap is pass (each pass's collectives overlap that "
                        "pass, the book's convention) or step (the whole step)");
    set->mode = w == 1 ? COST_TRAIN_STEP : COST_TRAIN_PASS;
    return w >= 0;
}

/* `microbatches M`: a whole count; the step runs each statement M times. */
static bool mode_microbatches(Eval *ev, const Binding *o, ModeSetting *set)
{
    if (!eval_number(ev, o->value, &set->microbatches))
        return false;
    double m = set->microbatches;
    if (m < 1 || m > LIMIT_REPEAT || m != floor(m))
        return eval_fail(ev, o->value->span, "microbatches takes a whole count, 1 to 1e9 "
                         "(here %g)", m);
    return true;
}

/* `schedule one_f_one_b` (the default) or `schedule gpipe`, for pipelined repeats. */
static bool mode_schedule(Eval *ev, const Binding *o, ModeSetting *set)
{
    static const char *const words[] = {"one_f_one_b", "gpipe", NULL};
    int w = option_word(ev, o, words, "schedule is one_f_one_b (1F1B: at most as many "
                        "microbatches in flight as stages) or gpipe (all of them)");
    set->schedule = w == 1 ? SCHEDULE_GPIPE : SCHEDULE_1F1B;
    return w >= 0;
}

/* `axes overlap` (the default: collectives on different mesh axes run at once, the
 * book's current chapter 5) or `axes add` (they take turns, its first release). */
static bool mode_axes(Eval *ev, const Binding *o, ModeSetting *set)
{
    static const char *const words[] = {"overlap", "add", NULL};
    int w = option_word(ev, o, words, "axes is overlap (collectives on different mesh axes "
                        "run at once, the book's current text) or add (they add up, its "
                        "first release)");
    set->axes_add = w == 1;
    return w >= 0;
}

/* `launch eager` (the default: kernels launched one by one, as PyTorch runs) or
 * `launch graph` (replayed from a CUDA graph): what a calibrated chip's kernels pay
 * besides their work (predict.h). */
static bool mode_launch(Eval *ev, const Binding *o, ModeSetting *set)
{
    static const char *const words[] = {"eager", "graph", NULL};
    int w = option_word(ev, o, words, "launch is eager (each kernel launched by the host, "
                        "at least launch_eager) or graph (replayed from a CUDA graph, at "
                        "least kernel_floor)");
    set->launch_graph = w == 1;
    return w >= 0;
}

/* `sends add` (the default: a pipeline's sends to the next stage wait for the stage's
 * work, the book's total 2BD/(W·M) per hop) or `sends overlap` (each microbatch's send
 * runs while the stage works on the next: a stage's slot is the larger of the two,
 * so a pipeline turns compute-bound where its work outgrows its sends). */
static bool mode_sends(Eval *ev, const Binding *o, ModeSetting *set)
{
    static const char *const words[] = {"add", "overlap", NULL};
    int w = option_word(ev, o, words, "sends is add (a pipeline's sends to the next stage "
                        "wait for its work) or overlap (they run while it works on the next "
                        "microbatch)");
    set->sends_overlap = w == 1;
    return w >= 0;
}

/* `tokens N`: the whole run's tokens, for its days, chip-hours and cost (summary.h). */
static bool mode_tokens(Eval *ev, const Binding *o, ModeSetting *set)
{
    if (!eval_number(ev, o->value, &set->run_tokens))
        return false;
    if (!(set->run_tokens >= 1) || !isfinite(set->run_tokens))
        return eval_fail(ev, o->value->span, "tokens takes the run's tokens, at least 1 (here %g)",
                         set->run_tokens);
    return true;
}

static bool mode_option(Eval *ev, const Binding *o, ModeSetting *set)
{
    const char *word = eval_spelling(ev, o->name.name);
    bool (*const take[])(Eval *, const Binding *, ModeSetting *) = {
        mode_overlap, mode_microbatches, mode_schedule, mode_axes, mode_launch, mode_tokens,
        mode_sends};
    static const char *const words[] = {"overlap", "microbatches", "schedule", "axes",
                                        "launch", "tokens", "sends"};
    static const char *const why[] = {
        "how its collectives overlap the computation",
        "gradient accumulation, a step of M microbatches",
        "how a pipeline runs its microbatches", NULL, NULL,
        "the tokens of a training run, for its days and cost",
        "how a pipeline's sends to the next stage overlap its work"};
    for (int i = 0; i < 7; i++) {
        if (strcmp(word, words[i]) != 0)
            continue;
        if (set->mode == COST_INFERENCE && why[i])
            return eval_fail(ev, o->name.span, "%s is for training: %s", word, why[i]);
        return take[i](ev, o, set);
    }
    return eval_fail(ev, o->name.span, "after the mode come `overlap pass|step`, "
                     "`microbatches M`, `schedule one_f_one_b|gpipe`, `axes overlap|add`, "
                     "`launch eager|graph`, `tokens N` and `sends add|overlap`");
}

static bool eval_mode(Eval *ev, const Stmt *s)
{
    const char *name = eval_spelling(ev, s->as.mode.name.name);
    if (strcmp(name, "training") != 0 && strcmp(name, "inference") != 0)
        return eval_fail(ev, s->as.mode.name.span, "the modes are training and inference");
    ModeSetting set = {strcmp(name, "training") == 0 ? COST_TRAIN_PASS : COST_INFERENCE, 1,
                       SCHEDULE_1F1B, false, false, 0, false};
    for (int i = 0; i < s->as.mode.noptions; i++)
        if (!mode_option(ev, &s->as.mode.options[i], &set))
            return false;
    ev->world->training = set.mode;
    ev->world->microbatches = set.microbatches;
    ev->world->schedule = set.schedule;
    ev->world->axes_add = set.axes_add;
    ev->world->launch_graph = set.launch_graph;
    ev->world->run_tokens = set.run_tokens;
    ev->world->sends_overlap = set.sends_overlap;
    return true;
}

bool stmt_run(Eval *ev, const Stmt *s)
{
    switch (s->kind) {
    case STMT_LET:
        return eval_let(ev, s);
    case STMT_USE:
        return eval_use(ev, s);
    case STMT_MESH:
        return eval_mesh(ev, s);
    case STMT_CHIP:
        return eval_chip(ev, s);
    case STMT_ARCH:
        return arch_define(ev, s);
    case STMT_INCLUDE:
        return ev->include(ev->include_ctx, ev->src, s->as.include.path, s->as.include.span);
    case STMT_ASSIGN:
    case STMT_EXPR:
    case STMT_COLLECTIVE:
        return eval_expr_stmt(ev, s);
    case STMT_SOLVE:
        return explore_solve(ev, s);
    case STMT_FIT:
        return explore_fit(ev, s);
    case STMT_SEARCH:
        return search_run(ev, s);
    case STMT_SERVE:
        return serve_run(ev, s);
    case STMT_SEND:
        return transfer_run(ev, s);
    case STMT_SWEEP:
        return explore_sweep(ev, s);
    case STMT_PLOT:
        return explore_plot(ev, s);
    case STMT_BLOCK:
        return call_define(ev, s);
    case STMT_RETURN:
        return eval_return(ev, s);
    case STMT_REPEAT:
        return eval_repeat(ev, s);
    case STMT_FUSED:
        return fuse_run(ev, s);
    case STMT_FUSED_SWITCH:
        return fuse_switch(ev, s);
    case STMT_REMAT:
        return training_remat(ev, s);
    case STMT_OPTIMIZER:
        return training_optimizer(ev, s);
    case STMT_EXPECT:
        return check_expect(ev, s);
    case STMT_MODE:
        return eval_mode(ev, s);
    case STMT_COMMAND:
        if (!ev->command)
            return eval_fail(ev, s->span, "help, names and chips are not available "
                             "here");
        return ev->command(ev->include_ctx, ev->src, s);
    }
    return false;
}
