/* fuzz_eval.c — libFuzzer target: parse and evaluate.
 *
 * The options come from the input's length, so the corpus stays plain roofline
 * source while the fuzzer still reaches --json, --csv, --exact and the REPL's
 * interactive mode (a statement cut short is RUN_INCOMPLETE, not an error). */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    SessionOptions opt = {
        .json = size % 3 == 1,
        .csv = size % 3 == 2,
        .exact = size % 2 == 1,
    };
    fuzz_run(opt, data, size, size % 5 == 4 ? FUZZ_INTERACTIVE : FUZZ_WHOLE);
    return 0;
}
