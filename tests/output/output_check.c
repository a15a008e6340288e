/* output_check.c — the output invariants of --json and --csv, checked strictly (issue 16;
 * output_check.h). Shares no code with the interpreter, so a bug there cannot hide in
 * both.
 */
#include "output_check.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

enum { DEPTH_MAX = 512, KEYS_MAX = 256 };

/* A cursor over one line (JSON) or the rest of the input (CSV); on the first fault,
 * `why` and the offset where it was found. */
typedef struct {
    const unsigned char *p, *begin, *end;
    const char *why;
    const unsigned char *at;
} Cursor;

static bool fault(Cursor *c, const char *why)
{
    if (!c->why) {
        c->why = why;
        c->at = c->p;
    }
    return false;
}

/* ---- UTF-8 ------------------------------------------------------------------- */

/* The length of the well-formed UTF-8 sequence at p (Unicode table 3-7: no overlong
 * form, no surrogate, nothing above U+10FFFF), or 0. */
static size_t utf8_length(const unsigned char *p, const unsigned char *end)
{
    size_t n = p[0] < 0x80 ? 1 : p[0] >= 0xC2 && p[0] <= 0xDF ? 2
             : p[0] >= 0xE0 && p[0] <= 0xEF ? 3 : p[0] >= 0xF0 && p[0] <= 0xF4 ? 4 : 0;
    if (n == 0 || (size_t)(end - p) < n)
        return 0;
    unsigned char lo = 0x80, hi = 0xBF; /* the second byte's range */
    if (p[0] == 0xE0)
        lo = 0xA0;
    else if (p[0] == 0xED)
        hi = 0x9F;
    else if (p[0] == 0xF0)
        lo = 0x90;
    else if (p[0] == 0xF4)
        hi = 0x8F;
    for (size_t i = 1; i < n; i++)
        if (p[i] < (i == 1 ? lo : 0x80) || p[i] > (i == 1 ? hi : 0xBF))
            return 0;
    return n;
}

/* ---- JSON --------------------------------------------------------------------- */

static bool json_value(Cursor *c, int depth);

static void skip_space(Cursor *c)
{
    while (c->p < c->end && (*c->p == ' ' || *c->p == '\t' || *c->p == '\r' || *c->p == '\n'))
        c->p++;
}

static bool eat(Cursor *c, char ch)
{
    skip_space(c);
    if (c->p < c->end && *c->p == (unsigned char)ch) {
        c->p++;
        return true;
    }
    return false;
}

static bool literal(Cursor *c, const char *word)
{
    size_t n = strlen(word);
    if ((size_t)(c->end - c->p) < n || memcmp(c->p, word, n) != 0)
        return fault(c, "not a JSON value");
    c->p += n;
    return true;
}

static int hex_digit(unsigned char ch)
{
    return ch >= '0' && ch <= '9' ? ch - '0' : ch >= 'a' && ch <= 'f' ? ch - 'a' + 10
         : ch >= 'A' && ch <= 'F' ? ch - 'A' + 10 : -1;
}

/* \uXXXX after the backslash and the u; its code unit in *unit. */
static bool hex4(Cursor *c, unsigned *unit)
{
    *unit = 0;
    for (int i = 0; i < 4; i++, c->p++) {
        int d = c->p < c->end ? hex_digit(*c->p) : -1;
        if (d < 0)
            return fault(c, "\\u needs four hex digits");
        *unit = *unit * 16 + (unsigned)d;
    }
    return true;
}

/* An escape after its backslash; a high surrogate must have its low one after it. */
static bool escape(Cursor *c)
{
    if (c->p >= c->end)
        return fault(c, "a string ends inside an escape");
    unsigned char e = *c->p++;
    if (e && strchr("\"\\/bfnrt", e))
        return true;
    unsigned unit, low;
    if (e != 'u') {
        c->p--;
        return fault(c, "not a JSON escape");
    }
    if (!hex4(c, &unit))
        return false;
    if (unit >= 0xDC00 && unit <= 0xDFFF)
        return fault(c, "a low surrogate alone");
    if (unit < 0xD800 || unit > 0xDBFF)
        return true;
    if (c->end - c->p < 2 || c->p[0] != '\\' || c->p[1] != 'u')
        return fault(c, "a high surrogate alone");
    c->p += 2;
    return hex4(c, &low) && ((low >= 0xDC00 && low <= 0xDFFF) || fault(c, "a high surrogate alone"));
}

/* A string from its opening quote; its bytes (escapes as written) into *text, *len. */
static bool json_string(Cursor *c, const unsigned char **text, size_t *len)
{
    if (!eat(c, '"'))
        return fault(c, "expected a string");
    *text = c->p;
    while (c->p < c->end && *c->p != '"') {
        size_t n = utf8_length(c->p, c->end);
        if (n == 0)
            return fault(c, "not UTF-8");
        if (*c->p < 0x20 || *c->p == 0x7F)
            return fault(c, "a raw control character in a string");
        c->p += n;
        if (c->p[-1] == '\\' && !escape(c))
            return false;
    }
    if (c->p >= c->end)
        return fault(c, "a string without its closing quote");
    *len = (size_t)(c->p - *text);
    c->p++;
    return true;
}

static bool digits(Cursor *c)
{
    const unsigned char *from = c->p;
    while (c->p < c->end && *c->p >= '0' && *c->p <= '9')
        c->p++;
    return c->p > from;
}

/* RFC 8259's number grammar, and a value a double holds (1e999 parses, to inf). */
static bool json_number(Cursor *c)
{
    const unsigned char *from = c->p;
    if (c->p < c->end && *c->p == '-')
        c->p++;
    if (c->p < c->end && *c->p == '0')
        c->p++;
    else if (!digits(c))
        return fault(c, "not a JSON value");
    if (c->p < c->end && *c->p == '.' && (c->p++, !digits(c)))
        return fault(c, "a fraction needs digits");
    if (c->p < c->end && (*c->p == 'e' || *c->p == 'E')) {
        c->p++;
        if (c->p < c->end && (*c->p == '+' || *c->p == '-'))
            c->p++;
        if (!digits(c))
            return fault(c, "an exponent needs digits");
    }
    if (isfinite(strtod((const char *)from, NULL))) /* the input ends in a NUL */
        return true;
    c->p = from;
    return fault(c, "a number beyond a double");
}

typedef struct {
    const unsigned char *text;
    size_t len;
} Key;

static bool new_key(Cursor *c, Key *keys, int n, Key k)
{
    for (int i = 0; i < n; i++)
        if (keys[i].len == k.len && memcmp(keys[i].text, k.text, k.len) == 0)
            return fault(c, "a key twice in one object");
    return true;
}

static bool json_object(Cursor *c, int depth)
{
    Key keys[KEYS_MAX];
    int n = 0;
    if (eat(c, '}'))
        return true;
    do {
        Key k;
        if (!json_string(c, &k.text, &k.len))
            return false;
        if (n < KEYS_MAX && !new_key(c, keys, n, k))
            return false;
        if (n < KEYS_MAX)
            keys[n++] = k;
        if (!eat(c, ':'))
            return fault(c, "expected ':'");
        if (!json_value(c, depth + 1))
            return false;
    } while (eat(c, ','));
    return eat(c, '}') || fault(c, "expected ',' or '}'");
}

static bool json_array(Cursor *c, int depth)
{
    if (eat(c, ']'))
        return true;
    do
        if (!json_value(c, depth + 1))
            return false;
    while (eat(c, ','));
    return eat(c, ']') || fault(c, "expected ',' or ']'");
}

static bool json_value(Cursor *c, int depth)
{
    const unsigned char *text;
    size_t len;
    if (depth > DEPTH_MAX)
        return fault(c, "nested too deep");
    skip_space(c);
    if (c->p >= c->end)
        return fault(c, "expected a value");
    switch (*c->p) {
    case '{': c->p++; return json_object(c, depth);
    case '[': c->p++; return json_array(c, depth);
    case '"': return json_string(c, &text, &len);
    case 't': return literal(c, "true");
    case 'f': return literal(c, "false");
    case 'n': return literal(c, "null");
    default: return json_number(c);
    }
}

/* One line: one object and nothing after it. */
static bool json_line(Cursor *c)
{
    skip_space(c);
    if (c->p >= c->end || *c->p != '{')
        return fault(c, "a line that is not a JSON object");
    if (!json_value(c, 0))
        return false;
    skip_space(c);
    return c->p == c->end || fault(c, "more after the object");
}

/* ---- CSV ----------------------------------------------------------------------- */

/* A bare field from `from` to c->p that is not inf or nan, however spelt. */
static bool figure(Cursor *c, const unsigned char *from)
{
    static const char *const words[] = {"inf", "-inf", "+inf", "nan", "-nan", "infinity",
                                        "-infinity"};
    size_t n = (size_t)(c->p - from);
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        if (strlen(words[i]) == n && strncasecmp((const char *)from, words[i], n) == 0) {
            c->p = from;
            return fault(c, "inf or nan as a figure");
        }
    return true;
}

/* One field from c->p: quoted (quotes doubled inside, newlines allowed) or bare (no
 * quote, comma-free up to the end of its line); UTF-8 either way. */
static bool csv_field(Cursor *c)
{
    bool quoted = c->p < c->end && *c->p == '"';
    const unsigned char *from = c->p;
    c->p += quoted;
    for (;;) {
        if (c->p >= c->end || (!quoted && (*c->p == ',' || *c->p == '\n')))
            return quoted ? fault(c, "a quoted field without its closing quote")
                          : figure(c, from);
        if (quoted && *c->p == '"' && (c->p + 1 >= c->end || c->p[1] != '"'))
            break;
        if (!quoted && (*c->p == '"' || *c->p == '\r'))
            return fault(c, "a quote or CR in a field that is not quoted");
        size_t n = *c->p == '"' ? 2 : utf8_length(c->p, c->end);
        if (n == 0)
            return fault(c, "not UTF-8");
        c->p += n;
    }
    c->p++;
    return c->p >= c->end || *c->p == ',' || *c->p == '\n' ||
           fault(c, "a closing quote not followed by ',' or the end of the row");
}

/* A record up to and past its newline; its field count in *fields. */
static bool csv_record(Cursor *c, int *fields)
{
    *fields = 0;
    for (;;) {
        if (!csv_field(c))
            return false;
        ++*fields;
        if (c->p >= c->end || *c->p != ',')
            break;
        c->p++;
    }
    if (c->p < c->end && *c->p != '\n')
        return fault(c, "expected ',' or the end of the row");
    c->p += c->p < c->end;
    return true;
}

/* ---- Reports ------------------------------------------------------------------------ */

/* One line for the fault at c, to `out` when it is not NULL; 1, the count of it. */
static int report(FILE *out, const char *name, const Cursor *c)
{
    int line = 1, col = 1;
    for (const unsigned char *q = c->begin; q < c->at; q++) {
        col = *q == '\n' ? 1 : col + 1;
        line += *q == '\n';
    }
    if (out)
        fprintf(out, "%s:%d:%d: %s\n", name, line, col, c->why);
    return 1;
}

static int check_json(FILE *out, const char *name, const unsigned char *text, size_t len)
{
    const unsigned char *end = text + len;
    int faults = 0;
    for (const unsigned char *p = text; p < end;) {
        const unsigned char *nl = memchr(p, '\n', (size_t)(end - p));
        Cursor c = {p, text, nl ? nl : end, NULL, NULL};
        if (!json_line(&c))
            faults += report(out, name, &c);
        p = nl ? nl + 1 : end;
    }
    if (len > 0 && end[-1] != '\n') {
        Cursor c = {end, text, end, "the last line without its newline", end};
        faults += report(out, name, &c);
    }
    return faults;
}

/* The whole output is one table: a header of bare names, the first "kind", then rows of
 * as many fields; nothing else (no text line, no second header). */
static int check_csv(FILE *out, const char *name, const unsigned char *text, size_t len)
{
    Cursor c = {text, text, text + len, NULL, NULL};
    int columns = 0, fields;
    if (len > 0 && (len < 5 || memcmp(text, "kind,", 5) != 0))
        fault(&c, "the output does not start with the header \"kind,...\"");
    else if (len > 0 && csv_record(&c, &columns) && columns < 3)
        c.p = text, fault(&c, "a header of fewer than 3 columns");
    while (c.p < c.end && !c.why) {
        const unsigned char *row = c.p;
        if (csv_record(&c, &fields) && fields != columns)
            c.p = row, fault(&c, "a row whose field count is not its header's");
    }
    if (!c.why && len > 0 && text[len - 1] != '\n')
        c.p = text + len, fault(&c, "the last row without its newline");
    return c.why ? report(out, name, &c) : 0;
}

int output_check(bool json, const char *name, const unsigned char *text, size_t len, FILE *out)
{
    return (json ? check_json : check_csv)(out, name, text, len);
}

