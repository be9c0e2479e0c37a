/* BG/Q module (record version 2): one record per job describing the IBM Blue
 * Gene/Q partition it ran on. Every rank records the same values, so merging
 * keeps the first record's. The tables below are the single definition of its
 * counters: X(NAME, kind, merge rule, meaning). */
#ifndef IOLENS_MODULES_BGQ_H
#define IOLENS_MODULES_BGQ_H

#include "iolens/module.h"

#define IOLENS_BGQ_VERSION 2

#define IOLENS_BGQ_COUNTERS(X) \
    X(BGQ_CSJOBID, I64, FIRST, "job id given by the control system") \
    X(BGQ_NNODES, I64, FIRST, "compute nodes of the job") \
    X(BGQ_RANKSPERNODE, I64, FIRST, "MPI ranks per compute node") \
    X(BGQ_DDRPERNODE, I64, FIRST, "memory per compute node, MiB") \
    X(BGQ_INODES, I64, UNSET, "I/O nodes serving the job (differs per rank: -1 when merged)") \
    X(BGQ_ANODES, I64, FIRST, "torus size along A") \
    X(BGQ_BNODES, I64, FIRST, "torus size along B") \
    X(BGQ_CNODES, I64, FIRST, "torus size along C") \
    X(BGQ_DNODES, I64, FIRST, "torus size along D") \
    X(BGQ_ENODES, I64, FIRST, "torus size along E") \
    X(BGQ_TORUSENABLED, I64, FIRST, "bit mask of the torus dimensions that wrap around")

#define IOLENS_BGQ_FCOUNTERS(X) \
    X(BGQ_F_TIMESTAMP, F64, FIRST, "when the partition data was read")

#define IOLENS_X_ENUM(name, kind, merge, desc) name,
enum iolens_bgq_counter { IOLENS_BGQ_COUNTERS(IOLENS_X_ENUM) BGQ_NUM_INDICES };
enum iolens_bgq_fcounter { IOLENS_BGQ_FCOUNTERS(IOLENS_X_ENUM) BGQ_F_NUM_INDICES };
#undef IOLENS_X_ENUM

/* Darshan's BG/Q v2 layout has exactly these many counters. */
_Static_assert(BGQ_NUM_INDICES == 11, "BG/Q counter count");
_Static_assert(BGQ_F_NUM_INDICES == 1, "BG/Q float counter count");

/* A decoded BG/Q record. */
struct iolens_bgq_record {
    struct iolens_record_base base;
    int64_t counters[BGQ_NUM_INDICES];
    double fcounters[BGQ_F_NUM_INDICES];
};

/* Descriptor of the BG/Q module. */
extern IOLENS_API const struct iolens_module_desc iolens_bgq_module;

#endif
