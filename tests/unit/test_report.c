/* test_report.c — unit tests for the writers of report.c that every JSON line and CSV
 * row goes through: numbers that are not finite, and strings. Prints one FAIL line per
 * failure and ends with "N passed, M failed". */
#include "check.h"
#include "report.h"

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
    report_json_field(c.out, "t", 1.5);
    PRINTS(&c, ",\"t\":1.5");
    capture_begin(&c);
    report_json_field(c.out, "t", INFINITY);
    PRINTS(&c, ",\"t\":null");
    capture_begin(&c);
    report_json_field(c.out, "t", NAN);
    PRINTS(&c, ",\"t\":null");
}

static void test_csv(void)
{
    Capture c;
    capture_begin(&c);
    report_csv_text(c.out, "say \"hi\", twice");
    PRINTS(&c, "\"say \"\"hi\"\", twice\"");
    capture_begin(&c);
    report_csv_number(c.out, 16e9);
    report_csv_number(c.out, INFINITY);
    report_csv_number(c.out, -INFINITY);
    report_csv_number(c.out, NAN);
    report_csv_number(c.out, 0.5);
    PRINTS(&c, ",16000000000,,,,0.5");
}

int main(void)
{
    test_json_field();
    test_csv();
    printf("%d passed, %d failed\n", passed, failed);
    return failed != 0;
}
