/* fuzz_write.c — libFuzzer target: output that fails part-way, as on a full disk or a
 * closed pipe. The report goes to a memory stream of k bytes, unbuffered, so the write
 * that crosses byte k fails wherever it is: k is the input's last two bytes (mod
 * 8192), the rest is roofline source, and the length picks --json or --csv as in
 * fuzz_eval. What a failed write must lead to is a clean RUN_ERROR: never a crash, a
 * hang or a leak. */
#include "fuzz.h"

#include <stdlib.h>

enum { FAIL_AFTER_MAX = 8192 };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static char room[FAIL_AFTER_MAX + 1];
    size_t k = size >= 2 ? (size_t)(data[size - 2] << 8 | data[size - 1]) % FAIL_AFTER_MAX : 0;
    FILE *out = fmemopen(room, k + 1, "w"); /* + 1: the NUL fmemopen keeps */
    if (!out || setvbuf(out, NULL, _IONBF, 0) != 0)
        abort();
    SessionOptions opt = {.json = size % 3 == 1, .csv = size % 3 == 2};
    fuzz_run_on(opt, out, data, size >= 2 ? size - 2 : 0, FUZZ_WHOLE);
    fclose(out);
    return 0;
}
