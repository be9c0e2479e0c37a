/* DXT traces (modules DXT_POSIX, DXT_MPIIO and DXT_STDIO): the record layout
 * they share. A record lists every read and write one rank made on one file,
 * in order, each with the thread that made it. */
#ifndef IOLENS_MODULES_DXT_H
#define IOLENS_MODULES_DXT_H

#include <stdint.h>

#include "iolens/module.h"

#define IOLENS_DXT_HOSTNAME_SIZE 64

/* The thread id of a segment read from a record version that has none
 * (DXT_POSIX 1, DXT_MPIIO 1 and 2, DXT_STDIO 1); printed "N/A". */
#define IOLENS_DXT_NO_THREAD UINT64_MAX

/* One traced access, 40 bytes, in the layout of the newest versions (those
 * with thread ids). Times are seconds since the job's start. */
struct iolens_dxt_segment {
    int64_t offset;     /* file offset; -1 when the log did not record it */
    int64_t length;     /* bytes */
    double start_time;
    double end_time;
    uint64_t thread_id; /* the thread that made it, as pthread_self() gives it
                         * (an unsigned long in Darshan's layout), or
                         * IOLENS_DXT_NO_THREAD */
};

/* A decoded DXT record: one contiguous block without pointers, in the on-disk
 * order of the newest version. segments holds write_count writes, then
 * read_count reads. Size: iolens_dxt_record_bytes(). */
struct iolens_dxt_record {
    struct iolens_record_base base;
    int64_t shared_record;                   /* -1 for a file shared by all ranks */
    char hostname[IOLENS_DXT_HOSTNAME_SIZE]; /* NUL-padded; no NUL if 64 long */
    int64_t write_count;
    int64_t read_count;
    struct iolens_dxt_segment segments[];
};

_Static_assert(sizeof(struct iolens_dxt_segment) == 40, "DXT segment size");
_Static_assert(sizeof(struct iolens_dxt_record) == 104, "DXT record head size");

/* Bytes of a decoded record (fixed part and all segments). */
static inline size_t iolens_dxt_record_bytes(const struct iolens_dxt_record *rec)
{
    return sizeof(*rec) +
           (size_t)(rec->write_count + rec->read_count) * sizeof(struct iolens_dxt_segment);
}

#endif
