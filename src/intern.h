/* intern.h — names as small integers.
 *
 * Every identifier is interned once per session; its id indexes the bindings and is
 * the symbol of a dim in a polynomial. Ids are dense and start at 0, in the order
 * names are first seen, which is the order their dims print in a monomial.
 * Ownership: the table owns the strings; they live as long as the table.
 */
#ifndef ROOFLINE_INTERN_H
#define ROOFLINE_INTERN_H

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

#endif
