/* test_json.c — unit tests for json.c, the reader of the report's JSON Lines that the
 * HTML page is drawn from: values, escapes, numbers read back to the same double, and
 * the malformed texts it must refuse. Ends with "N passed, M failed". */
#include "check.h"
#include "json.h"
#include "num.h"

#include <math.h>
#include <string.h>

static const Json *parse(Arena *a, const char *text)
{
    const char *why;
    return json_parse(text, strlen(text), a, &why);
}

#define CHECK(cond, what) check((cond), __FILE__, __LINE__, what)

static void test_record(void)
{
    Arena a = {0};
    const Json *r = parse(&a, "{\"stmt\":\"a \\\"q\\\" \\u00b5s \\ud83d\\ude00\",\"line\":28,"
                              "\"chip\":null,\"fits\":true,\"ops\":[{\"runs\":80},{}],"
                              "\"t\":1.7032706598984772e-7}\n");
    double v;
    CHECK(r && r->kind == JSON_OBJECT && r->n == 6, "a record is an object of 6 members");
    CHECK(r && strcmp(json_string(r, "stmt"), "a \"q\" \xc2\xb5s \xf0\x9f\x98\x80") == 0,
          "escapes decode: quote, \\u00b5 as UTF-8, a surrogate pair as one code point");
    CHECK(json_number(r, "line", &v) && v == 28, "a whole number");
    CHECK(!json_number(r, "chip", &v) && json_get(r, "chip")->kind == JSON_NULL,
          "null is no number");
    CHECK(json_true(r, "fits") && !json_true(r, "line"), "true, and only true");
    const Json *ops = json_get(r, "ops");
    CHECK(ops && ops->kind == JSON_ARRAY && ops->n == 2 && json_number(&ops->items[0], "runs", &v)
              && v == 80 && ops->items[1].n == 0, "arrays of objects, an empty one");
    CHECK(json_number(r, "t", &v) && v == 1.7032706598984772e-7, "a double reads back exactly");
    CHECK(!json_get(r, "nothing"), "a member it does not have");
    arena_free(&a);
}

/* Every number num_format_json writes reads back as the same double. */
static void test_round_trip(void)
{
    static const double values[] = {0, 1, -2.5, 1.97e14, 0.1, 1e-300, 1.7976931348623157e308,
                                    223260331167744, 0.745809778983121, 5e-324};
    int same = 0;
    for (size_t i = 0; i < sizeof values / sizeof *values; i++) {
        char buf[64], text[80];
        Arena a = {0};
        double v;
        snprintf(text, sizeof text, "{\"v\":%s}", num_format_json(values[i], buf, sizeof buf));
        same += json_number(parse(&a, text), "v", &v) && v == values[i];
        arena_free(&a);
    }
    CHECK(same == (int)(sizeof values / sizeof *values), "every formatted number reads back");
}

static void test_refused(void)
{
    static const char *const bad[] = {"", "{", "{\"a\":}", "{\"a\" 1}", "[1,]", "[1 2]",
                                      "01", "1.", "1e", "+1", "inf", "NaN", "\"a", "\"\\x\"",
                                      "\"\\u12\"", "\"a\tb\"", "tru", "{} {}", "{1:2}"};
    int refused = 0;
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        Arena a = {0};
        refused += parse(&a, bad[i]) == NULL;
        arena_free(&a);
    }
    CHECK(refused == (int)(sizeof bad / sizeof *bad), "malformed texts are refused");
    char deep[2 * JSON_MAX_DEPTH + 8];
    memset(deep, '[', JSON_MAX_DEPTH + 1);
    memset(deep + JSON_MAX_DEPTH + 1, ']', JSON_MAX_DEPTH + 1);
    deep[2 * JSON_MAX_DEPTH + 2] = '\0';
    Arena a = {0};
    CHECK(parse(&a, deep) == NULL, "nesting past JSON_MAX_DEPTH is refused, not a crash");
    arena_free(&a);
}

int main(void)
{
    test_record();
    test_round_trip();
    test_refused();
    printf("%d passed, %d failed\n", passed, failed);
    return failed != 0;
}
