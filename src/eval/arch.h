/* arch.h — models by name: a record of a model's dims, written in the language
 * (`arch llama3_8b { D = 4096, F = 14336, ... }`, the library in stdlib/models.roof)
 * or read from a Hugging Face config.json (`arch m from "config.json"`). Passed to a
 * block (`model(llama3_8b, B = 1, T = 2048)`), its fields are the arguments of the
 * parameters of the same names; a field naming a block (`model = moe_model`) says which
 * block costs the model in that one's place.
 *
 * Ownership: the table owns its records, each its fields and strings.
 */
#ifndef ROOFLINE_ARCH_H
#define ROOFLINE_ARCH_H

#include <stdio.h>

typedef struct {
    int name;      /* interned */
    double number; /* a dim */
    int block;     /* a route: the block costing the model for the block `name`; else -1 */
} ArchField;

typedef struct {
    int name;          /* interned */
    ArchField *fields; /* in the order written, a parent's first */
    int n;
    int dtype;         /* a DType: what it runs in (torch_dtype), the default of a block's
                          wdtype, adtype and kvdtype; -1 when not said */
    char *doc;         /* the comment above its definition (its sources), or NULL */
    char *origin;      /* where it was defined: "models.roof:12", or the config file */
} Arch;

typedef struct {
    Arch *items;
    int n, cap;
    int *of;   /* by interned name: 1 + the index of its record in items, or 0 */
    int nof;
} ArchTable;

const Arch *arch_find(const ArchTable *t, int name);
const ArchField *arch_field(const Arch *a, int name);
/* Adds a record, or replaces the one of its name; takes its fields and strings
 * (freed on failure). False if out of memory. */
bool arch_add(ArchTable *t, Arch a);
void arch_table_free(ArchTable *t);

#endif
