/* test_prebuilt.c — a session started from the build's prebuilt stdlib (prebuilt.h) is
 * the session that parses the stdlib's files: the same names with the same ids, the
 * same chips field by field (value to the bit, source to the byte), and once its block
 * files have run, the same blocks and models in the same order. They run the first
 * time a source names one of them, and not before. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "eval.h"
#include "session.h"

#define CHECK(ok, what) check((ok), __FILE__, __LINE__, (what))

static Session *start(StdlibStart how, FILE *out)
{
    SessionOptions opt = {.out = out, .err = stderr, .stdlib = how};
    return session_new(&opt);
}

static bool same_chip(const Chip *a, const Chip *b)
{
    if (strcmp(a->name, b->name) != 0)
        return false;
    for (int f = 0; f < CHIP_FIELD_COUNT; f++) {
        if (a->set[f] != b->set[f] || !a->source[f] != !b->source[f])
            return false;
        if (a->set[f] && memcmp(&a->value[f], &b->value[f], sizeof a->value[f]) != 0)
            return false;
        if (a->source[f] && strcmp(a->source[f], b->source[f]) != 0)
            return false;
    }
    return true;
}

static void same_names(const World *a, const World *b)
{
    int n = intern_count(a->names);
    bool same = n == intern_count(b->names);
    for (int id = 0; same && id < n; id++)
        same = strcmp(intern_name(a->names, id), intern_name(b->names, id)) == 0;
    CHECK(same, "the names, by id, are those parsing interns");
}

static void same_chips(const World *a, const World *b)
{
    bool same = a->chips.n == b->chips.n && a->chips.replaced == b->chips.replaced;
    for (int i = 0; same && i < a->chips.n; i++) {
        same = same_chip(a->chips.chips[i], b->chips.chips[i]);
        if (!same)
            printf("chip %s differs\n", a->chips.chips[i]->name);
    }
    CHECK(same, "the chips, in order, every field with its value and source");
    CHECK(a->predicting == b->predicting, "a calibrated chip is noted as parsing notes it");
    CHECK(a->chips.n > 20, "the chips are there");
}

static bool same_arch(const World *a, const World *b, const Arch *x, const Arch *y)
{
    if (x->name != y->name || x->n != y->n || x->dtype != y->dtype ||
        strcmp(x->doc, y->doc) != 0 || strcmp(x->origin, y->origin) != 0)
        return false;
    for (int k = 0; k < x->n; k++)
        if (x->fields[k].name != y->fields[k].name || x->fields[k].block != y->fields[k].block ||
            x->fields[k].number != y->fields[k].number)
            return false;
    return a && b;
}

static void same_blocks(const World *a, const World *b)
{
    bool same = a->nblocks == b->nblocks && a->archs.n == b->archs.n;
    for (int i = 0; same && i < a->nblocks; i++) {
        const BlockDef *x = &a->blocks[i], *y = &b->blocks[i];
        same = x->name == y->name && strcmp(x->src->name, y->src->name) == 0 &&
               x->def->span.begin == y->def->span.begin && x->def->span.end == y->def->span.end &&
               x->src->library && y->src->library;
    }
    CHECK(same, "the blocks, in order, from the same place of the same file");
    same = a->archs.n == b->archs.n;
    for (int i = 0; same && i < a->archs.n; i++)
        same = same_arch(a, b, &a->archs.items[i], &b->archs.items[i]);
    CHECK(same, "the models, in order, with the same fields");
    CHECK(a->nblocks > 20 && a->archs.n > 10, "the blocks and models are there");
}

int main(void)
{
    FILE *out = tmpfile();
    Session *parsed = start(STDLIB_PARSED, out), *built = start(STDLIB_PREBUILT, out);
    Session *named = start(STDLIB_PREBUILT, out);
    if (!out || !parsed || !built || !named) {
        puts("cannot start");
        return 1;
    }
    World *a = session_world(parsed), *b = session_world(built), *c = session_world(named);
    CHECK(!a->library_pending, "a parsed start has run every file");
    CHECK(b->library_pending && b->nblocks == 0 && b->archs.n == 0,
          "a prebuilt start has run no block file");
    same_names(a, b);
    same_chips(a, b);

    /* a statement that names none leaves them unrun; one that names a model runs them */
    const char *plain = "let B = 8, D = 4096, F = 16384\nbf16[B, D] *_D bf16[D, F] on v5e";
    CHECK(session_run(named, "t", plain, strlen(plain), false) == RUN_OK,
          "a statement without a block runs");
    CHECK(c->library_pending && c->nblocks == 0, "and leaves the block files unrun");
    const char *call = "model(llama3_8b, B = 1, T = 128) on v5e";
    CHECK(session_run(named, "t", call, strlen(call), false) == RUN_OK, "a model's call runs");
    CHECK(!c->library_pending && c->nblocks == a->nblocks, "naming a model ran them first");

    CHECK(world_library(b), "the block files run when asked");
    CHECK(!b->library_pending, "once");
    same_names(a, b);
    same_blocks(a, b);
    same_blocks(a, c);
    session_free(parsed);
    session_free(built);
    session_free(named);
    fclose(out);
    printf("%d passed, %d failed\n", passed, failed);
    return failed != 0;
}
