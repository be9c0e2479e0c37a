/* MDHIM module (record version 1): one record per MDHIM key-value database,
 * per rank, followed by one operation count per MDHIM server. Records vary
 * in size. The tables below are the single definition of its fixed counters:
 * X(NAME, kind, merge rule, meaning); merging sums the per-server counts. */
#ifndef IOLENS_MODULES_MDHIM_H
#define IOLENS_MODULES_MDHIM_H

#include "iolens/module.h"

#define IOLENS_MDHIM_VERSION 1

/* SERVERS and the maximum sizes and durations merge to -1: Darshan's
 * aggregation leaves them out (SERVERS by a missing break). */
#define IOLENS_MDHIM_COUNTERS(X) \
    X(MDHIM_PUTS, I64, SUM, "mdhim_put calls") \
    X(MDHIM_GETS, I64, SUM, "mdhim_get calls") \
    X(MDHIM_PUT_MAX_SIZE, I64, UNSET, "largest value stored by one put") \
    X(MDHIM_GET_MAX_SIZE, I64, UNSET, "largest value fetched by one get") \
    X(MDHIM_SERVERS, I64, UNSET, "MDHIM servers; one MDHIM_SERVER_<n> count each")

#define IOLENS_MDHIM_FCOUNTERS(X) \
    X(MDHIM_F_PUT_TIMESTAMP, F64, MIN_NONZERO, "start of the first put") \
    X(MDHIM_F_GET_TIMESTAMP, F64, MIN_NONZERO, "start of the first get") \
    X(MDHIM_F_PUT_MAX_DURATION, F64, UNSET, "duration of the slowest put") \
    X(MDHIM_F_GET_MAX_DURATION, F64, UNSET, "duration of the slowest get")

#define IOLENS_X_ENUM(name, kind, merge, desc) name,
enum iolens_mdhim_counter { IOLENS_MDHIM_COUNTERS(IOLENS_X_ENUM) MDHIM_NUM_INDICES };
enum iolens_mdhim_fcounter { IOLENS_MDHIM_FCOUNTERS(IOLENS_X_ENUM) MDHIM_F_NUM_INDICES };
#undef IOLENS_X_ENUM

/* Darshan's MDHIM v1 layout has exactly these many counters. */
_Static_assert(MDHIM_NUM_INDICES == 5, "MDHIM counter count");
_Static_assert(MDHIM_F_NUM_INDICES == 4, "MDHIM float counter count");

/* A decoded MDHIM record: the fixed counters, then the operations sent to each
 * server. The log always stores at least one server slot, so a record holds
 * max(1, counters[MDHIM_SERVERS]) entries in server_ops. */
struct iolens_mdhim_record {
    struct iolens_record_base base;
    int64_t counters[MDHIM_NUM_INDICES];
    double fcounters[MDHIM_F_NUM_INDICES];
    int64_t server_ops[];
};

/* Descriptor of the MDHIM module. */
extern IOLENS_API const struct iolens_module_desc iolens_mdhim_module;

#endif
