/* json.h — reads back one line of the JSON Lines the report writes.
 *
 * The HTML page (html.c) is drawn from the very records --json prints, so that its
 * figures are those figures; this is the small reader that turns one record back into
 * a tree. Strict JSON (RFC 8259) of at most JSON_MAX_DEPTH levels; numbers are read
 * with strtod in the "C" locale, so a number the report wrote reads back as the same
 * double.
 * Ownership: every node and string of a parse lives in the Arena it was given; one
 * arena_free releases the record.
 */
#ifndef ROOFLINE_JSON_H
#define ROOFLINE_JSON_H

#include <stdbool.h>
#include <stddef.h>

#include "arena.h"

enum { JSON_MAX_DEPTH = 2048 }; /* past any breakdown caps.h allows: 256 repeats in 64 calls */

typedef enum { JSON_NULL, JSON_BOOL, JSON_NUMBER, JSON_STRING, JSON_ARRAY, JSON_OBJECT } JsonKind;

typedef struct Json Json;
struct Json {
    JsonKind kind;
    bool truth;         /* JSON_BOOL */
    double number;      /* JSON_NUMBER */
    const char *string; /* JSON_STRING: UTF-8, NUL-terminated (a \u0000 ends it early) */
    const char **keys;  /* JSON_OBJECT: n keys, in order */
    Json *items;        /* JSON_ARRAY, JSON_OBJECT: n values */
    int n;
};

/* The value of len bytes of text, or NULL with *why set (a static message). */
Json *json_parse(const char *text, size_t len, Arena *arena, const char **why);
/* An object's member, or NULL when it has none (or obj is not an object). */
const Json *json_get(const Json *obj, const char *key);
/* A member that is a number: true and *out set; false when absent, null or not one. */
bool json_number(const Json *obj, const char *key, double *out);
/* A member that is a string, or NULL. */
const char *json_string(const Json *obj, const char *key);
/* A member that is true. */
bool json_true(const Json *obj, const char *key);

#endif
