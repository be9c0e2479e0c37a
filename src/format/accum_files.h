/* The accumulator's per-file table (src/format/accumulate.c): the sums of
 * each file (record id) whose key falls in one part of the 64-bit key space,
 * in bounded memory. A file's key is iol_hash_mix of its id, a bijection, so
 * the parts split the files without overlap whatever the ids.
 *
 * The table holds at most max files. When a new file would not fit, the part
 * shrinks to its lower half and the files of the upper half leave; once the
 * caller has read every record, the files of the part are complete, and the
 * next part (as wide as the last one) is taken by another pass over the
 * records. Memory: 48 bytes per file held plus 4 per slot, slots a power of
 * two at least twice the files allocated. */
#ifndef IOLENS_FORMAT_ACCUM_FILES_H
#define IOLENS_FORMAT_ACCUM_FILES_H

#include <stddef.h>
#include <stdint.h>

#include "iolens/status.h"

/* What one file (record id) adds up to over all its records. */
struct iol_file_sum {
    uint64_t id;
    int64_t read_bytes, written_bytes;
    int64_t max_offset; /* -1 once a record could not tell */
    int64_t nprocs;     /* records of single ranks seen; -1 once a shared record was */
    uint64_t first;     /* index of its first record among the module's */
};

struct iol_file_table {
    struct iol_file_sum *files; /* files[0..n), in no particular order */
    size_t n, cap, max;         /* held, allocated, most allowed */
    uint32_t *slots;            /* open addressing: 1 + index into files; 0 empty */
    size_t nslots;              /* a power of two, at least 2 * cap; 0 before the first file */
    uint64_t lo, hi;            /* the part: files whose key k has lo <= k <= hi */
};

/* Start an empty table over the whole key space, holding at most max files
 * (at least 1, at most UINT32_MAX - 1). Allocates nothing. */
void iol_ftab_init(struct iol_file_table *t, size_t max);

/* Make sure iol_ftab_find can add a file without allocating.
 * @return IOLENS_OK or IOLENS_ERR_NOMEM (the table is unchanged). */
iolens_status iol_ftab_reserve(struct iol_file_table *t);

/* The sums of file id, whose record of index seq (among the module's) is
 * being counted: when new, a zeroed entry but its id and first (seq); the
 * part shrinks first if the table is full. Call iol_ftab_reserve before.
 * @return the entry, or NULL when id is not in the part. */
struct iol_file_sum *iol_ftab_find(struct iol_file_table *t, uint64_t id, uint64_t seq);

/* Empty the table and take the next part of the key space, as wide as the
 * one just done. @return 1, or 0 (table unchanged) when the part done was the last. */
int iol_ftab_next_part(struct iol_file_table *t);

/* Empty the table and take the whole key space again (its memory kept). */
void iol_ftab_restart(struct iol_file_table *t);

/* Free the table's memory; it may be started again with iol_ftab_init. */
void iol_ftab_free(struct iol_file_table *t);

#endif
