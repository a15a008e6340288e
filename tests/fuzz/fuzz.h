/* fuzz.h — what the fuzz targets share: one fresh Session per input, its output and
 * diagnostics thrown away, everything freed before the next input.
 *
 * The targets are built two ways: with `clang -fsanitize=fuzzer` for `make fuzz`, and
 * with the normal compiler and replay.c for `make test`, which runs the corpus and
 * every past crash through the same code. Both link the interpreter through sandbox.c.
 */
#ifndef ROOFLINE_FUZZ_H
#define ROOFLINE_FUZZ_H

#include <stddef.h>
#include <stdint.h>

#include "session.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Runs one buffer through a new session with these options (out and err are set
 * here); returns nonzero only when the session could not be created. */
int fuzz_run(SessionOptions opt, const uint8_t *data, size_t size, int interactive);

#endif
