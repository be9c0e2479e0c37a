/* What the analysis files share (src/analysis/): the interfaces it follows
 * and how a record becomes figures, the bounded file table. */
#ifndef IOLENS_ANALYSIS_INTERNAL_H
#define IOLENS_ANALYSIS_INTERNAL_H

#include "iolens/analysis.h"

/* One interface: its module, its name as printed, and how one of its
 * records becomes figures (records = 1). */
struct iol_iface_def {
    int mod_id;
    const char *name;
    void (*stats)(const void *rec, struct iolens_io_stats *out);
};

/* Indexed by enum iolens_iface. */
extern const struct iol_iface_def iol_ifaces[IOLENS_IFACES];

/* The interface a module's records are, or -1. */
int iol_iface_of_module(int mod_id);

/* Add src's figures into dst: sums, maxima, the per-rank extremes, and the
 * shared records' slowest and fastest ranks (those of the slower record). */
void iol_stats_add(struct iolens_io_stats *dst, const struct iolens_io_stats *src);

/* a + b for figures of 0 or more, INT64_MAX when the sum would not fit
 * (damaged logs hold any value). */
static inline int64_t iol_add(int64_t a, int64_t b)
{
    int64_t sum;
    return __builtin_add_overflow(a, b, &sum) ? INT64_MAX : sum;
}

/* Bytes read and written. */
static inline int64_t iol_stats_bytes(const struct iolens_io_stats *s)
{
    return iol_add(s->bytes_read, s->bytes_written);
}

/* Seconds of reading, writing and metadata. */
static inline double iol_stats_time(const struct iolens_io_stats *s)
{
    return s->read_time + s->write_time + s->meta_time;
}

/* The bounded file table: at most cap files, found by id, with the
 * lightest always known (a min-heap on weight). */
struct iol_file_table {
    struct iolens_file_summary *files;
    size_t n, cap;
    size_t *heap;       /* file indexes, lightest first */
    size_t *heap_pos;   /* file index -> its place in heap */
    size_t *slots;      /* open addressing: 1 + file index, 0 empty */
    size_t nslots;      /* a power of two, at least 2 * cap */
    unsigned char *evicted; /* bits: a filter of ids that left the table */
    size_t evicted_bits;
};

/* Allocate a table for cap files. @return 0, or -1 (no memory). */
int iol_files_init(struct iol_file_table *t, size_t cap);

/* Free the table's index (not the files, which the summary takes). */
void iol_files_free_index(struct iol_file_table *t);

/* Add one record's figures for interface iface of file id (of weight w).
 * When the file is not kept, the figures go to rest (and *rest_files grows
 * when a file, or a file's return, is first sent there). */
void iol_files_add(struct iol_file_table *t, uint64_t id, int iface,
                   const struct iolens_io_stats *st, double w,
                   struct iolens_io_stats rest[IOLENS_IFACES], int64_t *rest_files);

/* Add one HEATMAP record's bins to the summary's grid of its interface
 * (records of other names are left out). @return 0, or -1 (no memory). */
int iol_heatmap_add(struct iolens_summary *s, const void *rec);

/* Shape g as nbins bins of bin_seconds by the rows of nprocs ranks (folded
 * to at most IOLENS_HEATMAP_MAX_ROWS, whole ranks per row) and allocate its
 * zeroed cells: the one rule for the HEATMAP grids and the DXT ones.
 * @return 0, or -1 (no memory; g's arrays are freed with it). */
int iol_heatmap_grid_shape(struct iolens_heatmap_grid *g, int nbins, double bin_seconds,
                           int64_t nprocs);

/* Free the summary's heatmap grids. */
void iol_heatmap_free(struct iolens_summary *s);

/* The weight of a record's figures: bytes plus 10^9 per second. */
static inline double iol_weight(const struct iolens_io_stats *s)
{
    return (double)iol_stats_bytes(s) + 1e9 * iol_stats_time(s);
}

#endif
