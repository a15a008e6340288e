/* fuzz_parse.c — libFuzzer target: parse only. With `ast` set the session parses
 * the buffer and dumps its tree (to /dev/null) instead of running it, so this
 * reaches the lexer, the parser, error recovery and ast_dump, and nothing else. */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    SessionOptions opt = {.ast = true};
    fuzz_run(opt, data, size, FUZZ_WHOLE);
    return 0;
}
