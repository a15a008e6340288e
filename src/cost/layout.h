/* layout.h — how a statement's tensors lie on chips, as the language writes it:
 * the mesh (`mesh X = 4, Y = 2`, `on v5e 4x4`, `shard D over 2`) and dims sharded
 * over its axes (`bf16[B_X, D]`, `I_XY`).
 *
 * A dim name ending in `_` and capital letters names axes: `B_XY` is B sharded over
 * X and Y (or over one axis named XY). Other names are plain dims (`d_model`).
 * `B_{dp, X}` names them in braces, where a block's axis parameter (`dp`) stands for
 * the axes its caller passed: no axes at all leaves the dim whole.
 *
 * What it needs of the evaluator comes in a LayoutEnv (eval.c fills one): layout sits
 * below eval/ and never calls into it.
 *
 * Ownership: a Layout and a LayoutEnv borrow what they point to (the calling layout,
 * the world's padding and values, the diag).
 */
#ifndef ROOFLINE_LAYOUT_H
#define ROOFLINE_LAYOUT_H

#include <stdbool.h>

#include "ast.h"
#include "diag.h"
#include "intern.h"
#include "mesh.h"
#include "poly.h"
#include "tensor.h"
#include "value.h"

/* The named dims of a statement's tensors and the chips each is split over. A dim that
 * does not divide them is costed as frameworks lay it out: every chip holds the padded
 * shard, ceil(D / chips) (layout_lookup). */
typedef struct {
    int dim;
    double chips;  /* the most it is split over; 1: whole */
    double every;  /* the least common multiple of the chips of each tensor */
    bool mixed;    /* another tensor splits it over other chips, or holds it whole */
} ShardUse;

enum { LAYOUT_MAX_USES = 32 };

typedef struct {
    ShardUse item[LAYOUT_MAX_USES];
    int n;
    bool full;     /* a dim went unrecorded: none is padded (layout_note_padding) */
    const ShardPadding *values; /* whose values they take (layout_lookup): the world's */
} ShardUses;

/* Dims split over more chips than they have elements (8 KV heads over 64 chips):
 * how many tensors had one, and the first such dim. */
typedef struct {
    int count;
    int dim;        /* its name, or -1 */
    double size, chips;
} Oversplit;

enum { LAYOUT_NOTE_SIZE = 200 }; /* a note for the statement's report, '\0' included */

/* A statement's mesh, and the dims that `shard D over N` put on its new axes. */
typedef struct Layout {
    Mesh mesh;
    int shard_dim[MESH_MAX_AXES];  /* dim name for axis i, or -1 */
    bool used[MESH_MAX_AXES];      /* the `shard` axis i sharded some dim */
    struct Layout *caller;         /* in a block: the calling statement's layout, whose
                                    * `shard` rules apply here too; or NULL */
    ShardUses uses;                /* its tensors' named dims */
} Layout;

/* What layout needs of the evaluator that runs it, built afresh for each use (eval.h:
 * eval_layout): where its errors go, the names, the world's mesh and what a statement
 * records in the world, and the values of names and expressions, by callback on ctx. */
typedef struct {
    Diag *diag;
    DiagFrame frame;          /* where its errors are shown (diag.h) */
    const Source *src;        /* the source being run */
    Intern *names;
    const Mesh *mesh;         /* the world's, from `mesh` or `use CHIP AxB` */
    Layout *calling;          /* in a block call: the calling statement's layout, or NULL */
    ShardPadding *padding;    /* the world's lookup and padded names, for layouts' meshes */
    Oversplit *oversplit;     /* where a dim split too finely is counted */
    void *ctx;                /* the evaluator, for the three below */
    bool (*number)(void *ctx, const Node *expr, double *out); /* false: reported */
    const BoundValue *(*value)(void *ctx, int name);                /* VAL_UNBOUND if none */
    void (*note)(void *ctx, const char *text);                 /* for the report */
} LayoutEnv;

/* The mesh that `mesh X = 4, Y = n` (a statement, or a statement's clause) names. */
bool layout_mesh_from(const LayoutEnv *lx, const MeshAxisDef *axes, int n, Mesh *out);
/* The mesh of a shape such as "4x4" or "2x2x2": axes X, Y, Z. */
bool layout_shape_mesh(const LayoutEnv *lx, const char *shape, Span span, Mesh *out);
/* The layout a statement starts from: the world's mesh, and inside a block call the
 * calling statement's `shard` rules. */
void layout_inherit(const LayoutEnv *lx, Layout *out);
/* The statement's layout: the chip's slice when `on CHIP AxB` gives one, or its
 * `mesh X = 4, Y = n` clause, else the world's mesh; then one new axis for each
 * `shard D over N`. Checked against the chip's pod when there is a chip. */
bool layout_from_clauses(const LayoutEnv *lx, const Clauses *c, const Chip *chip, Span stmt,
                         Layout *out);
/* Whether a mesh fits the chip's pod; reported at `where` when not. */
bool layout_check_fit(const LayoutEnv *lx, const Mesh *m, const Chip *chip, Span where);
/* After the statement: every `shard D over N` must have found a dim D. */
bool layout_check_used(const LayoutEnv *lx, const Clauses *c, const Layout *l);
/* Splits a dim written `B_XY` into B and its axes; a plain name comes back as is. */
bool layout_split_name(const LayoutEnv *lx, const Layout *l, int name, Span span, int *base,
                       int *axes, int *naxes);
/* Puts the `shard` axes on the dims they name, and checks that every axis of t is in
 * the mesh and shards one dim only. */
bool layout_apply(const LayoutEnv *lx, Layout *l, Tensor *t, Span span);
/* Records t's named dims and their chips (ShardUses). */
void layout_note_tensor(Layout *l, const Tensor *t);
/* Adds one statement's uses to another's (a fused region's statements). */
void layout_merge_uses(ShardUses *into, const ShardUses *from);
/* A PolyLookup on ShardUses: the world's values, but a dim split alike in every tensor
 * over chips it does not divide takes the padded value chips · ceil(D / chips), so that
 * D / chips, the figures' per-chip size, is the padded shard while D is a formula (a
 * sweep's or solve's dim: bound, each shard is already ceil(D/chips), tensor.h), and a
 * collective gathers the padded shards. */
bool layout_lookup(int sym, double *value, void *uses);
/* Before a statement is costed: a note (LayoutEnv.note) for each dim that does not divide
 * its chips: padded. When another tensor holds it whole or splits it otherwise, each
 * tensor's shard is padded on its own (tensor.h: ShardPadding), and the note says so. */
void layout_note_padding(const LayoutEnv *lx, const ShardUses *uses);

/* The axes written in braces, `{tp, X}` or `F_{tp}`: a name bound to axes (a block's
 * axis parameter) gives those, any other name is an axis itself. Repeats count once;
 * false (reported) past `max`. */
bool layout_axis_names(const LayoutEnv *lx, const NameRef *names, int n, int *axes, int *naxes,
                       int max);
/* Takes the axes of `gone` out of axes, keeping the order of the rest. */
void layout_remove_axes(int *axes, int *naxes, const int *gone, int ngone);
/* The axes of a sharded dim `C_{dp, fsdp, -ep}`: those named before the `-` names, less
 * those named after. */
bool layout_dim_axes(const LayoutEnv *lx, const Node *d, int *axes, int *naxes);
/* Every axis is one of the mesh's; reported at `span` when one is not. */
bool layout_check_axes(const LayoutEnv *lx, const Mesh *m, const int *axes, int n, Span span);
/* The axes of `over Y`, `over XY`, or `over tp` (a name bound to axes). */
bool layout_axes(const LayoutEnv *lx, const Layout *l, const NameRef *over, AxisSet *out);

#endif
