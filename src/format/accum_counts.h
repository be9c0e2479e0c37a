/* The accumulator's file counts (iolens_metrics.files) made from the files'
 * sums part by part (src/format/accumulate.c), equal to those of Darshan's
 * rule, which counts the files one after the other in the order of their
 * first records: sums, maxima and the nprocs rule do not depend on that
 * order, but a file without offsets (max_offset -1) resets its kinds'
 * offset figures to -1, and only the files first seen after the last such
 * file add to them again. So a kind's offset figures are those of its files
 * when none is without offsets; else -1 plus those of its files first seen
 * after the last file without offsets, which needs every file's kind first:
 * a second round of passes, when the files did not fit in one part and a
 * kind has files both with and without offsets (a module that keeps offsets
 * and a record that says -1 for both, which Darshan's runtime never writes). */
#ifndef IOLENS_FORMAT_ACCUM_COUNTS_H
#define IOLENS_FORMAT_ACCUM_COUNTS_H

#include <stdint.h>

#include "accum_files.h"
#include "iolens/accumulate.h"

/* A kind's offset figures beyond those of its files with offsets. */
struct iol_kind_offsets {
    int64_t resets;      /* files without offsets */
    uint64_t last_reset; /* the latest first record of those */
    int64_t after_total; /* offsets of the files first seen after it: sum */
    int64_t after_max;   /* and highest, from -1 */
};

struct iol_file_counts {
    /* Figures of every file; the offsets only of the files with offsets. */
    struct iolens_file_counts kinds[IOLENS_FILE_KINDS];
    struct iol_kind_offsets offsets[IOLENS_FILE_KINDS];
};

/* Start counting: no file. */
void iol_counts_init(struct iol_file_counts *fc);

/* Count the files of t (first round): each file once, in any order. */
void iol_counts_add(struct iol_file_counts *fc, const struct iol_file_table *t, int64_t nprocs);

/* After the first round: does a kind need the second, its files first seen
 * after its last file without offsets? @return 1 or 0. */
int iol_counts_need_after(const struct iol_file_counts *fc);

/* Second round: note the offsets of the files of t first seen after the last
 * file without offsets of each of their kinds. */
void iol_counts_add_after(struct iol_file_counts *fc, const struct iol_file_table *t);

/* The counts of every file, from both rounds, into out[IOLENS_FILE_KINDS]. */
void iol_counts_result(const struct iol_file_counts *fc, struct iolens_file_counts *out);

#endif
