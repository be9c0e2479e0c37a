/* Accumulating the records of one module: a totals record (every record
 * merged into one) and derived metrics (bytes moved, time of the slowest
 * rank, file counts by kind of access), as darshan-parser's --total, --perf
 * and --file report them. */
#ifndef IOLENS_ACCUMULATE_H
#define IOLENS_ACCUMULATE_H

#include <stdint.h>

#include "iolens/api.h"
#include "iolens/module.h"
#include "iolens/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Kinds of files the file counts distinguish. A file is one record id; its
 * records across ranks count once. */
enum iolens_file_kind {
    IOLENS_FILES_ALL,
    IOLENS_FILES_READ_ONLY,   /* bytes read, none written */
    IOLENS_FILES_WRITE_ONLY,  /* bytes written, none read */
    IOLENS_FILES_READ_WRITE,  /* both */
    IOLENS_FILES_UNIQUE,      /* one rank's record only */
    IOLENS_FILES_SHARED,      /* a shared record (rank -1) */
    IOLENS_FILES_PART_SHARED, /* records of several ranks, or mixed */
    IOLENS_FILE_KINDS
};

/* What the files of one kind add up to. */
struct iolens_file_counts {
    int64_t count;            /* files */
    int64_t read_bytes;       /* total bytes read */
    int64_t written_bytes;    /* total bytes written */
    int64_t max_read_bytes;   /* most bytes read from one file */
    int64_t max_written_bytes;/* most bytes written to one file */
    int64_t total_max_offset; /* sum of each file's highest offset; -1 if not kept */
    int64_t max_offset;       /* highest offset in any file; -1 if not kept */
    int64_t nprocs;           /* ranks that accessed them; -1 when all did */
};

/* Figures derived from all records of a module. Times are in seconds. */
struct iolens_metrics {
    int64_t total_bytes;          /* bytes read and written */
    double unique_io_time;        /* slowest rank's I/O time on its unshared files */
    double unique_meta_time;      /* that rank's metadata time on them */
    double unique_rw_time;        /* that rank's read and write time on them */
    int64_t unique_slowest_rank;  /* that rank (0 when no rank spent time) */
    double shared_io_time;        /* sum over shared records of the slowest rank's time */
    double agg_time;              /* unique_io_time + shared_io_time */
    double agg_perf;              /* total_bytes in MiB / agg_time; 0 if agg_time is 0 */
    struct iolens_file_counts files[IOLENS_FILE_KINDS];
};

typedef struct iolens_accumulator iolens_accumulator;

/* Start accumulating records of module mod for a job of nprocs ranks.
 * @return IOLENS_OK and *out set; IOLENS_ERR_ARGUMENT if mod has no derived
 *         metrics (no IOLENS_ROLE_METRICS) or cannot be merged; IOLENS_ERR_NOMEM. */
IOLENS_API iolens_status iolens_accumulator_create(const struct iolens_module_desc *mod,
                                                   int64_t nprocs, iolens_accumulator **out);

/* Keep only the totals record from now on: skip the per-file and per-rank
 * bookkeeping the metrics need, which is most of the cost for large logs.
 * emit then leaves *metrics as it would be for no records. */
IOLENS_API void iolens_accumulator_totals_only(iolens_accumulator *acc);

/* Add one decoded record (as iolens_log_next_record gives it) of the module.
 * Memory grows with the number of distinct record ids and ranks seen.
 * @return IOLENS_OK, or IOLENS_ERR_NOMEM (the record is then not counted). */
IOLENS_API iolens_status iolens_accumulator_inject(iolens_accumulator *acc, const void *rec);

/* Compute the metrics of everything injected so far into *metrics, and copy
 * the totals record (all records merged; all zero if none) to total, which
 * must hold the module's record_size bytes. Either pointer may be NULL.
 * @return IOLENS_OK. */
IOLENS_API iolens_status iolens_accumulator_emit(const iolens_accumulator *acc,
                                                 struct iolens_metrics *metrics, void *total);

/* Free an accumulator; NULL is allowed. */
IOLENS_API void iolens_accumulator_free(iolens_accumulator *acc);

#ifdef __cplusplus
}
#endif
#endif
