/* DFS module (record version 1): one record per file of the DAOS file system
 * API, per rank or shared (rank -1), naming the DAOS pool and container that
 * hold it. The tables below are the single definition of its counters:
 * X(NAME, kind, merge rule, meaning). */
#ifndef IOLENS_MODULES_DFS_H
#define IOLENS_MODULES_DFS_H

#include "iolens/module.h"

#define IOLENS_DFS_VERSION 1

#define IOLENS_DFS_COUNTERS(X) \
    X(DFS_OPENS, I64, SUM, "file opens") \
    X(DFS_GLOBAL_OPENS, I64, SUM, "opens through a handle shared across processes") \
    X(DFS_LOOKUPS, I64, SUM, "path lookups") \
    X(DFS_DUPS, I64, SUM, "handle duplications") \
    X(DFS_READS, I64, SUM, "contiguous reads") \
    X(DFS_READXS, I64, SUM, "non-contiguous (scatter) reads") \
    X(DFS_WRITES, I64, SUM, "contiguous writes") \
    X(DFS_WRITEXS, I64, SUM, "non-contiguous (gather) writes") \
    X(DFS_NB_READS, I64, SUM, "non-blocking reads") \
    X(DFS_NB_WRITES, I64, SUM, "non-blocking writes") \
    X(DFS_GET_SIZES, I64, SUM, "file size queries") \
    X(DFS_PUNCHES, I64, SUM, "punches (range deallocations)") \
    X(DFS_REMOVES, I64, SUM, "removes") \
    X(DFS_STATS, I64, SUM, "stat calls") \
    X(DFS_BYTES_READ, I64, SUM, "bytes read") \
    X(DFS_BYTES_WRITTEN, I64, SUM, "bytes written") \
    X(DFS_RW_SWITCHES, I64, SUM, "changes between reading and writing") \
    X(DFS_MAX_READ_TIME_SIZE, I64, PAIRED, "size of the slowest read") \
    X(DFS_MAX_WRITE_TIME_SIZE, I64, PAIRED, "size of the slowest write") \
    X(DFS_SIZE_READ_0_100, I64, SUM, "reads of 0-100 bytes") \
    X(DFS_SIZE_READ_100_1K, I64, SUM, "reads of 100 bytes-1 KiB") \
    X(DFS_SIZE_READ_1K_10K, I64, SUM, "reads of 1-10 KiB") \
    X(DFS_SIZE_READ_10K_100K, I64, SUM, "reads of 10-100 KiB") \
    X(DFS_SIZE_READ_100K_1M, I64, SUM, "reads of 100 KiB-1 MiB") \
    X(DFS_SIZE_READ_1M_4M, I64, SUM, "reads of 1-4 MiB") \
    X(DFS_SIZE_READ_4M_10M, I64, SUM, "reads of 4-10 MiB") \
    X(DFS_SIZE_READ_10M_100M, I64, SUM, "reads of 10-100 MiB") \
    X(DFS_SIZE_READ_100M_1G, I64, SUM, "reads of 100 MiB-1 GiB") \
    X(DFS_SIZE_READ_1G_PLUS, I64, SUM, "reads of more than 1 GiB") \
    X(DFS_SIZE_WRITE_0_100, I64, SUM, "writes of 0-100 bytes") \
    X(DFS_SIZE_WRITE_100_1K, I64, SUM, "writes of 100 bytes-1 KiB") \
    X(DFS_SIZE_WRITE_1K_10K, I64, SUM, "writes of 1-10 KiB") \
    X(DFS_SIZE_WRITE_10K_100K, I64, SUM, "writes of 10-100 KiB") \
    X(DFS_SIZE_WRITE_100K_1M, I64, SUM, "writes of 100 KiB-1 MiB") \
    X(DFS_SIZE_WRITE_1M_4M, I64, SUM, "writes of 1-4 MiB") \
    X(DFS_SIZE_WRITE_4M_10M, I64, SUM, "writes of 4-10 MiB") \
    X(DFS_SIZE_WRITE_10M_100M, I64, SUM, "writes of 10-100 MiB") \
    X(DFS_SIZE_WRITE_100M_1G, I64, SUM, "writes of 100 MiB-1 GiB") \
    X(DFS_SIZE_WRITE_1G_PLUS, I64, SUM, "writes of more than 1 GiB") \
    X(DFS_ACCESS1_ACCESS, I64, TOP4, "most common access size") \
    X(DFS_ACCESS2_ACCESS, I64, PAIRED, "second most common access size") \
    X(DFS_ACCESS3_ACCESS, I64, PAIRED, "third most common access size") \
    X(DFS_ACCESS4_ACCESS, I64, PAIRED, "fourth most common access size") \
    X(DFS_ACCESS1_COUNT, I64, PAIRED, "times the most common size occurred") \
    X(DFS_ACCESS2_COUNT, I64, PAIRED, "times the second size occurred") \
    X(DFS_ACCESS3_COUNT, I64, PAIRED, "times the third size occurred") \
    X(DFS_ACCESS4_COUNT, I64, PAIRED, "times the fourth size occurred") \
    X(DFS_CHUNK_SIZE, I64, LAST, "chunk size of the file's object") \
    X(DFS_FASTEST_RANK, I64, PAIRED, "rank with the least I/O time on a shared file") \
    X(DFS_FASTEST_RANK_BYTES, I64, PAIRED, "bytes moved by that rank") \
    X(DFS_SLOWEST_RANK, I64, PAIRED, "rank with the most I/O time on a shared file") \
    X(DFS_SLOWEST_RANK_BYTES, I64, PAIRED, "bytes moved by that rank")

#define IOLENS_DFS_FCOUNTERS(X) \
    X(DFS_F_OPEN_START_TIMESTAMP, F64, MIN_NONZERO, "start of the first open") \
    X(DFS_F_READ_START_TIMESTAMP, F64, MIN_NONZERO, "start of the first read") \
    X(DFS_F_WRITE_START_TIMESTAMP, F64, MIN_NONZERO, "start of the first write") \
    X(DFS_F_CLOSE_START_TIMESTAMP, F64, MIN_NONZERO, "start of the first close") \
    X(DFS_F_OPEN_END_TIMESTAMP, F64, MAX, "end of the last open") \
    X(DFS_F_READ_END_TIMESTAMP, F64, MAX, "end of the last read") \
    X(DFS_F_WRITE_END_TIMESTAMP, F64, MAX, "end of the last write") \
    X(DFS_F_CLOSE_END_TIMESTAMP, F64, MAX, "end of the last close") \
    X(DFS_F_READ_TIME, F64, SUM, "seconds spent reading") \
    X(DFS_F_WRITE_TIME, F64, SUM, "seconds spent writing") \
    X(DFS_F_META_TIME, F64, SUM, "seconds in metadata calls") \
    X(DFS_F_MAX_READ_TIME, F64, MAX_PAIRED, "duration of the slowest read") \
    X(DFS_F_MAX_WRITE_TIME, F64, MAX_PAIRED, "duration of the slowest write") \
    X(DFS_F_FASTEST_RANK_TIME, F64, FASTEST, "I/O time of the fastest rank") \
    X(DFS_F_SLOWEST_RANK_TIME, F64, SLOWEST, "I/O time of the slowest rank")

#define IOLENS_X_ENUM(name, kind, merge, desc) name,
enum iolens_dfs_counter { IOLENS_DFS_COUNTERS(IOLENS_X_ENUM) DFS_NUM_INDICES };
enum iolens_dfs_fcounter { IOLENS_DFS_FCOUNTERS(IOLENS_X_ENUM) DFS_F_NUM_INDICES };
#undef IOLENS_X_ENUM

/* Darshan's DFS v1 layout has exactly these many counters. */
_Static_assert(DFS_NUM_INDICES == 52, "DFS counter count");
_Static_assert(DFS_F_NUM_INDICES == 15, "DFS float counter count");

/* A decoded DFS record. The uuids are raw bytes, never byte-swapped. */
struct iolens_dfs_record {
    struct iolens_record_base base;
    int64_t counters[DFS_NUM_INDICES];
    double fcounters[DFS_F_NUM_INDICES];
    unsigned char pool_uuid[16];
    unsigned char cont_uuid[16];
};

/* Characters of a uuid's text form, without the terminating NUL. */
#define IOLENS_UUID_TEXT_LEN 36

/* Write uuid as text (lowercase 8-4-4-4-12 hex groups) into out, NUL-terminated;
 * out must hold IOLENS_UUID_TEXT_LEN + 1 bytes. */
IOLENS_API void iolens_uuid_text(const unsigned char uuid[16], char *out);

/* Descriptor of the DFS module. */
extern IOLENS_API const struct iolens_module_desc iolens_dfs_module;

#endif
