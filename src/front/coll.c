/* coll.c — the collectives' names (coll.h). */
#include "coll.h"

const char *coll_name(CollKind k)
{
    static const char *const NAMES[] = {
        [COLL_ALLGATHER] = "allgather",
        [COLL_REDUCESCATTER] = "reducescatter",
        [COLL_ALLREDUCE] = "allreduce",
        [COLL_ALLTOALL] = "alltoall",
    };
    return NAMES[k];
}
