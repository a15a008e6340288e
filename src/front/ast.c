/* ast.c — node constructors (the parser's only way to build the tree) and a dump. */
#include "ast.h"
#include "caps.h"

#include <string.h>

#include "coll.h"

#define NEW(a, T) ((T *)arena_alloc((a), sizeof(T)))

AstList *ast_list_push(Arena *a, AstList *list, void *item)
{
    if (!list && !(list = NEW(a, AstList)))
        return NULL;
    if (list->n == list->cap) {
        int cap = list->cap ? list->cap * 2 : 4;
        void **items = arena_alloc(a, sizeof *items * (size_t)cap);
        if (!items)
            return list;
        if (list->n)
            memcpy(items, list->items, sizeof *items * (size_t)list->n);
        list->items = items;
        list->cap = cap;
    }
    list->items[list->n++] = item;
    return list;
}

/* A list's items (pointers to `size`-byte values) copied into one array, with `spare`
 * zeroed elements after. An item that out of memory left null stays zeroed: the arena is
 * marked out of memory, so the parse fails before anything reads it. */
static void *item_array(Arena *a, const AstList *list, size_t size, int spare)
{
    int n = list ? list->n : 0;
    if (n + spare == 0)
        return NULL;
    unsigned char *out = arena_alloc(a, size * (size_t)(n + spare));
    for (int i = 0; out && i < n; i++)
        if (list->items[i])
            memcpy(out + size * (size_t)i, list->items[i], size);
    return out;
}

static Node *node(Arena *a, NodeKind kind, Span span)
{
    Node *n = NEW(a, Node);
    if (n) {
        n->kind = kind;
        n->span = span;
        n->depth = 1;
    }
    return n;
}

static int depth_of(const Node *child)
{
    return child ? child->depth : 0;
}

static int deeper(const Node *a, const Node *b)
{
    int da = depth_of(a), db = depth_of(b);
    return 1 + (da > db ? da : db);
}

Node *ast_number(Arena *a, Span span, double value)
{
    Node *n = node(a, NODE_NUMBER, span);
    if (n)
        n->as.number = value;
    return n;
}

Node *ast_name(Arena *a, Span span, int name)
{
    Node *n = node(a, NODE_NAME, span);
    if (n)
        n->as.name = name;
    return n;
}

Node *ast_tensor(Arena *a, Span span, DType dtype, AstList *dims)
{
    Node *n = node(a, NODE_TENSOR, span);
    if (n) {
        n->as.tensor.dtype = dtype;
        n->as.tensor.dtype_as = (NameRef){-1, span};
        n->as.tensor.dims = dims ? (Node **)dims->items : NULL;
        n->as.tensor.ndims = dims ? dims->n : 0;
        for (int i = 0; i < n->as.tensor.ndims; i++)
            if (n->depth <= depth_of(n->as.tensor.dims[i]))
                n->depth = depth_of(n->as.tensor.dims[i]) + 1;
    }
    return n;
}

Node *ast_tensor_named(Arena *a, Span span, const NameRef *dtype, AstList *dims)
{
    Node *n = dtype ? ast_tensor(a, span, DT_BF16, dims) : NULL;
    if (n)
        n->as.tensor.dtype_as = *dtype;
    return n;
}

Node *ast_dtype(Arena *a, Span span, DType dtype)
{
    Node *n = node(a, NODE_DTYPE, span);
    if (n)
        n->as.tensor.dtype = dtype;
    return n;
}

Node *ast_binary(Arena *a, Span span, char op, Node *lhs, Node *rhs)
{
    Node *n = node(a, NODE_BINARY, span);
    if (n) {
        n->as.binary.op = op;
        n->as.binary.lhs = lhs;
        n->as.binary.rhs = rhs;
        n->depth = deeper(lhs, rhs);
    }
    return n;
}

Node *ast_negate(Arena *a, Span span, Node *operand)
{
    Node *n = node(a, NODE_NEGATE, span);
    if (n) {
        n->as.operand = operand;
        n->depth = deeper(operand, NULL);
    }
    return n;
}

Node *ast_contract(Arena *a, Span span, Node *lhs, AstList *dims, Node *rhs)
{
    Node *n = node(a, NODE_CONTRACT, span);
    if (!n || !dims)
        return n;
    n->as.contract.lhs = lhs;
    n->as.contract.rhs = rhs;
    n->depth = deeper(lhs, rhs);
    n->as.contract.ndims = dims->n;
    n->as.contract.dims = item_array(a, dims, sizeof(NameRef), 0);
    return n;
}

NameRef *ast_name_ref(Arena *a, Span span, int name)
{
    NameRef *r = NEW(a, NameRef);
    if (r) {
        r->name = name;
        r->span = span;
    }
    return r;
}

Binding *ast_binding(Arena *a, NameRef *name, Node *value)
{
    Binding *b = NEW(a, Binding);
    if (b && name) {
        b->name = *name;
        b->value = value;
    }
    return b;
}

/* The NameRefs of a list, copied into one array. */
static NameRef *name_array(Arena *a, const AstList *names)
{
    return item_array(a, names, sizeof(NameRef), 1);
}

Binding *ast_shaped_param(Arena *a, NameRef *name, AstList *dims)
{
    Binding *b = ast_binding(a, name, NULL);
    if (b) {
        b->shaped = true;
        b->shape = dims ? (Node **)dims->items : NULL;
        b->rank = dims ? dims->n : 0;
    }
    return b;
}

Node *ast_axes(Arena *a, Span span, int dim, AstList *names, AstList *without)
{
    Node *n = node(a, NODE_AXES, span);
    int nwithout = without ? without->n : 0;
    for (int i = 0; i < nwithout; i++)
        names = ast_list_push(a, names, without->items[i]);
    if (n) {
        n->as.axes.dim = dim;
        n->as.axes.names = name_array(a, names);
        n->as.axes.n = names ? names->n : 0;
        n->as.axes.nwithout = nwithout;
    }
    return n;
}

Node *ast_call(Arena *a, Span span, NameRef *callee, AstList *args)
{
    Node *n = node(a, NODE_CALL, span);
    if (!n || !callee)
        return n;
    n->as.call.callee = *callee;
    n->as.call.nargs = args ? args->n : 0;
    n->as.call.args = item_array(a, args, sizeof(Binding), 0);
    for (int i = 0; n->as.call.args && i < args->n; i++) {
        if (n->depth <= depth_of(n->as.call.args[i].value))
            n->depth = depth_of(n->as.call.args[i].value) + 1;
    }
    return n;
}

Node *ast_marked(Arena *a, Span span, NodeKind kind, Node *tensor)
{
    Node *n = node(a, kind, span);
    if (n) {
        n->as.operand = tensor;
        n->depth = deeper(tensor, NULL);
    }
    return n;
}

static Stmt *stmt(Arena *a, StmtKind kind, Span span);

/* Copies a list of Binding* into an array of Binding. */
static Binding *bindings(Arena *a, AstList *list, int *n);

Stmt *ast_block(Arena *a, Span span, NameRef *name, AstList *params, AstList *body)
{
    Stmt *s = stmt(a, STMT_BLOCK, span);
    if (!s || !name)
        return s;
    s->as.block.name = *name;
    s->as.block.params = bindings(a, params, &s->as.block.nparams);
    s->as.block.body = body;
    return s;
}

Stmt *ast_return(Arena *a, Span span, Node *value)
{
    Stmt *s = stmt(a, STMT_RETURN, span);
    if (s)
        s->as.repeat.value = value;
    return s;
}

Stmt *ast_repeat(Arena *a, Span span, Node *count, NameRef *over, AstList *body)
{
    Stmt *s = stmt(a, STMT_REPEAT, span);
    if (s) {
        s->as.repeat.value = count;
        s->as.repeat.body = body;
        s->as.repeat.over = over ? *over : (NameRef){-1, span};
    }
    return s;
}

Stmt *ast_fused(Arena *a, Span span, AstList *body)
{
    Stmt *s = ast_repeat(a, span, NULL, NULL, body);
    if (s)
        s->kind = STMT_FUSED;
    return s;
}

/* Deeper trees are not walked: the evaluator refuses them anyway, and a walk that
 * answers yes is the safe answer. */
enum { MENTIONS_MAX_DEPTH = 10000 };

/* dims: whether a tensor type's dims count (bf16[B, D] names B), or only expressions
 * that can hold a tensor variable. */
static bool node_mentions(const Node *n, int name, bool dims)
{
    if (!n)
        return false;
    if (n->depth > MENTIONS_MAX_DEPTH)
        return true;
    switch (n->kind) {
    case NODE_NAME:
        return n->as.name == name;
    case NODE_TENSOR:
        if (dims && n->as.tensor.dtype_as.name == name)
            return true;
        for (int i = 0; dims && i < n->as.tensor.ndims; i++)
            if (node_mentions(n->as.tensor.dims[i], name, dims))
                return true;
        return false;
    case NODE_BINARY:
        return node_mentions(n->as.binary.lhs, name, dims) ||
               node_mentions(n->as.binary.rhs, name, dims);
    case NODE_CONTRACT:
        return node_mentions(n->as.contract.lhs, name, dims) ||
               node_mentions(n->as.contract.rhs, name, dims);
    case NODE_NEGATE:
    case NODE_PARAM:
    case NODE_CACHE:
        return node_mentions(n->as.operand, name, dims);
    case NODE_CALL:
        for (int i = 0; i < n->as.call.nargs; i++)
            if (node_mentions(n->as.call.args[i].value, name, dims))
                return true;
        return false;
    default: /* numbers, axes */
        return false;
    }
}

bool ast_mentions(const Stmt *s, int name)
{
    switch (s->kind) {
    case STMT_ASSIGN:
    case STMT_EXPR:
    case STMT_COLLECTIVE:
        return node_mentions(s->as.expr.value, name, false);
    case STMT_RETURN:
        return node_mentions(s->as.repeat.value, name, false);
    case STMT_REPEAT:
    case STMT_FUSED:
        for (int i = 0; s->as.repeat.body && i < s->as.repeat.body->n; i++)
            if (ast_mentions(s->as.repeat.body->items[i], name))
                return true;
        return false;
    default:
        return false;
    }
}

bool ast_expr_mentions_dim(const Node *n, int name)
{
    return node_mentions(n, name, true);
}

Stmt *ast_fused_switch(Arena *a, Span span, NameRef *word)
{
    Stmt *s = ast_mode(a, span, word, NULL);
    if (s && !word)
        s->as.mode.name = (NameRef){-1, span};
    if (s)
        s->kind = STMT_FUSED_SWITCH;
    return s;
}

static Stmt *ast_setting(Arena *a, StmtKind kind, Span span, NameRef *name, AstList *list)
{
    Stmt *s = stmt(a, kind, span);
    if (s) {
        s->as.setting.name = *name;
        s->as.setting.list = list;
    }
    return s;
}

Stmt *ast_remat(Arena *a, Span span, NameRef *policy, AstList *paths)
{
    return ast_setting(a, STMT_REMAT, span, policy, paths);
}

Stmt *ast_optimizer(Arena *a, Span span, NameRef *name, AstList *options)
{
    return ast_setting(a, STMT_OPTIMIZER, span, name, options);
}

Word *ast_word(Arena *a, Span span, int name, int dtype, double number)
{
    Word *w = arena_alloc(a, sizeof *w);
    if (w)
        *w = (Word){{name, span}, dtype, number, span};
    return w;
}

Stmt *ast_expect(Arena *a, Span span, NameRef *field, int cmp, Node *value, NameRef *unit,
                 Node *within)
{
    Stmt *s = stmt(a, STMT_EXPECT, span);
    if (!s || !field)
        return s;
    s->as.expect.field = *field;
    s->as.expect.cmp = cmp;
    s->as.expect.value = value;
    s->as.expect.unit = unit ? *unit : (NameRef){-1, span};
    s->as.expect.within = within;
    return s;
}

Stmt *ast_mode(Arena *a, Span span, NameRef *mode, AstList *options)
{
    Stmt *s = stmt(a, STMT_MODE, span);
    if (!s)
        return NULL;
    if (mode)
        s->as.mode.name = *mode;
    s->as.mode.options = bindings(a, options, &s->as.mode.noptions);
    return s;
}

static Stmt *stmt(Arena *a, StmtKind kind, Span span)
{
    Stmt *s = NEW(a, Stmt);
    if (s) {
        s->kind = kind;
        s->span = span;
    }
    return s;
}

/* Copies a list of Binding* into an array of Binding. */
static Binding *bindings(Arena *a, AstList *list, int *n)
{
    *n = list ? list->n : 0;
    return item_array(a, list, sizeof(Binding), 0);
}

Stmt *ast_let(Arena *a, Span span, AstList *list)
{
    Stmt *s = stmt(a, STMT_LET, span);
    if (s)
        s->as.let.items = bindings(a, list, &s->as.let.n);
    return s;
}

Stmt *ast_use(Arena *a, Span span, ChipRef *chip)
{
    Stmt *s = stmt(a, STMT_USE, span);
    if (s && chip)
        s->as.use = *chip;
    return s;
}

ChipRef *ast_chip_ref(Arena *a, NameRef *name, char *shape, Span shape_span)
{
    ChipRef *c = NEW(a, ChipRef);
    if (c && name) {
        c->name = *name;
        c->shape = shape;
        c->shape_span = shape_span;
    }
    return c;
}

MeshAxisDef *ast_mesh_axis(Arena *a, NameRef *name, Node *size, NameRef *tag)
{
    MeshAxisDef *m = NEW(a, MeshAxisDef);
    if (m && name) {
        m->name = *name;
        m->size = size;
        m->tag = tag ? *tag : (NameRef){-1, name->span};
    }
    return m;
}

static MeshAxisDef *mesh_axis_array(Arena *a, const AstList *axes)
{
    return item_array(a, axes, sizeof(MeshAxisDef), 0);
}

Stmt *ast_mesh(Arena *a, Span span, AstList *axes)
{
    Stmt *s = stmt(a, STMT_MESH, span);
    if (!s || !axes)
        return s;
    s->as.mesh.n = axes->n;
    s->as.mesh.axes = mesh_axis_array(a, axes);
    return s;
}

void ast_clauses_mesh(Arena *a, Clauses *c, AstList *axes, Span span)
{
    if (!c || !axes)
        return;
    c->mesh = mesh_axis_array(a, axes);
    c->nmesh = c->mesh ? axes->n : 0;
    c->mesh_span = span;
}

ShardClause *ast_shard(Arena *a, Span span, NameRef *dim, Node *count)
{
    ShardClause *c = NEW(a, ShardClause);
    if (c && dim) {
        c->dim = *dim;
        c->count = count;
        c->span = span;
    }
    return c;
}

Stmt *ast_chip(Arena *a, Span span, NameRef *name, NameRef *parent, AstList *fields)
{
    Stmt *s = stmt(a, STMT_CHIP, span);
    if (!s || !name)
        return s;
    s->as.chip.name = *name;
    s->as.chip.parent = parent ? *parent : (NameRef){-1, span};
    s->as.chip.fields = bindings(a, fields, &s->as.chip.nfields);
    return s;
}

Stmt *ast_arch(Arena *a, Span span, NameRef *name, NameRef *parent, AstList *fields,
               NameRef *from, char *path, Span path_span)
{
    Stmt *s = stmt(a, STMT_ARCH, span);
    if (!s || !name)
        return NULL;
    s->as.arch.name = *name;
    s->as.arch.parent = parent ? *parent : (NameRef){-1, span};
    s->as.arch.fields = bindings(a, fields, &s->as.arch.nfields);
    s->as.arch.from = from ? *from : (NameRef){-1, span};
    s->as.arch.path = path;
    s->as.arch.path_span = path_span;
    return s;
}

Stmt *ast_chip_show(Arena *a, Span span, NameRef *name)
{
    Stmt *s = ast_chip(a, span, name, NULL, NULL);
    if (s)
        s->as.chip.show = true;
    return s;
}

Endpoint *ast_endpoint(Arena *a, Span span, NameRef *word, AstList *coords)
{
    Endpoint *e = NEW(a, Endpoint);
    if (!e)
        return NULL;
    e->word = word ? *word : (NameRef){-1, span};
    e->span = span;
    if (coords) {
        e->coords = arena_alloc(a, sizeof *e->coords * (size_t)coords->n);
        for (int i = 0; e->coords && i < coords->n; i++)
            e->coords[i] = coords->items[i];
        e->ncoords = e->coords ? coords->n : 0;
    }
    return e;
}

Stmt *ast_send(Arena *a, Span span, Node *value, NameRef *kw_from, Endpoint *from,
               NameRef *kw_to, Endpoint *to, Clauses *clauses)
{
    Stmt *s = stmt(a, STMT_SEND, span);
    if (!s || !from || !to || !kw_from || !kw_to || !clauses)
        return NULL;
    s->as.send.value = value;
    s->as.send.clauses = *clauses;
    from->keyword = *kw_from;
    to->keyword = *kw_to;
    s->as.send.from = from;
    s->as.send.to = to;
    return s;
}

Stmt *ast_include(Arena *a, Span span, char *path, Span path_span)
{
    Stmt *s = stmt(a, STMT_INCLUDE, span);
    if (s) {
        s->as.include.path = path;
        s->as.include.span = path_span;
    }
    return s;
}

Stmt *ast_command(Arena *a, Span span, CommandWord word, Span topic)
{
    Stmt *s = stmt(a, STMT_COMMAND, span);
    if (s) {
        s->as.command.word = (int)word;
        s->as.command.topic = topic;
    }
    return s;
}

Clauses *ast_clauses(Arena *a)
{
    Clauses *c = NEW(a, Clauses);
    if (c) {
        c->chip.name.name = -1;
        c->compute = -1;
    }
    return c;
}

Stmt *ast_expr(Arena *a, Span span, NameRef *target, Node *value, Clauses *clauses)
{
    Stmt *s = stmt(a, target ? STMT_ASSIGN : STMT_EXPR, span);
    if (!s)
        return s;
    s->as.expr.target = target ? *target : (NameRef){-1, span};
    s->as.expr.value = value;
    s->as.expr.over.name = -1;
    s->as.expr.figure.name = -1;
    if (clauses)
        s->as.expr.clauses = *clauses;
    return s;
}

Stmt *ast_solve(Arena *a, Span span, NameRef *dim, Node *value, Clauses *clauses)
{
    Stmt *s = ast_expr(a, span, NULL, value, clauses);
    if (s) {
        s->kind = STMT_SOLVE;
        s->as.expr.target = dim ? *dim : (NameRef){-1, span};
    }
    return s;
}

Stmt *ast_solve_equal(Arena *a, Span span, NameRef *dim, Node *lhs, Clauses *lc, int cmp,
                      Node *rhs, Clauses *rc, Span rhs_span, NameRef *figure)
{
    Stmt *s = ast_solve(a, span, dim, lhs, lc);
    if (s) {
        s->as.expr.equal = ast_expr(a, rhs_span, NULL, rhs, rc);
        s->as.expr.cmp = cmp;
        if (figure)
            s->as.expr.figure = *figure;
    }
    return s;
}

Stmt *ast_fit(Arena *a, Span span, NameRef *dim, Node *value, Clauses *clauses)
{
    Stmt *s = ast_solve(a, span, dim, value, clauses);
    if (s)
        s->kind = STMT_FIT;
    return s;
}

Stmt *ast_search(Arena *a, Span span, Node *value, Clauses *clauses, AstList *sizes,
                 AstList *ranges)
{
    Stmt *s = ast_expr(a, span, NULL, value, clauses);
    if (s) {
        s->kind = STMT_SEARCH;
        s->as.expr.sizes = sizes;
        s->as.expr.ranges = ranges;
    }
    return s;
}

Stmt *ast_serve(Arena *a, Span span, AstList *names, Span names_span, Node *call,
                Clauses *clauses, AstList *mixes)
{
    if (!names || !mixes)
        return NULL;
    Stmt *s = ast_solve(a, span, names->items[0], call, clauses);
    if (s) {
        s->kind = STMT_SERVE;
        s->as.expr.context = names->n == 2 ? *(NameRef *)names->items[1]
                                           : (NameRef){-1, names_span};
        s->as.expr.mixes = arena_alloc(a, sizeof *s->as.expr.mixes * (size_t)mixes->n);
        for (int i = 0; s->as.expr.mixes && i < mixes->n; i++)
            s->as.expr.mixes[i].with = bindings(a, mixes->items[i], &s->as.expr.mixes[i].nwith);
        s->as.expr.nmixes = s->as.expr.mixes ? mixes->n : 0;
    }
    return s;
}

SearchSize *ast_search_size(Arena *a, Span span, Node *count, char *shape)
{
    SearchSize *z = NEW(a, SearchSize);
    if (z) {
        z->count = count;
        z->shape = shape;
        z->span = span;
    }
    return z;
}

SearchRange *ast_search_range(Arena *a, Span span, NameRef *dim, AstList *choices)
{
    SearchRange *r = NEW(a, SearchRange);
    if (r && dim) {
        r->dim = *dim;
        r->choices = choices;
        r->span = span;
    }
    return r && dim ? r : NULL;
}

SearchChoice *ast_search_choice(Arena *a, Span span, Node *value, struct Stmt *remat)
{
    SearchChoice *c = NEW(a, SearchChoice);
    if (c) {
        c->value = value;
        c->remat = remat;
        c->span = span;
    }
    return c;
}

RangeSpec *ast_range(Arena *a, Span span, Node *from, Node *to, NameRef *how, Node *value,
                     AstList *list)
{
    RangeSpec *r = NEW(a, RangeSpec);
    if (r) {
        *r = (RangeSpec){from, to, how ? *how : (NameRef){-1, span}, value, list, span};
    }
    return r;
}

Stmt *ast_plot(Arena *a, Span span, char *path, AstList *options)
{
    Stmt *s = stmt(a, STMT_PLOT, span);
    if (s) {
        s->as.sweep.plot = true;
        s->as.sweep.plot_path = path;
        s->as.sweep.plot_span = span;
        s->as.sweep.plot_options = options;
    }
    return s;
}

PlotOption *ast_plot_option(Arena *a, Span span, NameRef *what, char *text, Node *scale,
                            Node *from, Node *to)
{
    PlotOption *o = NEW(a, PlotOption);
    if (o && what)
        *o = (PlotOption){*what, text, scale, from, to, span};
    return what ? o : NULL;
}

Stmt *ast_sweep(Arena *a, Span span, NameRef *dim, RangeSpec *range, Stmt *plot,
                AstList *body)
{
    Stmt *s = stmt(a, STMT_SWEEP, span);
    if (!s || !dim || !range)
        return s;
    if (plot)
        s->as.sweep = plot->as.sweep;
    s->as.sweep.dim = *dim;
    s->as.sweep.range = *range;
    s->as.sweep.body = body;
    return s;
}

Stmt *ast_collective(Arena *a, Span span, int kind, Node *value, NameRef *over,
                     Clauses *clauses)
{
    Stmt *s = ast_expr(a, span, NULL, value, clauses);
    if (s && over) {
        s->kind = STMT_COLLECTIVE;
        s->as.expr.collective = kind;
        s->as.expr.over = *over;
    }
    return s;
}

static void dump_node(FILE *out, const Node *n, const Intern *names)
{
    /* Children are shallower: only the top of a tree the evaluator refuses gets here. */
    if (n->depth - 1 > LIMIT_EXPR_DEPTH) {
        fprintf(out, "(too deep to print: more than %d levels)", LIMIT_EXPR_DEPTH);
        return;
    }
    switch (n->kind) {
    case NODE_NUMBER:
        fprintf(out, "%.17g", n->as.number);
        break;
    case NODE_NAME:
        fputs(intern_name(names, n->as.name), out);
        break;
    case NODE_DTYPE:
        fputs(dtype_name(n->as.tensor.dtype), out);
        break;
    case NODE_TENSOR:
        fprintf(out, "(tensor %s", n->as.tensor.dtype_as.name >= 0
                ? intern_name(names, n->as.tensor.dtype_as.name) : dtype_name(n->as.tensor.dtype));
        for (int i = 0; i < n->as.tensor.ndims; i++)
            fputc(' ', out), dump_node(out, n->as.tensor.dims[i], names);
        fputc(')', out);
        break;
    case NODE_BINARY:
        fprintf(out, "(%c ", n->as.binary.op);
        dump_node(out, n->as.binary.lhs, names);
        fputc(' ', out);
        dump_node(out, n->as.binary.rhs, names);
        fputc(')', out);
        break;
    case NODE_NEGATE:
        fputs("(neg ", out);
        dump_node(out, n->as.operand, names);
        fputc(')', out);
        break;
    case NODE_CALL:
        fprintf(out, "(call %s", intern_name(names, n->as.call.callee.name));
        for (int i = 0; i < n->as.call.nargs; i++) {
            fputc(' ', out);
            if (n->as.call.args[i].name.name >= 0)
                fprintf(out, "%s=", intern_name(names, n->as.call.args[i].name.name));
            dump_node(out, n->as.call.args[i].value, names);
        }
        fputc(')', out);
        break;
    case NODE_PARAM:
    case NODE_CACHE:
        fputs(n->kind == NODE_PARAM ? "(param " : "(cache ", out);
        dump_node(out, n->as.operand, names);
        fputc(')', out);
        break;
    case NODE_AXES:
        fprintf(out, "(axes%s%s", n->as.axes.dim >= 0 ? " " : "",
                n->as.axes.dim >= 0 ? intern_name(names, n->as.axes.dim) : "");
        for (int i = 0; i < n->as.axes.n; i++)
            fprintf(out, " %s%s", i < n->as.axes.n - n->as.axes.nwithout ? "" : "-",
                    intern_name(names, n->as.axes.names[i].name));
        fputc(')', out);
        break;
    case NODE_CONTRACT:
        fputs("(contract {", out);
        for (int i = 0; i < n->as.contract.ndims; i++)
            fprintf(out, i ? " %s" : "%s", intern_name(names, n->as.contract.dims[i].name));
        fputs("} ", out);
        dump_node(out, n->as.contract.lhs, names);
        fputc(' ', out);
        dump_node(out, n->as.contract.rhs, names);
        fputc(')', out);
        break;
    }
}

static void dump_bindings(FILE *out, const Binding *b, int n, const Intern *names)
{
    for (int i = 0; i < n; i++) {
        fprintf(out, " (%s ", intern_name(names, b[i].name.name));
        dump_node(out, b[i].value, names);
        fputc(')', out);
    }
}

static void dump_chip(FILE *out, const char *word, const ChipRef *c, const Intern *names)
{
    fprintf(out, " (%s %s", word, intern_name(names, c->name.name));
    if (c->shape)
        fprintf(out, " %s", c->shape);
    fputc(')', out);
}

static void dump_mesh(FILE *out, const Stmt *s, const Intern *names)
{
    fputs("(mesh", out);
    for (int i = 0; i < s->as.mesh.n; i++) {
        const MeshAxisDef *m = &s->as.mesh.axes[i];
        fprintf(out, " (%s ", intern_name(names, m->name.name));
        dump_node(out, m->size, names);
        if (m->tag.name >= 0)
            fprintf(out, " %s", intern_name(names, m->tag.name));
        fputc(')', out);
    }
}

static void dump_clauses(FILE *out, const Clauses *c, const Intern *names);

/* ` title "Q3"`, ` x log`, ` x 1 .. 1024`, each as written. */
static void dump_plot_options(FILE *out, const AstList *options, const Intern *names)
{
    for (int i = 0; options && i < options->n; i++) {
        const PlotOption *o = options->items[i];
        fprintf(out, " %s", intern_name(names, o->what.name));
        if (o->text)
            fprintf(out, " \"%s\"", o->text);
        if (o->scale)
            fputc(' ', out), dump_node(out, o->scale, names);
        if (o->from) {
            fputc(' ', out), dump_node(out, o->from, names);
            fputs(" .. ", out), dump_node(out, o->to, names);
        }
    }
}

static void dump_sweep(FILE *out, const Stmt *s, const Intern *names)
{
    const RangeSpec *r = &s->as.sweep.range;
    fprintf(out, "(sweep %s ", intern_name(names, s->as.sweep.dim.name));
    if (r->list) {
        fputc('[', out);
        for (int i = 0; i < r->list->n; i++)
            fputs(i ? " " : "", out), dump_node(out, r->list->items[i], names);
        fputc(']', out);
    } else {
        dump_node(out, r->from, names);
        fputs(" .. ", out);
        dump_node(out, r->to, names);
        if (r->how.name >= 0)
            fprintf(out, " %s ", intern_name(names, r->how.name)), dump_node(out, r->how_value, names);
    }
    if (s->as.sweep.plot) {
        fprintf(out, " (plot%s%s", s->as.sweep.plot_path ? " " : "",
                s->as.sweep.plot_path ? s->as.sweep.plot_path : "");
        dump_plot_options(out, s->as.sweep.plot_options, names);
        fputc(')', out);
    }
    fprintf(out, " {%d statements}", s->as.sweep.body ? s->as.sweep.body->n : 0);
}

/* ` (with microbatches 1 2 (save {2}))`: a search's plan dimensions and their choices. */
static void dump_search_ranges(FILE *out, const AstList *ranges, const Intern *names)
{
    for (int k = 0; ranges && k < ranges->n; k++) {
        const SearchRange *r = ranges->items[k];
        fprintf(out, " (with %s", intern_name(names, r->dim.name));
        for (int i = 0; r->choices && i < r->choices->n; i++) {
            const SearchChoice *c = r->choices->items[i];
            fputc(' ', out);
            if (c->value)
                dump_node(out, c->value, names);
            else
                fprintf(out, "(%s {%d})", intern_name(names, c->remat->as.setting.name.name),
                        c->remat->as.setting.list ? c->remat->as.setting.list->n : 0);
        }
        fputc(')', out);
    }
}

static void dump_clauses(FILE *out, const Clauses *c, const Intern *names)
{
    if (c->out_type)
        fputs(" (-> ", out), dump_node(out, c->out_type, names), fputc(')', out);
    if (c->chip.name.name >= 0)
        dump_chip(out, "on", &c->chip, names);
    for (int i = 0; c->shards && i < c->shards->n; i++) {
        const ShardClause *sh = c->shards->items[i];
        fprintf(out, " (shard %s ", intern_name(names, sh->dim.name));
        dump_node(out, sh->count, names);
        fputc(')', out);
    }
    if (c->compute >= 0)
        fprintf(out, " (compute %s)", dtype_name((DType)c->compute));
}

static void dump_endpoint(FILE *out, const Endpoint *e, const Intern *names)
{
    fprintf(out, " (%s", intern_name(names, e->keyword.name));
    if (e->word.name >= 0)
        fprintf(out, " %s", intern_name(names, e->word.name));
    for (int i = 0; i < e->ncoords; i++)
        fputc(' ', out), dump_node(out, e->coords[i], names);
    fputc(')', out);
}

void ast_dump(FILE *out, const AstList *stmts, const Intern *names)
{
    for (int i = 0; stmts && i < stmts->n; i++) {
        const Stmt *s = stmts->items[i];
        switch (s->kind) {
        case STMT_LET:
            fputs("(let", out);
            dump_bindings(out, s->as.let.items, s->as.let.n, names);
            break;
        case STMT_USE:
            fprintf(out, "(use %s", intern_name(names, s->as.use.name.name));
            if (s->as.use.shape)
                fprintf(out, " %s", s->as.use.shape);
            break;
        case STMT_MESH:
            dump_mesh(out, s, names);
            break;
        case STMT_CHIP:
            fprintf(out, "(chip %s", intern_name(names, s->as.chip.name.name));
            if (s->as.chip.parent.name >= 0)
                fprintf(out, " : %s", intern_name(names, s->as.chip.parent.name));
            dump_bindings(out, s->as.chip.fields, s->as.chip.nfields, names);
            break;
        case STMT_INCLUDE:
            fprintf(out, "(include \"%s\"", s->as.include.path);
            break;
        case STMT_ARCH:
            fprintf(out, "(arch %s", intern_name(names, s->as.arch.name.name));
            if (s->as.arch.parent.name >= 0)
                fprintf(out, " : %s", intern_name(names, s->as.arch.parent.name));
            if (s->as.arch.path)
                fprintf(out, " from \"%s\"", s->as.arch.path);
            dump_bindings(out, s->as.arch.fields, s->as.arch.nfields, names);
            break;
        case STMT_SOLVE:
        case STMT_FIT:
            fprintf(out, "(%s %s ", s->kind == STMT_FIT ? "fit" : "solve",
                    s->as.expr.target.name >= 0
                                           ? intern_name(names, s->as.expr.target.name) : "?");
            dump_node(out, s->as.expr.value, names);
            dump_clauses(out, &s->as.expr.clauses, names);
            if (s->as.expr.figure.name >= 0)
                fprintf(out, " (in %s)", intern_name(names, s->as.expr.figure.name));
            break;
        case STMT_SEND:
            fputs("(send ", out);
            dump_node(out, s->as.send.value, names);
            dump_endpoint(out, s->as.send.from, names);
            dump_endpoint(out, s->as.send.to, names);
            dump_clauses(out, &s->as.send.clauses, names);
            break;
        case STMT_SERVE:
            fprintf(out, "(serve %s %s ", intern_name(names, s->as.expr.target.name),
                    s->as.expr.context.name >= 0 ? intern_name(names, s->as.expr.context.name)
                                                 : "?");
            dump_node(out, s->as.expr.value, names);
            dump_clauses(out, &s->as.expr.clauses, names);
            for (int k = 0; k < s->as.expr.nmixes; k++) {
                fputs(" (with", out);
                dump_bindings(out, s->as.expr.mixes[k].with, s->as.expr.mixes[k].nwith, names);
                fputc(')', out);
            }
            break;
        case STMT_SEARCH:
            fputs("(search ", out);
            dump_node(out, s->as.expr.value, names);
            dump_clauses(out, &s->as.expr.clauses, names);
            fputs(" over", out);
            for (int k = 0; s->as.expr.sizes && k < s->as.expr.sizes->n; k++) {
                const SearchSize *z = s->as.expr.sizes->items[k];
                fputc(' ', out);
                if (z->shape)
                    fputs(z->shape, out);
                else
                    dump_node(out, z->count, names);
            }
            dump_search_ranges(out, s->as.expr.ranges, names);
            break;
        case STMT_SWEEP:
            dump_sweep(out, s, names);
            break;
        case STMT_BLOCK:
            fprintf(out, "(block %s (", intern_name(names, s->as.block.name.name));
            for (int k = 0; k < s->as.block.nparams; k++) {
                fprintf(out, k ? " %s" : "%s", intern_name(names, s->as.block.params[k].name.name));
                const Binding *param = &s->as.block.params[k];
                if (param->value)
                    fputc('=', out), dump_node(out, param->value, names);
                for (int d = 0; param->shaped && d <= param->rank; d++) {
                    fputs(d == param->rank ? "]" : d ? " " : ":[", out);
                    if (d < param->rank)
                        dump_node(out, param->shape[d], names);
                }
            }
            fprintf(out, ") {%d statements}", s->as.block.body ? s->as.block.body->n : 0);
            break;
        case STMT_RETURN:
            fputs("(return ", out);
            dump_node(out, s->as.repeat.value, names);
            break;
        case STMT_REPEAT:
            fputs("(repeat ", out);
            dump_node(out, s->as.repeat.value, names);
            if (s->as.repeat.over.name >= 0)
                fprintf(out, " over %s", intern_name(names, s->as.repeat.over.name));
            fprintf(out, " {%d statements}", s->as.repeat.body ? s->as.repeat.body->n : 0);
            break;
        case STMT_FUSED:
            fprintf(out, "(fused {%d statements}", s->as.repeat.body ? s->as.repeat.body->n : 0);
            break;
        case STMT_REMAT:
        case STMT_OPTIMIZER:
            fprintf(out, "(%s %s {%d}", s->kind == STMT_REMAT ? "remat" : "optimizer",
                    intern_name(names, s->as.setting.name.name),
                    s->as.setting.list ? s->as.setting.list->n : 0);
            break;
        case STMT_FUSED_SWITCH:
            fprintf(out, "(fused %s", s->as.mode.name.name < 0 ? "on"
                                      : intern_name(names, s->as.mode.name.name));
            break;
        case STMT_EXPECT:
            fprintf(out, "(expect %s %d ", intern_name(names, s->as.expect.field.name),
                    s->as.expect.cmp);
            dump_node(out, s->as.expect.value, names);
            if (s->as.expect.unit.name >= 0)
                fprintf(out, " %s", intern_name(names, s->as.expect.unit.name));
            if (s->as.expect.within)
                fputs(" within ", out), dump_node(out, s->as.expect.within, names);
            break;
        case STMT_MODE:
            fprintf(out, "(mode %s", intern_name(names, s->as.mode.name.name));
            for (int o = 0; o < s->as.mode.noptions; o++) {
                fprintf(out, " %s ", intern_name(names, s->as.mode.options[o].name.name));
                dump_node(out, s->as.mode.options[o].value, names);
            }
            break;
        case STMT_PLOT:
            fprintf(out, "(plot%s%s", s->as.sweep.plot_path ? " " : "",
                    s->as.sweep.plot_path ? s->as.sweep.plot_path : "");
            dump_plot_options(out, s->as.sweep.plot_options, names);
            break;
        case STMT_COLLECTIVE:
            fprintf(out, "(%s over %s ", coll_name((CollKind)s->as.expr.collective),
                    intern_name(names, s->as.expr.over.name));
            dump_node(out, s->as.expr.value, names);
            dump_clauses(out, &s->as.expr.clauses, names);
            break;
        case STMT_COMMAND:
            fprintf(out, "(%s", s->as.command.word == COMMAND_HELP    ? "help"
                                : s->as.command.word == COMMAND_NAMES ? "names"
                                                                      : "chips");
            break;
        case STMT_ASSIGN:
        case STMT_EXPR:
            fputs(s->kind == STMT_ASSIGN ? "(= " : "(expr ", out);
            if (s->kind == STMT_ASSIGN)
                fprintf(out, "%s ", intern_name(names, s->as.expr.target.name));
            dump_node(out, s->as.expr.value, names);
            dump_clauses(out, &s->as.expr.clauses, names);
            break;
        }
        fputs(")\n", out);
    }
}
