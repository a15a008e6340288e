/* arena.c — chunks of memory handed out in order and released together. */
#include "arena.h"

#include <stdalign.h>
#include <stdlib.h>
#include <string.h>

enum { CHUNK_MIN = 64 * 1024 };

struct ArenaChunk {
    ArenaChunk *next;
    size_t used, size;
    alignas(max_align_t) unsigned char data[];
};

static ArenaChunk *chunk_new(size_t size, ArenaChunk *next)
{
    ArenaChunk *c = malloc(sizeof *c + size);
    if (!c)
        return NULL;
    c->next = next;
    c->used = 0;
    c->size = size;
    return c;
}

void *arena_alloc(Arena *a, size_t size)
{
    const size_t align = alignof(max_align_t);
    size = (size + align - 1) / align * align;
    if (!a->head || a->head->size - a->head->used < size) {
        ArenaChunk *c = chunk_new(size > CHUNK_MIN ? size : CHUNK_MIN, a->head);
        if (!c) {
            a->oom = 1;
            return NULL;
        }
        a->head = c;
    }
    void *p = a->head->data + a->head->used;
    a->head->used += size;
    memset(p, 0, size);
    return p;
}

void arena_free(Arena *a)
{
    while (a->head) {
        ArenaChunk *next = a->head->next;
        free(a->head);
        a->head = next;
    }
}
