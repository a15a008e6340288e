/* arena.h — a bump allocator for the nodes and strings of one parse.
 *
 * Ownership: everything allocated from an arena is freed at once by arena_free; no
 * node is ever freed on its own, so error paths in the parser cannot leak.
 */
#ifndef ROOFLINE_ARENA_H
#define ROOFLINE_ARENA_H

#include <stddef.h>

typedef struct ArenaChunk ArenaChunk;
typedef struct {
    ArenaChunk *head;
    int oom; /* an allocation failed; the parse that used it must be discarded */
} Arena;

/* Zeroed memory, aligned for any type. Returns NULL only when out of memory. */
void *arena_alloc(Arena *a, size_t size);
void arena_free(Arena *a);

#endif
