/* nomem.h — memory ran out: one flag for the run, as SQLite's mallocFailed.
 *
 * Many functions return NULL both when a result does not exist (a ratio that is not a
 * number, a term with too many dims) and when memory ran out, and their callers read
 * NULL as the first. The allocations behind them note a failure here, so that the
 * statement that fails says "out of memory" rather than a wrong reason (eval_fail), and
 * one that would go on with a figure missing fails instead (session.c checks after
 * each statement). session_run clears it: the REPL goes on after an out-of-memory line.
 */
#ifndef ROOFLINE_NOMEM_H
#define ROOFLINE_NOMEM_H

#include <stdbool.h>

/* p, after noting that memory ran out when p is NULL: wrap an allocation in it. */
void *nomem_note(void *p);
bool nomem_failed(void);
void nomem_clear(void);

#endif
