/* ast.h — the tree the parser builds: expressions and statements, each with its span.
 *
 * Ownership: every node, list and string of a parse lives in the parse's Arena and
 * dies with it. Names are interned ids (intern.h), which outlive the tree.
 */
#ifndef ROOFLINE_AST_H
#define ROOFLINE_AST_H

#include <stdbool.h>
#include <stdio.h>

#include "arena.h"
#include "dtype.h"
#include "intern.h"
#include "source.h"

typedef enum {
    NODE_NUMBER,   /* 8k */
    NODE_NAME,     /* B */
    NODE_TENSOR,   /* bf16[B, D] */
    NODE_BINARY,   /* + - * / on numbers, or elementwise on tensors */
    NODE_NEGATE,   /* -x */
    NODE_CONTRACT, /* x *_D y, x *_{D,F} y */
    NODE_CALL,     /* mlp(x, F = 4 * D) */
    NODE_PARAM,    /* param bf16[D, F]: weights, counted as parameters */
    NODE_CACHE,    /* cache bf16[B, S, K, H]: a KV cache, counted as memory */
    NODE_AXES,     /* {X, Y} or {}: mesh axes, a block's axis argument; F_{tp}: a dim
                    * sharded over them, in a tensor type */
    NODE_DTYPE     /* int8: a dtype as a value, a block's dtype argument or a let's */
} NodeKind;

typedef struct Node Node;

/* Growable arrays built in the arena while parsing. */
typedef struct {
    void **items;
    int n, cap;
} AstList;

typedef struct {
    int name; /* interned */
    Span span;
} NameRef;

struct Node {
    NodeKind kind;
    Span span;
    int depth; /* 1 for a leaf; the evaluator refuses trees deeper than its limit */
    union {
        double number;
        int name;
        struct {
            DType dtype;      /* NODE_DTYPE's too */
            NameRef dtype_as; /* wdtype[D, F]: the name standing for the dtype; name -1 when
                               * the dtype is written */
            Node **dims;
            int ndims;
        } tensor;
        struct {
            char op; /* '+', '-', '*', '/' */
            Node *lhs, *rhs;
        } binary;
        Node *operand;
        struct {
            Node *lhs, *rhs;
            NameRef *dims;
            int ndims;
        } contract;
        struct {
            int dim;        /* F of F_{tp}; -1 for a bare set {X, Y} */
            NameRef *names; /* axes, or names bound to axes (a block's axis parameter) */
            int n;
            int nwithout;   /* the last nwithout names are axes taken away: C_{dp, -ep} */
        } axes;
        struct {
            NameRef callee;
            struct Binding *args; /* name -1 for a positional argument */
            int nargs;
        } call;
    } as;
};

typedef enum {
    STMT_LET,        /* let B = 256, D = 8k */
    STMT_USE,        /* use v5e, use v5e 4x4 */
    STMT_MESH,       /* mesh X = 4, Y = 2 */
    STMT_CHIP,       /* chip mine : v5e { hbm_bw = 8.1e11 } */
    STMT_INCLUDE,    /* include "layer.roof" */
    STMT_ASSIGN,     /* h = x *_D w  (reported) */
    STMT_EXPR,       /* x *_D w  (reported) */
    STMT_COLLECTIVE, /* allgather bf16[E_Y, F] over Y  (reported) */
    STMT_SOLVE,      /* solve B: bf16[B,D] *_D int8[D,F] on v5e */
    STMT_SWEEP,      /* sweep B in 1 .. 512 plot "q3.svg" { ... } */
    STMT_PLOT,       /* plot, plot "chart.svg": the roofline chart of the statements so far */
    STMT_BLOCK,      /* block mlp(x, F = 4 * D) { ... return y } */
    STMT_RETURN,     /* return y */
    STMT_REPEAT,     /* repeat L { x = layer(x) } */
    STMT_EXPECT,     /* expect t_lower < 2 ms, expect params == 70.6e9 within 0.5% */
    STMT_MODE,       /* mode training | inference */
    STMT_FIT,        /* fit B: model(...) on v5e: the largest B whose memory fits */
    STMT_SEARCH,     /* search model(...) on v5p over 256: meshes and strategies ranked */
    STMT_FUSED,      /* fused { s = q *_H k; p = exp(s) }: one kernel, intermediates on chip */
    STMT_FUSED_SWITCH, /* fused off | on: fused regions as their operations, or as kernels */
    STMT_REMAT,      /* remat full | selective | none | save layer.x, layer.y */
    STMT_OPTIMIZER,  /* optimizer adam master fp32 zero 1 */
    STMT_SERVE,      /* serve B, S: decode(B, S, ...) on v5e 4x4 with prompt = 2048, ... */
    STMT_SEND,       /* send bf16[8, 128, 8192] from (0, 0) to (3, 3) on v5e 4x4 */
    STMT_ARCH,       /* arch llama3_8b { D = 4096, ... }, arch m from "config.json" */
    STMT_COMMAND     /* help, help sweep, ? attention, names, chips: the same everywhere */
} StmtKind;

/* The values a sweep takes: `1 .. 512`, `1 .. 512 step 8`, `1 .. 1M log 40`,
 * `[64, 128, 256]`. */
typedef struct {
    Node *from, *to;    /* NULL for a list */
    NameRef how;        /* `step` or `log`; name -1 when absent */
    Node *how_value;
    AstList *list;      /* of Node *, for `[...]` */
    Span span;
} RangeSpec;

/* One option of a chart after `plot`: `title "Q3"`, `x log`, `y linear`,
 * `x 1 .. 1024`. The parser takes any names; the evaluator checks them. */
typedef struct {
    NameRef what;       /* title, x or y */
    char *text;         /* the title's string, or NULL */
    Node *scale;        /* a name, log or linear; NULL when absent */
    Node *from, *to;    /* the axis's range, or NULL */
    Span span;
} PlotOption;

/* name = value, in `let`, chip bodies, block parameters (value NULL without a
 * default) and call arguments (name -1 when positional). A block parameter may give
 * the shape of the tensor it takes, `x: [B, T, D]`, whose names the call binds. */
typedef struct Binding {
    NameRef name;
    Node *value;
    bool shaped;      /* x: [...] */
    Node **shape;     /* the dims, in order: names (NODE_NAME), or K_{tp} (NODE_AXES) */
    int rank;
} Binding;

/* A chip, and the shape of its slice when given: `v5e`, `v5e 4x4`. */
typedef struct {
    NameRef name;       /* name -1 when absent */
    char *shape;        /* "4x4", or NULL */
    Span shape_span;
} ChipRef;

/* A word of a setting (`optimizer adam master fp32 zero 1`): a name, a dtype or a
 * number; name and dtype -1 when it is not that. */
typedef struct {
    NameRef name;
    int dtype;
    double number;
    Span span;
} Word;

/* `shard D over 2`: a new mesh axis of 2 chips for the dim D. */
typedef struct {
    NameRef dim;
    Node *count;
    Span span;
} ShardClause;

/* One axis of `mesh`: `X = 4`, or `pods = 2 dcn`. */
typedef struct {
    NameRef name;
    Node *size;
    NameRef tag;        /* name -1 when absent; `dcn` is the one tag */
} MeshAxisDef;

/* One size a search ranges over: a number of chips (`256`) or a slice (`16x16`). */
typedef struct {
    Node *count;  /* NULL for a slice */
    char *shape;
    Span span;
} SearchSize;

/* One choice of a plan dimension a search ranges over: a value (`4`, `full`), or a
 * remat statement (`save(layer.x, layer.y)`: remat save with those paths). */
typedef struct {
    Node *value;        /* NULL for a remat statement */
    struct Stmt *remat;
    Span span;
} SearchChoice;

/* `microbatches in [1, 2, 4]`: a plan dimension and the choices a search tries. */
typedef struct {
    NameRef dim;
    AstList *choices;   /* of SearchChoice * */
    Span span;
} SearchRange;

/* What may follow an expression: -> dtype[dims], on CHIP, shard D over N, compute DT. */
typedef struct {
    Node *out_type;     /* NULL when absent */
    ChipRef chip;
    AstList *shards;    /* of ShardClause *; NULL when none */
    MeshAxisDef *mesh;  /* `mesh X = 16, Y = n`: the statement's own mesh; NULL when none */
    int nmesh;
    Span mesh_span;
    int compute;        /* a DType, -1 when absent */
    Span compute_span;
} Clauses;

/* One request mix of serve: the bindings after one `with`. */
typedef struct ServeMix {
    Binding *with;
    int nwith;
} ServeMix;

typedef struct Stmt Stmt;
struct Stmt {
    StmtKind kind;
    Span span;
    union {
        struct {
            Binding *items;
            int n;
        } let;
        ChipRef use;
        struct {
            MeshAxisDef *axes;
            int n;
        } mesh;
        struct {
            NameRef name, parent; /* parent.name -1 when absent */
            Binding *fields;
            int nfields;
            bool show;            /* `chip v5p`: print it, define nothing */
        } chip;
        struct {
            char *path;
            Span span;
        } include;
        struct {              /* STMT_COMMAND */
            int word;         /* a CommandWord */
            Span topic;       /* `help WORD`: the word as written, maybe in ( );
                               * empty (begin == end) for `help` alone */
        } command;
        struct {              /* STMT_ARCH: a model's record */
            NameRef name, parent; /* parent.name -1 when absent */
            Binding *fields;
            int nfields;
            NameRef from;         /* `from` as written, name -1 unless read from a file */
            char *path;           /* the config.json, or NULL */
            Span path_span;
        } arch;
        struct {
            NameRef target; /* name -1 unless STMT_ASSIGN */
            Node *value;
            Clauses clauses;
            int collective; /* a CollKind, for STMT_COLLECTIVE */
            NameRef over;   /* the axes of a collective: `Y`, `XY` */
            AstList *sizes; /* STMT_SEARCH: of SearchSize *, what `over` lists */
            AstList *ranges; /* STMT_SEARCH: of SearchRange *, what `with` restricts */
            struct Stmt *equal; /* STMT_SOLVE `solve B: a == b`: b as a statement */
            int cmp;            /* and the comparison written (a CmpOp) */
            NameRef figure;     /* `a == b in t_comm`: the figure compared; -1: t_lower */
            NameRef context;    /* STMT_SERVE: the context length's name (target: the batch's) */
            struct ServeMix *mixes; /* STMT_SERVE: each `with prompt = ..., output = ...` */
            int nmixes;
        } expr;             /* also STMT_SOLVE: target is the dim, -1 to find it */
        struct {            /* STMT_SEND */
            Node *value;
            Clauses clauses;
            struct Endpoint *from, *to;
        } send;
        struct {            /* STMT_SWEEP; STMT_PLOT uses plot_path and plot_span */
            NameRef dim;
            RangeSpec range;
            bool plot;      /* draw the curves */
            char *plot_path; /* into this SVG file; NULL: in the terminal */
            Span plot_span;
            AstList *plot_options; /* of PlotOption *, in order; NULL: none */
            AstList *body;  /* of Stmt * */
        } sweep;
        struct {
            NameRef name;
            Binding *params;
            int nparams;
            AstList *body;  /* of Stmt * */
        } block;
        struct {           /* STMT_RETURN uses value; STMT_REPEAT count and body;
                            * STMT_FUSED body (value NULL) */
            Node *value;
            AstList *body;
            NameRef over;  /* STMT_REPEAT: the pipeline's axes, `over pp`; name -1 if none */
        } repeat;
        struct {
            NameRef field;
            int cmp;        /* a CmpOp */
            Node *value;
            NameRef unit;   /* name -1 when absent */
            Node *within;   /* a tolerance in percent, or NULL */
        } expect;
        struct {           /* STMT_REMAT: the policy and its paths (each an AstList of
                            * NameRef *); STMT_OPTIMIZER: its name and Words */
            NameRef name;
            AstList *list;
        } setting;
        struct {
            NameRef name;           /* training or inference; STMT_FUSED_SWITCH: off, or
                                     * name -1 for `fused on` */
            Binding *options;       /* `overlap step`, `microbatches 8`, in order */
            int noptions;
        } mode;
    } as;
};

AstList *ast_list_push(Arena *a, AstList *list, void *item);

Node *ast_number(Arena *a, Span span, double value);
Node *ast_name(Arena *a, Span span, int name);
Node *ast_tensor(Arena *a, Span span, DType dtype, AstList *dims);
/* wdtype[D, F]: the dtype a name is bound to when it is evaluated. */
Node *ast_tensor_named(Arena *a, Span span, const NameRef *dtype, AstList *dims);
Node *ast_dtype(Arena *a, Span span, DType dtype);
Node *ast_binary(Arena *a, Span span, char op, Node *lhs, Node *rhs);
Node *ast_negate(Arena *a, Span span, Node *operand);
Node *ast_contract(Arena *a, Span span, Node *lhs, AstList *dims, Node *rhs);
NameRef *ast_name_ref(Arena *a, Span span, int name);
Binding *ast_binding(Arena *a, NameRef *name, Node *value);
/* A block parameter `x: [B, T, D]`. */
Binding *ast_shaped_param(Arena *a, NameRef *name, AstList *dims);
/* {X, Y} (dim -1), or F_{X, Y}: the name written before the brace must end in `_`.
 * `without` (or NULL) lists the names written `-ep`, the axes taken away. */
Node *ast_axes(Arena *a, Span span, int dim, AstList *names, AstList *without);

Stmt *ast_let(Arena *a, Span span, AstList *bindings);
Stmt *ast_use(Arena *a, Span span, ChipRef *chip);
Stmt *ast_mesh(Arena *a, Span span, AstList *axes);
/* The axes of a `mesh` clause, copied into the clauses. */
void ast_clauses_mesh(Arena *a, Clauses *c, AstList *axes, Span span);
MeshAxisDef *ast_mesh_axis(Arena *a, NameRef *name, Node *size, NameRef *tag);
ChipRef *ast_chip_ref(Arena *a, NameRef *name, char *shape, Span shape_span);
ShardClause *ast_shard(Arena *a, Span span, NameRef *dim, Node *count);
Stmt *ast_collective(Arena *a, Span span, int kind, Node *value, NameRef *over,
                     Clauses *clauses);
Stmt *ast_chip(Arena *a, Span span, NameRef *name, NameRef *parent, AstList *fields);
Stmt *ast_chip_show(Arena *a, Span span, NameRef *name);
/* arch NAME : PARENT { fields }, or (path not NULL) arch NAME from "config.json". */
Stmt *ast_arch(Arena *a, Span span, NameRef *name, NameRef *parent, AstList *fields,
               NameRef *from, char *path, Span path_span);

/* One end of a send: chip coordinates `(3, 3)`, or a word (`all`, `host`). */
typedef struct Endpoint {
    NameRef keyword;  /* `from` or `to`, as written */
    NameRef word;     /* name -1 when coordinates */
    Node **coords;
    int ncoords;
    Span span;
} Endpoint;
Endpoint *ast_endpoint(Arena *a, Span span, NameRef *word, AstList *coords);
Stmt *ast_send(Arena *a, Span span, Node *value, NameRef *kw_from, Endpoint *from,
               NameRef *kw_to, Endpoint *to, Clauses *clauses);
Stmt *ast_include(Arena *a, Span span, char *path, Span path_span);
/* help [TOPIC], names, chips: what the REPL has always had, now statements. */
typedef enum { COMMAND_HELP, COMMAND_NAMES, COMMAND_CHIPS } CommandWord;
Stmt *ast_command(Arena *a, Span span, CommandWord word, Span topic);
Stmt *ast_expr(Arena *a, Span span, NameRef *target, Node *value, Clauses *clauses);
Clauses *ast_clauses(Arena *a);
Stmt *ast_solve(Arena *a, Span span, NameRef *dim, Node *value, Clauses *clauses);
Stmt *ast_fit(Arena *a, Span span, NameRef *dim, Node *value, Clauses *clauses);
/* solve B: LHS == RHS [in FIGURE]: where the two costs (t_lower, or the figure named)
 * are equal. */
Stmt *ast_solve_equal(Arena *a, Span span, NameRef *dim, Node *lhs, Clauses *lc, int cmp,
                      Node *rhs, Clauses *rc, Span rhs_span, NameRef *figure);
Stmt *ast_search(Arena *a, Span span, Node *value, Clauses *clauses, AstList *sizes,
                 AstList *ranges);
/* serve B, S: CALL clauses with prompt = P, output = G [with ...]: the request mixes
 * served (`mixes` a list of lists of Binding *). Other than two names leave the
 * context's name -1, its span theirs, for the evaluator. */
Stmt *ast_serve(Arena *a, Span span, AstList *names, Span names_span, Node *call,
                Clauses *clauses, AstList *mixes);
SearchSize *ast_search_size(Arena *a, Span span, Node *count, char *shape);
SearchRange *ast_search_range(Arena *a, Span span, NameRef *dim, AstList *choices);
SearchChoice *ast_search_choice(Arena *a, Span span, Node *value, struct Stmt *remat);
RangeSpec *ast_range(Arena *a, Span span, Node *from, Node *to, NameRef *how, Node *value,
                     AstList *list);
Stmt *ast_sweep(Arena *a, Span span, NameRef *dim, RangeSpec *range, Stmt *plot,
                AstList *body);
/* `plot` or `plot "file.svg"`, with options: a statement, or carried to ast_sweep. */
Stmt *ast_plot(Arena *a, Span span, char *path, AstList *options);
PlotOption *ast_plot_option(Arena *a, Span span, NameRef *what, char *text, Node *scale,
                            Node *from, Node *to);

typedef enum { CMP_EQ, CMP_NE, CMP_LT, CMP_LE, CMP_GT, CMP_GE } CmpOp;

Node *ast_call(Arena *a, Span span, NameRef *callee, AstList *args);
Node *ast_marked(Arena *a, Span span, NodeKind kind, Node *tensor);
Stmt *ast_block(Arena *a, Span span, NameRef *name, AstList *params, AstList *body);
Stmt *ast_return(Arena *a, Span span, Node *value);
Stmt *ast_repeat(Arena *a, Span span, Node *count, NameRef *over, AstList *body);
Stmt *ast_fused(Arena *a, Span span, AstList *body);
Stmt *ast_fused_switch(Arena *a, Span span, NameRef *word);
Stmt *ast_remat(Arena *a, Span span, NameRef *policy, AstList *paths);
Stmt *ast_optimizer(Arena *a, Span span, NameRef *name, AstList *options);
Word *ast_word(Arena *a, Span span, int name, int dtype, double number);
/* Whether the statement (its expressions, and the statements of its body) names `name`
 * as a tensor variable could be named. */
bool ast_mentions(const Stmt *s, int name);
/* Whether an expression names `name` anywhere, the dims of its tensor types too
 * (bf16[B, D] names B). */
bool ast_expr_mentions_dim(const Node *n, int name);
Stmt *ast_expect(Arena *a, Span span, NameRef *field, int cmp, Node *value, NameRef *unit,
                 Node *within);
Stmt *ast_mode(Arena *a, Span span, NameRef *mode, AstList *options);

/* An S-expression of the tree, one statement per line, for tests. */
void ast_dump(FILE *out, const AstList *stmts, const Intern *names);

#endif
