/* Common-value counting with a bounded, allocation-free structure. */
#include "topvals.h"

#include <string.h>

/* @return the index of value among the first have of val, added if there is
 * room (and *added set), or -1. */
static int find_or_add(int64_t *val, int64_t *cnt, uint32_t have, uint32_t room, int64_t value,
                       uint32_t *added)
{
    for (uint32_t i = 0; i < have; i++)
        if (val[i] == value)
            return (int)i;
    if (have < room) {
        val[have] = value;
        cnt[have] = 0;
        *added = 1;
        return (int)have;
    }
    return -1;
}

int64_t iol_vals_add_slow(struct iol_vals *v, int64_t value, struct iol_vals_pool *pool)
{
    uint32_t added = 0;
    uint32_t in_line = v->n < IOL_VALS_INLINE ? v->n : IOL_VALS_INLINE;
    int i = find_or_add(v->val, v->cnt, in_line, IOL_VALS_INLINE, value, &added);

    if (i >= 0) {
        v->n += added;
        v->hint = (uint32_t)i;
        return ++v->cnt[i];
    }
    if (!v->chunk) { /* the in-line values are full */
        if (v->n >= IOL_VALS_MAX || !pool)
            return 0;
        uint32_t idx = atomic_fetch_add_explicit(&pool->used, 1, memory_order_relaxed);
        if (idx >= pool->capacity)
            return 0;
        memset(&pool->chunks[idx], 0, sizeof(pool->chunks[idx]));
        v->chunk = idx + 1;
    }
    struct iol_vals_chunk *ch = &pool->chunks[v->chunk - 1];
    i = find_or_add(ch->val, ch->cnt, v->n - IOL_VALS_INLINE, IOL_VALS_CHUNK, value, &added);
    if (i < 0)
        return 0;
    v->n += added;
    return ++ch->cnt[i];
}

void iol_top4_update_slow(int64_t vals[4], int64_t cnts[4], int64_t value, int64_t count)
{
    int64_t nv[4] = {0}, nc[4] = {0};
    int k = 0, i;

    /* Nearly every call: the value holds a place already and its new count
     * does not pass the entry before it, so only its count changes (the
     * entries after it had lower counts before and still do). */
    for (i = 0; i < 4; i++) {
        if (vals[i] != value)
            continue;
        if (i == 0 || cnts[i - 1] > count || (cnts[i - 1] == count && vals[i - 1] > value)) {
            cnts[i] = count;
            return;
        }
        break;
    }
    /* Entries that stay ahead: a higher count, or the same count and a larger value. */
    for (i = 0; i < 4; i++) {
        if (cnts[i] > count || (cnts[i] == count && vals[i] > value)) {
            nv[k] = vals[i];
            nc[k] = cnts[i];
            k++;
        } else {
            break;
        }
    }
    if (k == 4)
        return;
    nv[k] = value;
    nc[k] = count;
    k++;
    /* Then the rest, without the value's old entry. */
    for (; k < 4 && i < 4; i++) {
        if (vals[i] != value) {
            nv[k] = vals[i];
            nc[k] = cnts[i];
            k++;
        }
    }
    memcpy(vals, nv, sizeof(nv));
    memcpy(cnts, nc, sizeof(nc));
}
