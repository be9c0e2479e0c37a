/* H5D module (record version 2): one record per HDF5 dataset, per rank or
 * shared (rank -1); each names the H5F record of its file. The tables below
 * are the single definition of its counters: X(NAME, kind, merge rule, meaning). */
#ifndef IOLENS_MODULES_H5D_H
#define IOLENS_MODULES_H5D_H

#include "iolens/module.h"

#define IOLENS_H5D_VERSION 2

/* Dimensions (the last ones of a dataspace) the access and chunk counters cover. */
#define IOLENS_H5D_MAX_NDIMS 5

#define IOLENS_H5D_COUNTERS(X) \
    X(H5D_OPENS, I64, SUM, "dataset opens and creates") \
    X(H5D_READS, I64, SUM, "dataset reads") \
    X(H5D_WRITES, I64, SUM, "dataset writes") \
    X(H5D_FLUSHES, I64, SUM, "dataset flushes") \
    X(H5D_BYTES_READ, I64, SUM, "bytes read") \
    X(H5D_BYTES_WRITTEN, I64, SUM, "bytes written") \
    X(H5D_RW_SWITCHES, I64, SUM, "changes between reading and writing") \
    X(H5D_REGULAR_HYPERSLAB_SELECTS, I64, SUM, "accesses with a regular hyperslab selection") \
    X(H5D_IRREGULAR_HYPERSLAB_SELECTS, I64, SUM, "accesses with an irregular hyperslab") \
    X(H5D_POINT_SELECTS, I64, SUM, "accesses with a point selection") \
    X(H5D_MAX_READ_TIME_SIZE, I64, PAIRED, "size of the slowest read") \
    X(H5D_MAX_WRITE_TIME_SIZE, I64, PAIRED, "size of the slowest write") \
    X(H5D_SIZE_READ_AGG_0_100, I64, SUM, "reads of 0-100 bytes") \
    X(H5D_SIZE_READ_AGG_100_1K, I64, SUM, "reads of 100 bytes-1 KiB") \
    X(H5D_SIZE_READ_AGG_1K_10K, I64, SUM, "reads of 1-10 KiB") \
    X(H5D_SIZE_READ_AGG_10K_100K, I64, SUM, "reads of 10-100 KiB") \
    X(H5D_SIZE_READ_AGG_100K_1M, I64, SUM, "reads of 100 KiB-1 MiB") \
    X(H5D_SIZE_READ_AGG_1M_4M, I64, SUM, "reads of 1-4 MiB") \
    X(H5D_SIZE_READ_AGG_4M_10M, I64, SUM, "reads of 4-10 MiB") \
    X(H5D_SIZE_READ_AGG_10M_100M, I64, SUM, "reads of 10-100 MiB") \
    X(H5D_SIZE_READ_AGG_100M_1G, I64, SUM, "reads of 100 MiB-1 GiB") \
    X(H5D_SIZE_READ_AGG_1G_PLUS, I64, SUM, "reads of more than 1 GiB") \
    X(H5D_SIZE_WRITE_AGG_0_100, I64, SUM, "writes of 0-100 bytes") \
    X(H5D_SIZE_WRITE_AGG_100_1K, I64, SUM, "writes of 100 bytes-1 KiB") \
    X(H5D_SIZE_WRITE_AGG_1K_10K, I64, SUM, "writes of 1-10 KiB") \
    X(H5D_SIZE_WRITE_AGG_10K_100K, I64, SUM, "writes of 10-100 KiB") \
    X(H5D_SIZE_WRITE_AGG_100K_1M, I64, SUM, "writes of 100 KiB-1 MiB") \
    X(H5D_SIZE_WRITE_AGG_1M_4M, I64, SUM, "writes of 1-4 MiB") \
    X(H5D_SIZE_WRITE_AGG_4M_10M, I64, SUM, "writes of 4-10 MiB") \
    X(H5D_SIZE_WRITE_AGG_10M_100M, I64, SUM, "writes of 10-100 MiB") \
    X(H5D_SIZE_WRITE_AGG_100M_1G, I64, SUM, "writes of 100 MiB-1 GiB") \
    X(H5D_SIZE_WRITE_AGG_1G_PLUS, I64, SUM, "writes of more than 1 GiB") \
    X(H5D_ACCESS1_ACCESS, I64, TOP4_TUPLE, "most common access size (whole selection)") \
    X(H5D_ACCESS1_LENGTH_D1, I64, PAIRED, "access 1: length in dim 1 of the last 5") \
    X(H5D_ACCESS1_LENGTH_D2, I64, PAIRED, "access 1: length in dim 2 of the last 5") \
    X(H5D_ACCESS1_LENGTH_D3, I64, PAIRED, "access 1: length in dim 3 of the last 5") \
    X(H5D_ACCESS1_LENGTH_D4, I64, PAIRED, "access 1: length in dim 4 of the last 5") \
    X(H5D_ACCESS1_LENGTH_D5, I64, PAIRED, "access 1: length in dim 5 of the last 5") \
    X(H5D_ACCESS1_STRIDE_D1, I64, PAIRED, "access 1: stride in dim 1 of the last 5") \
    X(H5D_ACCESS1_STRIDE_D2, I64, PAIRED, "access 1: stride in dim 2 of the last 5") \
    X(H5D_ACCESS1_STRIDE_D3, I64, PAIRED, "access 1: stride in dim 3 of the last 5") \
    X(H5D_ACCESS1_STRIDE_D4, I64, PAIRED, "access 1: stride in dim 4 of the last 5") \
    X(H5D_ACCESS1_STRIDE_D5, I64, PAIRED, "access 1: stride in dim 5 of the last 5") \
    X(H5D_ACCESS2_ACCESS, I64, PAIRED, "second most common access size") \
    X(H5D_ACCESS2_LENGTH_D1, I64, PAIRED, "access 2: length in dim 1 of the last 5") \
    X(H5D_ACCESS2_LENGTH_D2, I64, PAIRED, "access 2: length in dim 2 of the last 5") \
    X(H5D_ACCESS2_LENGTH_D3, I64, PAIRED, "access 2: length in dim 3 of the last 5") \
    X(H5D_ACCESS2_LENGTH_D4, I64, PAIRED, "access 2: length in dim 4 of the last 5") \
    X(H5D_ACCESS2_LENGTH_D5, I64, PAIRED, "access 2: length in dim 5 of the last 5") \
    X(H5D_ACCESS2_STRIDE_D1, I64, PAIRED, "access 2: stride in dim 1 of the last 5") \
    X(H5D_ACCESS2_STRIDE_D2, I64, PAIRED, "access 2: stride in dim 2 of the last 5") \
    X(H5D_ACCESS2_STRIDE_D3, I64, PAIRED, "access 2: stride in dim 3 of the last 5") \
    X(H5D_ACCESS2_STRIDE_D4, I64, PAIRED, "access 2: stride in dim 4 of the last 5") \
    X(H5D_ACCESS2_STRIDE_D5, I64, PAIRED, "access 2: stride in dim 5 of the last 5") \
    X(H5D_ACCESS3_ACCESS, I64, PAIRED, "third most common access size") \
    X(H5D_ACCESS3_LENGTH_D1, I64, PAIRED, "access 3: length in dim 1 of the last 5") \
    X(H5D_ACCESS3_LENGTH_D2, I64, PAIRED, "access 3: length in dim 2 of the last 5") \
    X(H5D_ACCESS3_LENGTH_D3, I64, PAIRED, "access 3: length in dim 3 of the last 5") \
    X(H5D_ACCESS3_LENGTH_D4, I64, PAIRED, "access 3: length in dim 4 of the last 5") \
    X(H5D_ACCESS3_LENGTH_D5, I64, PAIRED, "access 3: length in dim 5 of the last 5") \
    X(H5D_ACCESS3_STRIDE_D1, I64, PAIRED, "access 3: stride in dim 1 of the last 5") \
    X(H5D_ACCESS3_STRIDE_D2, I64, PAIRED, "access 3: stride in dim 2 of the last 5") \
    X(H5D_ACCESS3_STRIDE_D3, I64, PAIRED, "access 3: stride in dim 3 of the last 5") \
    X(H5D_ACCESS3_STRIDE_D4, I64, PAIRED, "access 3: stride in dim 4 of the last 5") \
    X(H5D_ACCESS3_STRIDE_D5, I64, PAIRED, "access 3: stride in dim 5 of the last 5") \
    X(H5D_ACCESS4_ACCESS, I64, PAIRED, "fourth most common access size") \
    X(H5D_ACCESS4_LENGTH_D1, I64, PAIRED, "access 4: length in dim 1 of the last 5") \
    X(H5D_ACCESS4_LENGTH_D2, I64, PAIRED, "access 4: length in dim 2 of the last 5") \
    X(H5D_ACCESS4_LENGTH_D3, I64, PAIRED, "access 4: length in dim 3 of the last 5") \
    X(H5D_ACCESS4_LENGTH_D4, I64, PAIRED, "access 4: length in dim 4 of the last 5") \
    X(H5D_ACCESS4_LENGTH_D5, I64, PAIRED, "access 4: length in dim 5 of the last 5") \
    X(H5D_ACCESS4_STRIDE_D1, I64, PAIRED, "access 4: stride in dim 1 of the last 5") \
    X(H5D_ACCESS4_STRIDE_D2, I64, PAIRED, "access 4: stride in dim 2 of the last 5") \
    X(H5D_ACCESS4_STRIDE_D3, I64, PAIRED, "access 4: stride in dim 3 of the last 5") \
    X(H5D_ACCESS4_STRIDE_D4, I64, PAIRED, "access 4: stride in dim 4 of the last 5") \
    X(H5D_ACCESS4_STRIDE_D5, I64, PAIRED, "access 4: stride in dim 5 of the last 5") \
    X(H5D_ACCESS1_COUNT, I64, PAIRED, "times the first access occurred") \
    X(H5D_ACCESS2_COUNT, I64, PAIRED, "times the second access occurred") \
    X(H5D_ACCESS3_COUNT, I64, PAIRED, "times the third access occurred") \
    X(H5D_ACCESS4_COUNT, I64, PAIRED, "times the fourth access occurred") \
    X(H5D_DATASPACE_NDIMS, I64, LAST, "dimensions of the dataspace") \
    X(H5D_DATASPACE_NPOINTS, I64, LAST, "elements in the dataspace") \
    X(H5D_DATATYPE_SIZE, I64, LAST, "bytes per element") \
    X(H5D_CHUNK_SIZE_D1, I64, LAST, "chunk size in dim 1 of the last 5") \
    X(H5D_CHUNK_SIZE_D2, I64, LAST, "chunk size in dim 2 of the last 5") \
    X(H5D_CHUNK_SIZE_D3, I64, LAST, "chunk size in dim 3 of the last 5") \
    X(H5D_CHUNK_SIZE_D4, I64, LAST, "chunk size in dim 4 of the last 5") \
    X(H5D_CHUNK_SIZE_D5, I64, LAST, "chunk size in dim 5 of the last 5") \
    X(H5D_USE_MPIIO_COLLECTIVE, I64, FLAG, "1 if collective MPI-IO transfers were requested") \
    X(H5D_USE_DEPRECATED, I64, FLAG, "1 if deprecated dataset calls were used") \
    X(H5D_FASTEST_RANK, I64, PAIRED, "rank with the least I/O time on a shared dataset") \
    X(H5D_FASTEST_RANK_BYTES, I64, PAIRED, "bytes moved by that rank") \
    X(H5D_SLOWEST_RANK, I64, PAIRED, "rank with the most I/O time on a shared dataset") \
    X(H5D_SLOWEST_RANK_BYTES, I64, PAIRED, "bytes moved by that rank")

#define IOLENS_H5D_FCOUNTERS(X) \
    X(H5D_F_OPEN_START_TIMESTAMP, F64, MIN_NONZERO, "start of the first open") \
    X(H5D_F_READ_START_TIMESTAMP, F64, MIN_NONZERO, "start of the first read") \
    X(H5D_F_WRITE_START_TIMESTAMP, F64, MIN_NONZERO, "start of the first write") \
    X(H5D_F_CLOSE_START_TIMESTAMP, F64, MIN_NONZERO, "start of the first close") \
    X(H5D_F_OPEN_END_TIMESTAMP, F64, MAX, "end of the last open") \
    X(H5D_F_READ_END_TIMESTAMP, F64, MAX, "end of the last read") \
    X(H5D_F_WRITE_END_TIMESTAMP, F64, MAX, "end of the last write") \
    X(H5D_F_CLOSE_END_TIMESTAMP, F64, MAX, "end of the last close") \
    X(H5D_F_READ_TIME, F64, SUM, "seconds spent reading") \
    X(H5D_F_WRITE_TIME, F64, SUM, "seconds spent writing") \
    X(H5D_F_META_TIME, F64, SUM, "seconds in open, close and flush calls") \
    X(H5D_F_MAX_READ_TIME, F64, MAX_PAIRED, "duration of the slowest read") \
    X(H5D_F_MAX_WRITE_TIME, F64, MAX_PAIRED, "duration of the slowest write") \
    X(H5D_F_FASTEST_RANK_TIME, F64, FASTEST_OWN, "I/O time of the fastest rank") \
    X(H5D_F_SLOWEST_RANK_TIME, F64, SLOWEST_OWN, "I/O time of the slowest rank") \
    X(H5D_F_VARIANCE_RANK_TIME, F64, VARIANCE_TIME, "variance of I/O time across ranks") \
    X(H5D_F_VARIANCE_RANK_BYTES, F64, VARIANCE_BYTES, "variance of bytes moved across ranks")

#define IOLENS_X_ENUM(name, kind, merge, desc) name,
enum iolens_h5d_counter { IOLENS_H5D_COUNTERS(IOLENS_X_ENUM) H5D_NUM_INDICES };
enum iolens_h5d_fcounter { IOLENS_H5D_FCOUNTERS(IOLENS_X_ENUM) H5D_F_NUM_INDICES };
#undef IOLENS_X_ENUM

/* Darshan's H5D v2 layout has exactly these many counters. */
_Static_assert(H5D_NUM_INDICES == 94, "H5D counter count");
_Static_assert(H5D_F_NUM_INDICES == 17, "H5D float counter count");

/* A decoded H5D record. file_rec_id is the record id of the dataset's file
 * (0 when unknown, as in version 1); merging keeps the last one. */
struct iolens_h5d_record {
    struct iolens_record_base base;
    uint64_t file_rec_id;
    int64_t counters[H5D_NUM_INDICES];
    double fcounters[H5D_F_NUM_INDICES];
};

/* Descriptor of the H5D module. */
extern IOLENS_API const struct iolens_module_desc iolens_h5d_module;

#endif
