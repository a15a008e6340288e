/* searchplan.h — what a search ranges over besides the mesh and the strategies: the rest
 * of a training plan, `with microbatches in [1, 2, 4], remat in [none, full],
 * schedule in [one_f_one_b, gpipe], zero in [0, 1, 2]`.
 *
 * Each dimension has its choices: those `with` lists, or else the one the script set
 * (`mode`, `remat`, `optimizer`), so a search without the clause costs the plan in
 * force. Microbatches keep the global batch: with M0 microbatches in force and the call
 * giving B, a step is B·M0 sequences, and M microbatches run B·M0/M each (the call's B
 * rewritten). The dimensions are training's: inference has no backward pass, no
 * accumulation, no optimizer.
 */
#ifndef ROOFLINE_SEARCHPLAN_H
#define ROOFLINE_SEARCHPLAN_H

#include <stdio.h>

#include "eval.h"
#include "records.h"

typedef enum { PLAN_MICROBATCHES, PLAN_REMAT, PLAN_SCHEDULE, PLAN_ZERO, PLAN_DIMS } PlanDim;
enum { PLAN_MAX_CHOICES = 16, PLAN_TEXT = 200 };

/* One plan: an index into each dimension's choices. */
typedef struct {
    unsigned char at[PLAN_DIMS];
} PlanPick;

/* The choices, and the world's settings they stand in for while the search runs
 * (put back by searchplan_restore, which frees the remat settings the choices made). */
typedef struct {
    int n[PLAN_DIMS];
    bool listed[PLAN_DIMS];                 /* given in `with` */
    double microbatches[PLAN_MAX_CHOICES];
    Stmt remat[PLAN_MAX_CHOICES];           /* listed remat choices, as statements */
    RematPolicy policy[PLAN_MAX_CHOICES];
    char remat_text[PLAN_MAX_CHOICES][PLAN_TEXT]; /* "full", "save layer.x, layer.y" */
    Schedule schedule[PLAN_MAX_CHOICES];
    int zero[PLAN_MAX_CHOICES];
    int batch_arg;       /* the call's argument that binds B; -1 when it is not rewritten */
    double global_batch; /* B · the microbatches in force */
    Node batch;          /* the number the rewritten argument takes */
    int remat_in_force;  /* the remat choice applied last; -1 none */
    bool saved;
    struct {
        double microbatches;
        Schedule schedule;
        Remat remat;
        int zero;
    } was;
} Plan;

/* Reads the search's `with` clause against the call's block b (errors located at the
 * clause), and takes the world's settings over. Call searchplan_restore whatever it returns. */
bool searchplan_read(Eval *ev, const Stmt *search, const BlockDef *b, Plan *p);
/* The world set to plan k, and the batch argument to its microbatches' batch. */
bool searchplan_apply(Eval *ev, Plan *p, PlanPick k);
void searchplan_restore(Eval *ev, Plan *p);
/* Plans of the pick that all count: the product of the dimensions' choices. */
int searchplan_count(const Plan *p);
/* The i-th pick, the last dimension fastest; `pipelined` false leaves the schedule at
 * its first choice (it changes nothing without a pipeline). False when the pick is one
 * of those left out that way. */
bool searchplan_pick(const Plan *p, int i, bool pipelined, PlanPick *k);

/* The settings that re-cost plan k in training, "mode training microbatches 4; remat
 * full; " as the reproduce line reads them (and the optimizer with its ZeRO stage when
 * the search ranges over it). */
void searchplan_settings(const Eval *ev, const Plan *p, PlanPick k, SearchSettings *s);
/* Plan k as a row's record holds it (records_search_row writes its columns and JSON). */
void searchplan_record(const Plan *p, PlanPick k, bool pipelined, SearchPlanPick *r);
/* The plan's choices as the search's head record holds them (they point into c). */
typedef struct {
    SearchPlanChoices choices;
    const char *remats[PLAN_MAX_CHOICES];
    bool gpipe[PLAN_MAX_CHOICES];
} PlanChoices;
void searchplan_choices(const Plan *p, PlanChoices *c);

#endif
