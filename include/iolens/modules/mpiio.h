/* MPI-IO module (record version 3): one record per file opened through MPI-IO,
 * per rank or shared (rank -1). The tables below are the single definition of
 * its counters: X(NAME, kind, merge rule, meaning). */
#ifndef IOLENS_MODULES_MPIIO_H
#define IOLENS_MODULES_MPIIO_H

#include "iolens/module.h"

#define IOLENS_MPIIO_VERSION 3

#define IOLENS_MPIIO_COUNTERS(X) \
    X(MPIIO_INDEP_OPENS, I64, SUM, "independent (non-collective) opens") \
    X(MPIIO_COLL_OPENS, I64, SUM, "collective opens") \
    X(MPIIO_INDEP_READS, I64, SUM, "independent reads") \
    X(MPIIO_INDEP_WRITES, I64, SUM, "independent writes") \
    X(MPIIO_COLL_READS, I64, SUM, "collective reads") \
    X(MPIIO_COLL_WRITES, I64, SUM, "collective writes") \
    X(MPIIO_SPLIT_READS, I64, SUM, "split-collective reads") \
    X(MPIIO_SPLIT_WRITES, I64, SUM, "split-collective writes") \
    X(MPIIO_NB_READS, I64, SUM, "non-blocking reads") \
    X(MPIIO_NB_WRITES, I64, SUM, "non-blocking writes") \
    X(MPIIO_SYNCS, I64, SUM, "file sync calls") \
    X(MPIIO_HINTS, I64, SUM, "calls that passed info hints") \
    X(MPIIO_VIEWS, I64, SUM, "file view changes") \
    X(MPIIO_MODE, I64, LAST, "access mode flags given at open") \
    X(MPIIO_BYTES_READ, I64, SUM, "bytes read through MPI-IO") \
    X(MPIIO_BYTES_WRITTEN, I64, SUM, "bytes written through MPI-IO") \
    X(MPIIO_RW_SWITCHES, I64, SUM, "changes between reading and writing") \
    X(MPIIO_MAX_READ_TIME_SIZE, I64, PAIRED, "size of the slowest read") \
    X(MPIIO_MAX_WRITE_TIME_SIZE, I64, PAIRED, "size of the slowest write") \
    X(MPIIO_SIZE_READ_AGG_0_100, I64, SUM, "reads of 0-100 bytes (whole datatype)") \
    X(MPIIO_SIZE_READ_AGG_100_1K, I64, SUM, "reads of 100 bytes-1 KiB") \
    X(MPIIO_SIZE_READ_AGG_1K_10K, I64, SUM, "reads of 1-10 KiB") \
    X(MPIIO_SIZE_READ_AGG_10K_100K, I64, SUM, "reads of 10-100 KiB") \
    X(MPIIO_SIZE_READ_AGG_100K_1M, I64, SUM, "reads of 100 KiB-1 MiB") \
    X(MPIIO_SIZE_READ_AGG_1M_4M, I64, SUM, "reads of 1-4 MiB") \
    X(MPIIO_SIZE_READ_AGG_4M_10M, I64, SUM, "reads of 4-10 MiB") \
    X(MPIIO_SIZE_READ_AGG_10M_100M, I64, SUM, "reads of 10-100 MiB") \
    X(MPIIO_SIZE_READ_AGG_100M_1G, I64, SUM, "reads of 100 MiB-1 GiB") \
    X(MPIIO_SIZE_READ_AGG_1G_PLUS, I64, SUM, "reads of more than 1 GiB") \
    X(MPIIO_SIZE_WRITE_AGG_0_100, I64, SUM, "writes of 0-100 bytes (whole datatype)") \
    X(MPIIO_SIZE_WRITE_AGG_100_1K, I64, SUM, "writes of 100 bytes-1 KiB") \
    X(MPIIO_SIZE_WRITE_AGG_1K_10K, I64, SUM, "writes of 1-10 KiB") \
    X(MPIIO_SIZE_WRITE_AGG_10K_100K, I64, SUM, "writes of 10-100 KiB") \
    X(MPIIO_SIZE_WRITE_AGG_100K_1M, I64, SUM, "writes of 100 KiB-1 MiB") \
    X(MPIIO_SIZE_WRITE_AGG_1M_4M, I64, SUM, "writes of 1-4 MiB") \
    X(MPIIO_SIZE_WRITE_AGG_4M_10M, I64, SUM, "writes of 4-10 MiB") \
    X(MPIIO_SIZE_WRITE_AGG_10M_100M, I64, SUM, "writes of 10-100 MiB") \
    X(MPIIO_SIZE_WRITE_AGG_100M_1G, I64, SUM, "writes of 100 MiB-1 GiB") \
    X(MPIIO_SIZE_WRITE_AGG_1G_PLUS, I64, SUM, "writes of more than 1 GiB") \
    X(MPIIO_ACCESS1_ACCESS, I64, TOP4, "most common access size") \
    X(MPIIO_ACCESS2_ACCESS, I64, PAIRED, "second most common access size") \
    X(MPIIO_ACCESS3_ACCESS, I64, PAIRED, "third most common access size") \
    X(MPIIO_ACCESS4_ACCESS, I64, PAIRED, "fourth most common access size") \
    X(MPIIO_ACCESS1_COUNT, I64, PAIRED, "times the most common size occurred") \
    X(MPIIO_ACCESS2_COUNT, I64, PAIRED, "times the second size occurred") \
    X(MPIIO_ACCESS3_COUNT, I64, PAIRED, "times the third size occurred") \
    X(MPIIO_ACCESS4_COUNT, I64, PAIRED, "times the fourth size occurred") \
    X(MPIIO_FASTEST_RANK, I64, PAIRED, "rank with the least I/O time on a shared file") \
    X(MPIIO_FASTEST_RANK_BYTES, I64, PAIRED, "bytes moved by that rank") \
    X(MPIIO_SLOWEST_RANK, I64, PAIRED, "rank with the most I/O time on a shared file") \
    X(MPIIO_SLOWEST_RANK_BYTES, I64, PAIRED, "bytes moved by that rank")

#define IOLENS_MPIIO_FCOUNTERS(X) \
    X(MPIIO_F_OPEN_START_TIMESTAMP, F64, MIN_NONZERO, "start of the first open") \
    X(MPIIO_F_READ_START_TIMESTAMP, F64, MIN_NONZERO, "start of the first read") \
    X(MPIIO_F_WRITE_START_TIMESTAMP, F64, MIN_NONZERO, "start of the first write") \
    X(MPIIO_F_CLOSE_START_TIMESTAMP, F64, MIN_NONZERO, "start of the first close") \
    X(MPIIO_F_OPEN_END_TIMESTAMP, F64, MAX, "end of the last open") \
    X(MPIIO_F_READ_END_TIMESTAMP, F64, MAX, "end of the last read") \
    X(MPIIO_F_WRITE_END_TIMESTAMP, F64, MAX, "end of the last write") \
    X(MPIIO_F_CLOSE_END_TIMESTAMP, F64, MAX, "end of the last close") \
    X(MPIIO_F_READ_TIME, F64, SUM, "seconds spent reading") \
    X(MPIIO_F_WRITE_TIME, F64, SUM, "seconds spent writing") \
    X(MPIIO_F_META_TIME, F64, SUM, "seconds in open, close, sync, view and hint calls") \
    X(MPIIO_F_MAX_READ_TIME, F64, MAX_PAIRED, "duration of the slowest read") \
    X(MPIIO_F_MAX_WRITE_TIME, F64, MAX_PAIRED, "duration of the slowest write") \
    X(MPIIO_F_FASTEST_RANK_TIME, F64, FASTEST, "I/O time of the fastest rank") \
    X(MPIIO_F_SLOWEST_RANK_TIME, F64, SLOWEST, "I/O time of the slowest rank") \
    X(MPIIO_F_VARIANCE_RANK_TIME, F64, VARIANCE_TIME, "variance of I/O time across ranks") \
    X(MPIIO_F_VARIANCE_RANK_BYTES, F64, VARIANCE_BYTES, "variance of bytes moved across ranks")

#define IOLENS_X_ENUM(name, kind, merge, desc) name,
enum iolens_mpiio_counter { IOLENS_MPIIO_COUNTERS(IOLENS_X_ENUM) MPIIO_NUM_INDICES };
enum iolens_mpiio_fcounter { IOLENS_MPIIO_FCOUNTERS(IOLENS_X_ENUM) MPIIO_F_NUM_INDICES };
#undef IOLENS_X_ENUM

/* Darshan's MPI-IO v3 layout has exactly these many counters. */
_Static_assert(MPIIO_NUM_INDICES == 51, "MPI-IO counter count");
_Static_assert(MPIIO_F_NUM_INDICES == 17, "MPI-IO float counter count");

/* A decoded MPI-IO record. */
struct iolens_mpiio_record {
    struct iolens_record_base base;
    int64_t counters[MPIIO_NUM_INDICES];
    double fcounters[MPIIO_F_NUM_INDICES];
};

/* Descriptor of the MPI-IO module. */
extern IOLENS_API const struct iolens_module_desc iolens_mpiio_module;

#endif
