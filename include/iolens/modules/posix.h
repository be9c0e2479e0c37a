/* POSIX module (record version 4): one record per file per rank, or one per
 * shared file with rank -1. The tables below are the single definition of
 * its counters: X(NAME, kind, merge rule, meaning). */
#ifndef IOLENS_MODULES_POSIX_H
#define IOLENS_MODULES_POSIX_H

#include "iolens/module.h"

#define IOLENS_POSIX_VERSION 4

#define IOLENS_POSIX_COUNTERS(X) \
    X(POSIX_OPENS, I64, COUNT, "opens, including those by fileno and dup") \
    X(POSIX_FILENOS, I64, COUNT, "fileno calls on a stream of the file") \
    X(POSIX_DUPS, I64, COUNT, "dup, dup2 and dup3 calls on its descriptors") \
    X(POSIX_READS, I64, COUNT, "read operations") \
    X(POSIX_WRITES, I64, COUNT, "write operations") \
    X(POSIX_SEEKS, I64, COUNT, "seek operations") \
    X(POSIX_STATS, I64, COUNT, "stat-family calls") \
    X(POSIX_MMAPS, I64, COUNT, "mmap calls") \
    X(POSIX_FSYNCS, I64, COUNT, "fsync calls") \
    X(POSIX_FDSYNCS, I64, COUNT, "fdatasync calls") \
    X(POSIX_RENAME_SOURCES, I64, COUNT, "renames away from this name") \
    X(POSIX_RENAME_TARGETS, I64, COUNT, "renames onto this name") \
    X(POSIX_RENAMED_FROM, U64, LAST, "record id of the first name renamed onto this one") \
    X(POSIX_MODE, I64, LAST, "permission bits given at open") \
    X(POSIX_BYTES_READ, I64, SUM, "bytes read") \
    X(POSIX_BYTES_WRITTEN, I64, SUM, "bytes written") \
    X(POSIX_MAX_BYTE_READ, I64, MAX, "highest offset read") \
    X(POSIX_MAX_BYTE_WRITTEN, I64, MAX, "highest offset written") \
    X(POSIX_CONSEC_READS, I64, SUM, "reads starting where the previous one ended") \
    X(POSIX_CONSEC_WRITES, I64, SUM, "writes starting where the previous one ended") \
    X(POSIX_SEQ_READS, I64, SUM, "reads at a higher offset than the previous one") \
    X(POSIX_SEQ_WRITES, I64, SUM, "writes at a higher offset than the previous one") \
    X(POSIX_RW_SWITCHES, I64, SUM, "changes between reading and writing") \
    X(POSIX_MEM_NOT_ALIGNED, I64, SUM, "accesses with a buffer not memory-aligned") \
    X(POSIX_MEM_ALIGNMENT, I64, LAST, "memory alignment in bytes") \
    X(POSIX_FILE_NOT_ALIGNED, I64, SUM, "accesses at an offset not file-aligned") \
    X(POSIX_FILE_ALIGNMENT, I64, LAST, "file alignment in bytes") \
    X(POSIX_MAX_READ_TIME_SIZE, I64, PAIRED, "size of the slowest read") \
    X(POSIX_MAX_WRITE_TIME_SIZE, I64, PAIRED, "size of the slowest write") \
    X(POSIX_SIZE_READ_0_100, I64, SUM, "reads of 0-100 bytes") \
    X(POSIX_SIZE_READ_100_1K, I64, SUM, "reads of 100 bytes-1 KiB") \
    X(POSIX_SIZE_READ_1K_10K, I64, SUM, "reads of 1-10 KiB") \
    X(POSIX_SIZE_READ_10K_100K, I64, SUM, "reads of 10-100 KiB") \
    X(POSIX_SIZE_READ_100K_1M, I64, SUM, "reads of 100 KiB-1 MiB") \
    X(POSIX_SIZE_READ_1M_4M, I64, SUM, "reads of 1-4 MiB") \
    X(POSIX_SIZE_READ_4M_10M, I64, SUM, "reads of 4-10 MiB") \
    X(POSIX_SIZE_READ_10M_100M, I64, SUM, "reads of 10-100 MiB") \
    X(POSIX_SIZE_READ_100M_1G, I64, SUM, "reads of 100 MiB-1 GiB") \
    X(POSIX_SIZE_READ_1G_PLUS, I64, SUM, "reads of more than 1 GiB") \
    X(POSIX_SIZE_WRITE_0_100, I64, SUM, "writes of 0-100 bytes") \
    X(POSIX_SIZE_WRITE_100_1K, I64, SUM, "writes of 100 bytes-1 KiB") \
    X(POSIX_SIZE_WRITE_1K_10K, I64, SUM, "writes of 1-10 KiB") \
    X(POSIX_SIZE_WRITE_10K_100K, I64, SUM, "writes of 10-100 KiB") \
    X(POSIX_SIZE_WRITE_100K_1M, I64, SUM, "writes of 100 KiB-1 MiB") \
    X(POSIX_SIZE_WRITE_1M_4M, I64, SUM, "writes of 1-4 MiB") \
    X(POSIX_SIZE_WRITE_4M_10M, I64, SUM, "writes of 4-10 MiB") \
    X(POSIX_SIZE_WRITE_10M_100M, I64, SUM, "writes of 10-100 MiB") \
    X(POSIX_SIZE_WRITE_100M_1G, I64, SUM, "writes of 100 MiB-1 GiB") \
    X(POSIX_SIZE_WRITE_1G_PLUS, I64, SUM, "writes of more than 1 GiB") \
    X(POSIX_STRIDE1_STRIDE, I64, TOP4, "most common stride between accesses") \
    X(POSIX_STRIDE2_STRIDE, I64, PAIRED, "second most common stride") \
    X(POSIX_STRIDE3_STRIDE, I64, PAIRED, "third most common stride") \
    X(POSIX_STRIDE4_STRIDE, I64, PAIRED, "fourth most common stride") \
    X(POSIX_STRIDE1_COUNT, I64, PAIRED, "times the most common stride occurred") \
    X(POSIX_STRIDE2_COUNT, I64, PAIRED, "times the second stride occurred") \
    X(POSIX_STRIDE3_COUNT, I64, PAIRED, "times the third stride occurred") \
    X(POSIX_STRIDE4_COUNT, I64, PAIRED, "times the fourth stride occurred") \
    X(POSIX_ACCESS1_ACCESS, I64, TOP4, "most common access size") \
    X(POSIX_ACCESS2_ACCESS, I64, PAIRED, "second most common access size") \
    X(POSIX_ACCESS3_ACCESS, I64, PAIRED, "third most common access size") \
    X(POSIX_ACCESS4_ACCESS, I64, PAIRED, "fourth most common access size") \
    X(POSIX_ACCESS1_COUNT, I64, PAIRED, "times the most common size occurred") \
    X(POSIX_ACCESS2_COUNT, I64, PAIRED, "times the second size occurred") \
    X(POSIX_ACCESS3_COUNT, I64, PAIRED, "times the third size occurred") \
    X(POSIX_ACCESS4_COUNT, I64, PAIRED, "times the fourth size occurred") \
    X(POSIX_FASTEST_RANK, I64, PAIRED, "rank with the least I/O time on a shared file") \
    X(POSIX_FASTEST_RANK_BYTES, I64, PAIRED, "bytes moved by that rank") \
    X(POSIX_SLOWEST_RANK, I64, PAIRED, "rank with the most I/O time on a shared file") \
    X(POSIX_SLOWEST_RANK_BYTES, I64, PAIRED, "bytes moved by that rank")

#define IOLENS_POSIX_FCOUNTERS(X) \
    X(POSIX_F_OPEN_START_TIMESTAMP, F64, MIN_NONZERO, "start of the first open") \
    X(POSIX_F_READ_START_TIMESTAMP, F64, MIN_NONZERO, "start of the first read") \
    X(POSIX_F_WRITE_START_TIMESTAMP, F64, MIN_NONZERO, "start of the first write") \
    X(POSIX_F_CLOSE_START_TIMESTAMP, F64, MIN_NONZERO, "start of the first close") \
    X(POSIX_F_OPEN_END_TIMESTAMP, F64, MAX, "end of the last open") \
    X(POSIX_F_READ_END_TIMESTAMP, F64, MAX, "end of the last read") \
    X(POSIX_F_WRITE_END_TIMESTAMP, F64, MAX, "end of the last write") \
    X(POSIX_F_CLOSE_END_TIMESTAMP, F64, MAX, "end of the last close") \
    X(POSIX_F_READ_TIME, F64, SUM, "seconds spent reading") \
    X(POSIX_F_WRITE_TIME, F64, SUM, "seconds spent writing") \
    X(POSIX_F_META_TIME, F64, SUM, "seconds spent in open, close, stat, seek, sync") \
    X(POSIX_F_MAX_READ_TIME, F64, MAX_PAIRED, "duration of the slowest read") \
    X(POSIX_F_MAX_WRITE_TIME, F64, MAX_PAIRED, "duration of the slowest write") \
    X(POSIX_F_FASTEST_RANK_TIME, F64, FASTEST, "I/O time of the fastest rank") \
    X(POSIX_F_SLOWEST_RANK_TIME, F64, SLOWEST, "I/O time of the slowest rank") \
    X(POSIX_F_VARIANCE_RANK_TIME, F64, VARIANCE_TIME, "variance of I/O time across ranks") \
    X(POSIX_F_VARIANCE_RANK_BYTES, F64, VARIANCE_BYTES, "variance of bytes moved across ranks")

#define IOLENS_X_ENUM(name, kind, merge, desc) name,
enum iolens_posix_counter { IOLENS_POSIX_COUNTERS(IOLENS_X_ENUM) POSIX_NUM_INDICES };
enum iolens_posix_fcounter { IOLENS_POSIX_FCOUNTERS(IOLENS_X_ENUM) POSIX_F_NUM_INDICES };
#undef IOLENS_X_ENUM

/* Darshan's POSIX v4 layout has exactly these many counters. */
_Static_assert(POSIX_NUM_INDICES == 69, "POSIX counter count");
_Static_assert(POSIX_F_NUM_INDICES == 17, "POSIX float counter count");

/* A decoded POSIX record: the newest layout, in host byte order. */
struct iolens_posix_record {
    struct iolens_record_base base;
    int64_t counters[POSIX_NUM_INDICES];
    double fcounters[POSIX_F_NUM_INDICES];
};

/* The POSIX module's descriptor (also reachable as iolens_module(IOLENS_MOD_POSIX)). */
extern IOLENS_API const struct iolens_module_desc iolens_posix_module;

#endif
