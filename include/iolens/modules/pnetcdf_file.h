/* PNETCDF_FILE module (record version 3): one record per PnetCDF file, per
 * rank or shared (rank -1). The tables below are the single definition of its
 * counters: X(NAME, kind, merge rule, meaning). */
#ifndef IOLENS_MODULES_PNETCDF_FILE_H
#define IOLENS_MODULES_PNETCDF_FILE_H

#include "iolens/module.h"

#define IOLENS_PNETCDF_FILE_VERSION 3

#define IOLENS_PNETCDF_FILE_COUNTERS(X) \
    X(PNETCDF_FILE_CREATES, I64, SUM, "file creates") \
    X(PNETCDF_FILE_OPENS, I64, SUM, "file opens (before v3: all opens and creates)") \
    X(PNETCDF_FILE_REDEFS, I64, SUM, "returns to define mode") \
    X(PNETCDF_FILE_INDEP_WAITS, I64, SUM, "independent waits for pending requests") \
    X(PNETCDF_FILE_COLL_WAITS, I64, SUM, "collective waits for pending requests") \
    X(PNETCDF_FILE_SYNCS, I64, SUM, "file syncs") \
    X(PNETCDF_FILE_BYTES_READ, I64, SUM, "bytes read, all variables together") \
    X(PNETCDF_FILE_BYTES_WRITTEN, I64, SUM, "bytes written, all variables together") \
    X(PNETCDF_FILE_WAIT_FAILURES, I64, SUM, "waits that reported an error")

#define IOLENS_PNETCDF_FILE_FCOUNTERS(X) \
    X(PNETCDF_FILE_F_OPEN_START_TIMESTAMP, F64, MIN_NONZERO, "start of the first open") \
    X(PNETCDF_FILE_F_CLOSE_START_TIMESTAMP, F64, MIN_NONZERO, "start of the first close") \
    X(PNETCDF_FILE_F_WAIT_START_TIMESTAMP, F64, MIN_NONZERO, "start of the first wait") \
    X(PNETCDF_FILE_F_OPEN_END_TIMESTAMP, F64, MAX, "end of the last open") \
    X(PNETCDF_FILE_F_CLOSE_END_TIMESTAMP, F64, MAX, "end of the last close") \
    X(PNETCDF_FILE_F_WAIT_END_TIMESTAMP, F64, MAX, "end of the last wait") \
    X(PNETCDF_FILE_F_META_TIME, F64, SUM, "seconds in file-level metadata calls") \
    X(PNETCDF_FILE_F_WAIT_TIME, F64, SUM, "seconds spent waiting for requests")

#define IOLENS_X_ENUM(name, kind, merge, desc) name,
enum iolens_pnetcdf_file_counter {
    IOLENS_PNETCDF_FILE_COUNTERS(IOLENS_X_ENUM) PNETCDF_FILE_NUM_INDICES
};
enum iolens_pnetcdf_file_fcounter {
    IOLENS_PNETCDF_FILE_FCOUNTERS(IOLENS_X_ENUM) PNETCDF_FILE_F_NUM_INDICES
};
#undef IOLENS_X_ENUM

/* Darshan's PNETCDF_FILE v3 layout has exactly these many counters. */
_Static_assert(PNETCDF_FILE_NUM_INDICES == 9, "PNETCDF_FILE counter count");
_Static_assert(PNETCDF_FILE_F_NUM_INDICES == 8, "PNETCDF_FILE float counter count");

/* A decoded PNETCDF_FILE record. */
struct iolens_pnetcdf_file_record {
    struct iolens_record_base base;
    int64_t counters[PNETCDF_FILE_NUM_INDICES];
    double fcounters[PNETCDF_FILE_F_NUM_INDICES];
};

/* Descriptor of the PNETCDF_FILE module. */
extern IOLENS_API const struct iolens_module_desc iolens_pnetcdf_file_module;

#endif
