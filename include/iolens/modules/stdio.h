/* STDIO module (record version 2): one record per stream-accessed file
 * (fopen and friends), per rank or shared (rank -1). The tables below are the
 * single definition of its counters: X(NAME, kind, merge rule, meaning). */
#ifndef IOLENS_MODULES_STDIO_H
#define IOLENS_MODULES_STDIO_H

#include "iolens/module.h"

#define IOLENS_STDIO_VERSION 2

#define IOLENS_STDIO_COUNTERS(X) \
    X(STDIO_OPENS, I64, SUM, "stream opens, fdopen included") \
    X(STDIO_FDOPENS, I64, SUM, "streams opened on an existing descriptor") \
    X(STDIO_READS, I64, SUM, "read calls (fread, fgets, fscanf, ...)") \
    X(STDIO_WRITES, I64, SUM, "write calls (fwrite, fputs, fprintf, ...)") \
    X(STDIO_SEEKS, I64, SUM, "seek and rewind calls") \
    X(STDIO_FLUSHES, I64, SUM, "fflush calls") \
    X(STDIO_BYTES_WRITTEN, I64, SUM, "bytes written") \
    X(STDIO_BYTES_READ, I64, SUM, "bytes read") \
    X(STDIO_MAX_BYTE_READ, I64, MAX, "highest offset read") \
    X(STDIO_MAX_BYTE_WRITTEN, I64, MAX, "highest offset written") \
    X(STDIO_FASTEST_RANK, I64, PAIRED, "rank with the least I/O time on a shared file") \
    X(STDIO_FASTEST_RANK_BYTES, I64, PAIRED, "bytes moved by that rank") \
    X(STDIO_SLOWEST_RANK, I64, PAIRED, "rank with the most I/O time on a shared file") \
    X(STDIO_SLOWEST_RANK_BYTES, I64, PAIRED, "bytes moved by that rank")

#define IOLENS_STDIO_FCOUNTERS(X) \
    X(STDIO_F_META_TIME, F64, SUM, "seconds in open, close and seek calls") \
    X(STDIO_F_WRITE_TIME, F64, SUM, "seconds spent writing, fflush included") \
    X(STDIO_F_READ_TIME, F64, SUM, "seconds spent reading") \
    X(STDIO_F_OPEN_START_TIMESTAMP, F64, MIN_NONZERO, "start of the first open") \
    X(STDIO_F_CLOSE_START_TIMESTAMP, F64, MIN_NONZERO, "start of the first close") \
    X(STDIO_F_WRITE_START_TIMESTAMP, F64, MIN_NONZERO, "start of the first write") \
    X(STDIO_F_READ_START_TIMESTAMP, F64, MIN_NONZERO, "start of the first read") \
    X(STDIO_F_OPEN_END_TIMESTAMP, F64, MAX, "end of the last open") \
    X(STDIO_F_CLOSE_END_TIMESTAMP, F64, MAX, "end of the last close") \
    X(STDIO_F_WRITE_END_TIMESTAMP, F64, MAX, "end of the last write") \
    X(STDIO_F_READ_END_TIMESTAMP, F64, MAX, "end of the last read") \
    X(STDIO_F_FASTEST_RANK_TIME, F64, FASTEST, "I/O time of the fastest rank") \
    X(STDIO_F_SLOWEST_RANK_TIME, F64, SLOWEST, "I/O time of the slowest rank") \
    X(STDIO_F_VARIANCE_RANK_TIME, F64, VARIANCE_TIME, "variance of I/O time across ranks") \
    X(STDIO_F_VARIANCE_RANK_BYTES, F64, VARIANCE_BYTES, "variance of bytes moved across ranks")

#define IOLENS_X_ENUM(name, kind, merge, desc) name,
enum iolens_stdio_counter { IOLENS_STDIO_COUNTERS(IOLENS_X_ENUM) STDIO_NUM_INDICES };
enum iolens_stdio_fcounter { IOLENS_STDIO_FCOUNTERS(IOLENS_X_ENUM) STDIO_F_NUM_INDICES };
#undef IOLENS_X_ENUM

/* Darshan's STDIO v2 layout has exactly these many counters. */
_Static_assert(STDIO_NUM_INDICES == 14, "STDIO counter count");
_Static_assert(STDIO_F_NUM_INDICES == 15, "STDIO float counter count");

/* A decoded STDIO record. */
struct iolens_stdio_record {
    struct iolens_record_base base;
    int64_t counters[STDIO_NUM_INDICES];
    double fcounters[STDIO_F_NUM_INDICES];
};

/* Descriptor of the STDIO module. */
extern IOLENS_API const struct iolens_module_desc iolens_stdio_module;

#endif
