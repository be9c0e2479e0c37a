/* H5F module (record version 3): one record per HDF5 file, per rank or shared
 * (rank -1). The tables below are the single definition of its counters:
 * X(NAME, kind, merge rule, meaning). */
#ifndef IOLENS_MODULES_H5F_H
#define IOLENS_MODULES_H5F_H

#include "iolens/module.h"

#define IOLENS_H5F_VERSION 3

#define IOLENS_H5F_COUNTERS(X) \
    X(H5F_OPENS, I64, SUM, "file opens and creates") \
    X(H5F_FLUSHES, I64, SUM, "file flushes") \
    X(H5F_USE_MPIIO, I64, FLAG, "1 if the file was accessed through the MPI-IO driver")

#define IOLENS_H5F_FCOUNTERS(X) \
    X(H5F_F_OPEN_START_TIMESTAMP, F64, MIN_NONZERO, "start of the first open") \
    X(H5F_F_CLOSE_START_TIMESTAMP, F64, MIN_NONZERO, "start of the first close") \
    X(H5F_F_OPEN_END_TIMESTAMP, F64, MAX, "end of the last open") \
    X(H5F_F_CLOSE_END_TIMESTAMP, F64, MAX, "end of the last close") \
    X(H5F_F_META_TIME, F64, SUM, "seconds in file-level calls")

#define IOLENS_X_ENUM(name, kind, merge, desc) name,
enum iolens_h5f_counter { IOLENS_H5F_COUNTERS(IOLENS_X_ENUM) H5F_NUM_INDICES };
enum iolens_h5f_fcounter { IOLENS_H5F_FCOUNTERS(IOLENS_X_ENUM) H5F_F_NUM_INDICES };
#undef IOLENS_X_ENUM

/* Darshan's H5F v3 layout has exactly these many counters. */
_Static_assert(H5F_NUM_INDICES == 3, "H5F counter count");
_Static_assert(H5F_F_NUM_INDICES == 5, "H5F float counter count");

/* A decoded H5F record. */
struct iolens_h5f_record {
    struct iolens_record_base base;
    int64_t counters[H5F_NUM_INDICES];
    double fcounters[H5F_F_NUM_INDICES];
};

/* Descriptor of the H5F module. */
extern IOLENS_API const struct iolens_module_desc iolens_h5f_module;

#endif
