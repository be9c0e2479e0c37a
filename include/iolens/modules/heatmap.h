/* HEATMAP module (record version 1): bytes read and written per time bin,
 * one record per rank and instrumented interface (its record name, e.g.
 * "heatmap:POSIX", says which). */
#ifndef IOLENS_MODULES_HEATMAP_H
#define IOLENS_MODULES_HEATMAP_H

#include <stdint.h>

#include "iolens/module.h"

#define IOLENS_HEATMAP_VERSION 1

/* A decoded HEATMAP record: one contiguous block without pointers. bins holds
 * nbins write byte counts followed by nbins read byte counts; bin i covers
 * [i * bin_width_seconds, (i + 1) * bin_width_seconds) from the job's start.
 * Like Darshan's reader, a record whose bin count is one off the first
 * record's (same bin width; a clock-skew bug of runtimes 3.4.0 to 3.4.3) is
 * brought to the first record's count: an extra last bin is dropped, a
 * missing last bin is added as 0 to both arrays. (Darshan's own fix-up of a
 * missing bin also shifts the read bins by one and loses the last; iolens
 * keeps them in place.) Size: iolens_heatmap_record_bytes(). */
struct iolens_heatmap_record {
    struct iolens_record_base base;
    double bin_width_seconds;
    int64_t nbins;
    int64_t bins[];
};

_Static_assert(sizeof(struct iolens_heatmap_record) == 32, "HEATMAP record head size");

/* Bytes written in each bin: nbins values. */
static inline const int64_t *iolens_heatmap_write_bins(const struct iolens_heatmap_record *rec)
{
    return rec->bins;
}

/* Bytes read in each bin: nbins values. */
static inline const int64_t *iolens_heatmap_read_bins(const struct iolens_heatmap_record *rec)
{
    return rec->bins + rec->nbins;
}

/* Bytes of a decoded record (fixed part and both bin arrays). */
static inline size_t iolens_heatmap_record_bytes(const struct iolens_heatmap_record *rec)
{
    return sizeof(*rec) + 2 * (size_t)rec->nbins * sizeof(int64_t);
}

/* The HEATMAP module: reads and writes version 1, prints what darshan-parser
 * prints. */
extern IOLENS_API const struct iolens_module_desc iolens_heatmap_module;

#endif
