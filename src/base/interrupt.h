/* interrupt.h — Ctrl-C in the REPL: it drops the line being typed, and stops a statement
 * that runs long (a sweep's points, a search's configurations) with "interrupted",
 * the session and its bindings kept. Off the REPL, SIGINT keeps its default: it ends
 * the process.
 *
 * The one piece of global state of the program: a signal handler can only talk to the
 * program through a volatile sig_atomic_t with static storage.
 */
#ifndef ROOFLINE_INTERRUPT_H
#define ROOFLINE_INTERRUPT_H

#include <signal.h>
#include <stdbool.h>

/* Installs the handler; *old gets the one before, for interrupt_release. reads: a read
 * that Ctrl-C interrupts fails with EINTR (at a prompt, so the REPL sees it at once);
 * else interrupted calls restart (while a statement runs, so its output is whole). */
void interrupt_catch(bool reads, struct sigaction *old);
void interrupt_release(const struct sigaction *old);

/* Whether Ctrl-C was pressed since the last interrupt_clear. */
bool interrupt_pending(void);
void interrupt_clear(void);

#endif
