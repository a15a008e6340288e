/* optimizer.c — the optimizer's names. */
#include "optimizer.h"

const char *optimizer_name(OptKind k)
{
    static const char *const names[] = {"adam", "momentum", "sgd", "adafactor", "none"};
    return names[k];
}
