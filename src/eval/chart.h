/* chart.h — what the roofline chart (`plot`) keeps of each costed statement
 * (World.chart, eval.c; drawn by explore.c through plot.h).
 *
 * Ownership: a ChartPoint owns its label and chip name (eval.h: world_chart_point_free).
 */
#ifndef ROOFLINE_CHART_H
#define ROOFLINE_CHART_H

#include <stdbool.h>

#include "dtype.h"

/* A costed statement, kept for the roofline chart (`plot`). Its x is its FLOPs per HBM
 * byte, or, when communication bounds it and one link prices its collectives, per
 * byte over that link (vs_network): then it sits under the network roof that bounds
 * it, and its label says so. */
typedef struct {
    char *label;
    char *chip; /* the chip's name, whole: the chart groups roofs by it */
    DType compute;
    double x, attained, t_lower;
    bool vs_network;
    double peak, hbm_bw, link_bw; /* link_bw 0 without collectives */
} ChartPoint;

#endif
