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
    int oom;      /* an allocation failed; the parse that used it must be discarded */
    size_t limit; /* the most bytes it may take (0: no limit): a parse's LIMIT_TREE_BYTES */
    size_t bytes; /* taken from malloc, chunk headers included */
    int capped;   /* an allocation failed because of the limit (oom is set too) */
} Arena;

/* The most bytes all arenas held at once: the tests of memory per statement compare
 * it at two sizes (tests/unit/test_linear.c). Counting only. */
extern size_t arena_peak_bytes;

/* Zeroed memory, aligned for any type. Returns NULL only when out of memory. */
void *arena_alloc(Arena *a, size_t size);
void arena_free(Arena *a);

#endif
