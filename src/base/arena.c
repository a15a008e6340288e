/* arena.c — chunks of memory handed out in order and released together. */
#include "arena.h"

#include <stdalign.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* Chunks start small and double up to CHUNK_MAX: a REPL line that defines a block keeps
 * its arena for the session, and should not keep 64 KiB for one line. */
enum { CHUNK_FIRST = 1024, CHUNK_MAX = 64 * 1024 };

size_t arena_peak_bytes;
static size_t live_bytes; /* of every arena */

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

/* The size of the next chunk: twice the last, up to CHUNK_MAX, and room for `size`. */
static size_t next_room(const Arena *a, size_t size)
{
    size_t room = CHUNK_FIRST;
    if (a->head)
        room = a->head->size >= CHUNK_MAX / 2 ? CHUNK_MAX : 2 * a->head->size;
    return size > room ? size : room;
}

/* A chunk with room for `size` at the head, within the arena's limit. */
static bool add_chunk(Arena *a, size_t size)
{
    size_t room = next_room(a, size), bytes = sizeof(ArenaChunk) + room;
    bool over = a->limit && bytes > a->limit - a->bytes; /* bytes never pass the limit */
    ArenaChunk *c = over ? NULL : chunk_new(room, a->head);
    if (!c) {
        a->oom = 1;
        a->capped = over;
        return false;
    }
    a->head = c;
    a->bytes += bytes;
    live_bytes += bytes;
    if (live_bytes > arena_peak_bytes)
        arena_peak_bytes = live_bytes;
    return true;
}

void *arena_alloc(Arena *a, size_t size)
{
    const size_t align = alignof(max_align_t);
    size = (size + align - 1) / align * align;
    if ((!a->head || a->head->size - a->head->used < size) && !add_chunk(a, size))
        return NULL;
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
    live_bytes -= a->bytes;
    a->bytes = 0;
}
