/* fuzz.h — what the fuzz targets share: one session per process, reset to the stdlib
 * just loaded before each input (session_snapshot, session_reset), its diagnostics
 * thrown away.
 *
 * The targets are built two ways: with `clang -fsanitize=fuzzer` for `make fuzz`, and
 * with the normal compiler and replay.c for `make test`, which runs the corpus and
 * every past crash through the same code. Both link the interpreter through sandbox.c.
 */
#ifndef ROOFLINE_FUZZ_H
#define ROOFLINE_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "session.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* How a buffer runs: as the REPL's input (a statement cut short is not an error); in
 * pieces split at form feeds, each its own session_run, as the REPL runs lines. */
enum { FUZZ_WHOLE = 0, FUZZ_INTERACTIVE = 1, FUZZ_PIECES = 2 };

/* Runs one buffer with these options (out and err are set here): the output goes to
 * /dev/null, or with --json or --csv to memory, where it is checked. */
void fuzz_run(SessionOptions opt, const uint8_t *data, size_t size, int how);
/* The same with the output going to `out`, unchecked. */
void fuzz_run_on(SessionOptions opt, FILE *out, const uint8_t *data, size_t size, int how);

/* For a target that does more with the session than session_run (fuzz_complete): the
 * process's session, reset to the stdlib, printing to /dev/null; fuzz_forget() after
 * the input frees what it defined. The session for a fresh comparison (replay's
 * fuzz_check_reset) is fuzz_fresh_session(), freed with session_free. */
Session *fuzz_session(void);
void fuzz_forget(void);
Session *fuzz_fresh_session(void);

/* Nonzero: every input also runs on a fresh session, and must print the same as on
 * the reset one (replay.c sets it; a campaign would run at half speed). */
extern int fuzz_check_reset;

#endif
