/* repl.c — the interactive loop: reading lines, continuation, REPL commands, history
 * and tab completion.
 *
 * Everything between the terminal and session_run lives here. Lines accumulate in a
 * pending buffer that is re-run whole after each line (Lua's trick): the session
 * answers RUN_INCOMPLETE while a statement is unfinished, and the buffer is cleared on
 * any other answer. Line editing uses libedit when built with HAVE_LIBEDIT and stdin is
 * a terminal; otherwise plain getline, with prompts only on a terminal.
 *
 * Ownership: the Repl owns its pending buffer and getline's line; the caller owns the
 * Session. The line buffer guard is this file's; libedit writes into it as
 * rl_line_buffer (guard_line_buffer).
 */
#include "repl.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#ifdef HAVE_LIBEDIT
#include <editline/readline.h>
#include <malloc.h> /* malloc_usable_size: guard_line_buffer */
#include <unistd.h> /* read: read_byte */
#endif

#include "history_line.h"
#include "intern.h"
#include "interrupt.h"
#include "outfile.h"

#define PROMPT        "roofline> "
#define PROMPT_MORE   "     ...> "
#define HISTORY_FILE  "/.roofline_history"
#define HISTORY_MAX   1000

static const char BANNER[] =
    "roofline " ROOFLINE_VERSION " — type help, chips, names, or quit; statements end at a newline\n";

typedef enum { READ_LINE, READ_EOF, READ_INTERRUPT } ReadResult;
typedef enum { CMD_NONE, CMD_QUIT } Command;

typedef struct {
    Session *session;
    bool terminal;      /* prompts, banner, history, Ctrl-C handling */
    const char *name;   /* "<repl>" or "<stdin>", for diagnostics */
    char *pending;      /* the lines of an unfinished statement */
    size_t pending_len, pending_cap;
    char *line;         /* the line just read: getline's buffer, or libedit's copy */
    size_t line_len, line_cap;
    int status;         /* highest status seen, reported when not a terminal */
    int history_lines;  /* history entries the pending statement's lines made */
    bool out_of_memory;
} Repl;

static bool append(Repl *r, const char *text, size_t len)
{
    if (r->pending_len + len > r->pending_cap) {
        size_t cap = 2 * (r->pending_len + len);
        char *grown = realloc(r->pending, cap);
        if (!grown)
            return false;
        r->pending = grown;
        r->pending_cap = cap;
    }
    memcpy(r->pending + r->pending_len, text, len);
    r->pending_len += len;
    return true;
}

/* Appends the line, ending it with a newline when the input did not (libedit strips
 * it; getline keeps it except on a last line), since a newline ends a statement. */
static bool append_line(Repl *r)
{
    bool has_newline = r->line_len > 0 && r->line[r->line_len - 1] == '\n';
    return append(r, r->line, r->line_len) && (has_newline || append(r, "\n", 1));
}

static bool is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

static bool is_blank(const char *text, size_t len)
{
    for (size_t i = 0; i < len; i++)
        if (!is_space(text[i]))
            return false;
    return true;
}

/* `quit` is the whole entry, surrounding blanks aside; help, names and chips are
 * statements, the same in a script (the session runs them). */
static Command command_of(const char *text, size_t len)
{
    static const char *const quits[] = {"quit", "exit", "quit()", "exit()"};
    while (len > 0 && is_space(*text))
        text++, len--;
    while (len > 0 && is_space(text[len - 1]))
        len--;
    for (size_t i = 0; i < sizeof quits / sizeof quits[0]; i++)
        if (strlen(quits[i]) == len && memcmp(quits[i], text, len) == 0)
            return CMD_QUIT;
    return CMD_NONE;
}

static void note_status(Repl *r, RunStatus st)
{
    if ((int)st > r->status)
        r->status = (int)st;
}

static void remember_statement(Repl *r);

/* Runs the pending text. `interactive` false asks the session for the real error when
 * the input ended inside a statement. */
static void run_pending(Repl *r, bool interactive)
{
    /* While it runs, Ctrl-C stops a long sweep or search (they read the flag), and
     * interrupted writes restart rather than fail. */
    if (r->terminal)
        interrupt_catch(false, NULL);
    RunStatus st = session_run(r->session, r->name, r->pending, r->pending_len,
                               interactive);
    if (r->terminal)
        interrupt_catch(true, NULL);
    if (st == RUN_INCOMPLETE)
        return;
    if (session_unread(r->session)) { /* as when a line cannot be kept: the session
                                       * ends, the lines read stay in the history */
        r->out_of_memory = true;
        return;
    }
    remember_statement(r);
    note_status(r, st);
    r->pending_len = 0;
}

/* One line of input. Returns false when the session should end (`quit`, no memory). */
static bool handle_line(Repl *r)
{
    if (r->pending_len == 0) {
        if (command_of(r->line, r->line_len) == CMD_QUIT)
            return false;
        if (is_blank(r->line, r->line_len))
            return true;
    }
    if (!append_line(r))
        r->out_of_memory = true;
    else
        run_pending(r, true);
    if (r->out_of_memory) /* the session ends: what it read stays in the history */
        fputs("roofline: error: out of memory\n", stderr);
    return !r->out_of_memory;
}

static bool output_failed(Repl *r)
{
    return fflush(stdout) != 0 || ferror(stdout) || session_output_failed(r->session);
}

/* ---- plain input: getline ------------------------------------------------------- */

static ReadResult read_plain(Repl *r, const char *prompt)
{
    if (r->terminal) {
        fputs(prompt, stdout);
        fflush(stdout);
    }
    ssize_t n = getline(&r->line, &r->line_cap, stdin);
    if (n >= 0) {
        r->line_len = (size_t)n;
        return READ_LINE;
    }
    if (interrupt_pending() && errno == EINTR) {
        clearerr(stdin);
        return READ_INTERRUPT;
    }
    return READ_EOF;
}

/* ---- line editing: libedit ------------------------------------------------------ */

/* ---- completion ----------------------------------------------------------------- */

typedef struct {
    Session *session;
    const char *lead;   /* typed before the name and kept: "_" after `*`, else "" */
    const char *prefix; /* the part of the name typed so far */
    size_t prefix_len;
    char **matches;     /* matches[0] is left for the common prefix, as libedit wants */
    size_t count, cap;  /* count includes slot 0 */
    bool out_of_memory;
} Matches;

static bool grow_matches(Matches *m)
{
    if (m->count + 2 <= m->cap)
        return true;
    size_t cap = 2 * m->cap + 8;
    char **grown = realloc(m->matches, cap * sizeof *grown);
    if (!grown)
        return false;
    m->matches = grown;
    m->cap = cap;
    return true;
}

static void collect_match(const char *name, void *ctx)
{
    Matches *m = ctx;
    if (m->out_of_memory || strncmp(name, m->prefix, m->prefix_len) != 0)
        return;
    size_t lead_len = strlen(m->lead);
    char *match = grow_matches(m) ? malloc(lead_len + strlen(name) + 1) : NULL;
    if (!match) {
        m->out_of_memory = true;
        return;
    }
    m->matches[m->count++] = strcat(strcpy(match, m->lead), name);
}

static int compare_names(const void *a, const void *b)
{
    intern_name_probes++;
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Sorts the matches and drops repeats (a chip and a binding may share a name): sorted,
 * a repeat sits next to its twin, so many names cost n log n, not a scan per name. */
static void sort_matches(Matches *m)
{
    qsort(m->matches + 1, m->count - 1, sizeof *m->matches, compare_names);
    size_t kept = 1;
    for (size_t i = 1; i < m->count; i++) {
        intern_name_probes++;
        if (kept > 1 && strcmp(m->matches[kept - 1], m->matches[i]) == 0)
            free(m->matches[i]);
        else
            m->matches[kept++] = m->matches[i];
    }
    m->count = kept;
}

/* The longest prefix shared by all matches: what Tab can insert without choosing. */
static char *common_prefix(char **names, size_t count)
{
    size_t len = strlen(names[0]);
    for (size_t i = 1; i < count; i++) {
        size_t k = 0;
        while (k < len && names[i][k] == names[0][k])
            k++;
        len = k;
    }
    return strndup(names[0], len);
}

static void free_matches(Matches *m)
{
    for (size_t i = 1; i < m->count; i++)
        free(m->matches[i]);
    free(m->matches);
}

static bool name_char(char c)
{
    return c == '_' || isalnum((unsigned char)c);
}

/* The dims of the operand that ends just before `star` (the `*` of `*_`): written out,
 * `bf16[B, D_X] *_` offers B and D; a name bound to a tensor, its dims. */
static void operand_dims(const char *line, int star, Matches *m)
{
    int end = star;
    while (end > 0 && isspace((unsigned char)line[end - 1]))
        end--;
    if (end > 0 && line[end - 1] == ']') {
        int open = end - 1, depth = 0;
        for (; open >= 0; open--) {
            depth += line[open] == ']' ? 1 : line[open] == '[' ? -1 : 0;
            if (depth == 0)
                break;
        }
        for (int i = open + 1; open >= 0 && i < end - 1;) {
            while (i < end - 1 && !name_char(line[i]))
                i++;
            int from = i;
            while (i < end - 1 && name_char(line[i]) && !(line[i] == '_' && i > from))
                i++; /* B of B_X */
            char dim[64];
            if (i > from && !isdigit((unsigned char)line[from]) && i - from < (int)sizeof dim) {
                snprintf(dim, sizeof dim, "%.*s", i - from, line + from);
                collect_match(dim, m);
            }
            while (i < end - 1 && line[i] != ',')
                i++; /* the rest of this dim: its axes, an expression */
        }
        return;
    }
    int from = end;
    while (from > 0 && name_char(line[from - 1]))
        from--;
    if (from < end)
        session_each_dim(m->session, line + from, (size_t)(end - from), collect_match, m);
}

/* The word at `start` is the first after `mode`. */
static bool after_mode(const char *line, int start)
{
    int i = 0;
    while (isspace((unsigned char)line[i]))
        i++;
    if (strncmp(line + i, "mode", 4) != 0 || !isspace((unsigned char)line[i + 4]))
        return false;
    i += 4;
    while (isspace((unsigned char)line[i]))
        i++;
    return i == start;
}

/* The word that ends just before `at` (white space skipped) into buf; "" when the
 * character there is not a name's. */
static const char *word_before(const char *line, int at, char *buf, size_t size)
{
    int end = at;
    while (end > 0 && isspace((unsigned char)line[end - 1]))
        end--;
    int from = end;
    while (from > 0 && name_char(line[from - 1]))
        from--;
    snprintf(buf, size, "%.*s", end - from < (int)size ? end - from : 0, line + from);
    return buf;
}

/* Inside the braces of `chip NAME [: PARENT] { ...`, where a field's name goes: after
 * the `{`, a `;` or a `,` (the cursor's word starts a field, not a value). */
static bool at_chip_field(const char *line, int start)
{
    int i = 0;
    while (isspace((unsigned char)line[i]))
        i++;
    if (strncmp(line + i, "chip", 4) != 0 || name_char(line[i + 4]))
        return false;
    int open = 0;
    for (int k = i; k < start; k++)
        open += (line[k] == '{') - (line[k] == '}');
    int before = start;
    while (before > 0 && isspace((unsigned char)line[before - 1]))
        before--;
    return open > 0 && before > 0 && strchr("{;,", line[before - 1]);
}

/* What fits at the word that starts at `start`: after `on`, `use` and `chip` a chip
 * (and after `chip NAME :` its parent); inside a chip's braces its fields; after
 * `help` a statement word, a block or a model; after `expect` a figure; first on the line a statement word, a block,
 * a dtype or a bound name; elsewhere those and the chips. */
static unsigned kinds_at(const char *line, int start)
{
    char before[16];
    word_before(line, start, before, sizeof before);
    int at = start;
    while (at > 0 && isspace((unsigned char)line[at - 1]))
        at--;
    if (at_chip_field(line, start))
        return NAMES_FIELDS;
    if (strcmp(before, "on") == 0 || strcmp(before, "use") == 0 ||
        strcmp(before, "chip") == 0 || (at > 0 && line[at - 1] == ':' &&
                                        strncmp(line + strspn(line, " \t"), "chip", 4) == 0))
        return NAMES_CHIPS;
    if (strcmp(before, "help") == 0)
        return NAMES_WORDS | NAMES_BLOCKS;
    if (strcmp(before, "expect") == 0)
        return NAMES_EXPECT;
    unsigned anywhere = NAMES_WORDS | NAMES_BLOCKS | NAMES_DTYPES | NAMES_BOUND;
    return at == 0 ? anywhere : anywhere | NAMES_CHIPS;
}

/* `_` is part of names, so in `x *_D` the word being completed is `_D`: complete `D`
 * and keep the `_` of the contraction in front. */
char **repl_complete(Session *s, const char *line, const char *text, int start)
{
    bool contraction = start > 0 && line[start - 1] == '*' && text[0] == '_';
    Matches m = {.session = s, .lead = contraction ? "_" : "", .prefix = text + contraction,
                 .count = 1};
    m.prefix_len = strlen(m.prefix);
    if (contraction)
        operand_dims(line, start - 1, &m);
    else if (after_mode(line, start))
        collect_match("training", &m), collect_match("inference", &m);
    else
        session_each_name(s, kinds_at(line, start), collect_match, &m);
    if (!m.out_of_memory && m.count > 1) {
        sort_matches(&m);
        m.matches[0] = common_prefix(m.matches + 1, m.count - 1);
        m.matches[m.count] = NULL;
        if (m.matches[0])
            return m.matches;
    }
    free_matches(&m);
    return NULL;
}

/* The characters that end a word for completion: everything that can sit before a
 * name. `_` is not one, since names may contain it (`*_D` completes as a word). */
static const char WORD_BREAKS[] = " \t\n\"'#[](){},;:=*/+-<>^%!|&";

/* Where the word that ends at `end` begins. */
static size_t word_start(const char *line, size_t end)
{
    size_t start = end;
    while (start > 0 && !strchr(WORD_BREAKS, line[start - 1]))
        start--;
    return start;
}

/* The array repl_complete_line returns, from the word's matches `m`: [0] becomes the
 * text before the word then the matches' common prefix; one match is [1] as well, so
 * libedit sees it is the only one (it lists the matches otherwise). Frees `m` when it
 * cannot. */
static char **before_word(char **m, const char *line, size_t start)
{
    char *whole = malloc(start + strlen(m[0]) + 1);
    char *twin = whole && !m[2] ? malloc(start + strlen(m[1]) + 1) : NULL;
    if (!whole || (!m[2] && !twin)) {
        free(whole);
        for (size_t i = 0; m[i]; i++)
            free(m[i]);
        free(m);
        return NULL;
    }
    memcpy(whole, line, start);
    strcpy(whole + start, m[0]);
    free(m[0]);
    m[0] = whole;
    if (twin) {
        free(m[1]);
        m[1] = strcpy(twin, whole);
    }
    return m;
}

/* The line up to the cursor is copied first: completion never reads the caller's
 * buffer after this (libedit's can move under it), nor past the cursor. */
char **repl_complete_line(Session *s, const char *line, size_t cursor)
{
    size_t len = strnlen(line, cursor);
    char *copy = len < INT_MAX ? strndup(line, len) : NULL;
    if (!copy)
        return NULL;
    size_t start = word_start(copy, len);
    char **m = repl_complete(s, copy, copy + start, (int)start);
    if (m)
        m = before_word(m, copy, start);
    free(copy);
    return m;
}

#ifdef HAVE_LIBEDIT

/* libedit's completion callback takes no context argument, so the session whose names
 * it completes must be reachable from a static. Set only while repl_run runs. */
static Session *completion_session;

/* No word breaks for libedit: it then hands the completion the whole line up to the
 * cursor, in a copy it makes for the call, the one view of the line it keeps valid
 * (rl_line_buffer is not: guard_line_buffer); repl_complete_line finds the word. */
static char no_word_breaks[] = "";

/* libedit (3.1-20221030, Debian 12's) points rl_line_buffer into a conversion buffer
 * that it later grows with realloc without moving the pointer: el_gets after a line
 * of some 3,100 bytes or more, el_line once a line typed that long outgrows it. Each
 * Tab then writes rl_line_buffer[rl_end] = '\0' into the freed block before it
 * completes, which corrupted malloc's lists and aborted the REPL (issue 29). This
 * hook runs at each Tab just before that write and points rl_line_buffer at a buffer
 * of ours at least as long as the live line and its NUL. rl_copy_text reads the live
 * line; only the size of its copy is used (the line's length and a byte more), not
 * its text: it leaves out the line's last character, and an empty line's copy is not
 * even terminated. Out of memory, libedit's pointer stays. */
static char *line_buffer_guard;
static size_t line_buffer_guard_cap;

static char *guard_line_buffer(void)
{
    char *live = rl_copy_text(0, INT_MAX);
    size_t need = live ? malloc_usable_size(live) + 1 : 0;
    free(live);
    if (need > line_buffer_guard_cap) {
        char *grown = realloc(line_buffer_guard, need);
        if (grown) {
            line_buffer_guard = grown;
            line_buffer_guard_cap = need;
        }
    }
    if (need > 0 && need <= line_buffer_guard_cap) {
        line_buffer_guard[0] = '\0';
        rl_line_buffer = line_buffer_guard;
    }
    return no_word_breaks;
}

static char **complete_name(const char *text, int start, int end)
{
    (void)start, (void)end;
    rl_attempted_completion_over = 1; /* names only; never fall back to file names */
    /* Nothing is appended after a name: in this language the next character is most
     * often `[`, `,` or `]`, and a space there would have to be deleted. */
    rl_completion_append_character = '\0';
    return repl_complete_line(completion_session, text, strlen(text));
}

/* Returns the history file's path, or NULL when HOME is unset or empty (no history
 * then, and no message: a sandbox or a service account is not an error). */
static char *history_path(void)
{
    const char *home = getenv("HOME");
    if (!home || !*home)
        return NULL;
    char *path = malloc(strlen(home) + sizeof HISTORY_FILE);
    if (path)
        strcat(strcpy(path, home), HISTORY_FILE);
    return path;
}

/* libedit's write_history does not check its writes: the file it wrote must hold its
 * first line and one line per entry, the last ended too (a full disk cuts it short). */
static bool history_whole(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return false;
    long lines = 0;
    int c, last = '\n';
    while ((c = getc(f)) != EOF)
        lines += (last = c) == '\n';
    bool whole = !ferror(f) && last == '\n' && lines > history_length;
    fclose(f);
    if (!whole)
        errno = EIO;
    return whole;
}

/* The history replaces the old file only once written whole (outfile.h): a full disk
 * at exit must not cost the user the history they had. */
static bool save_history(const char *path)
{
    OutFile file;
    if (outfile_open(&file, path)) {
        const char *to = file.temp ? file.temp : path;
        if (outfile_close(&file, write_history(to) == 0 && history_whole(to)))
            return true;
    }
    fprintf(stderr, "roofline: error: cannot write the history %s: %s\n", path, strerror(errno));
    return false;
}

/* libedit, in the C locale, reads each byte as a character and drops every one above
 * 0x7F when it makes the line: `x\xff\xfe = 1` came back as `x = 1` and ran, and a
 * typed `µ` vanished. Those bytes are kept here as they are read, each with the number
 * of printable characters typed before it, and put back where they were typed, so
 * that the line is the one typed and the lexer judges it as in a script (invalid UTF-8
 * is a located error). After editing keys the place is where the byte was typed. */
typedef struct {
    size_t at;          /* printable characters read before the byte */
    unsigned char byte;
} KeptByte;

/* Static, as completion_session is: libedit's getc hook takes no context. */
static struct {
    KeptByte *bytes;
    size_t n, cap, typed;
    bool out_of_memory;
} kept;

/* One byte of the terminal, as libedit's rl_getc_function; -1 at the end of input or
 * when Ctrl-C interrupts the read (readline then returns NULL, as without the hook). */
static int read_byte(FILE *in)
{
    unsigned char byte;
    for (;;) {
        ssize_t n = read(fileno(in), &byte, 1);
        if (n == 1)
            return byte;
        if (n == 0 || errno != EINTR || interrupt_pending())
            return -1;
    }
}

/* Keeps a byte above 0x7F, never handing it to libedit: it would read it as a meta
 * key and edit the line (0xFF deletes a word). */
static bool keep_byte(unsigned char byte)
{
    if (kept.n == kept.cap) {
        size_t cap = 2 * kept.cap + 16;
        KeptByte *grown = realloc(kept.bytes, cap * sizeof *grown);
        if (!grown) {
            kept.out_of_memory = true; /* read_edit ends the session */
            return false;
        }
        kept.bytes = grown;
        kept.cap = cap;
    }
    kept.bytes[kept.n++] = (KeptByte){kept.typed, byte};
    return true;
}

static int getc_keeping_bytes(FILE *in)
{
    int c;
    while ((c = read_byte(in)) >= 0x80)
        keep_byte((unsigned char)c);
    if (c >= 0x20 && c < 0x7F)
        kept.typed++;
    return c;
}

/* The line libedit made, with the kept bytes put back; NULL if out of memory. */
static char *with_kept_bytes(const char *line)
{
    size_t len = strlen(line), from = 0, used = 0;
    char *whole = malloc(len + kept.n + 1);
    for (size_t i = 0; whole && i < kept.n; i++) {
        size_t at = kept.bytes[i].at < len ? kept.bytes[i].at : len;
        if (at > from) {
            memcpy(whole + used, line + from, at - from);
            used += at - from;
            from = at;
        }
        whole[used++] = (char)kept.bytes[i].byte;
    }
    if (whole)
        memcpy(whole + used, line + from, len - from + 1);
    return whole;
}

static void edit_begin(Session *s)
{
    completion_session = s;
    rl_readline_name = "roofline";
    rl_attempted_completion_function = complete_name;
    rl_completion_word_break_hook = guard_line_buffer;
    rl_basic_word_break_characters = no_word_breaks;
    rl_completer_word_break_characters = no_word_breaks;
    /* libedit's own SIGINT handler would re-raise the signal and retry the read;
     * ours makes readline return so the loop can drop the pending statement. */
    rl_catch_signals = 0;
    rl_getc_function = getc_keeping_bytes; /* stays: a later readline may use it */
    using_history();
    stifle_history(HISTORY_MAX);
}

/* After the loop: nothing completes any more, and libedit points at nothing of ours. */
static void edit_end(void)
{
    completion_session = NULL;
    if (rl_line_buffer == line_buffer_guard)
        rl_line_buffer = NULL;
    free(line_buffer_guard);
    line_buffer_guard = NULL;
    line_buffer_guard_cap = 0;
    free(kept.bytes);
    kept.bytes = NULL;
    kept.n = kept.cap = 0;
}

/* Each line goes into history as it is typed; once a statement of several lines is
 * complete, its lines are replaced by one entry (remember_statement). */
static void remember_line(Repl *r, const char *line)
{
    if (!is_blank(line, strlen(line))) {
        add_history(line);
        r->history_lines++;
    }
}

static ReadResult read_edit(Repl *r, const char *prompt)
{
    kept.n = kept.typed = 0;
    kept.out_of_memory = false;
    char *typed = readline(prompt);
    if (!typed)
        return interrupt_pending() ? READ_INTERRUPT : READ_EOF;
    char *line = kept.n && !kept.out_of_memory ? with_kept_bytes(typed) : typed;
    if (line != typed)
        free(typed);
    if (!line || kept.out_of_memory) { /* the session ends, as in handle_line */
        fputs("roofline: error: out of memory\n", stderr);
        free(line);
        return READ_EOF;
    }
    remember_line(r, line);
    r->line_len = strlen(line);
    free(r->line);
    r->line = line;
    r->line_cap = r->line_len + 1;
    return READ_LINE;
}

/* A statement of several lines comes back from history as one entry: libedit edits
 * one line at a time (an entry with newlines inside redraws badly), so the entry is
 * the statement on one line that reads the same (history_line.c). */
static void remember_statement(Repl *r)
{
    int lines = r->history_lines;
    r->history_lines = 0;
    if (!r->terminal || lines < 2)
        return;
    char *joined = history_line(r->pending, r->pending_len);
    /* libedit's free_history_entry leaves the entry and its line: free both here */
    for (int i = 0; i < lines && history_length > 0; i++) {
        HIST_ENTRY *gone = remove_history(history_length - 1);
        if (gone) {
            free((void *)gone->line);
            free(gone);
        }
    }
    if (joined)
        add_history(joined);
    else /* the statement leaves the history, and the session ends (handle_line) */
        r->out_of_memory = true;
    free(joined);
}

#else

static void remember_statement(Repl *r)
{
    (void)r;
}

#endif /* HAVE_LIBEDIT */

/* ---- the loop ------------------------------------------------------------------- */

static ReadResult read_line(Repl *r)
{
    const char *prompt = r->pending_len > 0 ? PROMPT_MORE : PROMPT;
    interrupt_clear(); /* a Ctrl-C during the last statement's run is not for this read */
#ifdef HAVE_LIBEDIT
    if (r->terminal)
        return read_edit(r, prompt);
#endif
    return read_plain(r, prompt);
}

/* Ctrl-C drops what was typed so far. The terminal echoed ^C; start a fresh line. */
static void discard_pending(Repl *r)
{
    r->pending_len = 0;
    r->history_lines = 0;
    fputc('\n', stdout);
}

/* End of input. At a terminal, Ctrl-D inside an unfinished statement leaves quietly:
 * the user chose to go. From a pipe the script ended early: the unfinished statement is
 * run once more as complete, so the real syntax error is reported instead of silence. */
static void finish(Repl *r)
{
    if (r->terminal)
        fputc('\n', stdout); /* leave the prompt's line */
    fflush(stdout);
    if (r->pending_len > 0 && !r->terminal)
        run_pending(r, false);
}

static void loop(Repl *r)
{
    for (;;) {
        ReadResult got = read_line(r);
        if (got == READ_EOF) {
            finish(r);
            return;
        }
        if (got == READ_INTERRUPT)
            discard_pending(r);
        else if (!handle_line(r))
            return;
        if (output_failed(r))
            return;
    }
}

int repl_run(Session *s, bool interactive_terminal)
{
    Repl r = {.session = s, .terminal = interactive_terminal,
              .name = interactive_terminal ? "<repl>" : "<stdin>"};
    struct sigaction old_sigint;
    if (r.terminal) {
        interrupt_catch(true, &old_sigint); /* the read must fail at once with EINTR */
        fputs(BANNER, stdout);
    }
    bool saved = true;
#ifdef HAVE_LIBEDIT
    char *history = NULL;
    if (r.terminal) {
        edit_begin(s);
        history = history_path();
        if (history)
            read_history(history);
    }
#endif
    loop(&r);
#ifdef HAVE_LIBEDIT
    saved = !history || save_history(history);
    free(history);
    edit_end();
#endif
    if (r.terminal)
        interrupt_release(&old_sigint);
    free(r.pending);
    free(r.line);
    if (output_failed(&r) || r.out_of_memory || !saved)
        return r.status > RUN_ERROR ? r.status : RUN_ERROR;
    return r.terminal ? 0 : r.status;
}
