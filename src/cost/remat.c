/* remat.c — the remat policy's names and the paths it owns. */
#include "remat.h"

#include <stdlib.h>

void remat_free(Remat *r)
{
    for (int i = 0; i < r->npaths; i++)
        free(r->paths[i].names);
    free(r->paths);
    *r = (Remat){REMAT_NONE, NULL, 0};
}

const char *remat_name(RematPolicy p)
{
    static const char *const names[] = {"none", "full", "selective", "save"};
    return names[p];
}

