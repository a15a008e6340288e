/* stack.h — how much of the C stack is left, so deep recursion stops with a located
 * error instead of a crash when the stack is smaller than the caps assume.
 *
 * The caps (caps.h) bound how deep the evaluator recurses: a 1,000-level expression
 * takes about 160 B of stack a level (160 kB), a block call about 6 kB (64 calls,
 * 380 kB), more under ASan. A stack of 8 MB (the usual default) holds them all; under
 * `ulimit -s 128` it does not, and the recursion checks stack_low() before it goes a
 * level deeper. Until stack_begin() is called (a program without main.c's: the fuzz
 * target, the unit tests) the stack counts as never low.
 */
#ifndef ROOFLINE_STACK_H
#define ROOFLINE_STACK_H

#include <stdbool.h>

/* Called at the top of main with its arguments: records where the stack starts and
 * how far it may grow (getrlimit(RLIMIT_STACK)). */
void stack_begin(int argc, char **argv);

/* Whether less than STACK_RESERVE is left: room for the error message and its unwinding,
 * not for another level of recursion. */
bool stack_low(void);

/* The stack's limit in kB, for the message (0 before stack_begin). */
long stack_limit_kb(void);

#endif
