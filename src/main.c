/* main.c — the command line: options, scripts or the REPL, exit statuses.
 *
 * Exit status: 0 fine; 1 a runtime error, a failed check or an output error; 2 a
 * syntax or usage error.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "repl.h"
#include "session.h"
#include "source.h"

static const char usage[] =
    "usage: roofline [--json] [--exact] [--ast] [--chips] [FILE.roof ... | -e STATEMENT ... | -]\n"
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
    "  --exact     count out*(2K-1) FLOPs per contraction, not 2*out*K\n"
    "  --ast       print each statement's syntax tree instead of running it\n"
    "  --chips     list the chips (after running the inputs, so derived ones show)\n"
    "  --help      this text\n"
    "  --version   the version\n"
    "\n"
    "conventions: a multiply-add counts 2 FLOPs, so bf16[B,D] *_D bf16[D,F] costs 2*B*D*F;\n"
    "each operand is read from HBM once and the result written once; units are decimal\n"
    "(1 GB = 1e9 B). Exit status: 0 fine, 1 runtime error, 2 syntax or usage error.\n";

typedef struct {
    bool json, exact, ast, chips;
    int first_input; /* index in argv of the first file or -e */
} Options;

static int usage_error(const char *fmt, const char *arg)
{
    fprintf(stderr, "roofline: error: ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\n(roofline --help shows the usage)\n");
    return 2;
}

/* Options come before the inputs; returns -1 to go on, or an exit status. */
static int parse_options(int argc, char **argv, Options *o)
{
    int i = 1;
    for (; i < argc && argv[i][0] == '-' && argv[i][1] == '-'; i++) {
        if (strcmp(argv[i], "--json") == 0)
            o->json = true;
        else if (strcmp(argv[i], "--exact") == 0)
            o->exact = true;
        else if (strcmp(argv[i], "--ast") == 0)
            o->ast = true;
        else if (strcmp(argv[i], "--chips") == 0)
            o->chips = true;
        else if (strcmp(argv[i], "--help") == 0)
            return fputs(usage, stdout), 0;
        else if (strcmp(argv[i], "--version") == 0)
            return puts("roofline " ROOFLINE_VERSION), 0;
        else if (strcmp(argv[i], "--") == 0) {
            i++;
            break;
        } else
            return usage_error("unknown option %s", argv[i]);
    }
    o->first_input = i;
    return -1;
}

static int run_file(Session *s, const char *path)
{
    const char *why = NULL;
    size_t len = 0;
    char *text = source_read_file(strcmp(path, "-") == 0 ? NULL : path, &len, &why);
    if (!text) {
        fprintf(stderr, "roofline: error: cannot read %s: %s\n", path, why);
        return 1;
    }
    int status = session_run(s, strcmp(path, "-") == 0 ? "<stdin>" : path, text, len, false);
    free(text);
    return status;
}

static int run_inputs(Session *s, int argc, char **argv, int i)
{
    int status = 0;
    for (; i < argc && status == 0; i++) {
        if (strcmp(argv[i], "-e") == 0) {
            if (i + 1 >= argc)
                return usage_error("%s needs a statement", "-e");
            i++;
            status = session_run(s, "<-e>", argv[i], strlen(argv[i]), false);
        } else if (argv[i][0] == '-' && argv[i][1] != '\0') {
            return usage_error("options go before the inputs: %s", argv[i]);
        } else {
            status = run_file(s, argv[i]);
        }
    }
    return status;
}

/* Output that could not be written is an error, not silence. */
static int finish_output(int status)
{
    if (fflush(stdout) != 0 || ferror(stdout)) {
        perror("roofline: error: writing the output");
        return status ? status : 1;
    }
    return status;
}

int main(int argc, char **argv)
{
    Options o = {0};
    int status = parse_options(argc, argv, &o);
    if (status >= 0)
        return finish_output(status);
    const char *no_color = getenv("NO_COLOR");
    SessionOptions so = {
        .json = o.json,
        .exact = o.exact,
        .ast = o.ast,
        .color = isatty(STDERR_FILENO) && !(no_color && no_color[0]),
        .out = stdout,
        .err = stderr,
    };
    Session *s = session_new(&so);
    if (!s) {
        fputs("roofline: error: cannot start (out of memory, or a broken stdlib)\n", stderr);
        return 1;
    }
    if (o.first_input < argc)
        status = run_inputs(s, argc, argv, o.first_input);
    else if (o.chips)
        status = 0;
    else if (isatty(STDIN_FILENO))
        status = repl_run(s, true);
    else
        status = run_file(s, "-");
    if (o.chips && status == 0)
        session_list_chips(s, stdout);
    session_free(s);
    return finish_output(status);
}
