/* test_writers.c — unit tests for the writers that every JSON line and CSV row goes
 * through (json.c, csv.c): numbers that are not finite, strings that are not UTF-8.
 * Prints one FAIL line per failure and ends with "N passed, M failed". */
#include "check.h"
#include "csv.h"
#include "json.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What a writer printed: its output captured in memory. */
typedef struct {
    FILE *out;
    char *text;
    size_t len;
} Capture;

static void capture_begin(Capture *c)
{
    c->text = NULL;
    c->len = 0;
    c->out = open_memstream(&c->text, &c->len);
}

static void capture_is(Capture *c, const char *file, int line, const char *want)
{
    fclose(c->out);
    char what[160];
    snprintf(what, sizeof what, "prints [%s]", want);
    check_got(c->text && strcmp(c->text, want) == 0, file, line, what, c->text);
    free(c->text);
}

#define PRINTS(c, want) capture_is(c, __FILE__, __LINE__, want)

static void test_json_field(void)
{
    Capture c;
    capture_begin(&c);
    json_write_field(c.out, "t", 1.5);
    PRINTS(&c, ",\"t\":1.5");
    capture_begin(&c);
    json_write_field(c.out, "t", INFINITY);
    PRINTS(&c, ",\"t\":null");
    capture_begin(&c);
    json_write_field(c.out, "t", NAN);
    PRINTS(&c, ",\"t\":null");
}

/* Bytes that are not UTF-8 become \ufffd; well-formed characters pass whole. */
static void test_json_string(void)
{
    Capture c;
    capture_begin(&c);
    const char text[] = "caf\xC3\xA9 \xE9 \xED\xA0\x80 \xC3 \"\\\n\t\x7F";
    json_write_string(c.out, text, sizeof text - 1);
    PRINTS(&c, "\"caf\xC3\xA9 \\ufffd \\ufffd\\ufffd\\ufffd \\ufffd \\\"\\\\\\n\\u0009\\u007f\"");
}

static void test_csv(void)
{
    Capture c;
    capture_begin(&c);
    csv_field(c.out, "say \"hi\", twice");
    PRINTS(&c, "\"say \"\"hi\"\", twice\"");
    capture_begin(&c);
    csv_field(c.out, "a\xFF\"b");
    PRINTS(&c, "\"a\xEF\xBF\xBD\"\"b\"");
}

int main(void)
{
    test_json_field();
    test_json_string();
    test_csv();
    printf("%d passed, %d failed\n", passed, failed);
    return failed != 0;
}
