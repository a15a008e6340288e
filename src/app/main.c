/* main.c — the command line: options, scripts or the REPL, exit statuses.
 *
 * Exit status: 0 fine; 1 a runtime error, a failed check or an output error; 2 a
 * syntax or usage error.
 */
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "calibrate.h"
#include "html.h"
#include "num.h"
#include "repl.h"
#include "session.h"
#include "source.h"
#include "spell.h"
#include "stack.h"

static const char usage[] =
    "usage: roofline [OPTION]... [FILE.roof | -e STATEMENT | -]...\n"
    "\n"
    "How long must a tensor computation take, and what bounds it?\n"
    "\n"
    "  roofline                     the REPL (when stdin is a terminal)\n"
    "  roofline FILE.roof ...       run scripts, report each statement\n"
    "  roofline -e 'STATEMENT'      run one statement (may be repeated)\n"
    "  roofline -                   run a script read from stdin\n"
    "\n"
    "options:\n"
    "  --json      one JSON object per reported statement (JSON Lines)\n"
    "  --csv       one CSV table: a row per costed statement (per point, per op of a\n"
    "              breakdown), the --json fields as columns, `kind` first\n"
    "  --exact     count out*(2K-1) FLOPs per contraction, not 2*out*K\n"
    "  --ast       print each statement's syntax tree instead of running it\n"
    "  --chips     list the chips (after running the inputs, so derived ones show)\n"
    "  --jobs N    cost a search's configurations, and the points of a sweep that costs\n"
    "              whole statements, in N processes (default: one per core); the output\n"
    "              is what one process prints\n"
    "  --html FILE write the run as one self-contained HTML page (charts, the breakdown)\n"
    "  --calibrate CHIP FILE.jsonl\n"
    "              print CHIP_cal, CHIP fitted to measured kernel times (after running\n"
    "              the inputs, so a chip they define can be calibrated); --leave-out CASE\n"
    "              fits without one case, --cases prints each case as a statement too\n"
    "  --help      this text (also -h)\n"
    "  --version   the version\n"
    "\n"
    "conventions: a multiply-add counts 2 FLOPs, so bf16[B,D] *_D bf16[D,F] costs 2*B*D*F;\n"
    "each operand is read from HBM once and the result written once; units are decimal\n"
    "(1 GB = 1e9 B). Exit status: 0 fine, 1 runtime error, 2 syntax or usage error.\n";

/* An input, in the order given: a file ("-" for stdin) or an -e statement. */
typedef struct {
    const char *text;
    bool statement;
} Input;

typedef struct {
    bool json, csv, exact, ast, chips;
    const char *html; /* --html FILE: the page's path */
    int jobs;         /* --jobs N; 0 when not given (one per core) */
    const char *calibrate;  /* --calibrate CHIP: the chip the measurements are of */
    CalibrateOptions cal;   /* its file, --leave-out CASE, --cases */
    Input *inputs; /* argc entries at most */
    int ninputs;
} Options;

static int usage_error(const char *fmt, const char *arg)
{
    fprintf(stderr, "roofline: error: ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\n(roofline --help shows the usage)\n");
    return 2;
}

static const struct {
    const char *name;
    size_t flag; /* offset of the bool in Options */
} flags[] = {
    {"--json", offsetof(Options, json)},
    {"--csv", offsetof(Options, csv)},
    {"--exact", offsetof(Options, exact)},
    {"--ast", offsetof(Options, ast)},
    {"--chips", offsetof(Options, chips)},
};

static bool set_flag(Options *o, const char *arg)
{
    for (size_t k = 0; k < sizeof flags / sizeof flags[0]; k++)
        if (strcmp(arg, flags[k].name) == 0) {
            *(bool *)((char *)o + flags[k].flag) = true;
            return true;
        }
    return false;
}

/* "unknown option --jsn", with the option it is closest to when one is within 2 edits. */
static int unknown_option(const char *arg)
{
    SpellNear near = spell_begin(arg);
    for (size_t k = 0; k < sizeof flags / sizeof flags[0]; k++)
        spell_offer(&near, flags[k].name);
    spell_offer(&near, "--html");
    spell_offer(&near, "--jobs");
    spell_offer(&near, "--calibrate");
    spell_offer(&near, "--help");
    spell_offer(&near, "--version");
    if (!near.best)
        return usage_error("unknown option %s", arg);
    fprintf(stderr, "roofline: error: unknown option %s; did you mean %s?\n", arg, near.best);
    fputs("(roofline --help shows the usage)\n", stderr);
    return 2;
}

static bool read_jobs(const char *text, int *jobs)
{
    char *end;
    long n = strtol(text, &end, 10);
    if (end == text || *end || n < 1 || n > 1024)
        return false;
    *jobs = (int)n;
    return true;
}

/* One process per core the system has online; one when it cannot say. */
static int cores(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 1 ? (int)(n < 1024 ? n : 1024) : 1;
}

/* Reads every argument before anything runs, so a usage error runs nothing. Options
 * may come anywhere before `--`; after it every argument is a file. Returns -1 to go
 * on, or an exit status. */
static int parse_options(int argc, char **argv, Options *o)
{
    bool files_only = false;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if (files_only || arg[0] != '-' || strcmp(arg, "-") == 0)
            o->inputs[o->ninputs++] = (Input){arg, false};
        else if (strcmp(arg, "--") == 0)
            files_only = true;
        else if (strcmp(arg, "-e") == 0 && i + 1 < argc)
            o->inputs[o->ninputs++] = (Input){argv[++i], true};
        else if (strcmp(arg, "-e") == 0)
            return usage_error("%s needs a statement", "-e");
        else if (strcmp(arg, "--html") == 0 && i + 1 < argc)
            o->html = argv[++i];
        else if (strcmp(arg, "--html") == 0)
            return usage_error("%s needs the path of the page to write", "--html");
        else if (strcmp(arg, "--calibrate") == 0 && i + 2 < argc) {
            o->calibrate = argv[++i];
            o->cal.path = argv[++i];
        } else if (strcmp(arg, "--calibrate") == 0)
            return usage_error("%s needs a chip and a file of measurements", "--calibrate");
        else if (strcmp(arg, "--jobs") == 0 && i + 1 < argc) {
            if (!read_jobs(argv[++i], &o->jobs))
                return usage_error("--jobs takes a whole number of processes, 1 to 1024, "
                                   "not %s", argv[i]);
        } else if (strcmp(arg, "--jobs") == 0)
            return usage_error("%s needs a number of processes", "--jobs");
        else if (strcmp(arg, "--leave-out") == 0 && i + 1 < argc)
            o->cal.leave_out = argv[++i];
        else if (strcmp(arg, "--leave-out") == 0)
            return usage_error("%s needs the name of a measured case", "--leave-out");
        else if (strcmp(arg, "--cases") == 0)
            o->cal.cases = true;
        else if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0)
            return fputs(usage, stdout), 0;
        else if (strcmp(arg, "--version") == 0)
            return puts("roofline " ROOFLINE_VERSION), 0;
        else if (!set_flag(o, arg))
            return unknown_option(arg);
    }
    if ((o->cal.leave_out || o->cal.cases) && !o->calibrate)
        return usage_error("%s go with --calibrate CHIP FILE", "--leave-out and --cases");
    if (o->html && o->ast)
        return usage_error("%s: the page shows costs, not syntax trees; pick one", "--html --ast");
    if (o->html && o->csv)
        return usage_error("%s: the page is drawn from the JSON records, not CSV; pick one",
                           "--html --csv");
    if (o->json && o->csv)
        return usage_error("%s: --json and --csv are two formats for one output; pick one",
                           "--json --csv");
    return -1;
}

static int run_file(Session *s, const char *path)
{
    const char *why = NULL, *name = strcmp(path, "-") == 0 ? "<stdin>" : path;
    size_t len = 0;
    char *text = source_read_file(strcmp(path, "-") == 0 ? NULL : path, &len, &why);
    if (!text) {
        fprintf(stderr, "roofline: error: cannot read %s: %s\n", name, why);
        return 1;
    }
    int status = (int)session_run(s, name, text, len, false);
    free(text);
    return status;
}

/* Runs the inputs in order and stops at the first that fails. The first -e is
 * "<-e>", the k-th "<-e k>": errors and records (their "file") tell them apart. */
static int run_inputs(Session *s, const Options *o)
{
    int status = 0, statements = 0;
    char name[32];
    for (int i = 0; i < o->ninputs && status == 0; i++) {
        const Input *in = &o->inputs[i];
        if (in->statement) {
            if (++statements == 1)
                snprintf(name, sizeof name, "<-e>");
            else
                snprintf(name, sizeof name, "<-e %d>", statements);
            status = (int)session_run(s, name, in->text, strlen(in->text), false);
        } else
            status = run_file(s, in->text);
    }
    return status;
}

/* Output that could not be written is an error, not silence. */
static int finish_output(int status)
{
    errno = 0;
    if (fflush(stdout) != 0 || ferror(stdout)) { /* errno 0: a write failed earlier */
        fprintf(stderr, "roofline: error: writing the output: %s\n",
                errno ? strerror(errno) : "a write failed");
        return status ? status : 1;
    }
    return status;
}

/* The page's title: the scripts it ran; with none, the -e statements themselves
 * ("let B = 256; bf16[B, D] *_D ..."), not a row of "-e". */
static void inputs_title(const Options *o, char *buf, size_t size)
{
    size_t used = 0;
    bool scripts = false;
    buf[0] = '\0';
    for (int i = 0; i < o->ninputs; i++)
        scripts = scripts || !o->inputs[i].statement;
    for (int i = 0; i < o->ninputs && used < size; i++)
        if (o->inputs[i].statement != scripts)
            used += (size_t)snprintf(buf + used, size - used, "%s%s", used ? scripts ? ", " : "; "
                                                                             : "",
                                     o->inputs[i].text);
    if (o->ninputs == 0)
        snprintf(buf, size, "<stdin>");
}

/* --html: the session wrote its JSON records to the page's store; with --json they are
 * the output too. Then the page, and a line that says where it went. */
static int write_page(Session *s, const Options *o, HtmlPage *page, int status)
{
    char title[512], why[600], size[32];
    long bytes = 0;
    session_list_chips_as(s, html_chips(page), true);
    if (o->json && !html_copy_records(page, stdout)) {
        fputs("roofline: error: cannot copy the run's records to the output\n", stderr);
        return status ? status : 1;
    }
    inputs_title(o, title, sizeof title);
    HtmlOptions ho = {.path = o->html, .title = title, .status = status};
    if (!html_write(page, &ho, &bytes, why, sizeof why)) {
        fprintf(stderr, "roofline: error: %s\n", why);
        return status ? status : 1;
    }
    if (!o->json)
        printf("wrote %s (%s)\n", o->html, num_format_unit((double)bytes, UNIT_BYTES, 0, size,
                                                           sizeof size));
    return status;
}

/* --calibrate CHIP FILE: the chip as the session knows it, fitted to the file. */
static int calibrate_chip(Session *s, const Options *o)
{
    const Chip *base = session_chip(s, o->calibrate);
    if (!base)
        return usage_error("--calibrate: no chip %s (roofline --chips lists them)", o->calibrate);
    return calibrate_run(base, &o->cal, stdout, stderr);
}

/* The --html page being written: closed at exit too, because flex's out-of-memory
 * stop (lexer.l's lexer_fatal) leaves through exit(1) with it open. */
static HtmlPage *open_page;

static void close_page(void)
{
    html_free(open_page);
    open_page = NULL;
}

int main(int argc, char **argv)
{
    stack_begin(argc, argv);
    Options o = {.inputs = calloc((size_t)argc, sizeof(Input))};
    if (!o.inputs) {
        fputs("roofline: error: out of memory\n", stderr);
        return 1;
    }
    int status = parse_options(argc, argv, &o);
    if (status >= 0) {
        free(o.inputs);
        return finish_output(status);
    }
    if (o.html && o.ninputs == 0 && !o.chips && isatty(STDIN_FILENO)) {
        free(o.inputs);
        return usage_error("%s writes the page of a run: give it a script, -e or -", "--html");
    }
    HtmlPage *page = o.html ? html_new() : NULL;
    if (page) {
        open_page = page;
        atexit(close_page);
    }
    if (o.html && !page) {
        free(o.inputs);
        perror("roofline: error: --html needs a temporary file");
        return 1;
    }
    const char *no_color = getenv("NO_COLOR");
    SessionOptions so = {
        .json = o.json || page,
        .csv = o.csv,
        .exact = o.exact,
        .jobs = o.jobs ? o.jobs : cores(),
        .ast = o.ast,
        .color = isatty(STDERR_FILENO) && !(no_color && no_color[0]),
        .out = page ? html_records(page) : stdout,
        .err = stderr,
    };
    Session *s = session_new(&so);
    if (!s) {
        free(o.inputs);
        close_page();
        fputs("roofline: error: cannot start (out of memory, or a broken stdlib)\n", stderr);
        return 1;
    }
    if (o.ninputs > 0)
        status = run_inputs(s, &o);
    else if (o.chips || o.calibrate)
        status = 0;
    else if (isatty(STDIN_FILENO))
        status = repl_run(s, true);
    else
        status = run_file(s, "-");
    if (page)
        status = write_page(s, &o, page, status);
    if (o.calibrate && status == 0)
        status = calibrate_chip(s, &o);
    if (o.chips && status == 0)
        session_list_chips_as(s, stdout, o.json);
    session_free(s);
    close_page();
    free(o.inputs);
    return finish_output(status);
}
