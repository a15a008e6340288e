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
    block_signature(w, b, sig, sizeof sig);
    fprintf(out, "%.*s%s\n", def->span.begin - start, b->src->text + start, sig);
    if (def->as.block.nparams)
        fputs("parameters:\n", out);
    for (int i = 0; i < def->as.block.nparams; i++) {
        const char *name = intern_name(w->names, def->as.block.params[i].name.name);
        char text[1024] = "";
        legend(w, b->src->text + start, def->span.begin - start, b->src, name, text,
               sizeof text);
        fprintf(out, "  %-6s %s\n", name, text);
    }
}

static void help_arch(const World *w, const Arch *a, FILE *out)
{
    fprintf(out, "%smodel %s, from %s", a->doc ? a->doc : "", intern_name(w->names, a->name),
            a->origin);
    if (a->dtype >= 0)
        fprintf(out, "; weights %s", dtype_name((DType)a->dtype));
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
