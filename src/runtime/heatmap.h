/* The HEATMAP module: bytes read and written per time bin, one record per
 * interface ("heatmap:POSIX", "heatmap:STDIO"), as Darshan 3.5 records by
 * default (200 bins of 0.1 s, each bin twice as wide whenever the run
 * outgrows them). The POSIX and STDIO modules call iol_heatmap_update once
 * per read or write that moved bytes. */
#ifndef IOL_RT_HEATMAP_H
#define IOL_RT_HEATMAP_H

#include <stdint.h>

#include "core.h"

extern const struct iol_module iol_heatmap_module;

/* The interfaces that feed a heatmap (one record each). */
enum iol_heatmap_iface {
    IOL_HEATMAP_POSIX,
    IOL_HEATMAP_STDIO,
    IOL_HEATMAP_NIFACES,
};

/* bytes were read (is_write 0) or written (1) through iface by a call that
 * ran from t0 to t1 (iol_now() seconds). Spread over the bins the call
 * spans, in proportion to the time spent in each; the shares always add up
 * to bytes. No lock on this path: bins are updated with atomic adds. Nothing
 * is recorded for bytes <= 0. */
void iol_heatmap_update(enum iol_heatmap_iface iface, int is_write, int64_t bytes, double t0,
                        double t1);

#endif
