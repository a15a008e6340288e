/* prebuilt_none.c — the first stage's table (tools/prebuild.c): none, so its sessions
 * parse the stdlib's files. */
#include "prebuilt.h"

const Prebuilt prebuilt = {.ready = false};
