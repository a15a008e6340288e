/* records.h — the records of the explore statements (a sweep's points), built by the
 * statement and written here, so that each record has one writer.
 *
 * Ownership: a record borrows every string it points to for the call that writes it.
 */
#ifndef ROOFLINE_RECORDS_H
#define ROOFLINE_RECORDS_H

#include <stdbool.h>
#include <stdio.h>

#include "cost.h"
#include "roof.h"

/* What a point of a sweep holds: either as a statement's roofline (`roof`: chips,
 * intensity, ridge and attained, as `plot`'s points) or as a block call's memory
 * (`memory`: memory, hbm and fits). */
typedef struct {
    const char *stmt;  /* the curve's label, or its statement's text */
    const char *dim;   /* the swept name */
    const char *at;      /* its value here as JSON text (256) */
    const char *at_chip; /* or, in a sweep over chips, the chip's name (then at is NULL) */
    int line;
    const char *file;
    const char *chip;  /* NULL: the point has no chip, and no "chip" key */
    CostMode mode;
    bool roof, memory;
    double chips, flops, bytes, intensity, ridge;
    double t_math, t_hbm, t_comm, comm_bytes, t_lower, t_upper, t_derated;
    Bound bound;
    double attained;
    double memory_bytes, hbm; /* hbm 0: the chip gives no capacity */
    int fits;                 /* -1: unknown (no capacity) */
} SweepPoint;

/* One point as a JSON line. */
void records_sweep_point(FILE *out, const SweepPoint *p);

/* A fit: the largest value of the dim whose memory per chip fits the HBM. */
typedef struct {
    const char *stmt; /* the statement's text */
    size_t stmt_len;
    int line;
    const char *file;
    const char *dim;
    CostMode mode;
    double largest;
    double memory;      /* at largest */
    double hbm;
    double next_memory; /* at largest + 1: too much */
} FitRecord;

/* A fit's report: its row as text, or one JSON line. */
void records_fit(FILE *out, const FitRecord *r, bool json);

/* Bytes in four digits ("15.99 GB"), or in full when those read the same as `beside`
 * (the capacity), so "16 GB of 16 GB" does not hide which side of it they are. */
char *records_bytes_beside(double v, const char *beside, char *buf, size_t size);

/* A send's figures: what moves, the path it takes, its time (transfer.c derives each). */
typedef struct {
    double bytes;     /* what moves, all of it */
    double whole;     /* the tensor's bytes, when a chip sends only its shard of them */
    double share;     /* of it that crosses the links: (N − 1)/N for a gather, else 1 */
    double hops;
    double links;
    double bandwidth; /* of one link */
    double latency;   /* of one hop */
    double t;
    const char *network;
    char path[160];   /* "(0, 0) → (0, 1)", as the text report reads it */
} Transfer;

/* A send: its figures, and where and how it was costed. */
typedef struct {
    const char *stmt; /* the statement's text */
    size_t stmt_len;
    int line;
    const char *file;
    const char *chip;
    CostMode mode;
    const Transfer *move;
} SendRecord;

/* A send's report: its rows as text, or one JSON line. */
void records_send(FILE *out, const SendRecord *r, bool json);

#endif
