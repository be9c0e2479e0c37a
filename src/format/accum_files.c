/* The accumulator's bounded per-file table (accum_files.h). */
#include <stdlib.h>
#include <string.h>

#include "../common/hash.h"
#include "accum_files.h"

/* The partition needs the mix's 64 bits: a narrower key would let several
 * files share one key, and a part of one key could then overflow. */
_Static_assert(SIZE_MAX >= UINT64_MAX, "iol_hash_mix must give 64 bits");

static uint64_t key_of(uint64_t id)
{
    return (uint64_t)iol_hash_mix(id);
}

void iol_ftab_init(struct iol_file_table *t, size_t max)
{
    memset(t, 0, sizeof(*t));
    t->max = max < 1 ? 1 : max > UINT32_MAX - 1 ? UINT32_MAX - 1 : max;
    t->hi = UINT64_MAX;
}

/* Slot of id: where it is, or the empty slot where it would go. */
static size_t slot_of(const struct iol_file_table *t, uint64_t id)
{
    size_t mask = t->nslots - 1, i = iol_hash_mix(id) & mask;
    while (t->slots[i] && t->files[t->slots[i] - 1].id != id)
        i = (i + 1) & mask;
    return i;
}

/* Point the slots at files[0..n) again. */
static void reindex(struct iol_file_table *t)
{
    memset(t->slots, 0, t->nslots * sizeof(*t->slots));
    for (size_t i = 0; i < t->n; i++)
        t->slots[slot_of(t, t->files[i].id)] = (uint32_t)(i + 1);
}

iolens_status iol_ftab_reserve(struct iol_file_table *t)
{
    if (t->n < t->cap || t->cap == t->max)
        return IOLENS_OK;
    size_t cap = t->cap ? 2 * t->cap : 64;
    cap = cap < t->max ? cap : t->max;
    size_t nslots = t->nslots ? t->nslots : 128;
    while (nslots < 2 * cap)
        nslots *= 2;
    struct iol_file_sum *files = realloc(t->files, cap * sizeof(*files));
    if (!files)
        return IOLENS_ERR_NOMEM;
    t->files = files;
    if (nslots != t->nslots) {
        uint32_t *slots = malloc(nslots * sizeof(*slots));
        if (!slots)
            return IOLENS_ERR_NOMEM; /* files grew, which changes nothing held */
        free(t->slots);
        t->slots = slots;
        t->nslots = nslots;
        reindex(t);
    }
    t->cap = cap;
    return IOLENS_OK;
}

/* Halve the part, keeping its lower half, and let the files of the upper
 * half go. */
static void shrink(struct iol_file_table *t)
{
    size_t kept = 0;
    t->hi = t->lo + (t->hi - t->lo) / 2;
    for (size_t i = 0; i < t->n; i++)
        if (key_of(t->files[i].id) <= t->hi)
            t->files[kept++] = t->files[i];
    t->n = kept;
    reindex(t);
}

struct iol_file_sum *iol_ftab_find(struct iol_file_table *t, uint64_t id, uint64_t seq)
{
    uint64_t key = key_of(id);
    if (key < t->lo || key > t->hi)
        return NULL;
    size_t i = slot_of(t, id);
    if (t->slots[i])
        return &t->files[t->slots[i] - 1];
    /* A new file. A part of one key holds at most one file, which is not
     * this one: the loop ends before the part is empty. */
    if (t->n == t->max) {
        while (t->n == t->max && key <= t->hi)
            shrink(t);
        if (key > t->hi)
            return NULL;
        i = slot_of(t, id);
    }
    struct iol_file_sum *fs = &t->files[t->n++];
    *fs = (struct iol_file_sum){.id = id, .first = seq};
    t->slots[i] = (uint32_t)t->n;
    return fs;
}

static void empty(struct iol_file_table *t)
{
    t->n = 0;
    if (t->nslots)
        memset(t->slots, 0, t->nslots * sizeof(*t->slots));
}

int iol_ftab_next_part(struct iol_file_table *t)
{
    if (t->hi == UINT64_MAX)
        return 0;
    uint64_t width = t->hi - t->lo; /* the part's width minus one */
    t->lo = t->hi + 1;
    t->hi = UINT64_MAX - t->lo <= width ? UINT64_MAX : t->lo + width;
    empty(t);
    return 1;
}

void iol_ftab_restart(struct iol_file_table *t)
{
    t->lo = 0;
    t->hi = UINT64_MAX;
    empty(t);
}

void iol_ftab_free(struct iol_file_table *t)
{
    free(t->files);
    free(t->slots);
    memset(t, 0, sizeof(*t));
}
