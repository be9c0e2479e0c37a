/* The thresholds of the insight rules: the one table of their keys,
 * defaults, units, sources and meanings. docs/insights.md, the flags and
 * the thresholds file of `iolens insights` all come from it.
 * X(ENUM, "key", default, "unit", "source", "meaning") */
#ifndef IOLENS_ANALYSIS_THRESHOLDS_H
#define IOLENS_ANALYSIS_THRESHOLDS_H

#include <stddef.h>

#define IOL_THRESHOLDS(X) \
    X(SMALL_IO_SIZE, "small-io.size", 1048576, "bytes", "Drishti", \
      "an access is small when its size bin's upper bound is at most this") \
    X(SMALL_IO_SHARE, "small-io.share", 0.10, "share", "Drishti", \
      "small reads (writes) must be more than this share of all reads (writes)") \
    X(SMALL_IO_COUNT, "small-io.count", 1000, "operations", "Drishti", \
      "and more than this many") \
    X(MISALIGNED_SHARE, "misaligned-io.share", 0.10, "share", "Drishti", \
      "POSIX accesses at an unaligned file offset (or memory address) must be more than this share") \
    X(RANDOM_SHARE, "random-io.share", 0.20, "share", "Drishti", \
      "random reads (writes) must be more than this share of reads (writes)") \
    X(RANDOM_COUNT, "random-io.count", 1000, "operations", "Drishti", \
      "and more than this many") \
    X(REDUNDANT_FACTOR, "redundant-read.factor", 2, "times", "iolens", \
      "a file's bytes read must be at least this many times its extent read") \
    X(REDUNDANT_BYTES, "redundant-read.bytes", 1048576, "bytes", "iolens", \
      "and exceed it by at least this many bytes") \
    X(IMBALANCE_STRAGGLER, "rank-imbalance.straggler", 0.15, "share", "Drishti", \
      "shared file: the slowest and fastest ranks' bytes (or times) differ by more than this share of the file's") \
    X(IMBALANCE_SECONDS, "rank-imbalance.seconds", 1, "seconds", "iolens", \
      "the time difference counts only when it is at least this long") \
    X(IMBALANCE_SPREAD, "rank-imbalance.spread", 0.5, "ratio", "iolens", \
      "shared file: the standard deviation of bytes across ranks is more than this times their mean") \
    X(IMBALANCE_SIZE, "rank-imbalance.size", 0.30, "share", "Drishti", \
      "file with per-rank records: most and least bytes of a rank differ by more than this share of the most") \
    X(RANK0_SHARE, "rank0-io.share", 0.90, "share", "iolens", \
      "one rank of a multi-rank job moves at least this share of the job's bytes") \
    X(RANK0_BYTES, "rank0-io.bytes", 16777216, "bytes", "iolens", \
      "when the job moves at least this many bytes") \
    X(META_RANK_SECONDS, "metadata-heavy.rank-seconds", 30, "seconds", "Drishti", \
      "a rank spends more than this in metadata operations") \
    X(META_SHARE, "metadata-heavy.share", 0.5, "share", "iolens", \
      "or metadata takes at least this share of the job's I/O time") \
    X(META_OPS, "metadata-heavy.ops", 1000, "operations", "iolens", \
      "over at least this many metadata operations beyond one open per file and rank") \
    X(COLLECTIVE_COUNT, "no-collective-io.count", 1000, "operations", "Drishti", \
      "MPI-IO reads (writes), none collective, are more than this many") \
    X(COLLECTIVE_SHARE, "no-collective-io.share", 0.5, "share", "Drishti", \
      "files listed: their independent operations are more than this share") \
    X(STDIO_SHARE, "stdio-heavy.share", 0.10, "share", "Drishti", \
      "STDIO moves more than this share of the job's bytes") \
    X(STDIO_BYTES, "stdio-heavy.bytes", 1048576, "bytes", "iolens", \
      "and at least this many bytes") \
    X(SMALL_FILES_SIZE, "many-small-files.size", 16384, "bytes", "iolens", \
      "a written file is small below this size (rounded down to a power of two)") \
    X(SMALL_FILES_COUNT, "many-small-files.count", 1000, "files", "iolens", \
      "the job writes at least this many small files") \
    X(NEGLIGIBLE_SHARE, "negligible.share", 0.01, "share", "iolens", \
      "a file with less than this share of the job's bytes and of its operations raises no finding") \
    X(NEGLIGIBLE_OPS, "negligible.ops", 100, "operations", "iolens", \
      "nor does one with less than that share of the bytes and fewer operations than this")

enum iol_threshold {
#define IOL_X_ENUM(e, key, def, unit, src, meaning) IOL_T_##e,
    IOL_THRESHOLDS(IOL_X_ENUM)
#undef IOL_X_ENUM
    IOL_NTHRESHOLDS
};

struct iolens_insight_config {
    double v[IOL_NTHRESHOLDS];
};

#endif
