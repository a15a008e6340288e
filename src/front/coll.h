/* coll.h — the collectives the language names (`allgather(x, X)`, ...): the words the
 * parser reads, the tree stores and the cost model prices (mesh.h).
 *
 * Ownership: the names are static strings.
 */
#ifndef ROOFLINE_COLL_H
#define ROOFLINE_COLL_H

typedef enum { COLL_ALLGATHER, COLL_REDUCESCATTER, COLL_ALLREDUCE, COLL_ALLTOALL } CollKind;

const char *coll_name(CollKind k); /* "allgather", "reducescatter", "allreduce", "alltoall" */

#endif
