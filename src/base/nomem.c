/* nomem.c — memory ran out: one flag for the run (nomem.h). */
#include "nomem.h"

#include <stddef.h>

static bool failed; /* single-threaded, as all of roofline is */

void *nomem_note(void *p)
{
    if (!p)
        failed = true;
    return p;
}

bool nomem_failed(void)
{
    return failed;
}

void nomem_clear(void)
{
    failed = false;
}
