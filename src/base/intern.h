/* intern.h — names as small integers.
 *
 * Every identifier is interned once per session; its id indexes the bindings and is
 * the symbol of a dim in a polynomial. Ids are dense and start at 0, in the order
 * names are first seen, which is the order their dims print in a monomial.
 * Ownership: the table owns the strings; they live as long as the table.
 */
#ifndef ROOFLINE_INTERN_H
#define ROOFLINE_INTERN_H

#include <stdbool.h>
#include <stddef.h>

typedef struct Intern Intern;

Intern *intern_new(void);
void intern_free(Intern *t);
/* The id of the name, adding it if new; -1 when out of memory. */
int intern_id(Intern *t, const char *name, size_t len);
/* The id if the name is known, else -1. */
int intern_find(const Intern *t, const char *name);
const char *intern_name(const Intern *t, int id);
int intern_count(const Intern *t);
/* Forgets the names from id `count` on: a session going back to its snapshot. */
void intern_truncate(Intern *t, int count);
/* Watched names: intern_id finding one notes it, so that whoever watches learns that a
 * text named one (the session defines the stdlib's blocks and models the first time a
 * source names one). intern_watch is false when out of memory; intern_seen says
 * whether a watched name was looked up since it last asked; intern_unwatch watches
 * none again. */
bool intern_watch(Intern *t, int id);
bool intern_seen(Intern *t);
void intern_unwatch(Intern *t);

/* A set of ids, to find one given twice (the dims of a tensor type) in linear time.
 * Sized once by intern_set_init for the ids it will hold; small sets use no heap.
 * Ownership: the set owns its slots; intern_set_free releases them. */
typedef struct {
    int *slots; /* id + 1, 0 when empty */
    size_t nslots;
    int local[64];
} IdSet;

/* Room for `count` ids; false when out of memory. */
bool intern_set_init(IdSet *s, int count);
/* Adds id (at least 0); false when it was in the set already. */
bool intern_set_add(IdSet *s, int id);
bool intern_set_has(const IdSet *s, int id);
void intern_set_free(IdSet *s);

/* Slots and entries looked at by the tables keyed by names (intern, id sets, chips,
 * completion): the linear-time tests compare it at two sizes (tests/unit/test_linear.c).
 * Counting only; nothing reads it to decide. */
extern unsigned long long intern_name_probes;

#endif
