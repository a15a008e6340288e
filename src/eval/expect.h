/* expect.h — the figures `expect` checks (check.c), as the last report left them:
 * their names and values, field by field (World.last).
 *
 * Ownership: a LastReport borrows its source, which the world keeps.
 */
#ifndef ROOFLINE_EXPECT_H
#define ROOFLINE_EXPECT_H

#include <stdbool.h>

#include "roof.h"
#include "source.h"

/* `expect` and the figures it checks (check.c): the last report's, kept per field. */
typedef enum {
    FIELD_FLOPS, FIELD_BYTES, FIELD_INTENSITY, FIELD_T_MATH, FIELD_T_HBM, FIELD_T_COMM,
    FIELD_T_LOWER, FIELD_T_UPPER, FIELD_T_DERATED, FIELD_PARAMS, FIELD_PARAM_BYTES,
    FIELD_MEMORY, FIELD_CACHE_BYTES, FIELD_CHIPS, FIELD_COMM_BYTES, FIELD_GRADIENT_BYTES,
    FIELD_MASTER_BYTES, FIELD_OPTIMIZER_BYTES, FIELD_ACTIVATION_BYTES, FIELD_BOUND,
    /* serve's (serve.c) */
    FIELD_BATCH, FIELD_KV_PER_SEQ, FIELD_TTFT, FIELD_TPOT, FIELD_TPOT_FIRST, FIELD_TPOT_LAST,
    FIELD_DECODE_TOKENS_PER_S, FIELD_TOKENS_PER_S, FIELD_USD_PER_MTOK, FIELD_FINISHING,
    FIELD_EVICTED_TOKENS, FIELD_EVICTED_BYTES, FIELD_QPS, FIELD_QPS_PREFILL,
    FIELD_PREFILL_RATIO,
    FIELD_RIDGE, FIELD_PADDING_FLOPS, /* a statement's, on its chip */
    FIELD_HOPS,                       /* a send's */
    FIELD_T_PREDICTED,                /* on a calibrated chip (predict.h) */
    /* a whole-model statement's (summary.h); tokens_per_s above is one too */
    FIELD_TOKENS, FIELD_MODEL_FLOPS, FIELD_MFU, FIELD_TOKENS_PER_S_ALL, FIELD_RUN_TIME,
    FIELD_CHIP_HOURS, FIELD_RUN_USD,
    FIELD_COUNT
} ExpectField;
/* Their names as `expect` spells them, by ExpectField; NULL-terminated (check.c). */
extern const char *const check_expect_fields[FIELD_COUNT + 1];

/* The figures of the last reported statement or block, for `expect`. */
typedef struct {
    bool set;
    Span span;           /* where it was reported */
    const Source *src;
    double value[FIELD_COUNT]; /* by ExpectField */
    bool known[FIELD_COUNT];
    Bound bound;
    bool plain;          /* a statement, not a block call or repeat: no params or cache */
    bool served;         /* a serve statement: its figures (batch ... usd_per_mtok) too */
    bool whole;          /* a whole-model statement: its figures (tokens ... run_usd) too */
} LastReport;

#endif
