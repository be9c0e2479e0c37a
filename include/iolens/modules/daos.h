/* DAOS module (record version 1): one record per DAOS object (plain object,
 * array or key-value), per rank or shared (rank -1), naming its pool,
 * container and object id. The tables below are the single definition of its
 * counters: X(NAME, kind, merge rule, meaning). */
#ifndef IOLENS_MODULES_DAOS_H
#define IOLENS_MODULES_DAOS_H

#include "iolens/module.h"

#define IOLENS_DAOS_VERSION 1

/* NB_OPS merges to 0: Darshan's aggregation leaves it untouched. */
#define IOLENS_DAOS_COUNTERS(X) \
    X(DAOS_OBJ_OPENS, I64, SUM, "object opens") \
    X(DAOS_OBJ_FETCHES, I64, SUM, "object fetches (reads)") \
    X(DAOS_OBJ_UPDATES, I64, SUM, "object updates (writes)") \
    X(DAOS_OBJ_PUNCHES, I64, SUM, "whole-object punches") \
    X(DAOS_OBJ_DKEY_PUNCHES, I64, SUM, "distribution-key punches") \
    X(DAOS_OBJ_AKEY_PUNCHES, I64, SUM, "attribute-key punches") \
    X(DAOS_OBJ_DKEY_LISTS, I64, SUM, "distribution-key listings") \
    X(DAOS_OBJ_AKEY_LISTS, I64, SUM, "attribute-key listings") \
    X(DAOS_OBJ_RECX_LISTS, I64, SUM, "record-extent listings") \
    X(DAOS_ARRAY_OPENS, I64, SUM, "array opens and creates") \
    X(DAOS_ARRAY_READS, I64, SUM, "array reads") \
    X(DAOS_ARRAY_WRITES, I64, SUM, "array writes") \
    X(DAOS_ARRAY_GET_SIZES, I64, SUM, "array size queries") \
    X(DAOS_ARRAY_SET_SIZES, I64, SUM, "array resizes") \
    X(DAOS_ARRAY_STATS, I64, SUM, "array stat calls") \
    X(DAOS_ARRAY_PUNCHES, I64, SUM, "array punches") \
    X(DAOS_ARRAY_DESTROYS, I64, SUM, "array destroys") \
    X(DAOS_KV_OPENS, I64, SUM, "key-value opens") \
    X(DAOS_KV_GETS, I64, SUM, "key-value gets") \
    X(DAOS_KV_PUTS, I64, SUM, "key-value puts") \
    X(DAOS_KV_REMOVES, I64, SUM, "key-value removes") \
    X(DAOS_KV_LISTS, I64, SUM, "key-value listings") \
    X(DAOS_KV_DESTROYS, I64, SUM, "key-value destroys") \
    X(DAOS_NB_OPS, I64, ZERO, "operations issued without waiting (with an event)") \
    X(DAOS_BYTES_READ, I64, SUM, "bytes read, all object kinds") \
    X(DAOS_BYTES_WRITTEN, I64, SUM, "bytes written, all object kinds") \
    X(DAOS_RW_SWITCHES, I64, SUM, "changes between reading and writing") \
    X(DAOS_MAX_READ_TIME_SIZE, I64, PAIRED, "size of the slowest read") \
    X(DAOS_MAX_WRITE_TIME_SIZE, I64, PAIRED, "size of the slowest write") \
    X(DAOS_SIZE_READ_0_100, I64, SUM, "reads of 0-100 bytes") \
    X(DAOS_SIZE_READ_100_1K, I64, SUM, "reads of 100 bytes-1 KiB") \
    X(DAOS_SIZE_READ_1K_10K, I64, SUM, "reads of 1-10 KiB") \
    X(DAOS_SIZE_READ_10K_100K, I64, SUM, "reads of 10-100 KiB") \
    X(DAOS_SIZE_READ_100K_1M, I64, SUM, "reads of 100 KiB-1 MiB") \
    X(DAOS_SIZE_READ_1M_4M, I64, SUM, "reads of 1-4 MiB") \
    X(DAOS_SIZE_READ_4M_10M, I64, SUM, "reads of 4-10 MiB") \
    X(DAOS_SIZE_READ_10M_100M, I64, SUM, "reads of 10-100 MiB") \
    X(DAOS_SIZE_READ_100M_1G, I64, SUM, "reads of 100 MiB-1 GiB") \
    X(DAOS_SIZE_READ_1G_PLUS, I64, SUM, "reads of more than 1 GiB") \
    X(DAOS_SIZE_WRITE_0_100, I64, SUM, "writes of 0-100 bytes") \
    X(DAOS_SIZE_WRITE_100_1K, I64, SUM, "writes of 100 bytes-1 KiB") \
    X(DAOS_SIZE_WRITE_1K_10K, I64, SUM, "writes of 1-10 KiB") \
    X(DAOS_SIZE_WRITE_10K_100K, I64, SUM, "writes of 10-100 KiB") \
    X(DAOS_SIZE_WRITE_100K_1M, I64, SUM, "writes of 100 KiB-1 MiB") \
    X(DAOS_SIZE_WRITE_1M_4M, I64, SUM, "writes of 1-4 MiB") \
    X(DAOS_SIZE_WRITE_4M_10M, I64, SUM, "writes of 4-10 MiB") \
    X(DAOS_SIZE_WRITE_10M_100M, I64, SUM, "writes of 10-100 MiB") \
    X(DAOS_SIZE_WRITE_100M_1G, I64, SUM, "writes of 100 MiB-1 GiB") \
    X(DAOS_SIZE_WRITE_1G_PLUS, I64, SUM, "writes of more than 1 GiB") \
    X(DAOS_ACCESS1_ACCESS, I64, TOP4, "most common access size") \
    X(DAOS_ACCESS2_ACCESS, I64, PAIRED, "second most common access size") \
    X(DAOS_ACCESS3_ACCESS, I64, PAIRED, "third most common access size") \
    X(DAOS_ACCESS4_ACCESS, I64, PAIRED, "fourth most common access size") \
    X(DAOS_ACCESS1_COUNT, I64, PAIRED, "times the most common size occurred") \
    X(DAOS_ACCESS2_COUNT, I64, PAIRED, "times the second size occurred") \
    X(DAOS_ACCESS3_COUNT, I64, PAIRED, "times the third size occurred") \
    X(DAOS_ACCESS4_COUNT, I64, PAIRED, "times the fourth size occurred") \
    X(DAOS_OBJ_OTYPE, I64, LAST, "object type (otype) of the object") \
    X(DAOS_ARRAY_CELL_SIZE, I64, LAST, "cell size of an array object") \
    X(DAOS_ARRAY_CHUNK_SIZE, I64, LAST, "chunk size of an array object") \
    X(DAOS_FASTEST_RANK, I64, PAIRED, "rank with the least I/O time on a shared object") \
    X(DAOS_FASTEST_RANK_BYTES, I64, PAIRED, "bytes moved by that rank") \
    X(DAOS_SLOWEST_RANK, I64, PAIRED, "rank with the most I/O time on a shared object") \
    X(DAOS_SLOWEST_RANK_BYTES, I64, PAIRED, "bytes moved by that rank")

#define IOLENS_DAOS_FCOUNTERS(X) \
    X(DAOS_F_OPEN_START_TIMESTAMP, F64, MIN_NONZERO, "start of the first open") \
    X(DAOS_F_READ_START_TIMESTAMP, F64, MIN_NONZERO, "start of the first read") \
    X(DAOS_F_WRITE_START_TIMESTAMP, F64, MIN_NONZERO, "start of the first write") \
    X(DAOS_F_CLOSE_START_TIMESTAMP, F64, MIN_NONZERO, "start of the first close") \
    X(DAOS_F_OPEN_END_TIMESTAMP, F64, MAX, "end of the last open") \
    X(DAOS_F_READ_END_TIMESTAMP, F64, MAX, "end of the last read") \
    X(DAOS_F_WRITE_END_TIMESTAMP, F64, MAX, "end of the last write") \
    X(DAOS_F_CLOSE_END_TIMESTAMP, F64, MAX, "end of the last close") \
    X(DAOS_F_READ_TIME, F64, SUM, "seconds spent reading") \
    X(DAOS_F_WRITE_TIME, F64, SUM, "seconds spent writing") \
    X(DAOS_F_META_TIME, F64, SUM, "seconds in metadata calls") \
    X(DAOS_F_MAX_READ_TIME, F64, MAX_PAIRED, "duration of the slowest read") \
    X(DAOS_F_MAX_WRITE_TIME, F64, MAX_PAIRED, "duration of the slowest write") \
    X(DAOS_F_FASTEST_RANK_TIME, F64, FASTEST, "I/O time of the fastest rank") \
    X(DAOS_F_SLOWEST_RANK_TIME, F64, SLOWEST, "I/O time of the slowest rank")

#define IOLENS_X_ENUM(name, kind, merge, desc) name,
enum iolens_daos_counter { IOLENS_DAOS_COUNTERS(IOLENS_X_ENUM) DAOS_NUM_INDICES };
enum iolens_daos_fcounter { IOLENS_DAOS_FCOUNTERS(IOLENS_X_ENUM) DAOS_F_NUM_INDICES };
#undef IOLENS_X_ENUM

/* Darshan's DAOS v1 layout has exactly these many counters. */
_Static_assert(DAOS_NUM_INDICES == 64, "DAOS counter count");
_Static_assert(DAOS_F_NUM_INDICES == 15, "DAOS float counter count");

/* A decoded DAOS record. The uuids are raw bytes, never byte-swapped; the
 * object id's two halves are integers like the counters. */
struct iolens_daos_record {
    struct iolens_record_base base;
    int64_t counters[DAOS_NUM_INDICES];
    double fcounters[DAOS_F_NUM_INDICES];
    unsigned char pool_uuid[16];
    unsigned char cont_uuid[16];
    uint64_t oid_hi;
    uint64_t oid_lo;
};

/* Descriptor of the DAOS module. */
extern IOLENS_API const struct iolens_module_desc iolens_daos_module;

#endif
