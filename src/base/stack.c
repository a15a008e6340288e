/* stack.c — the C stack left (stack.h). */
#include "stack.h"

#include <stdint.h>
#include <string.h>
#include <sys/resource.h>

extern char **environ;

/* Room kept for reporting the error and unwinding: the message is formatted by vfprintf
 * (several kB, more under ASan) from the deepest frame. */
enum { STACK_RESERVE = 48 * 1024 };
/* An unlimited stack, or one larger than this, is taken as this: the caps hold in it. */
#define STACK_ASSUMED_MAX ((uintptr_t)1 << 30)

static uintptr_t stack_top;   /* where the stack starts (it grows down) */
static uintptr_t stack_bound; /* the lowest address a frame may reach, plus the reserve */
static long limit_kb;

/* The stack starts above main's frame, where the kernel put the arguments and the
 * environment: the highest of their strings is nearer the real start than a local. */
static uintptr_t highest_string(char **list, uintptr_t above)
{
    for (int i = 0; list && list[i]; i++) {
        uintptr_t end = (uintptr_t)list[i] + strlen(list[i]) + 1;
        if (end > above)
            above = end;
    }
    return above;
}

void stack_begin(int argc, char **argv)
{
    char here;
    struct rlimit rl;
    uintptr_t local = (uintptr_t)&here;
    (void)argc;
    if (getrlimit(RLIMIT_STACK, &rl) != 0)
        return;
    uintptr_t limit = rl.rlim_cur == RLIM_INFINITY || rl.rlim_cur > STACK_ASSUMED_MAX
                          ? STACK_ASSUMED_MAX
                          : (uintptr_t)rl.rlim_cur;
    uintptr_t top = highest_string(environ, highest_string(argv, local));
    if (top - local > limit) /* the strings are elsewhere: count from main's frame */
        top = local;
    if (limit <= STACK_RESERVE + (top - local) || top < limit)
        return; /* too small to judge, or an address space this does not model */
    stack_top = top;
    stack_bound = top - limit + STACK_RESERVE;
    limit_kb = (long)(limit / 1024);
}

bool stack_low(void)
{
    char here;
    return stack_top && (uintptr_t)&here < stack_bound;
}

long stack_limit_kb(void)
{
    return limit_kb;
}
