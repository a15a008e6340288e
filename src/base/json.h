/* json.h — writes the strings and numbers of the JSON Lines the report writes, and
 * reads one line back.
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
#include <stdio.h>

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

/* A JSON string literal of len bytes: quotes, backslashes and control bytes escaped,
 * a byte that is not UTF-8 as \ufffd. */
void json_write_string(FILE *out, const char *s, size_t len);
/* ,"key":number after an object's first key, in the shortest form that reads back the
 * same double; null when it is not finite (JSON has no inf or nan). */
void json_write_field(FILE *out, const char *key, double v);

#endif
