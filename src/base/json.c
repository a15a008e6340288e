/* json.c — a recursive-descent reader of one JSON value, into an arena; the writers of
 * strings and numbers. */
#include "json.h"

#include <stdlib.h>
#include <string.h>

#include "num.h"
#include "utf8.h"

typedef struct {
    const char *p, *end;
    Arena *arena;
    const char *why;
    int depth;
} Reader;

static bool fail(Reader *r, const char *why)
{
    if (!r->why)
        r->why = why;
    return false;
}

static void skip_space(Reader *r)
{
    while (r->p < r->end && (*r->p == ' ' || *r->p == '\t' || *r->p == '\n' || *r->p == '\r'))
        r->p++;
}

static bool literal(Reader *r, const char *word)
{
    size_t n = strlen(word);
    if ((size_t)(r->end - r->p) < n || memcmp(r->p, word, n) != 0)
        return fail(r, "not a JSON value");
    r->p += n;
    return true;
}

/* JSON's number grammar, checked before strtod reads it (strtod takes more: "inf",
 * hex, a leading '+'). */
static bool number(Reader *r, Json *v)
{
    const char *s = r->p;
    if (s < r->end && *s == '-')
        s++;
    if (s >= r->end || (unsigned)(*s - '0') > 9)
        return fail(r, "not a JSON value");
    if (*s == '0') /* no leading zeros: "01" is not a number */
        s++;
    else
        while (s < r->end && (unsigned)(*s - '0') <= 9)
            s++;
    if (s < r->end && *s == '.') {
        if (++s >= r->end || (unsigned)(*s - '0') > 9)
            return fail(r, "a number ends in '.'");
        while (s < r->end && (unsigned)(*s - '0') <= 9)
            s++;
    }
    if (s < r->end && (*s == 'e' || *s == 'E')) {
        s++;
        if (s < r->end && (*s == '+' || *s == '-'))
            s++;
        if (s >= r->end || (unsigned)(*s - '0') > 9)
            return fail(r, "a number's exponent has no digits");
        while (s < r->end && (unsigned)(*s - '0') <= 9)
            s++;
    }
    char buf[64];
    size_t n = (size_t)(s - r->p);
    if (n >= sizeof buf)
        return fail(r, "a number is too long");
    memcpy(buf, r->p, n);
    buf[n] = '\0';
    v->kind = JSON_NUMBER;
    v->number = strtod(buf, NULL);
    r->p = s;
    return true;
}

static int hex4(const char *s)
{
    int v = 0;
    for (int i = 0; i < 4; i++) {
        int c = s[i], d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10
                        : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
        if (d < 0)
            return -1;
        v = 16 * v + d;
    }
    return v;
}

static size_t utf8_encode(unsigned c, char *out)
{
    if (c < 0x80)
        return out[0] = (char)c, 1;
    if (c < 0x800)
        return out[0] = (char)(0xC0 | c >> 6), out[1] = (char)(0x80 | (c & 0x3F)), 2;
    if (c < 0x10000)
        return out[0] = (char)(0xE0 | c >> 12), out[1] = (char)(0x80 | (c >> 6 & 0x3F)),
               out[2] = (char)(0x80 | (c & 0x3F)), 3;
    return out[0] = (char)(0xF0 | c >> 18), out[1] = (char)(0x80 | (c >> 12 & 0x3F)),
           out[2] = (char)(0x80 | (c >> 6 & 0x3F)), out[3] = (char)(0x80 | (c & 0x3F)), 4;
}

/* A \u escape at s (after the backslash): its code point, a surrogate pair joined;
 * -1 when malformed. *used is the bytes it took. */
static long unicode_escape(const char *s, const char *end, size_t *used)
{
    if (end - s < 5 || hex4(s + 1) < 0)
        return -1;
    long c = hex4(s + 1);
    *used = 5;
    if (c >= 0xD800 && c < 0xDC00 && end - s >= 11 && s[5] == '\\' && s[6] == 'u') {
        long low = hex4(s + 7);
        if (low >= 0xDC00 && low < 0xE000) {
            *used = 11;
            return 0x10000 + ((c - 0xD800) << 10) + (low - 0xDC00);
        }
    }
    return c >= 0xD800 && c < 0xE000 ? 0xFFFD : c;
}

/* The bytes up to the closing quote, escapes skipped: a decoded string is never longer
 * than its source, so that many hold it. */
static size_t source_length(const char *p, const char *end)
{
    const char *s = p + 1;
    while (s < end && *s != '"')
        s += *s == '\\' ? 2 : 1;
    return (size_t)(s - p);
}

static bool string(Reader *r, const char **out)
{
    char *buf = arena_alloc(r->arena, source_length(r->p, r->end) + 1), *w = buf;
    if (!buf)
        return fail(r, "out of memory");
    for (r->p++; r->p < r->end && *r->p != '"'; ) {
        unsigned char c = (unsigned char)*r->p;
        if (c < 0x20)
            return fail(r, "a control character in a string");
        if (c != '\\') {
            *w++ = *r->p++;
            continue;
        }
        if (r->end - r->p < 2)
            break;
        const char *esc = strchr("\"\\/bfnrt", r->p[1]);
        if (r->p[1] && esc) {
            *w++ = "\"\\/\b\f\n\r\t"[esc - "\"\\/bfnrt"];
            r->p += 2;
            continue;
        }
        size_t used;
        long code = r->p[1] == 'u' ? unicode_escape(r->p + 1, r->end, &used) : -1;
        if (code < 0)
            return fail(r, "a bad escape in a string");
        w += utf8_encode((unsigned)code, w);
        r->p += used + 1;
    }
    if (r->p >= r->end)
        return fail(r, "a string does not end");
    r->p++;
    *w = '\0';
    *out = buf;
    return true;
}

static bool value(Reader *r, Json *v);

/* The members of an array or object, gathered in a growing buffer, then copied into
 * the arena. */
typedef struct {
    Json *items;
    const char **keys;
    int n, cap;
} Members;

static bool members_add(Members *m, const char *key, const Json *v)
{
    if (m->n == m->cap) {
        int cap = m->cap ? 2 * m->cap : 8;
        Json *items = realloc(m->items, sizeof *items * (size_t)cap);
        if (items)
            m->items = items;
        const char **keys = items ? realloc(m->keys, sizeof *keys * (size_t)cap) : NULL;
        if (!keys)
            return false;
        m->keys = keys;
        m->cap = cap;
    }
    m->keys[m->n] = key;
    m->items[m->n++] = *v;
    return true;
}

static bool members_keep(Reader *r, Members *m, Json *v)
{
    v->n = m->n;
    v->items = arena_alloc(r->arena, sizeof *v->items * (size_t)(m->n + 1));
    v->keys = arena_alloc(r->arena, sizeof *v->keys * (size_t)(m->n + 1));
    if (!v->items || !v->keys)
        return fail(r, "out of memory");
    if (m->n) {
        memcpy(v->items, m->items, sizeof *v->items * (size_t)m->n);
        memcpy(v->keys, m->keys, sizeof *v->keys * (size_t)m->n);
    }
    return true;
}

static bool member(Reader *r, Members *m, bool object)
{
    const char *key = NULL;
    Json item = {.kind = JSON_NULL};
    skip_space(r);
    if (object) {
        if (r->p >= r->end || *r->p != '"')
            return fail(r, "an object's key is not a string");
        if (!string(r, &key))
            return false;
        skip_space(r);
        if (r->p >= r->end || *r->p++ != ':')
            return fail(r, "no ':' after an object's key");
    }
    return value(r, &item) && (members_add(m, key, &item) || fail(r, "out of memory"));
}

static bool container(Reader *r, Json *v, bool object)
{
    char close = object ? '}' : ']';
    Members m = {0};
    bool ok = ++r->depth <= JSON_MAX_DEPTH || fail(r, "nested too deep");
    v->kind = object ? JSON_OBJECT : JSON_ARRAY;
    r->p++;
    skip_space(r);
    if (ok && r->p < r->end && *r->p == close)
        r->p++;
    else
        for (;;) {
            if (!ok || !(ok = member(r, &m, object)))
                break;
            skip_space(r);
            if (r->p < r->end && *r->p == ',') {
                r->p++;
                continue;
            }
            if (r->p >= r->end || *r->p++ != close)
                ok = fail(r, object ? "no ',' or '}' in an object" : "no ',' or ']' in an array");
            break;
        }
    ok = ok && members_keep(r, &m, v);
    free(m.items);
    free(m.keys);
    r->depth--;
    return ok;
}

static bool value(Reader *r, Json *v)
{
    skip_space(r);
    if (r->p >= r->end)
        return fail(r, "the text ends before a value");
    switch (*r->p) {
    case '{': return container(r, v, true);
    case '[': return container(r, v, false);
    case '"': v->kind = JSON_STRING; return string(r, &v->string);
    case 't': v->kind = JSON_BOOL, v->truth = true; return literal(r, "true");
    case 'f': v->kind = JSON_BOOL; return literal(r, "false");
    case 'n': v->kind = JSON_NULL; return literal(r, "null");
    default: return number(r, v);
    }
}

Json *json_parse(const char *text, size_t len, Arena *arena, const char **why)
{
    Reader r = {text, text + len, arena, NULL, 0};
    Json *v = arena_alloc(arena, sizeof *v);
    bool ok = v ? value(&r, v) : fail(&r, "out of memory");
    skip_space(&r);
    if (ok && r.p != r.end)
        ok = fail(&r, "more after the value");
    *why = r.why;
    return ok ? v : NULL;
}

const Json *json_get(const Json *obj, const char *key)
{
    for (int i = 0; obj && obj->kind == JSON_OBJECT && i < obj->n; i++)
        if (strcmp(obj->keys[i], key) == 0)
            return &obj->items[i];
    return NULL;
}

bool json_number(const Json *obj, const char *key, double *out)
{
    const Json *v = json_get(obj, key);
    if (!v || v->kind != JSON_NUMBER)
        return false;
    *out = v->number;
    return true;
}

const char *json_string(const Json *obj, const char *key)
{
    const Json *v = json_get(obj, key);
    return v && v->kind == JSON_STRING ? v->string : NULL;
}

bool json_true(const Json *obj, const char *key)
{
    const Json *v = json_get(obj, key);
    return v && v->kind == JSON_BOOL && v->truth;
}

/* ---- Writing ------------------------------------------------------------------ */

/* One character of a JSON string; returns the bytes it took. A byte that is not
 * UTF-8 (a Latin-1 comment in a statement) is the replacement character, escaped, so
 * the line stays valid JSON. */
static size_t write_char(FILE *out, const unsigned char *c, size_t n)
{
    int len = utf8_length(c, n);
    if (len == 0)
        fputs("\\ufffd", out);
    else if (c[0] == '"' || c[0] == '\\')
        fprintf(out, "\\%c", c[0]);
    else if (c[0] == '\n')
        fputs("\\n", out);
    else if (c[0] < 0x20 || c[0] == 0x7F)
        fprintf(out, "\\u%04x", c[0]);
    else
        fwrite(c, 1, (size_t)len, out);
    return len ? (size_t)len : 1;
}

void json_write_string(FILE *out, const char *s, size_t len)
{
    const unsigned char *c = (const unsigned char *)s;
    fputc('"', out);
    for (size_t i = 0; i < len;)
        i += write_char(out, c + i, len - i);
    fputc('"', out);
}

void json_write_field(FILE *out, const char *key, double v)
{
    char buf[64];
    fprintf(out, ",\"%s\":%s", key, num_format_json(v, buf, sizeof buf));
}
