/* PNETCDF_VAR module (record version 1): one record per PnetCDF variable, per
 * rank or shared (rank -1); each names the PNETCDF_FILE record of its file.
 * The tables below are the single definition of its counters:
 * X(NAME, kind, merge rule, meaning). */
#ifndef IOLENS_MODULES_PNETCDF_VAR_H
#define IOLENS_MODULES_PNETCDF_VAR_H

#include "iolens/module.h"

#define IOLENS_PNETCDF_VAR_VERSION 1

/* Dimensions (the last ones of a variable) the access counters cover. */
#define IOLENS_PNETCDF_VAR_MAX_NDIMS 5

/* NB_READS and NB_WRITES merge to -1: Darshan's aggregation leaves them out. */
#define IOLENS_PNETCDF_VAR_COUNTERS(X) \
    X(PNETCDF_VAR_OPENS, I64, SUM, "variable defines and inquiries") \
    X(PNETCDF_VAR_INDEP_READS, I64, SUM, "independent reads") \
    X(PNETCDF_VAR_INDEP_WRITES, I64, SUM, "independent writes") \
    X(PNETCDF_VAR_COLL_READS, I64, SUM, "collective reads") \
    X(PNETCDF_VAR_COLL_WRITES, I64, SUM, "collective writes") \
    X(PNETCDF_VAR_NB_READS, I64, UNSET_SUM, "non-blocking reads") \
    X(PNETCDF_VAR_NB_WRITES, I64, UNSET_SUM, "non-blocking writes") \
    X(PNETCDF_VAR_BYTES_READ, I64, SUM, "bytes read") \
    X(PNETCDF_VAR_BYTES_WRITTEN, I64, SUM, "bytes written") \
    X(PNETCDF_VAR_RW_SWITCHES, I64, SUM, "changes between reading and writing") \
    X(PNETCDF_VAR_PUT_VAR, I64, SUM, "ncmpi_put_var calls (whole variable)") \
    X(PNETCDF_VAR_PUT_VAR1, I64, SUM, "ncmpi_put_var1 calls (one element)") \
    X(PNETCDF_VAR_PUT_VARA, I64, SUM, "ncmpi_put_vara calls (subarray)") \
    X(PNETCDF_VAR_PUT_VARS, I64, SUM, "ncmpi_put_vars calls (strided subarray)") \
    X(PNETCDF_VAR_PUT_VARM, I64, SUM, "ncmpi_put_varm calls (mapped subarray)") \
    X(PNETCDF_VAR_PUT_VARN, I64, SUM, "ncmpi_put_varn calls (many subarrays)") \
    X(PNETCDF_VAR_PUT_VARD, I64, SUM, "ncmpi_put_vard calls (MPI datatype)") \
    X(PNETCDF_VAR_GET_VAR, I64, SUM, "ncmpi_get_var calls") \
    X(PNETCDF_VAR_GET_VAR1, I64, SUM, "ncmpi_get_var1 calls") \
    X(PNETCDF_VAR_GET_VARA, I64, SUM, "ncmpi_get_vara calls") \
    X(PNETCDF_VAR_GET_VARS, I64, SUM, "ncmpi_get_vars calls") \
    X(PNETCDF_VAR_GET_VARM, I64, SUM, "ncmpi_get_varm calls") \
    X(PNETCDF_VAR_GET_VARN, I64, SUM, "ncmpi_get_varn calls") \
    X(PNETCDF_VAR_GET_VARD, I64, SUM, "ncmpi_get_vard calls") \
    X(PNETCDF_VAR_IPUT_VAR, I64, SUM, "ncmpi_iput_var calls (non-blocking)") \
    X(PNETCDF_VAR_IPUT_VAR1, I64, SUM, "ncmpi_iput_var1 calls") \
    X(PNETCDF_VAR_IPUT_VARA, I64, SUM, "ncmpi_iput_vara calls") \
    X(PNETCDF_VAR_IPUT_VARS, I64, SUM, "ncmpi_iput_vars calls") \
    X(PNETCDF_VAR_IPUT_VARM, I64, SUM, "ncmpi_iput_varm calls") \
    X(PNETCDF_VAR_IPUT_VARN, I64, SUM, "ncmpi_iput_varn calls") \
    X(PNETCDF_VAR_IGET_VAR, I64, SUM, "ncmpi_iget_var calls (non-blocking)") \
    X(PNETCDF_VAR_IGET_VAR1, I64, SUM, "ncmpi_iget_var1 calls") \
    X(PNETCDF_VAR_IGET_VARA, I64, SUM, "ncmpi_iget_vara calls") \
    X(PNETCDF_VAR_IGET_VARS, I64, SUM, "ncmpi_iget_vars calls") \
    X(PNETCDF_VAR_IGET_VARM, I64, SUM, "ncmpi_iget_varm calls") \
    X(PNETCDF_VAR_IGET_VARN, I64, SUM, "ncmpi_iget_varn calls") \
    X(PNETCDF_VAR_BPUT_VAR, I64, SUM, "ncmpi_bput_var calls (buffered)") \
    X(PNETCDF_VAR_BPUT_VAR1, I64, SUM, "ncmpi_bput_var1 calls") \
    X(PNETCDF_VAR_BPUT_VARA, I64, SUM, "ncmpi_bput_vara calls") \
    X(PNETCDF_VAR_BPUT_VARS, I64, SUM, "ncmpi_bput_vars calls") \
    X(PNETCDF_VAR_BPUT_VARM, I64, SUM, "ncmpi_bput_varm calls") \
    X(PNETCDF_VAR_BPUT_VARN, I64, SUM, "ncmpi_bput_varn calls") \
    X(PNETCDF_VAR_MAX_READ_TIME_SIZE, I64, PAIRED, "size of the slowest read") \
    X(PNETCDF_VAR_MAX_WRITE_TIME_SIZE, I64, PAIRED, "size of the slowest write") \
    X(PNETCDF_VAR_SIZE_READ_AGG_0_100, I64, SUM, "reads of 0-100 bytes") \
    X(PNETCDF_VAR_SIZE_READ_AGG_100_1K, I64, SUM, "reads of 100 bytes-1 KiB") \
    X(PNETCDF_VAR_SIZE_READ_AGG_1K_10K, I64, SUM, "reads of 1-10 KiB") \
    X(PNETCDF_VAR_SIZE_READ_AGG_10K_100K, I64, SUM, "reads of 10-100 KiB") \
    X(PNETCDF_VAR_SIZE_READ_AGG_100K_1M, I64, SUM, "reads of 100 KiB-1 MiB") \
    X(PNETCDF_VAR_SIZE_READ_AGG_1M_4M, I64, SUM, "reads of 1-4 MiB") \
    X(PNETCDF_VAR_SIZE_READ_AGG_4M_10M, I64, SUM, "reads of 4-10 MiB") \
    X(PNETCDF_VAR_SIZE_READ_AGG_10M_100M, I64, SUM, "reads of 10-100 MiB") \
    X(PNETCDF_VAR_SIZE_READ_AGG_100M_1G, I64, SUM, "reads of 100 MiB-1 GiB") \
    X(PNETCDF_VAR_SIZE_READ_AGG_1G_PLUS, I64, SUM, "reads of more than 1 GiB") \
    X(PNETCDF_VAR_SIZE_WRITE_AGG_0_100, I64, SUM, "writes of 0-100 bytes") \
    X(PNETCDF_VAR_SIZE_WRITE_AGG_100_1K, I64, SUM, "writes of 100 bytes-1 KiB") \
    X(PNETCDF_VAR_SIZE_WRITE_AGG_1K_10K, I64, SUM, "writes of 1-10 KiB") \
    X(PNETCDF_VAR_SIZE_WRITE_AGG_10K_100K, I64, SUM, "writes of 10-100 KiB") \
    X(PNETCDF_VAR_SIZE_WRITE_AGG_100K_1M, I64, SUM, "writes of 100 KiB-1 MiB") \
    X(PNETCDF_VAR_SIZE_WRITE_AGG_1M_4M, I64, SUM, "writes of 1-4 MiB") \
    X(PNETCDF_VAR_SIZE_WRITE_AGG_4M_10M, I64, SUM, "writes of 4-10 MiB") \
    X(PNETCDF_VAR_SIZE_WRITE_AGG_10M_100M, I64, SUM, "writes of 10-100 MiB") \
    X(PNETCDF_VAR_SIZE_WRITE_AGG_100M_1G, I64, SUM, "writes of 100 MiB-1 GiB") \
    X(PNETCDF_VAR_SIZE_WRITE_AGG_1G_PLUS, I64, SUM, "writes of more than 1 GiB") \
    X(PNETCDF_VAR_ACCESS1_ACCESS, I64, TOP4_TUPLE, "most common access size (whole selection)") \
    X(PNETCDF_VAR_ACCESS1_LENGTH_D1, I64, PAIRED, "access 1: length in dim 1 of the last 5") \
    X(PNETCDF_VAR_ACCESS1_LENGTH_D2, I64, PAIRED, "access 1: length in dim 2 of the last 5") \
    X(PNETCDF_VAR_ACCESS1_LENGTH_D3, I64, PAIRED, "access 1: length in dim 3 of the last 5") \
    X(PNETCDF_VAR_ACCESS1_LENGTH_D4, I64, PAIRED, "access 1: length in dim 4 of the last 5") \
    X(PNETCDF_VAR_ACCESS1_LENGTH_D5, I64, PAIRED, "access 1: length in dim 5 of the last 5") \
    X(PNETCDF_VAR_ACCESS1_STRIDE_D1, I64, PAIRED, "access 1: stride in dim 1 of the last 5") \
    X(PNETCDF_VAR_ACCESS1_STRIDE_D2, I64, PAIRED, "access 1: stride in dim 2 of the last 5") \
    X(PNETCDF_VAR_ACCESS1_STRIDE_D3, I64, PAIRED, "access 1: stride in dim 3 of the last 5") \
    X(PNETCDF_VAR_ACCESS1_STRIDE_D4, I64, PAIRED, "access 1: stride in dim 4 of the last 5") \
    X(PNETCDF_VAR_ACCESS1_STRIDE_D5, I64, PAIRED, "access 1: stride in dim 5 of the last 5") \
    X(PNETCDF_VAR_ACCESS2_ACCESS, I64, PAIRED, "second most common access size") \
    X(PNETCDF_VAR_ACCESS2_LENGTH_D1, I64, PAIRED, "access 2: length in dim 1 of the last 5") \
    X(PNETCDF_VAR_ACCESS2_LENGTH_D2, I64, PAIRED, "access 2: length in dim 2 of the last 5") \
    X(PNETCDF_VAR_ACCESS2_LENGTH_D3, I64, PAIRED, "access 2: length in dim 3 of the last 5") \
    X(PNETCDF_VAR_ACCESS2_LENGTH_D4, I64, PAIRED, "access 2: length in dim 4 of the last 5") \
    X(PNETCDF_VAR_ACCESS2_LENGTH_D5, I64, PAIRED, "access 2: length in dim 5 of the last 5") \
    X(PNETCDF_VAR_ACCESS2_STRIDE_D1, I64, PAIRED, "access 2: stride in dim 1 of the last 5") \
    X(PNETCDF_VAR_ACCESS2_STRIDE_D2, I64, PAIRED, "access 2: stride in dim 2 of the last 5") \
    X(PNETCDF_VAR_ACCESS2_STRIDE_D3, I64, PAIRED, "access 2: stride in dim 3 of the last 5") \
    X(PNETCDF_VAR_ACCESS2_STRIDE_D4, I64, PAIRED, "access 2: stride in dim 4 of the last 5") \
    X(PNETCDF_VAR_ACCESS2_STRIDE_D5, I64, PAIRED, "access 2: stride in dim 5 of the last 5") \
    X(PNETCDF_VAR_ACCESS3_ACCESS, I64, PAIRED, "third most common access size") \
    X(PNETCDF_VAR_ACCESS3_LENGTH_D1, I64, PAIRED, "access 3: length in dim 1 of the last 5") \
    X(PNETCDF_VAR_ACCESS3_LENGTH_D2, I64, PAIRED, "access 3: length in dim 2 of the last 5") \
    X(PNETCDF_VAR_ACCESS3_LENGTH_D3, I64, PAIRED, "access 3: length in dim 3 of the last 5") \
    X(PNETCDF_VAR_ACCESS3_LENGTH_D4, I64, PAIRED, "access 3: length in dim 4 of the last 5") \
    X(PNETCDF_VAR_ACCESS3_LENGTH_D5, I64, PAIRED, "access 3: length in dim 5 of the last 5") \
    X(PNETCDF_VAR_ACCESS3_STRIDE_D1, I64, PAIRED, "access 3: stride in dim 1 of the last 5") \
    X(PNETCDF_VAR_ACCESS3_STRIDE_D2, I64, PAIRED, "access 3: stride in dim 2 of the last 5") \
    X(PNETCDF_VAR_ACCESS3_STRIDE_D3, I64, PAIRED, "access 3: stride in dim 3 of the last 5") \
    X(PNETCDF_VAR_ACCESS3_STRIDE_D4, I64, PAIRED, "access 3: stride in dim 4 of the last 5") \
    X(PNETCDF_VAR_ACCESS3_STRIDE_D5, I64, PAIRED, "access 3: stride in dim 5 of the last 5") \
    X(PNETCDF_VAR_ACCESS4_ACCESS, I64, PAIRED, "fourth most common access size") \
    X(PNETCDF_VAR_ACCESS4_LENGTH_D1, I64, PAIRED, "access 4: length in dim 1 of the last 5") \
    X(PNETCDF_VAR_ACCESS4_LENGTH_D2, I64, PAIRED, "access 4: length in dim 2 of the last 5") \
    X(PNETCDF_VAR_ACCESS4_LENGTH_D3, I64, PAIRED, "access 4: length in dim 3 of the last 5") \
    X(PNETCDF_VAR_ACCESS4_LENGTH_D4, I64, PAIRED, "access 4: length in dim 4 of the last 5") \
    X(PNETCDF_VAR_ACCESS4_LENGTH_D5, I64, PAIRED, "access 4: length in dim 5 of the last 5") \
    X(PNETCDF_VAR_ACCESS4_STRIDE_D1, I64, PAIRED, "access 4: stride in dim 1 of the last 5") \
    X(PNETCDF_VAR_ACCESS4_STRIDE_D2, I64, PAIRED, "access 4: stride in dim 2 of the last 5") \
    X(PNETCDF_VAR_ACCESS4_STRIDE_D3, I64, PAIRED, "access 4: stride in dim 3 of the last 5") \
    X(PNETCDF_VAR_ACCESS4_STRIDE_D4, I64, PAIRED, "access 4: stride in dim 4 of the last 5") \
    X(PNETCDF_VAR_ACCESS4_STRIDE_D5, I64, PAIRED, "access 4: stride in dim 5 of the last 5") \
    X(PNETCDF_VAR_ACCESS1_COUNT, I64, PAIRED, "times the first access occurred") \
    X(PNETCDF_VAR_ACCESS2_COUNT, I64, PAIRED, "times the second access occurred") \
    X(PNETCDF_VAR_ACCESS3_COUNT, I64, PAIRED, "times the third access occurred") \
    X(PNETCDF_VAR_ACCESS4_COUNT, I64, PAIRED, "times the fourth access occurred") \
    X(PNETCDF_VAR_NDIMS, I64, LAST, "dimensions of the variable") \
    X(PNETCDF_VAR_NPOINTS, I64, LAST, "elements in the variable") \
    X(PNETCDF_VAR_DATATYPE_SIZE, I64, LAST, "bytes per element") \
    X(PNETCDF_VAR_IS_RECORD_VAR, I64, FLAG, "1 if it grows along the record dimension") \
    X(PNETCDF_VAR_FASTEST_RANK, I64, PAIRED, "rank with the least I/O time (shared variable)") \
    X(PNETCDF_VAR_FASTEST_RANK_BYTES, I64, PAIRED, "bytes moved by that rank") \
    X(PNETCDF_VAR_SLOWEST_RANK, I64, PAIRED, "rank with the most I/O time (shared variable)") \
    X(PNETCDF_VAR_SLOWEST_RANK_BYTES, I64, PAIRED, "bytes moved by that rank")

#define IOLENS_PNETCDF_VAR_FCOUNTERS(X) \
    X(PNETCDF_VAR_F_OPEN_START_TIMESTAMP, F64, MIN_NONZERO, "start of the first define/inquiry") \
    X(PNETCDF_VAR_F_READ_START_TIMESTAMP, F64, MIN_NONZERO, "start of the first read") \
    X(PNETCDF_VAR_F_WRITE_START_TIMESTAMP, F64, MIN_NONZERO, "start of the first write") \
    X(PNETCDF_VAR_F_CLOSE_START_TIMESTAMP, F64, MIN_NONZERO, "start of the first close") \
    X(PNETCDF_VAR_F_OPEN_END_TIMESTAMP, F64, MAX, "end of the last define/inquiry") \
    X(PNETCDF_VAR_F_READ_END_TIMESTAMP, F64, MAX, "end of the last read") \
    X(PNETCDF_VAR_F_WRITE_END_TIMESTAMP, F64, MAX, "end of the last write") \
    X(PNETCDF_VAR_F_CLOSE_END_TIMESTAMP, F64, MAX, "end of the last close") \
    X(PNETCDF_VAR_F_READ_TIME, F64, SUM, "seconds spent reading") \
    X(PNETCDF_VAR_F_WRITE_TIME, F64, SUM, "seconds spent writing") \
    X(PNETCDF_VAR_F_META_TIME, F64, SUM, "seconds in define, inquiry and close calls") \
    X(PNETCDF_VAR_F_MAX_READ_TIME, F64, MAX_PAIRED, "duration of the slowest read") \
    X(PNETCDF_VAR_F_MAX_WRITE_TIME, F64, MAX_PAIRED, "duration of the slowest write") \
    X(PNETCDF_VAR_F_FASTEST_RANK_TIME, F64, FASTEST_OWN, "I/O time of the fastest rank") \
    X(PNETCDF_VAR_F_SLOWEST_RANK_TIME, F64, SLOWEST_OWN, "I/O time of the slowest rank") \
    X(PNETCDF_VAR_F_VARIANCE_RANK_TIME, F64, VARIANCE_TIME, "variance of I/O time across ranks") \
    X(PNETCDF_VAR_F_VARIANCE_RANK_BYTES, F64, VARIANCE_BYTES, "variance of bytes across ranks")

#define IOLENS_X_ENUM(name, kind, merge, desc) name,
enum iolens_pnetcdf_var_counter {
    IOLENS_PNETCDF_VAR_COUNTERS(IOLENS_X_ENUM) PNETCDF_VAR_NUM_INDICES
};
enum iolens_pnetcdf_var_fcounter {
    IOLENS_PNETCDF_VAR_FCOUNTERS(IOLENS_X_ENUM) PNETCDF_VAR_F_NUM_INDICES
};
#undef IOLENS_X_ENUM

/* Darshan's PNETCDF_VAR v1 layout has exactly these many counters. */
_Static_assert(PNETCDF_VAR_NUM_INDICES == 120, "PNETCDF_VAR counter count");
_Static_assert(PNETCDF_VAR_F_NUM_INDICES == 17, "PNETCDF_VAR float counter count");

/* A decoded PNETCDF_VAR record. file_rec_id is the record id of the
 * variable's file; merging keeps the last one. */
struct iolens_pnetcdf_var_record {
    struct iolens_record_base base;
    uint64_t file_rec_id;
    int64_t counters[PNETCDF_VAR_NUM_INDICES];
    double fcounters[PNETCDF_VAR_F_NUM_INDICES];
};

/* Descriptor of the PNETCDF_VAR module. */
extern IOLENS_API const struct iolens_module_desc iolens_pnetcdf_var_module;

#endif
