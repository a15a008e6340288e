/* test_complete.c — what Tab offers in each context of a line (issue 14): the words
 * that fit where the cursor is, and nothing that cannot go there. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "repl.h"
#include "session.h"

static Session *session;

/* The matches for the word that starts at the end of `before` and has been typed as
 * `word`, joined with spaces. */
static char *offers(const char *before, const char *word)
{
    static char joined[8192];
    char line[512];
    snprintf(line, sizeof line, "%s%s", before, word);
    char **m = repl_complete(session, line, word, (int)strlen(before));
    joined[0] = '\0';
    for (size_t i = 1; m && m[i]; i++) {
        if (strlen(joined) + strlen(m[i]) + 2 < sizeof joined)
            strcat(strcat(joined, i > 1 ? " " : ""), m[i]);
    }
    for (size_t i = 0; m && (i == 0 || m[i]); i++)
        free(m[i]);
    free(m);
    return joined;
}

/* What Tab does with the cursor at `cursor` of `line` (repl_complete_line, as libedit
 * calls it): "[0] | [1] [2] ...", or "none". */
static char *tab(const char *line, size_t cursor)
{
    static char joined[8192];
    char **m = repl_complete_line(session, line, cursor);
    snprintf(joined, sizeof joined, "%s", m ? m[0] : "none");
    for (size_t i = 1; m && m[i]; i++)
        if (strlen(joined) + strlen(m[i]) + 4 < sizeof joined)
            strcat(strcat(joined, i > 1 ? " " : " | "), m[i]);
    for (size_t i = 0; m && (i == 0 || m[i]); i++)
        free(m[i]);
    free(m);
    return joined;
}

#define TAB(line, cursor, want) \
    check_got(strcmp(tab(line, cursor), want) == 0, __FILE__, __LINE__, want, tab(line, cursor))

static bool has(const char *list, const char *word)
{
    size_t n = strlen(word);
    for (const char *p = list; (p = strstr(p, word)); p += n)
        if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0'))
            return true;
    return false;
}

#define OFFERS(before, word, want) \
    check_got(has(offers(before, word), want), __FILE__, __LINE__, "offers " want, offers(before, word))
#define NOT(before, word, unwanted) \
    check_got(!has(offers(before, word), unwanted), __FILE__, __LINE__, "not " unwanted, \
              offers(before, word))
#define EXACTLY(before, word, want) \
    check_got(strcmp(offers(before, word), want) == 0, __FILE__, __LINE__, want, offers(before, word))

int main(void)
{
    FILE *null = fopen("/dev/null", "w");
    SessionOptions opt = {.out = null, .err = null};
    session = session_new(&opt);
    const char *setup = "let Bat = 8\nx = bf16[Bat, Dim]\nblock layer(x) { return x }\n";
    session_run(session, "<t>", setup, strlen(setup), false);

    /* first on the line: statement words, blocks, dtypes, bound names; no chip field */
    OFFERS("", "sw", "sweep");
    OFFERS("", "se", "serve");
    OFFERS("", "s", "solve");
    OFFERS("", "re", "repeat");
    OFFERS("", "bl", "block");
    OFFERS("", "ex", "expect");
    OFFERS("", "mo", "mode");
    OFFERS("", "pl", "plot");
    OFFERS("", "fi", "fit");
    OFFERS("", "he", "help");
    OFFERS("", "qu", "quit");
    OFFERS("", "allg", "allgather");
    OFFERS("", "la", "layer");
    OFFERS("", "gated", "gated_mlp");
    OFFERS("", "bf", "bf16");
    OFFERS("", "Ba", "Bat");
    NOT("", "flops", "flops_bf16");
    NOT("", "hbm", "hbm_bw");
    /* after on and use: chips only */
    EXACTLY("bf16[8, 8] *_K bf16[8, 8] on ", "v5", "v5e v5p");
    OFFERS("use ", "H1", "H100");
    NOT("bf16[8, 8] *_K bf16[8, 8] on ", "", "let");
    NOT("bf16[8, 8] *_K bf16[8, 8] on ", "", "flops_bf16");
    /* chip NAME shows a card, chip NAME : PARENT derives one: chips */
    OFFERS("chip ", "v5", "v5p");
    OFFERS("chip mine : ", "H", "H200");
    /* inside a chip's braces, where a field goes: its fields only */
    EXACTLY("chip mine : v5e { ", "hbm_", "hbm_bw hbm_bytes hbm_eff");
    OFFERS("chip mine : v5e { flops_bf16 = 1e14, ", "ici", "ici_bw");
    NOT("chip mine : v5e { ", "", "sweep");
    /* after help: a block; after expect: a figure */
    EXACTLY("help ", "lay", "layer");
    OFFERS("help ", "g", "gated_mlp");
    NOT("help ", "", "v5e");
    OFFERS("expect ", "t_", "t_lower");
    EXACTLY("expect ", "tpot", "tpot tpot_first tpot_last");
    /* after mode: its two words */
    EXACTLY("mode ", "", "inference training");
    /* after *_ the dims of the operand just typed */
    EXACTLY("x *", "_", "_Bat _Dim");
    EXACTLY("bf16[Quux, Rho_Y] *", "_", "_Quux _Rho");
    /* in an expression: chips too (sweep c in [v5e, ...]), but no chip field */
    OFFERS("sweep c in [", "v5", "v5e");
    OFFERS("y = ", "Ba", "Bat");
    NOT("y = ", "hbm", "hbm_bw");
    /* the whole line up to the cursor, as libedit hands it over (issue 29): [0] is
     * what replaces it, the text before the word kept; one match is [1] as well */
    TAB("use v5", 6, "use v5 | v5e v5p");
    TAB("help lay", 8, "help layer | help layer");
    TAB("x *_", 4, "x *_ | _Bat _Dim");
    TAB("use zzz", 7, "none");
    /* a word break just before the cursor still counts: after `mode `, after `on ` */
    TAB("mode ", 5, "mode  | inference training");
    TAB("bf16[8, 8] *_K bf16[8, 8] on v5", 31, "bf16[8, 8] *_K bf16[8, 8] on v5 | v5e v5p");
    /* nothing at or past the cursor is read: not the rest of the line, not past a
     * buffer with no NUL (ASan's build checks), not past a NUL */
    TAB("use v5e and more", 6, "use v5 | v5e v5p");
    static const char unterminated[6] = {'u', 's', 'e', ' ', 'v', '5'};
    TAB(unterminated, sizeof unterminated, "use v5 | v5e v5p");
    TAB("use v5\0 and more", 16, "use v5 | v5e v5p");
    session_free(session);
    fclose(null);
    printf("%d passed, %d failed\n", passed, failed);
    return failed != 0;
}
