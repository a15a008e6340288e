/* fuzz_complete.c — libFuzzer target: Tab completion (issue 29), called as libedit calls
 * it (repl_complete_line), with no terminal. The input is a REPL session: what comes
 * before its last newline runs first, as statements (the names, tensors and blocks Tab
 * may offer); after it is the line, whose first Tab byte is the cursor (none: the
 * cursor at its end). The line is handed over in a buffer of exactly its bytes, the
 * text after the cursor still in it and no NUL at its end, so a read past the cursor
 * is a find under ASan. What comes back must be what libedit is promised
 * (repl.h): [0] begins with the line up to the cursor (Tab never deletes what was
 * typed) and ends with the matches' common prefix; the matches are sorted, each once;
 * one match is [1] as well. With fuzz_check_reset (replay), a fresh session after the
 * same statements must offer the same: the reset keeps no name an input defined. */
#include "fuzz.h"

#include <stdlib.h>
#include <string.h>

#include "repl.h"

/* The length of the prefix that all matches share. */
static size_t shared_prefix(char **m)
{
    size_t len = strlen(m[1]);
    for (size_t i = 2; m[i]; i++) {
        size_t k = 0;
        while (k < len && m[i][k] == m[1][k])
            k++;
        len = k;
    }
    return len;
}

/* abort() unless `m` is what repl.h promises for the line `typed` (up to the cursor). */
static void check_matches(char **m, const char *typed)
{
    size_t typed_len = strlen(typed), whole_len = strlen(m[0]);
    if (!m[1] || strncmp(m[0], typed, typed_len) != 0)
        abort();
    for (size_t i = 1; m[i]; i++)
        if (!m[i][0] || (i > 1 && strcmp(m[i - 1], m[i]) >= 0))
            abort();
    if (!m[2]) {
        if (strcmp(m[0], m[1]) != 0)
            abort();
        return;
    }
    size_t common = shared_prefix(m);
    if (common > whole_len || whole_len - common > typed_len ||
        memcmp(m[0] + whole_len - common, m[1], common) != 0)
        abort();
}

/* The offers joined into one string (freed by the caller), after checking them. */
static char *offers(Session *s, const char *line, size_t cursor, const char *typed)
{
    char *joined = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&joined, &len);
    if (!out)
        abort();
    char **m = repl_complete_line(s, line, cursor);
    if (m)
        check_matches(m, typed);
    for (size_t i = 0; m && (i == 0 || m[i]); i++) {
        fprintf(out, "%s\n", m[i]);
        free(m[i]);
    }
    free(m);
    fclose(out);
    return joined;
}

static void compare_with_fresh(const char *program, size_t program_len, const char *line,
                               size_t cursor, const char *typed, const char *reset_offers)
{
    Session *fresh = fuzz_fresh_session();
    session_run(fresh, "<fuzz>", program, program_len, false);
    char *fresh_offers = offers(fresh, line, cursor, typed);
    session_free(fresh);
    if (strcmp(reset_offers, fresh_offers) != 0) {
        fprintf(stderr, "fuzz: after a reset Tab offered\n%s\nwhere a fresh session offered\n%s\n",
                reset_offers, fresh_offers);
        abort();
    }
    free(fresh_offers);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *text = (const char *)data;
    size_t program_len = size;
    while (program_len > 0 && text[program_len - 1] != '\n')
        program_len--;
    size_t line_len = size - program_len;
    char *line = malloc(line_len ? line_len : 1); /* no NUL after it */
    if (!line)
        abort();
    memcpy(line, text + program_len, line_len);
    const char *tab = memchr(line, '\t', line_len);
    size_t cursor = tab ? (size_t)(tab - line) : line_len;
    char *typed = strndup(line, cursor); /* up to the cursor or a NUL */
    if (!typed)
        abort();

    Session *s = fuzz_session();
    session_run(s, "<fuzz>", text, program_len, false);
    char *reset_offers = offers(s, line, cursor, typed);
    fuzz_forget();
    if (fuzz_check_reset)
        compare_with_fresh(text, program_len, line, cursor, typed, reset_offers);
    free(reset_offers);
    free(typed);
    free(line);
    return 0;
}
