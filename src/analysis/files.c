/* The summary's file table: at most cap files, the heaviest kept. A new
 * file takes the place of the lightest when the table is full and it weighs
 * more; the lightest's figures go to the rest. Its id goes into a filter, so
 * that if it comes back it is marked partial (some of its records are in
 * the rest). Memory is fixed when the table is made. */
#include <stdlib.h>
#include <string.h>

#include "../common/hash.h"
#include "analysis_internal.h"

int iol_files_init(struct iol_file_table *t, size_t cap)
{
    memset(t, 0, sizeof(*t));
    t->cap = cap;
    t->nslots = 16;
    while (t->nslots < 2 * cap)
        t->nslots *= 2;
    t->evicted_bits = 8 * t->nslots;
    t->files = calloc(cap, sizeof(*t->files));
    t->heap = calloc(cap, sizeof(*t->heap));
    t->heap_pos = calloc(cap, sizeof(*t->heap_pos));
    t->slots = calloc(t->nslots, sizeof(*t->slots));
    t->evicted = calloc(t->evicted_bits / 8, 1);
    if (!t->files || !t->heap || !t->heap_pos || !t->slots || !t->evicted) {
        iol_files_free_index(t);
        free(t->files);
        t->files = NULL;
        return -1;
    }
    return 0;
}

void iol_files_free_index(struct iol_file_table *t)
{
    free(t->heap);
    free(t->heap_pos);
    free(t->slots);
    free(t->evicted);
    t->heap = t->heap_pos = t->slots = NULL;
    t->evicted = NULL;
}

/* ---- the evicted ids' filter: two bits per id ---- */

static size_t bit_a(const struct iol_file_table *t, uint64_t id)
{
    return iol_hash_mix(id) % t->evicted_bits;
}

static size_t bit_b(const struct iol_file_table *t, uint64_t id)
{
    return iol_hash_mix(id ^ 0x9e3779b97f4a7c15ULL) % t->evicted_bits;
}

static void mark_evicted(struct iol_file_table *t, uint64_t id)
{
    size_t a = bit_a(t, id), b = bit_b(t, id);
    t->evicted[a / 8] |= (unsigned char)(1u << (a % 8));
    t->evicted[b / 8] |= (unsigned char)(1u << (b % 8));
}

static int was_evicted(const struct iol_file_table *t, uint64_t id)
{
    size_t a = bit_a(t, id), b = bit_b(t, id);
    return (t->evicted[a / 8] >> (a % 8) & 1) && (t->evicted[b / 8] >> (b % 8) & 1);
}

/* ---- the id index: open addressing, backward-shift deletion ---- */

/* The slot holding id, or the empty slot where it would go. */
static size_t find_slot(const struct iol_file_table *t, uint64_t id)
{
    size_t mask = t->nslots - 1, i = iol_hash_mix(id) & mask;
    while (t->slots[i] && t->files[t->slots[i] - 1].id != id)
        i = (i + 1) & mask;
    return i;
}

static void remove_slot(struct iol_file_table *t, size_t i)
{
    size_t mask = t->nslots - 1, j = i;
    t->slots[i] = 0;
    for (;;) {
        j = (j + 1) & mask;
        if (!t->slots[j])
            return;
        size_t home = iol_hash_mix(t->files[t->slots[j] - 1].id) & mask;
        /* Move j back into the hole unless its home lies in (i, j]. */
        int stays = i <= j ? (i < home && home <= j) : (i < home || home <= j);
        if (!stays) {
            t->slots[i] = t->slots[j];
            t->slots[j] = 0;
            i = j;
        }
    }
}

/* ---- the heap: lightest file on top ---- */

static void heap_swap(struct iol_file_table *t, size_t a, size_t b)
{
    size_t fa = t->heap[a], fb = t->heap[b];
    t->heap[a] = fb;
    t->heap[b] = fa;
    t->heap_pos[fb] = a;
    t->heap_pos[fa] = b;
}

static double heap_w(const struct iol_file_table *t, size_t at)
{
    return t->files[t->heap[at]].weight;
}

static void sift_up(struct iol_file_table *t, size_t at)
{
    while (at > 0 && heap_w(t, (at - 1) / 2) > heap_w(t, at)) {
        heap_swap(t, at, (at - 1) / 2);
        at = (at - 1) / 2;
    }
}

static void sift_down(struct iol_file_table *t, size_t at)
{
    for (;;) {
        size_t l = 2 * at + 1, r = l + 1, least = at;
        if (l < t->n && heap_w(t, l) < heap_w(t, least))
            least = l;
        if (r < t->n && heap_w(t, r) < heap_w(t, least))
            least = r;
        if (least == at)
            return;
        heap_swap(t, at, least);
        at = least;
    }
}

/* Send a kept file's figures to the rest. */
static void add_to_rest(const struct iolens_file_summary *f, struct iolens_io_stats *rest)
{
    for (int i = 0; i < IOLENS_IFACES; i++)
        if (f->ifaces >> i & 1)
            iol_stats_add(&rest[i], &f->io[i]);
}

/* Make room for a new file: the index it goes to (the lightest's, whose
 * figures go to rest, when the table is full). */
static size_t take_entry(struct iol_file_table *t, struct iolens_io_stats *rest)
{
    if (t->n < t->cap) {
        t->heap[t->n] = t->n;
        t->heap_pos[t->n] = t->n;
        return t->n++;
    }
    size_t idx = t->heap[0];
    struct iolens_file_summary *f = &t->files[idx];
    add_to_rest(f, rest);
    mark_evicted(t, f->id);
    remove_slot(t, find_slot(t, f->id));
    return idx;
}

void iol_files_add(struct iol_file_table *t, uint64_t id, int iface,
                   const struct iolens_io_stats *st, double w,
                   struct iolens_io_stats rest[IOLENS_IFACES], int64_t *rest_files)
{
    size_t slot = find_slot(t, id);
    if (t->slots[slot]) {
        struct iolens_file_summary *f = &t->files[t->slots[slot] - 1];
        if (f->ifaces >> iface & 1)
            iol_stats_add(&f->io[iface], st);
        else
            f->io[iface] = *st;
        f->ifaces |= 1u << iface;
        f->weight += w;
        sift_down(t, t->heap_pos[t->slots[slot] - 1]);
        return;
    }
    if (t->cap == 0 || (t->n == t->cap && w <= t->files[t->heap[0]].weight)) {
        iol_stats_add(&rest[iface], st);
        (*rest_files)++; /* counted per record: the rest keeps no ids */
        return;
    }
    if (t->n == t->cap)
        (*rest_files)++;
    size_t idx = take_entry(t, rest);
    struct iolens_file_summary *f = &t->files[idx];
    memset(f, 0, sizeof(*f));
    f->id = id;
    f->partial = was_evicted(t, id);
    f->ifaces = 1u << iface;
    f->io[iface] = *st;
    f->weight = w;
    t->slots[find_slot(t, id)] = idx + 1;
    /* A new entry is in the heap at the place of the one it replaced (the
     * top) or at the end: it may go either way. */
    sift_up(t, t->heap_pos[idx]);
    sift_down(t, t->heap_pos[idx]);
}
