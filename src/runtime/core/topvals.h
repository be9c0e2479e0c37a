/* The four most common values of a record (access sizes, strides), kept as
 * Darshan keeps them: every distinct value is counted, up to 32 distinct
 * values per record and kind; at each access the value's new count is merged
 * into the record's four (value, count) counters, ordered by count, then
 * value, largest first. Bounded: 4 values live in the record's state and 28
 * more in one overflow chunk from a preallocated pool. */
#ifndef IOL_RT_TOPVALS_H
#define IOL_RT_TOPVALS_H

#include <stdatomic.h>
#include <stdint.h>

#define IOL_VALS_MAX 32     /* distinct values counted per record and kind */
#define IOL_VALS_INLINE 4   /* of which held in the record's state */
#define IOL_VALS_CHUNK (IOL_VALS_MAX - IOL_VALS_INLINE)

/* Distinct values of one kind seen on one record. Zeroed means empty. */
struct iol_vals {
    int64_t val[IOL_VALS_INLINE];
    int64_t cnt[IOL_VALS_INLINE];
    uint32_t n;     /* distinct values counted */
    uint32_t chunk; /* overflow chunk: index + 1, or 0 */
    uint32_t hint;  /* in-line index of the value counted last (a guess) */
};

struct iol_vals_chunk {
    int64_t val[IOL_VALS_CHUNK];
    int64_t cnt[IOL_VALS_CHUNK];
};

/* Overflow chunks shared by every record; handed out, never returned. */
struct iol_vals_pool {
    struct iol_vals_chunk *chunks;
    uint32_t capacity;
    _Atomic uint32_t used;
};

/* The slow path of iol_vals_add. */
int64_t iol_vals_add_slow(struct iol_vals *v, int64_t value, struct iol_vals_pool *pool);

/* Count one occurrence of value in v (the caller holds the record's lock).
 * Programs mostly repeat their last size or stride, so that one is tried first.
 * @return the value's count so far, or 0 if the value is not counted because
 *         the record already has IOL_VALS_MAX distinct values (or the chunk
 *         pool is exhausted). */
static inline int64_t iol_vals_add(struct iol_vals *v, int64_t value, struct iol_vals_pool *pool)
{
    uint32_t h = v->hint;
    if (h < v->n && h < IOL_VALS_INLINE && v->val[h] == value)
        return ++v->cnt[h];
    return iol_vals_add_slow(v, value, pool);
}

/* The slow path of iol_top4_update. */
void iol_top4_update_slow(int64_t vals[4], int64_t cnts[4], int64_t value, int64_t count);

/* Merge (value, count) into the four most common values vals[4] / cnts[4]:
 * ordered by count, then by value, largest first; a value of 0 is never
 * listed. Darshan's rule, so that the same accesses give the same counters. */
static inline void iol_top4_update(int64_t vals[4], int64_t cnts[4], int64_t value, int64_t count)
{
    if (value == 0)
        return;
    if (vals[0] == value) { /* the most common value stays first */
        cnts[0] = count;
        return;
    }
    iol_top4_update_slow(vals, cnts, value, count);
}

#endif
