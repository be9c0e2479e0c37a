/* Accumulating the records of one module: a totals record (every record
 * merged into one) and derived metrics (bytes moved, time of the slowest
 * rank, file counts by kind of access), as darshan-parser's --total, --perf
 * and --file report them.
 *
 * Memory is bounded: the file counts (record ids) are made in a table of at
 * most IOLENS_ACCUMULATOR_DEFAULT_FILES files. A module with more files is
 * counted in parts, one pass over its records per part: after injecting every
 * record once, call iolens_accumulator_finish (it reads the module again from
 * the log), or loop on iolens_accumulator_next_pass. The figures are the same
 * whatever the number of passes. Only the file counts need the table: without
 * them (iolens_accumulator_no_file_counts), one pass always does. */
#ifndef IOLENS_ACCUMULATE_H
#define IOLENS_ACCUMULATE_H

#include <stdint.h>

#include <stddef.h>

#include "iolens/api.h"
#include "iolens/log.h"
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

/* Files the accumulator's table holds by default: 262,144, in 14 MiB (48
 * bytes a file and 4 a slot, 524,288 slots). One pass counts them; a module
 * of n files takes n / 262,144 to twice as many passes (a part holds half to
 * all of the table). */
#define IOLENS_ACCUMULATOR_DEFAULT_FILES ((size_t)262144)

/* Start accumulating records of module mod for a job of nprocs ranks.
 * @return IOLENS_OK and *out set; IOLENS_ERR_ARGUMENT if mod has no derived
 *         metrics (no IOLENS_ROLE_METRICS) or cannot be merged; IOLENS_ERR_NOMEM. */
IOLENS_API iolens_status iolens_accumulator_create(const struct iolens_module_desc *mod,
                                                   int64_t nprocs, iolens_accumulator **out);

/* Keep only the totals record from now on: skip the per-file and per-rank
 * bookkeeping the metrics need, which is most of the cost for large logs.
 * emit then leaves *metrics as it would be for no records. */
IOLENS_API void iolens_accumulator_totals_only(iolens_accumulator *acc);

/* Skip the file counts (metrics->files, iolens parse --file): no file
 * table, and one pass always; emit leaves files[] zeroed and every other
 * figure as it would be. Call before the first record is injected. */
IOLENS_API void iolens_accumulator_no_file_counts(iolens_accumulator *acc);

/* Hold at most max_files files in the table (0: the default), a tuning and
 * test knob: fewer files, less memory and more passes. Takes effect only
 * before the first record is injected. */
IOLENS_API void iolens_accumulator_set_max_files(iolens_accumulator *acc, size_t max_files);

/* Add one decoded record (as iolens_log_next_record gives it) of the module.
 * Memory: the table (at most its file limit), and about 64 bytes per distinct rank.
 * @return IOLENS_OK; IOLENS_ERR_NOMEM (the record is then not counted);
 *         IOLENS_ERR_ARGUMENT after the last pass. */
IOLENS_API iolens_status iolens_accumulator_inject(iolens_accumulator *acc, const void *rec);

/* End a pass over the module's records: count the files of its part.
 * @return 1 when every record of the module must be injected again, in the
 *         order of the first pass (a pass over the next part of the files);
 *         0 when the metrics are complete. */
IOLENS_API int iolens_accumulator_next_pass(iolens_accumulator *acc);

/* After the first pass (every record of module mod_id injected, as log
 * gives them), make the passes still needed: each reads the module's records
 * from log again, from the first. The module's reading ends at its end, as
 * after the first pass.
 * @return IOLENS_OK, or the error of reading or injecting a record. */
IOLENS_API iolens_status iolens_accumulator_finish(iolens_accumulator *acc, iolens_log *log,
                                                   int mod_id);

/* Passes over the records so far: 1 while everything fits in one. */
IOLENS_API int iolens_accumulator_passes(const iolens_accumulator *acc);

/* Compute the metrics of everything injected into *metrics, and copy the
 * totals record (all records merged; all zero if none) to total, which must
 * hold the module's record_size bytes. Either pointer may be NULL.
 * @return IOLENS_OK; IOLENS_ERR_ARGUMENT (*metrics zeroed) when the files did
 *         not fit in one pass and the passes are not done. */
IOLENS_API iolens_status iolens_accumulator_emit(const iolens_accumulator *acc,
                                                 struct iolens_metrics *metrics, void *total);

/* Free an accumulator; NULL is allowed. */
IOLENS_API void iolens_accumulator_free(iolens_accumulator *acc);

#ifdef __cplusplus
}
#endif
#endif
