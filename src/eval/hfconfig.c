/* hfconfig.c — a model's record from a Hugging Face config.json (a local file):
 * `arch m from "config.json"`. Its keys name the dims the stdlib's blocks take; its
 * model_type says which blocks cost it. What cannot be mapped is an error at the path,
 * naming the key and the file. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "evalparts.h"
#include "json.h"

typedef enum { FAMILY_DENSE, FAMILY_MOE, FAMILY_MLA } Family;

/* The model types mapped, by the blocks that cost them (stdlib/models.roof). */
static const struct {
    const char *type;
    Family family;
    bool tied; /* tie_word_embeddings when the file does not say (the library's default) */
} FAMILIES[] = {
    {"llama", FAMILY_DENSE, false},  {"mistral", FAMILY_DENSE, false},
    {"qwen2", FAMILY_DENSE, false},  {"gemma", FAMILY_DENSE, true},
    {"gemma2", FAMILY_DENSE, true},  {"mixtral", FAMILY_MOE, false},
    {"deepseek_v3", FAMILY_MLA, false},
};

/* A key and the field it fills; optional keys take `fallback`'s field's value. */
typedef struct {
    const char *key;
    const char *field;
    const char *meaning;
    const char *fallback; /* a field already read, or NULL: the key is required */
} KeyMap;

static const KeyMap DENSE_KEYS[] = {
    {"hidden_size", "D", "model width", NULL},
    {"intermediate_size", "F", "MLP width", NULL},
    {"num_attention_heads", "N", "query heads", NULL},
    {"num_key_value_heads", "K", "key/value heads", "N"},
    {"num_hidden_layers", "L", "layers", NULL},
    {"vocab_size", "V", "vocabulary", NULL},
    {0, 0, 0, 0},
};

static const KeyMap MOE_KEYS[] = {
    {"num_local_experts", "E", "experts", NULL},
    {"num_experts_per_tok", "k", "experts a token", NULL},
    {0, 0, 0, 0},
};

/* DeepSeek-V3: MLA attention; the first Ld layers dense (width Fd), the rest MoE. */
static const KeyMap MLA_KEYS[] = {
    {"hidden_size", "D", "model width", NULL},
    {"num_attention_heads", "N", "heads", NULL},
    {"num_hidden_layers", "L", "layers", NULL},
    {"vocab_size", "V", "vocabulary", NULL},
    {"q_lora_rank", "Rq", "query latent rank", NULL},
    {"kv_lora_rank", "R", "key/value latent rank", NULL},
    {"qk_nope_head_dim", "Hn", "query/key head width without RoPE", NULL},
    {"qk_rope_head_dim", "Hr", "query/key RoPE head width", NULL},
    {"v_head_dim", "Hv", "value head width", NULL},
    {"intermediate_size", "Fd", "dense layers' MLP width", NULL},
    {"first_k_dense_replace", "Ld", "dense layers", NULL},
    {"moe_intermediate_size", "F", "expert width", NULL},
    {"n_routed_experts", "E", "routed experts", NULL},
    {"num_experts_per_tok", "k", "experts a token", NULL},
    {"n_shared_experts", "Es", "shared experts", NULL},
    {0, 0, 0, 0},
};

typedef struct {
    Eval *ev;
    const Stmt *s;
    const char *path;
    const Json *root;
    Arch *arch;
} Reading;

static int field_id(Reading *r, const char *field)
{
    int id = intern_id(r->ev->world->names, field, strlen(field));
    return id;
}

static bool put(Reading *r, const char *field, double number, int block)
{
    int id = field_id(r, field);
    ArchField *grown = id < 0 ? NULL : realloc(r->arch->fields,
                                               sizeof *grown * (size_t)(r->arch->n + 1));
    if (!grown)
        return eval_oom(r->ev, r->s->as.arch.path_span);
    r->arch->fields = grown;
    r->arch->fields[r->arch->n++] = (ArchField){id, number, block};
    return true;
}

static double field_value(Reading *r, const char *field)
{
    int id = intern_find(r->ev->world->names, field);
    const ArchField *f = id >= 0 ? arch_field(r->arch, id) : NULL;
    return f ? f->number : NAN;
}

/* One key into its field: a whole number of at least 1. */
static bool read_key(Reading *r, const KeyMap *k)
{
    const Json *v = json_get(r->root, k->key);
    double x;
    if ((!v || v->kind == JSON_NULL) && k->fallback)
        return put(r, k->field, field_value(r, k->fallback), -1);
    if (!v || v->kind == JSON_NULL)
        return eval_fail(r->ev, r->s->as.arch.path_span, "\"%s\" has no %s (%s, the %s): "
                         "roofline needs it", r->path, k->key, k->field, k->meaning);
    if (v->kind != JSON_NUMBER)
        return eval_fail(r->ev, r->s->as.arch.path_span, "\"%s\": %s (%s) is not a number",
                         r->path, k->key, k->meaning);
    x = v->number;
    if (!(x >= 1 && x <= 1e15 && x == floor(x)))
        return eval_fail(r->ev, r->s->as.arch.path_span, "\"%s\": %s = %g is not a whole number "
                         "of at least 1 (%s, the %s)", r->path, k->key, x, k->field, k->meaning);
    return put(r, k->field, x, -1);
}

static bool read_keys(Reading *r, const KeyMap *keys)
{
    for (const KeyMap *k = keys; k->key; k++)
        if (!read_key(r, k))
            return false;
    return true;
}

/* H: head_dim, else D/N (as the libraries compute it), which must then be whole. */
static bool read_head_width(Reading *r)
{
    const KeyMap head = {"head_dim", "H", "head width", NULL};
    const Json *v = json_get(r->root, "head_dim");
    if (v && v->kind != JSON_NULL)
        return read_key(r, &head);
    double h = field_value(r, "D") / field_value(r, "N");
    if (h != floor(h))
        return eval_fail(r->ev, r->s->as.arch.path_span, "\"%s\" has no head_dim, and "
                         "hidden_size / num_attention_heads = %g is not whole", r->path, h);
    return put(r, "H", h, -1);
}

/* The blocks that cost it in place of the stdlib's model and decode. */
static bool route(Reading *r, const char *forward, const char *step)
{
    const char *blocks[2] = {forward, step};
    const char *roles[2] = {"model", "decode"};
    for (int i = 0; i < 2; i++) {
        int id = field_id(r, blocks[i]);
        if (id < 0 || !world_block(r->ev->world, id))
            return eval_fail(r->ev, r->s->as.arch.path_span, "no block %s to cost \"%s\" "
                             "(stdlib/models.roof defines it)", blocks[i], r->path);
        if (!put(r, roles[i], 0, id))
            return false;
    }
    return true;
}

static bool read_dtype(Reading *r)
{
    static const char *const torch[][2] = {
        {"bfloat16", "bf16"}, {"float16", "f16"}, {"float32", "f32"}, {NULL, NULL}};
    const char *name = json_string(r->root, "torch_dtype");
    for (int i = 0; name && torch[i][0]; i++)
        if (strcmp(name, torch[i][0]) == 0) {
            r->arch->dtype = dtype_lookup(torch[i][1], strlen(torch[i][1]));
            return true;
        }
    if (name)
        return eval_fail(r->ev, r->s->as.arch.path_span, "\"%s\": torch_dtype \"%s\" is not "
                         "one roofline maps (bfloat16, float16, float32)", r->path, name);
    return true;
}

static int family_of(Reading *r)
{
    const char *type = json_string(r->root, "model_type");
    for (size_t i = 0; type && i < sizeof FAMILIES / sizeof FAMILIES[0]; i++)
        if (strcmp(type, FAMILIES[i].type) == 0)
            return (int)i;
    if (type)
        eval_fail(r->ev, r->s->as.arch.path_span, "\"%s\": model_type \"%s\" is not one "
                  "roofline maps", r->path, type);
    else
        eval_fail(r->ev, r->s->as.arch.path_span, "\"%s\" has no model_type", r->path);
    diag_note(r->ev->diag, "it maps llama, mistral, qwen2, gemma, gemma2, mixtral and "
              "deepseek_v3 (stdlib/models.roof has their blocks)");
    return -1;
}

/* A dense model type whose file gives experts (a fork's keys): costing it dense would
 * leave them out, so it is refused. */
static bool experts_in_dense(Reading *r)
{
    static const char *const keys[] = {"num_local_experts", "n_routed_experts", "num_experts"};
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        double e;
        if (json_number(r->root, keys[i], &e) && e > 1)
            return eval_fail(r->ev, r->s->as.arch.path_span, "\"%s\": %s = %g experts, and "
                             "model_type \"%s\" is a dense model: roofline does not know "
                             "which blocks cost it", r->path, keys[i], e,
                             json_string(r->root, "model_type"));
    }
    return false;
}

static bool read_config(Reading *r)
{
    int f = family_of(r);
    if (f < 0)
        return false;
    const Json *tie = json_get(r->root, "tie_word_embeddings");
    bool tied = tie && tie->kind == JSON_BOOL ? tie->truth : FAMILIES[f].tied;
    if (FAMILIES[f].family != FAMILY_DENSE && tied)
        return eval_fail(r->ev, r->s->as.arch.path_span, "\"%s\": tie_word_embeddings is "
                         "true, and no block costs a %s model with tied embeddings", r->path,
                         FAMILIES[f].type);
    if (!read_dtype(r))
        return false;
    switch (FAMILIES[f].family) {
    case FAMILY_MLA:
        return read_keys(r, MLA_KEYS) && route(r, "mla_model", "mla_decode");
    case FAMILY_MOE:
        if (!read_keys(r, DENSE_KEYS) || !read_keys(r, MOE_KEYS) || !read_head_width(r))
            return false;
        return route(r, "moe_model", "moe_decode");
    case FAMILY_DENSE:
        if (experts_in_dense(r) || !read_keys(r, DENSE_KEYS) || !read_head_width(r))
            return false;
        return !tied || route(r, "tied_model", "tied_decode");
    }
    return false;
}

bool hfconfig_arch(Eval *ev, const Stmt *s, Arch *a)
{
    if (strcmp(eval_spelling(ev, s->as.arch.from.name), "from") != 0)
        return eval_fail(ev, s->as.arch.from.span, "a model from a file is written `arch %s "
                         "from \"config.json\"`", eval_spelling(ev, s->as.arch.name.name));
    char *path = source_resolve(ev->src, s->as.arch.path);
    const char *why = "out of memory";
    size_t len = 0;
    char *text = path ? source_read_file(path, &len, &why) : NULL;
    Arena arena = {0};
    Json *root = text ? json_parse(text, len, &arena, &why) : NULL;
    bool ok;
    if (!text)
        ok = eval_fail(ev, s->as.arch.path_span, "cannot read \"%s\": %s", s->as.arch.path, why);
    else if (!root || root->kind != JSON_OBJECT)
        ok = eval_fail(ev, s->as.arch.path_span, "\"%s\" is not a JSON object: %s",
                       s->as.arch.path, root ? "a config.json is one object" : why);
    else {
        Reading r = {ev, s, s->as.arch.path, root, a};
        ok = read_config(&r);
    }
    if (ok) {
        a->origin = strdup(s->as.arch.path);
        ok = a->origin || eval_oom(ev, s->as.arch.path_span);
    }
    arena_free(&arena);
    free(text);
    free(path);
    return ok;
}
