/* intern.c — an open-addressing hash table from names to dense ids, and sets of ids. */
#include "intern.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "nomem.h"

unsigned long long intern_name_probes;

struct Intern {
    char **names; /* by id */
    int count, cap;
    int *slots; /* hash slots holding id + 1, 0 when empty */
    size_t nslots;
    unsigned char *watched; /* by id, below nwatched: 1 for a watched name */
    int nwatched;
    bool seen; /* a watched name was looked up since intern_seen last asked */
};

static uint64_t hash(const char *s, size_t len)
{
    uint64_t h = 1469598103934665603u;
    for (size_t i = 0; i < len; i++)
        h = (h ^ (unsigned char)s[i]) * 1099511628211u;
    return h;
}

Intern *intern_new(void)
{
    Intern *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    t->nslots = 256;
    t->slots = calloc(t->nslots, sizeof *t->slots);
    if (!t->slots) {
        free(t);
        return NULL;
    }
    return t;
}

void intern_free(Intern *t)
{
    if (!t)
        return;
    for (int i = 0; i < t->count; i++)
        free(t->names[i]);
    free(t->names);
    free(t->slots);
    free(t->watched);
    free(t);
}

static size_t slot_of(const Intern *t, const char *name, size_t len)
{
    size_t i = (size_t)hash(name, len) & (t->nslots - 1);
    while (t->slots[i]) {
        intern_name_probes++;
        const char *s = t->names[t->slots[i] - 1];
        if (strlen(s) == len && memcmp(s, name, len) == 0)
            break;
        i = (i + 1) & (t->nslots - 1);
    }
    return i;
}

/* Fills the empty slots with every name's id. */
static void rehash(Intern *t)
{
    for (int id = 0; id < t->count; id++)
        t->slots[slot_of(t, t->names[id], strlen(t->names[id]))] = id + 1;
}

static int grow(Intern *t)
{
    size_t n = t->nslots * 2;
    int *slots = nomem_note(calloc(n, sizeof *slots));
    if (!slots)
        return -1;
    free(t->slots);
    t->slots = slots;
    t->nslots = n;
    rehash(t);
    return 0;
}

static int add(Intern *t, const char *name, size_t len, size_t slot)
{
    if (t->count == t->cap) {
        int cap = t->cap ? t->cap * 2 : 64;
        char **names = nomem_note(realloc(t->names, sizeof *names * (size_t)cap));
        if (!names)
            return -1;
        t->names = names;
        t->cap = cap;
    }
    char *copy = nomem_note(malloc(len + 1));
    if (!copy)
        return -1;
    memcpy(copy, name, len);
    copy[len] = '\0';
    t->names[t->count] = copy;
    t->slots[slot] = t->count + 1;
    return t->count++;
}

int intern_id(Intern *t, const char *name, size_t len)
{
    if ((size_t)t->count * 2 >= t->nslots && grow(t) < 0)
        return -1;
    size_t slot = slot_of(t, name, len);
    if (!t->slots[slot])
        return add(t, name, len, slot);
    int id = t->slots[slot] - 1;
    if (id < t->nwatched && t->watched[id])
        t->seen = true;
    return id;
}

bool intern_watch(Intern *t, int id)
{
    if (id >= t->nwatched) {
        int n = t->count > id ? t->count : id + 1;
        unsigned char *grown = nomem_note(realloc(t->watched, (size_t)n));
        if (!grown)
            return false;
        memset(grown + t->nwatched, 0, (size_t)(n - t->nwatched));
        t->watched = grown;
        t->nwatched = n;
    }
    t->watched[id] = 1;
    return true;
}

void intern_unwatch(Intern *t)
{
    free(t->watched);
    t->watched = NULL;
    t->nwatched = 0;
    t->seen = false;
}

bool intern_seen(Intern *t)
{
    bool seen = t->seen;
    t->seen = false;
    return seen;
}

int intern_find(const Intern *t, const char *name)
{
    size_t slot = slot_of(t, name, strlen(name));
    return t->slots[slot] ? t->slots[slot] - 1 : -1;
}

const char *intern_name(const Intern *t, int id)
{
    return id >= 0 && id < t->count ? t->names[id] : "?";
}

int intern_count(const Intern *t)
{
    return t->count;
}

void intern_truncate(Intern *t, int count)
{
    if (count >= t->count)
        return;
    /* Names go into the slots in id order (rehash too keeps it), so with linear probing
     * emptying the newest first leaves the slots as they were before they came: a
     * reset costs what the input added, not the whole table. */
    for (int id = t->count - 1; id >= count; id--) {
        t->slots[slot_of(t, t->names[id], strlen(t->names[id]))] = 0;
        free(t->names[id]);
    }
    t->count = count;
}

/* ---- Sets of ids ----------------------------------------------------------------- */

bool intern_set_init(IdSet *s, int count)
{
    size_t n = sizeof s->local / sizeof s->local[0];
    while (n < 2 * (size_t)count)
        n *= 2;
    s->nslots = n;
    s->slots = n == sizeof s->local / sizeof s->local[0] ? s->local : calloc(n, sizeof *s->slots);
    if (s->slots == s->local)
        memset(s->local, 0, sizeof s->local);
    return s->slots != NULL;
}

/* The slot holding id, or the empty slot where it would go. */
static size_t idset_slot(const IdSet *s, int id)
{
    size_t i = (size_t)id * 2654435761u & (s->nslots - 1);
    for (; s->slots[i] && s->slots[i] != id + 1; i = (i + 1) & (s->nslots - 1))
        intern_name_probes++;
    return i;
}

bool intern_set_add(IdSet *s, int id)
{
    size_t i = idset_slot(s, id);
    if (s->slots[i])
        return false;
    s->slots[i] = id + 1;
    return true;
}

bool intern_set_has(const IdSet *s, int id)
{
    return s->slots[idset_slot(s, id)] != 0;
}

void intern_set_free(IdSet *s)
{
    if (s->slots != s->local)
        free(s->slots);
    s->slots = NULL;
}
