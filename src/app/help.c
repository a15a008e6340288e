/* help.c — `help NAME`: a block's doc comment, signature and each parameter's meaning,
 * or a model's fields with their meanings and sources.
 *
 * A name's meaning is a legend line in a comment, `#   D     model width`: the name
 * after the `#` and its spaces, two spaces or more, the text, continued by comment
 * lines indented to the text. It is looked for in the block's doc comment, then in
 * the header comment of its file, then in the headers of the other files that define
 * blocks (stdlib/models.roof holds the legend of the stdlib's dims).
 */
#include <string.h>

#include "help.h"
#include "chipcard.h"
#include "spell.h"

/* The end of the comment lines at the start of text (a file's header). */
static int header_end(const char *text)
{
    int at = 0;
    while (text[at] == '#') {
        const char *nl = strchr(text + at, '\n');
        if (!nl)
            return (int)strlen(text);
        at = (int)(nl - text) + 1;
    }
    return at;
}

/* The column where a line's legend text starts if the line explains `name`, else -1. */
static int legend_text(const char *line, int len, const char *name)
{
    int i = 1, nlen = (int)strlen(name);
    if (len < 1 || line[0] != '#')
        return -1;
    while (i < len && line[i] == ' ')
        i++;
    if (i == 1 || i + nlen + 2 > len || memcmp(line + i, name, (size_t)nlen) != 0 ||
        line[i + nlen] != ' ' || line[i + nlen + 1] != ' ')
        return -1;
    i += nlen;
    while (i < len && line[i] == ' ')
        i++;
    return i < len ? i : -1;
}

/* A continuation of legend text at column col: `#`, spaces up to col, then text. */
static bool continues(const char *line, int len, int col)
{
    if (len <= col || line[0] != '#')
        return false;
    for (int i = 1; i < col; i++)
        if (line[i] != ' ')
            return false;
    return line[col] != ' ';
}

/* Appends len bytes of text to buf at *used, as far as they fit. */
static void append(char *buf, size_t size, size_t *used, const char *text, int len)
{
    if (*used < size)
        *used += (size_t)snprintf(buf + *used, size - *used, "%.*s", len, text);
}

/* name's legend from text[from, to), its lines joined, into buf; false when none. */
static bool legend_in(const char *text, int from, int to, const char *name, char *buf,
                      size_t size)
{
    for (int at = from; at < to;) {
        const char *nl = memchr(text + at, '\n', (size_t)(to - at));
        int len = nl ? (int)(nl - (text + at)) : to - at;
        int col = legend_text(text + at, len, name);
        size_t used = 0;
        if (col >= 0)
            append(buf, size, &used, text + at + col, len - col);
        at += len + 1;
        while (col >= 0 && at < to) { /* its continuation lines */
            nl = memchr(text + at, '\n', (size_t)(to - at));
            len = nl ? (int)(nl - (text + at)) : to - at;
            if (!continues(text + at, len, col))
                break;
            append(buf, size, &used, " ", 1);
            append(buf, size, &used, text + at + col, len - col);
            at += len + 1;
        }
        if (col >= 0)
            return true;
    }
    return false;
}

static bool legend(const World *w, const char *doc, int doc_len, const Source *own,
                   const char *name, char *buf, size_t size)
{
    if (doc && legend_in(doc, 0, doc_len, name, buf, size))
        return true;
    if (own && legend_in(own->text, 0, header_end(own->text), name, buf, size))
        return true;
    for (int i = 0; i < w->nkept; i++) {
        const Source *src = w->kept[i].src;
        if (src != own && legend_in(src->text, 0, header_end(src->text), name, buf, size))
            return true;
    }
    return false;
}

static void help_block(const World *w, const BlockDef *b, FILE *out)
{
    char sig[1024];
    const Stmt *def = b->def;
    int start = source_doc_comment(b->src->text, def->span.begin);
    call_block_signature(w, b, sig, sizeof sig);
    fprintf(out, "%.*s%s\n", def->span.begin - start, b->src->text + start, sig);
    if (def->as.block.nparams)
        fputs("parameters:\n", out);
    int width = 6; /* the names' column: 6 (the legend's), or the longest name (kvdtype) */
    for (int i = 0; i < def->as.block.nparams; i++) {
        int len = (int)strlen(intern_name(w->names, def->as.block.params[i].name.name));
        width = len > width ? len : width;
    }
    for (int i = 0; i < def->as.block.nparams; i++) {
        const char *name = intern_name(w->names, def->as.block.params[i].name.name);
        char text[1024] = "";
        legend(w, b->src->text + start, def->span.begin - start, b->src, name, text,
               sizeof text);
        fprintf(out, "  %-*s %s\n", width, name, text);
    }
}

static void help_arch(const World *w, const Arch *a, FILE *out)
{
    fprintf(out, "%smodel %s, from %s", a->doc ? a->doc : "", intern_name(w->names, a->name),
            a->origin);
    if (a->dtype >= 0)
        fprintf(out, "; runs in %s (weights, activations, KV cache)",
                dtype_name((DType)a->dtype));
    fputs("\nfields:\n", out);
    for (int i = 0; i < a->n; i++) {
        const ArchField *f = &a->fields[i];
        const char *name = intern_name(w->names, f->name);
        char value[64], text[1024] = "";
        if (f->block >= 0) {
            snprintf(value, sizeof value, "%s", intern_name(w->names, f->block));
            snprintf(text, sizeof text, "the block that costs it for %s(...)", name);
        } else {
            snprintf(value, sizeof value, "%.17g", f->number);
            legend(w, NULL, 0, NULL, name, text, sizeof text);
        }
        fprintf(out, "  %-6s = %-11s %s\n", name, value, text);
    }
}

bool help_on(const World *w, const char *word, FILE *out)
{
    int id = intern_find(w->names, word);
    const BlockDef *b = id >= 0 ? world_block(w, id) : NULL;
    const Arch *a = id >= 0 ? arch_find(&w->archs, id) : NULL;
    if (a)
        help_arch(w, a, out);
    else if (b)
        help_block(w, b, out);
    return a || b;
}

void help_list_models(const World *w, FILE *out)
{
    for (int i = 0; i < w->archs.n; i++) {
        const Arch *a = &w->archs.items[i];
        fprintf(out, "%s%-14s", i ? "             " : "models       ", intern_name(w->names, a->name));
        for (int k = 0; k < a->n; k++) {
            const ArchField *f = &a->fields[k];
            if (f->block >= 0)
                fprintf(out, "%s%s = %s", k ? ", " : "", intern_name(w->names, f->name),
                        intern_name(w->names, f->block));
            else
                fprintf(out, "%s%s = %.17g", k ? ", " : "", intern_name(w->names, f->name),
                        f->number);
        }
        fputc('\n', out);
    }
}

/* ---- help on a statement word ---------------------------------------------------- */

/* What a newcomer sees first: the statements by task, then how to ask for more. */
static const char OVERVIEW[] =
    "Statements (one per line; an unfinished one continues on the next line):\n"
    "  let B = 256, D = 8k            bind dims\n"
    "  use v5e                        the default chip from here on\n"
    "  bf16[B,D] *_D bf16[D,F]        contract over D: FLOPs, bytes, intensity, times\n"
    "  bf16[B,D] *_D int8[D,F] -> bf16[B,F] on v5e    choose output dtype and chip\n"
    "  x = bf16[B,D]                  name a tensor or a result\n"
    "  chip mine : v5e { hbm_bw = 8.1e11 }            a chip derived from another\n"
    "  chip v5p                       every field, its source, the ridges that follow\n"
    "  include \"file.roof\"            run a script\n"
    "Many chips (figures per chip, plus the collectives the shardings imply):\n"
    "  bf16[B,D] *_D bf16[D,F] on v5e shard D over 2\n"
    "                                 D split over 2 chips: partial sums, then an allreduce\n"
    "  mesh X = 4, Y = 2              a mesh of named axes (or: use v5e 4x2, on v5e 4x2)\n"
    "  bf16[I_X,J] *_J bf16[J,K_Y]    I sharded over X, K over Y: no communication\n"
    "  bf16[I,J_X] *_J bf16[J_X,K] -> bf16[I_X,K]    a reducescatter instead of an allreduce\n"
    "  allgather bf16[E_Y,F] over Y   a collective alone (allreduce, reducescatter, alltoall)\n"
    "  send bf16[8,128,8192] from (0, 0) to (3, 3) on v5e 4x4   hops, links, latency\n"
    "One dim at a time:\n"
    "  solve B: bf16[B,D] *_D int8[D,F] on v5e      where the bound changes as B grows\n"
    "  sweep B in 1 .. 512 plot { q = ... }         a table, or a chart (plot \"q.svg\")\n"
    "  fit B: model(B, ...) on v5e 4x4              the largest B whose memory fits\n"
    "  serve B, S: decode(B, S, ...) on v5e 4x4 with prompt = 2048, output = 512\n"
    "                                 largest batch, TTFT, TPOT, tokens/s, $ per 1M tokens\n"
    "  solve n: layer(x, ..., tp = Y) on v5e mesh X = 1, Y = n   a block over a mesh size\n"
    "Parallelism:\n"
    "  block mm(x: [B, D], F, tp = {}) { ... F_{tp} ... }   shapes and axes as parameters\n"
    "  model(B, T, ..., fsdp = X, tp = Y) on v5p 128x8      the stdlib's strategies\n"
    "  search model(B, T, ...) on v5p over [512, 1024]      meshes, strategies and plans,\n"
    "                                 ranked (with microbatches in [1, 4], remat in [none, full])\n"
    "  plot                           the roofline chart of what was costed so far\n"
    "Whole models:\n"
    "  block mlp(x, F = 4 * D) { h = x *_D param bf16[D,F]; return h *_F param bf16[F,D] }\n"
    "  repeat 80 { x = mlp(x) }       a body counted 80 times, with a breakdown\n"
    "  fused { s = q *_H k; p = exp(s) }   one kernel in a block: intermediates on chip\n"
    "  model(llama3_8b, B = 1, T = 2048) on H100   a model by name (`names` lists them)\n"
    "  mode training                  3x FLOPs and bytes, gradient collectives, Adam state;\n"
    "                                 collectives overlap their own pass (`overlap step`: the step)\n"
    "  mode training microbatches 8   gradient accumulation; `repeat L over pp { }`: a pipeline\n"
    "  mode training tokens 15e12     a run: a model's days, chip-hours and cost (with its MFU)\n"
    "  mode inference axes add        collectives on different mesh axes add up (default: at once)\n"
    "  remat save layer.x, layer.y    what the backward pass keeps (none, full, selective)\n"
    "  optimizer adam master fp32 zero 1   how training memory is counted\n"
    "  expect t_lower < 2 ms          a check that fails the script (for CI)\n"
    "  # a comment                    to the end of the line\n"
    "A multiply-add counts 2 FLOPs. Unbound dims stay symbolic.\n"
    "Suffixes: k M G T P (powers of 1000), Ki Mi Gi Ti Pi (powers of 1024).\n"
    "help, names and chips work in scripts, with -e and on piped input as in the REPL:\n"
    "  help WORD (or ? WORD)          a statement or clause word: its syntax, each option,\n"
    "                                 an example; a block or model: its parameters or fields\n"
    "  names                          bound names, blocks and models\n"
    "  chips                          the chip table\n"
    "  quit, exit                     leave the REPL (Ctrl-D too)\n"
    "In the REPL, Ctrl-C drops an unfinished statement or stops a long sweep or search;\n"
    "with line editing, Tab completes names and history is kept in ~/.roofline_history.\n";

/* One topic: the words that ask for it (the first is its name), and its text, which
 * ends with "example:" and lines that run as they are (tests/help/examples.sh runs
 * each). */
typedef struct {
    const char *words;
    const char *text;
} Topic;

static const Topic TOPICS[] = {
    {"let",
     "let: bind names to numbers (dims, sizes) or tensors\n"
     "\n"
     "  let NAME = EXPR, NAME = EXPR, ...\n"
     "  NAME = EXPR                    bind any value, a costed result too\n"
     "\n"
     "  EXPR     a number (8k, 4Ki, 1.5e9, 2 * D, min(E, B * k), max(a, b)), a dtype\n"
     "           (int8), or a tensor type; it may use names bound earlier, in the same\n"
     "           let too\n"
     "A let binds all its names or none (an error in one leaves the others unbound).\n"
     "Suffixes: k M G T P are powers of 1000, Ki Mi Gi Ti Pi of 1024.\n"
     "\n"
     "example:\n"
     "  let B = 256, D = 8k, F = 4 * D\n"
     "  let w = int8\n"
     "  h = bf16[B, D] *_D w[D, F] on v5e\n"},
    {"use",
     "use: the default chip (and slice) from here on\n"
     "\n"
     "  use CHIP\n"
     "  use CHIP SLICE                 SLICE: 4x4, 16x16, 8x16x16, or 8 (one axis)\n"
     "\n"
     "  CHIP     a chip's name, any case (`chips` lists them); a statement's own\n"
     "           `on CHIP` wins over it\n"
     "  SLICE    the mesh of the slice: axes X, Y, Z of those sizes\n"
     "\n"
     "example:\n"
     "  let B = 256, D = 8192, F = 8192\n"
     "  use v5e 4x4\n"
     "  bf16[B, D_X] *_D bf16[D_X, F]\n"},
    {"on",
     "on: the chip (and slice) one statement runs on, after the expression\n"
     "\n"
     "  EXPR on CHIP\n"
     "  EXPR on CHIP SLICE             SLICE: 4x4, 2x2x2, or 8 (one axis of 8)\n"
     "  EXPR on CHIP mesh X = 4, Y = n   a mesh of the statement's own (sizes may be dims)\n"
     "\n"
     "Other clauses after an expression, in any order: -> DTYPE[DIMS] (the result's\n"
     "type, checked), shard D over N, compute DTYPE, mesh AXES (`help shard`,\n"
     "`help compute`, `help mesh`).\n"
     "\n"
     "example:\n"
     "  bf16[512, 4096] *_K bf16[4096, 1024] on H100\n"
     "  bf16[B_X, 4096] *_D bf16[4096, 1024] -> bf16[B_X, 1024] on v5e 4x1\n"},
    {"shard",
     "shard: split one dim over a new mesh axis of N chips, for one statement\n"
     "\n"
     "  EXPR shard DIM over N [shard DIM over N ...]\n"
     "\n"
     "  DIM      a dim's name: every operand that has it is split; on a block call it\n"
     "           reaches inside (`mlp(x) on v5p shard F over 4`: tensor parallelism)\n"
     "  N        the chips of the new axis, named after the dim\n"
     "The report adds the collectives that follow (partial sums and an allreduce here).\n"
     "\n"
     "example:\n"
     "  let B = 512, D = 16384, F = 16384\n"
     "  bf16[B, D] *_D bf16[D, F] on v5e shard D over 2\n"},
    {"compute",
     "compute: run every operation of one statement at one dtype's peak\n"
     "\n"
     "  EXPR compute DTYPE\n"
     "\n"
     "  DTYPE    its peak prices the math (int8 weights with bf16 activations run at\n"
     "           bf16's peak unless told so)\n"
     "\n"
     "example:\n"
     "  bf16[256, 8192] *_D int8[8192, 8192] on v5e compute int8\n"},
    {"mesh",
     "mesh: the named axes of chips, from here on or for one statement\n"
     "\n"
     "  mesh AXIS = N [dcn], AXIS = N [dcn], ...\n"
     "  EXPR on CHIP mesh AXIS = N, ...     one statement's own mesh\n"
     "\n"
     "  AXIS     a name; outermost first\n"
     "  N        its chips; on a statement's own mesh any expression (solve n: ... Y = n)\n"
     "  dcn      the axis joins pods over the DCN instead of ICI/NVLink\n"
     "A dim written D_X is split over axis X, D_XY over X and Y, F_{tp} over an axis\n"
     "parameter's axes; figures are per chip.\n"
     "\n"
     "example:\n"
     "  let B = 512, D = 4096, F = 8192\n"
     "  mesh X = 4, Y = 2\n"
     "  bf16[B_X, D] *_D bf16[D, F_Y] on v5e\n"},
    {"chip",
     "chip: show a chip, or define one (from a parent)\n"
     "\n"
     "  chip NAME                      every field, its meaning and source, and the\n"
     "                                 ridges and anatomy that follow\n"
     "  chip NAME [: PARENT] { FIELD = EXPR ... }\n"
     "\n"
     "  PARENT   start as a copy of it (a chip may redefine itself: chip v5e : v5e {...})\n"
     "  FIELD    flops_bf16 flops_int8 ... hbm_bytes hbm_bw ici_bw hop_latency\n"
     "           nvlink_bw node_bw price ... (README: The language; `chip v5p` shows\n"
     "           each); separated by newlines, `,` or `;`\n"
     "`chips` lists the chips; `help CHIP` shows one as `chip CHIP` does.\n"
     "\n"
     "example:\n"
     "  chip slow : v5e { hbm_bw = 4e11, price = 1 }\n"
     "  bf16[256, 8192] *_D bf16[8192, 8192] on slow\n"},
    {"arch",
     "arch: a model by its dims, for the stdlib's blocks (model, decode)\n"
     "\n"
     "  arch NAME [: PARENT] { FIELD = VALUE ... }\n"
     "  arch NAME from \"config.json\"   read a Hugging Face config file\n"
     "\n"
     "  FIELD    D F N K H L V (width, MLP width, heads, KV heads, head width, layers,\n"
     "           vocabulary), dtype, MoE and MLA fields; `help llama3_8b` explains each\n"
     "  PARENT   start as a copy of a model\n"
     "`names` lists the library's models; `help MODEL` prints one's fields.\n"
     "\n"
     "example:\n"
     "  arch small : llama3_8b { L = 16 }\n"
     "  model(small, B = 1, T = 2048) on H100\n"},
    {"include",
     "include: run another script in this session\n"
     "\n"
     "  include \"PATH\"\n"
     "\n"
     "  PATH     relative to the including file (from -e, stdin or the REPL: the current\n"
     "           directory); its bindings and chips stay; 16 deep at most, no cycles\n"
     "\n"
     "example:\n"
     "  include \"examples/rooflines.roof\"\n"},
    {"solve",
     "solve: where the bound changes as one dim grows, or where two costs meet\n"
     "\n"
     "  solve DIM: STATEMENT\n"
     "  solve STATEMENT                DIM: the statement's one unbound dim\n"
     "  solve DIM: STATEMENT == STATEMENT [in FIGURE]\n"
     "\n"
     "  DIM        scanned from 1 up, each change bisected (compute, memory, comm);\n"
     "             over a block call or a mesh size, n = 1, 2, 4, ... then bisected;\n"
     "             over a split of the same chips (mesh X = n, Y = 64/n), each n\n"
     "             that divides them: the best split and the continuous optimum\n"
     "  STATEMENT  an expression with its clauses; a chip is needed\n"
     "  ==         where the two t_lower are equal\n"
     "  FIGURE     compare t_upper, t_derated, t_math, t_hbm, t_comm, flops, bytes,\n"
     "             comm_bytes or memory instead of t_lower\n"
     "\n"
     "example:\n"
     "  let D = 8192, F = 32768\n"
     "  solve B: bf16[B, D] *_D int8[D, F] on v5e\n"},
    {"sweep",
     "sweep: a table, or a chart, of the figures as one dim takes a range of values\n"
     "\n"
     "  sweep NAME in RANGE [plot [\"FILE.svg\"] [OPTIONS]] { STATEMENTS }\n"
     "\n"
     "  RANGE       A .. B (each whole number), A .. B step S, A .. B log N (N points,\n"
     "              log-spaced), or [V, ...]: numbers, or chips (sweep c in [v5e, H100])\n"
     "  plot        a chart in the terminal, or into FILE.svg; OPTIONS as `help plot`\n"
     "  STATEMENTS  a table each; `name = ...` names a curve; a block call is costed\n"
     "              whole at each point\n"
     "\n"
     "example:\n"
     "  let D = 4096, F = 16384\n"
     "  sweep B in [64, 256, 1024] { bf16[B, D] *_D int8[D, F] on v5e }\n"},
    {"plot",
     "plot: the roofline chart of the statements costed so far\n"
     "\n"
     "  plot [\"FILE.svg\"] [OPTIONS]\n"
     "\n"
     "  FILE.svg        write an SVG file; without it, a chart in the terminal\n"
     "  title \"TEXT\"    the chart's title\n"
     "  x A .. B        an axis's range; x log, y linear: its scale (also y A .. B)\n"
     "After a sweep's range, `plot` draws the sweep's curves instead.\n"
     "\n"
     "example:\n"
     "  bf16[256, 8192] *_D bf16[8192, 8192] on v5e\n"
     "  plot title \"one matmul\" x 1 .. 1k\n"},
    {"fit",
     "fit: the largest whole value of a dim whose memory fits each chip's HBM\n"
     "\n"
     "  fit DIM: STATEMENT\n"
     "\n"
     "  DIM        a batch, a context...: doubled, then bisected\n"
     "  STATEMENT  a block call or repeat (params, KV cache, and in training the\n"
     "             optimizer state and activations), or one operation (its operands\n"
     "             and result); a chip is needed\n"
     "\n"
     "example:\n"
     "  fit B: decode(llama3_8b, B = B, S = 8192) on H100\n"},
    {"search",
     "search: the training plan, chosen: meshes, strategies, microbatches, remat\n"
     "\n"
     "  search CALL on CHIP over CHIPS [with DIM in [CHOICE, ...], ...]\n"
     "\n"
     "  CALL     a block call with axis parameters (model's dp, fsdp, tp, sp, tsp, pp);\n"
     "           one given in the call stays as given\n"
     "  CHIPS    a number of chips, a slice (16x16), or a list: [512, 1024, 16x16]\n"
     "  with     in training, the rest of the plan, each DIM over the choices listed\n"
     "           (unlisted: the setting in force, from mode, remat and optimizer):\n"
     "    microbatches [1, 2, 4]   the step's sequences kept: the call's B is split\n"
     "    remat [none, selective, full, save(layer.x, layer.y)]\n"
     "    schedule [one_f_one_b, gpipe]   where a pipeline (pp) has chips\n"
     "    zero [0, 1, 2]           ZeRO-1 and -2 of the optimizer's state\n"
     "The table: every mesh of 1 to 3 axes that fits the pod times every assignment\n"
     "times every plan; the same chips reshuffled are listed once, and those that\n"
     "cannot fit HBM are dropped before they are costed. Those whose memory fits are\n"
     "ranked by t_lower, with MFU, memory and the bound; `*` marks the Pareto front,\n"
     "listed first, then the best of each other chip count, then the fastest. Under\n"
     "each row, `reproduce:` is the statement that costs it alone. --json gives one\n"
     "object a configuration.\n"
     "\n"
     "example:\n"
     "  mode training\n"
     "  search model(llama3_8b, B = 256, T = 4096) on v5p over 64 with microbatches in [1, 4]\n"},
    {"serve",
     "serve: the serving figures of a decode block for request mixes\n"
     "\n"
     "  serve B, S: CALL on CHIP [SLICE] with prompt = P, output = G [, OPTION = V ...]\n"
     "                                 [with ... (another mix)]\n"
     "\n"
     "  B, S     the names CALL takes as its batch and context length (serve binds them)\n"
     "  CALL     a call of a decode block that reads a KV cache (the stdlib's decode)\n"
     "  prompt   prompt tokens a request;  output  output tokens a request\n"
     "  batch    fix the batch (default: the largest that fits HBM)\n"
     "  draft, k, accept   speculative decoding: a draft call, k tokens a round, each\n"
     "           accepted with probability accept\n"
     "It reports kv_per_seq, batch, ttft, tpot, decode and total tokens/s per chip, and\n"
     "the cost per 1M output tokens when the chip has a price.\n"
     "\n"
     "example:\n"
     "  serve B, S: decode(llama3_8b, B = B, S = S) on H100 with prompt = 2048, output = 512\n"},
    {"send",
     "send: move a tensor between chips of a slice: hops, links and latency\n"
     "\n"
     "  send TENSOR from FROM to TO on CHIP SLICE\n"
     "\n"
     "  FROM, TO   a chip's coordinates (0, 0); `all` (gather every chip's part into\n"
     "             one); `host` (over PCIe: from host to all, or to one chip)\n"
     "  TENSOR     what moves; a sharded one sends each chip's shard\n"
     "On a GPU mesh of one axis a chip is its rank: from (0) to (8).\n"
     "\n"
     "example:\n"
     "  send bf16[8, 128, 8192] from (0, 0) to (3, 3) on v5e 4x4\n"},
    {"allgather allreduce reducescatter alltoall collective collectives",
     "allgather, allreduce, reducescatter, alltoall: a collective alone\n"
     "\n"
     "  COLLECTIVE TENSOR over AXES [-> DTYPE[DIMS]] [on CHIP ...]\n"
     "\n"
     "  TENSOR   its sharding says what each chip holds: allgather bf16[E_Y, F] over Y\n"
     "           gathers E\n"
     "  AXES     mesh axes (Y, XY) or a block's axis parameter\n"
     "  ->       reducescatter's result type says which dim ends up split\n"
     "\n"
     "example:\n"
     "  let E = 8192, F = 8192\n"
     "  mesh X = 4, Y = 4\n"
     "  allgather bf16[E_Y, F] over Y on v5e\n"
     "  reducescatter bf16[E, F] over Y -> bf16[E, F_Y] on v5e\n"},
    {"block",
     "block: a reusable piece of a model, with parameters; calls are costed with a\n"
     "breakdown\n"
     "\n"
     "  block NAME(PARAM, ...) { STATEMENTS; return EXPR }\n"
     "\n"
     "  PARAM        NAME, NAME = DEFAULT (may use earlier parameters), NAME = {} (mesh\n"
     "               axes: an axis parameter, used as F_{tp}), NAME: [B, T, D] (a\n"
     "               tensor whose dims bind B, T, D inside)\n"
     "  param T      a weight, counted as parameters (and trained in mode training)\n"
     "  cache T      a KV cache, counted as memory\n"
     "  return EXPR  the call's value\n"
     "A call takes arguments by position, then by name: mlp(x, F = 14336).\n"
     "`help BLOCK` explains a block's parameters from its doc comment.\n"
     "\n"
     "example:\n"
     "  block mlp2(x: [B, D], F = 4 * D) {\n"
     "      h = x *_D param bf16[D, F]\n"
     "      return h *_F param bf16[F, D]\n"
     "  }\n"
     "  mlp2(bf16[16, 4096]) on v5e\n"},
    {"param cache return",
     "param, cache, return: the parts of a block\n"
     "\n"
     "  param TENSOR_TYPE    a weight: counted as parameters; gathered, reduced and\n"
     "                       updated in mode training\n"
     "  cache TENSOR_TYPE    a KV cache: counted as memory (what bounds serve's batch)\n"
     "  return EXPR          the call's value (a tensor keeps the caller's dims)\n"
     "\n"
     "example:\n"
     "  block kv_read(x: [B, D], S, F = 4 * D) {\n"
     "      k = cache bf16[B, S, 8, 128]\n"
     "      return x *_D param bf16[D, F]\n"
     "  }\n"
     "  kv_read(bf16[8, 4096], 2048) on H100\n"},
    {"repeat",
     "repeat: a body costed once and counted N times (layers), with a breakdown\n"
     "\n"
     "  repeat N { STATEMENTS }\n"
     "  repeat N over AXES { STATEMENTS }   a pipeline: N/P layers a chip over AXES' P chips\n"
     "\n"
     "example:\n"
     "  use H100\n"
     "  x = bf16[8, 2048, 4096]\n"
     "  repeat 32 { x = gated_mlp(x, 14336) }\n"},
    {"fused",
     "fused: operations run as one kernel, their intermediates kept on chip\n"
     "\n"
     "  fused { STATEMENTS }           in a block's body: streamed in tiles that must\n"
     "                                 fit the chip's vmem_bytes\n"
     "  fused off                      every region as its operations (through HBM)\n"
     "  fused on                       regions as kernels again (the default)\n"
     "\n"
     "example:\n"
     "  block act(x: [B, F]) {\n"
     "      fused { g = silu(x); y = g * x }\n"
     "      return y\n"
     "  }\n"
     "  act(bf16[4096, 14336]) on H100\n"},
    {"mode",
     "mode: inference (the default) or training, and how a step is run\n"
     "\n"
     "  mode inference [axes overlap|add] [launch eager|graph]\n"
     "  mode training [OPTION VALUE ...]\n"
     "\n"
     "  overlap pass|step      collectives hide behind their own pass (default) or the\n"
     "                         whole step\n"
     "  microbatches M         gradient accumulation: a statement is one of M a step\n"
     "  schedule one_f_one_b|gpipe   a pipeline's schedule (repeat L over pp)\n"
     "  axes overlap|add       collectives on different mesh axes at once (default),\n"
     "                         or added up\n"
     "  tokens N               the run's tokens: its days, chip-hours and cost\n"
     "  launch eager|graph     how a calibrated chip's kernels start\n"
     "Training counts 3x FLOPs and bytes, gradient collectives, optimizer state and\n"
     "activations. Each mode statement sets every option (those left out: default).\n"
     "\n"
     "example:\n"
     "  mode training microbatches 4 tokens 1e12\n"
     "  model(llama3_8b, B = 64, T = 4096, fsdp = X) on H100 mesh X = 8\n"},
    {"remat",
     "remat: what the backward pass keeps, and what it computes again\n"
     "\n"
     "  remat none                     keep every result (the default)\n"
     "  remat full                     keep what the outermost block binds (each layer's\n"
     "                                 output); recompute the rest\n"
     "  remat selective                keep the contractions' results\n"
     "  remat save PATH, PATH ...      keep the named ones: layer.x, attention.o\n"
     "In a block's body it holds for that call.\n"
     "\n"
     "example:\n"
     "  mode training\n"
     "  remat full\n"
     "  model(llama3_8b, B = 8, T = 4096, fsdp = X) on H100 mesh X = 8\n"},
    {"optimizer",
     "optimizer: how training memory and the update are counted\n"
     "\n"
     "  optimizer NAME [moments DTYPE] [master DTYPE|none] [gradients DTYPE|none]\n"
     "                 [zero 0|1|2]\n"
     "\n"
     "  NAME       adam (the default), momentum, sgd, adafactor, none\n"
     "  moments    the moments' dtype (fp32)\n"
     "  master     master weights counted in that dtype (none)\n"
     "  gradients  gradients counted in that dtype (none)\n"
     "  zero       ZeRO-1 shards the moments and master weights, ZeRO-2 the gradients\n"
     "             too (ZeRO-3 is the fsdp strategy)\n"
     "\n"
     "example:\n"
     "  mode training\n"
     "  optimizer adam gradients bf16 master fp32 zero 1\n"
     "  model(llama3_8b, B = 8, T = 4096, fsdp = X) on H100 mesh X = 8\n"},
    {"expect within",
     "expect: a check of the last report; a failing one fails the script (exit 1)\n"
     "\n"
     "  expect FIGURE CMP VALUE [UNIT] [within P%]\n"
     "\n"
     "  FIGURE   flops bytes intensity t_math t_hbm t_comm t_lower t_upper t_derated\n"
     "           params param_bytes memory cache_bytes chips comm_bytes bound ridge\n"
     "           padding_flops hops t_predicted; after serve batch kv_per_seq ttft tpot\n"
     "           ...; after a whole model tokens mfu tokens_per_s run_time ... (each\n"
     "           JSON figure by its JSON name)\n"
     "  CMP      == != < <= > >=\n"
     "  VALUE    a number or an expression of figures (6 * params * B * T); for bound:\n"
     "           compute, memory or comm\n"
     "  UNIT     s ms us ns h days, B kB MB GB TB, FLOP kFLOP ... PFLOP\n"
     "  within   a tolerance in percent\n"
     "\n"
     "example:\n"
     "  bf16[64, 8192] *_D bf16[8192, 8192] on v5e\n"
     "  expect flops == 2 * 64 * 8192 * 8192\n"
     "  expect bytes == 136.3 MB within 0.1%\n"
     "  expect t_lower < 1 ms\n"
     "  expect bound == memory\n"},
    {"help ?",
     "help: what a word means, anywhere (a script, -e, piped input, the REPL)\n"
     "\n"
     "  help                           the statements, and these commands\n"
     "  help WORD, ? WORD, help(WORD)  a statement or clause word (sweep, on, ...), a\n"
     "                                 block (attention), a model (llama3_8b), a dtype,\n"
     "                                 or a chip\n"
     "With --json or --csv the text goes to stderr, so the records stay readable.\n"
     "\n"
     "example:\n"
     "  help sweep\n"
     "  ? llama3_8b\n"},
    {"names",
     "names: the bound names with their values or shapes, the blocks with their\n"
     "signatures, the models with their fields\n"
     "\n"
     "  names\n"
     "\n"
     "example:\n"
     "  let B = 256\n"
     "  names\n"},
    {"chips",
     "chips: the chip table (peaks, HBM, bandwidths, ridges), and the chip in use\n"
     "\n"
     "  chips                          with --json, one object a chip\n"
     "`chip NAME` shows one in full.\n"
     "\n"
     "example:\n"
     "  chips\n"},
    {"quit exit",
     "quit, exit: leave the REPL (also quit(), exit(), Ctrl-D)\n"
     "\n"
     "  quit\n"
     "\n"
     "Typed alone on a line in the REPL. A script, -e or piped input ends where its\n"
     "text ends: there quit and exit are an error that says so.\n"
     "\n"
     "example:\n"
     "  help quit\n"},
    {"contract matmul tensor",
     "contract: *_ multiplies tensors and sums over named dims (a matmul, an einsum)\n"
     "\n"
     "  A *_D B                        contract over D\n"
     "  A *_{D, F} B                   over several dims\n"
     "  DTYPE[DIM, ...]                a tensor type: bf16[B, D], f32[B*T, D/2]; bf16[] a scalar\n"
     "  A + B, A * B, exp(A), silu(A)  elementwise: one FLOP an element\n"
     "  sum(x, D), mean(x, D), max(x, D)   reduce one dim (by name or index)\n"
     "  gather(x, D), lookup(table, x), last(x, D, N)   a dim made whole, an embedding,\n"
     "                                 the last N positions\n"
     "\n"
     "  D        found by name in each operand; when neither names it, the last unnamed\n"
     "           dim of the left pairs with the first unnamed dim of the right\n"
     "  batch    a named dim in both operands, not contracted, is kept once\n"
     "  D_X      a dim sharded over mesh axis X (`help mesh`)\n"
     "A multiply-add counts 2 FLOPs; each operand is read from HBM once and the result\n"
     "written once. Unbound dims stay symbolic.\n"
     "\n"
     "example:\n"
     "  let B = 256, D = 8192, F = 32768\n"
     "  bf16[B, D] *_D int8[D, F] -> bf16[B, F] on v5e\n"},
    {"dtype dtypes",
     "dtypes: element types, with bytes an element\n"
     "\n"
     "  f64 8 (fp64)  f32 4 (fp32)  bf16 2  f16 2 (fp16)  fp8 1 (e4m3)  fp8_e5m2 1\n"
     "  int8 1  int4 0.5  fp4 0.5  int32 4 (accumulators, indices: at f32's peak)\n"
     "\n"
     "  DTYPE[DIM, ...]                a tensor type: bf16[B, D], int8[4096, F], bf16[]\n"
     "  let w = int8; w[D, F]          a dtype is a value\n"
     "A matmul runs at the peak of its wider input (int8 x bf16: bf16's).\n"
     "\n"
     "example:\n"
     "  bf16[256, 8192] *_D int8[8192, 8192] on v5e\n"},
};

/* The topic asked for by word, or NULL. */
static const Topic *topic_of(const char *word)
{
    size_t len = strlen(word);
    for (size_t i = 0; len && i < sizeof TOPICS / sizeof TOPICS[0]; i++)
        for (const char *w = TOPICS[i].words; *w; w += strspn(w, " ")) {
            size_t n = strcspn(w, " ");
            if (n == len && memcmp(w, word, n) == 0)
                return &TOPICS[i];
            w += n;
        }
    return NULL;
}

/* The overview, then every word that has help of its own. */
static void help_overview(FILE *out)
{
    fputs(OVERVIEW, out);
    fputs("Topics (help WORD):", out);
    int column = 18;
    for (size_t i = 0; i < sizeof TOPICS / sizeof TOPICS[0]; i++)
        for (const char *t = TOPICS[i].words; *t; t += strspn(t, " ")) {
            int n = (int)strcspn(t, " ");
            if (column + n + 1 > 88) {
                fputs("\n ", out);
                column = 1;
            }
            fprintf(out, " %.*s", n, t);
            column += n + 1;
            t += n;
        }
    fputs("\nBlocks and models: `names` lists them, `help NAME` explains one"
          " (help attention, help llama3_8b).\n", out);
}

bool help_topic(const World *w, const char *word, FILE *out)
{
    const Topic *topic = topic_of(word);
    const Chip *chip = word[0] ? chip_find(&w->chips, word) : NULL;
    if (!word[0])
        help_overview(out);
    else if (topic)
        fputs(topic->text, out);
    else if (help_on(w, word, out))
        return true;
    else if (dtype_lookup(word, strlen(word)) >= 0)
        fputs(topic_of("dtypes")->text, out);
    else if (chip)
        chipcard_print(chip, false, out);
    else
        return false;
    return true;
}

/* Offers each word of a topic's list to near; the nearest so far is copied into buf,
 * since the words are not strings of their own. */
static void offer_topic_words(SpellNear *near, const char *words, char *buf, size_t size)
{
    for (const char *t = words; *t; t += strspn(t, " ")) {
        char one[32];
        size_t n = strcspn(t, " ");
        snprintf(one, sizeof one, "%.*s", (int)n, t);
        spell_offer(near, one);
        if (near->best == one) {
            snprintf(buf, size, "%s", one);
            near->best = buf;
        }
        t += n;
    }
}

bool help_nearest(const World *w, const char *word, char *buf, size_t size)
{
    SpellNear near = spell_begin(word);
    for (size_t i = 0; i < sizeof TOPICS / sizeof TOPICS[0]; i++)
        offer_topic_words(&near, TOPICS[i].words, buf, size);
    for (int i = 0; i < w->nblocks; i++)
        spell_offer(&near, intern_name(w->names, w->blocks[i].name));
    for (int i = 0; i < w->archs.n; i++)
        spell_offer(&near, intern_name(w->names, w->archs.items[i].name));
    for (int i = 0; i < w->chips.n; i++)
        spell_offer(&near, w->chips.chips[i]->name);
    if (near.best && near.best != buf)
        snprintf(buf, size, "%s", near.best);
    return near.best != NULL;
}
