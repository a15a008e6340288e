/* world.h — what outlives one buffer of source: the names' values, the chips, the
 * blocks and the sources that hold them, the mode, and the frames a block call's names
 * are kept in.
 *
 * Ownership: the World owns every value and chip; values never point into a tree, so
 * a tree can be freed as soon as it has been evaluated. A Frame owns its arrays until
 * world_frame_restore.
 */
#ifndef ROOFLINE_WORLD_H
#define ROOFLINE_WORLD_H

#include <stdbool.h>

#include "arch.h"
#include "ast.h"
#include "chart.h"
#include "chip.h"
#include "cost.h"
#include "expect.h"
#include "intern.h"
#include "layout.h"
#include "mesh.h"
#include "op.h"
#include "optimizer.h"
#include "remat.h"
#include "report.h"

/* A parameter's name and position, for finding parameters by name. */
typedef struct {
    int name, at;
} ParamName;

/* A block definition; its tree lives in a kept source (World.kept). */
typedef struct {
    int name;
    const Stmt *def;
    const Source *src;
    ParamName *params; /* sorted by name: lookups by name in log time; owned */
} BlockDef;

/* The B and T of the last top-level call of a block that has parameters of those
 * names (summary.c): its step's B·T tokens. block -1 when none. */
typedef struct {
    int block;
    double batch, seq;
} StepTokens;

enum { WORLD_MAX_NOTES = 4, WORLD_NOTE_SIZE = REPORT_NOTE_SIZE };
_Static_assert((int)LAYOUT_NOTE_SIZE == (int)WORLD_NOTE_SIZE, "layout's notes are the report's");

/* The top-level statement under way: the mesh axes its tensors or pipelines split
 * over (by name), what its report notes (padded shards, an unused mesh), and the dims
 * its layouts split over more chips than they have. */
typedef struct {
    int axes_used[MESH_MAX_AXES];
    int naxes_used;
    char notes[WORLD_MAX_NOTES][WORLD_NOTE_SIZE];
    int nnotes;
    Oversplit oversplit;
    int pipeline_over;      /* the parameter its pipelines run over: -1 none, -2 several */
    double pipeline_layers; /* the greatest common divisor of their layers; 0 when one is
                             * not a whole number (search.c drops the stage counts that
                             * do not divide it before costing) */
} UnderWay;

/* How a pipeline's stages run the microbatches (pipeline.c): the same bubble, but
 * GPipe keeps every microbatch's activations until its backward pass, 1F1B at most as
 * many as there are stages. */
typedef enum { SCHEDULE_1F1B, SCHEDULE_GPIPE } Schedule;

typedef struct World {
    Intern *names;
    BoundValue *values; /* by interned id; grows with names */
    unsigned *local_in; /* by interned id: the Frame.id the name is local to, 0 if none */
    int nvalues;
    unsigned frames;    /* the last frame id given (ids wrap, skipping 0) */
    ChipTable chips;
    ArchTable archs;   /* models by name (`arch`) */
    int use_chip;  /* interned name of the default chip, or -1 */
    Mesh mesh;     /* from `mesh` or `use CHIP AxB`; no axes: one chip */
    struct Layout *calling; /* in a block call: the calling statement's layout */
    ChartPoint *chart; /* every statement costed with all dims bound, for `plot` */
    int nchart, chart_cap;
    BlockDef *blocks;
    int nblocks, blocks_cap;
    int *block_of;     /* by interned id: 1 + the index of its block in blocks, or 0 */
    int nblock_of;
    struct {
        Source *src;
        Arena arena;
    } *kept;           /* sources whose trees hold blocks */
    int nkept, kept_cap;
    int kept_reserved; /* room promised to sources still running (world_keep_room) */
    CostMode training; /* `mode training`: backward passes too, optimizer memory */
    bool unfused;      /* `fused off`: fused regions run as their operations */
    Remat remat;       /* `remat` */
    Optimizer optimizer; /* `optimizer` */
    double microbatches; /* `mode training microbatches M`: a statement is one of M (1) */
    Schedule schedule;   /* `schedule gpipe`: how a pipelined repeat runs them (1F1B) */
    bool axes_add;       /* `mode ... axes add`: collectives on different axes add up */
    bool sends_overlap;  /* `mode ... sends overlap`: a pipeline's sends run under its work */
    bool launch_graph;   /* `mode ... launch graph`: kernels replayed from a CUDA graph */
    bool predicting;     /* a calibrated chip was defined: costs record their kernels */
    double run_tokens;   /* `mode training tokens N`: the run's tokens (0: none; summary.h) */
    StepTokens step_tokens; /* the last top-level call's B and T (summary.h) */
    int call_notes;    /* notes given while an error in nested calls unwinds */
    LastReport last;
    UnderWay under_way;
    /* Names made for padded shards, ceil(D/3) (tensor.h: ShardPadding): by interned id,
     * the dim (plus one; 0 for any other name) and its chips. Their value is always
     * ceil(D / chips) with D's own; no statement binds them. */
    struct { int dim; double chips; } *padded;
    int npadded;
    /* The last few of them made (ids into padded, checked there before use): a search
     * asks for the same few once an operation, and naming one (ceil(D/3)) prints. */
    int padded_recent[8];
    int npadded_recent;
    ShardPadding padding; /* the world's lookup and padded names, for layouts' meshes */
    /* The stdlib's blocks and models are defined the first time one is needed
     * (session.c): until then library_pending is set, and define_library defines
     * them (false when out of memory, said). */
    bool library_pending;
    bool (*define_library)(void *ctx);
    void *library_ctx;
} World;

/* The stdlib's blocks and models, defined now if they were not yet: before anything
 * lists the blocks or models (a spelling suggestion) or adds one (it comes after
 * them). False when out of memory, said. */
bool world_library(World *w);

/* Adds a note for the statement's report, once; past WORLD_MAX_NOTES it is dropped. */
void world_note(World *w, const char *text);
/* Records a mesh axis as used by the statement. */
void world_use_axis(World *w, int axis_name);
bool world_axis_used(const World *w, int axis_name);
/* Records a pipeline of `layers` over the parameter `over` (UnderWay.pipeline_over,
 * which the caller sets to -1 first). */
void world_pipeline_layers(World *w, int over, double layers);

/* The block of that name, or NULL. */
const BlockDef *world_block(const World *w, int name);
/* Room to keep one more source, reserved before a source runs (an include inside it
 * reserves its own): once its blocks are defined, keeping their tree must not fail, or
 * a block would point into a freed tree. False if out of memory. */
bool world_keep_room(World *w);
/* Keeps a source and its tree alive for the blocks it defines, in the room reserved
 * for it; takes both. */
void world_keep(World *w, Source *src, Arena *arena);
/* The source defined no blocks: its reserved room is given back. */
void world_keep_unneeded(World *w);

bool world_init(World *w);
/* Frees a chart point's label and chip name. */
void world_chart_point_free(ChartPoint *p);
void world_free(World *w);
/* The value bound to a name (VAL_UNBOUND if none). */
const BoundValue *world_value(const World *w, int name);
/* Gives a name a value for a while (a sweep's points, solve's free dim) and returns
 * what it held; world_restore puts that back. The world takes v's tensor, the caller
 * the returned one. False from world_swap if memory ran out. */
bool world_swap(World *w, int name, BoundValue v, BoundValue *old);
void world_restore(World *w, int name, BoundValue old);
/* PolyLookup over the bound numbers of a world (and the padded shards of those). */
bool world_lookup(int sym, double *value, void *world);
/* ShardPadding's ceil_symbol: the name ceil(D/chips), made once, for the padded shard
 * of dim D split over chips. -1 when out of memory. */
int world_padded_symbol(int dim, double chips, void *world);
/* Forgets the padded shards named from `names` on (the names a session dropped). */
void world_padded_truncate(World *w, int names);
/* PolyNamer over the interned names of a world. */
const char *world_namer(int sym, void *world);
/* The number a name is bound to, if any (a ReportNumber: the report's "dims"). */
bool world_number(const char *name, double *value, int *id, void *world);

/* The names a block call binds, with what they held before, to put back after. */
typedef struct {
    unsigned id;   /* World.local_in marks the names local to this frame with it */
    int *names;
    BoundValue *saved;
    unsigned *marks; /* the names' local_in before */
    int n, cap;
} Frame;

/* A frame for a block call's names. */
Frame world_frame_begin(World *w);
bool world_is_local(const World *w, const Frame *f, int name);
/* Binds a name, taking v's tensor: inside a block (f not NULL) a name bound for the
 * first time is local to f, and world_frame_restore puts back what it held. False
 * when out of memory (v's tensor freed). */
bool world_bind(World *w, Frame *f, int name, BoundValue v);
/* Puts back what a call's names held, last bound first, and frees the frame's arrays. */
void world_frame_restore(World *w, Frame *f);

#endif
