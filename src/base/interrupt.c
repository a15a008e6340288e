/* interrupt.c — Ctrl-C in the REPL (interrupt.h). */
#include "interrupt.h"

#include <string.h>

static volatile sig_atomic_t interrupted;

static void on_sigint(int signo)
{
    (void)signo;
    interrupted = 1;
}

void interrupt_catch(bool reads, struct sigaction *old)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigint;
    sa.sa_flags = reads ? 0 : SA_RESTART;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, old);
}

void interrupt_release(const struct sigaction *old)
{
    sigaction(SIGINT, old, NULL);
}

bool interrupt_pending(void)
{
    return interrupted != 0;
}

void interrupt_clear(void)
{
    interrupted = 0;
}
