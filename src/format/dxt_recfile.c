/* DXT records out of a record file (common/recfile.h, "the trace area"): the
 * record's head in its slot, its segments in chunks of the trace area. The
 * one reading of that layout, for the runtime at the end of a process and for
 * a record file read from outside (iolens recover, iolens run, any verb). No
 * lock is needed: a chunk's words count once its `used` covers them, which
 * the runtime raises after storing them. The encoding of the segments is
 * common/recfile.h's. */
#include "runtime_api.h"

#include <string.h>

/* Chunk i (from 1) of h's trace area, or NULL when i is outside it. */
static const struct iol_trace_chunk *chunk_at(const struct iol_map_header *h, uint32_t i)
{
    if (i == 0 || i > h->trace_chunks)
        return NULL;
    return (const struct iol_trace_chunk *)((const unsigned char *)h + h->trace_off) + (i - 1);
}

/* Where decoding a list stands: the previous segment's end and thread. */
struct list_cursor {
    uint64_t next_off; /* its offset + length */
    uint64_t prev_end; /* its end tick */
    uint64_t thread;
};

/* Decode the segment (with a thread tag before it) at words w[0..n) into
 * *out, advancing c. @return the words it took, or 0 when the words are not
 * a whole segment (a damaged file: the list ends there). */
static uint32_t decode(struct list_cursor *c, const uint64_t *w, uint32_t n,
                       struct iolens_dxt_segment *out)
{
    uint32_t k = 0;
    if (n >= 2 && w[0] == (IOL_TRACE_TAGGED | IOL_TRACE_TAG_THREAD)) {
        c->thread = w[1];
        k = 2;
    }
    if (k >= n)
        return 0;
    uint64_t off, len, start, end, v = w[k];
    if (!(v & IOL_TRACE_TAGGED)) {
        off = c->next_off + (uint64_t)iol_trace_unzigzag(v & ((UINT64_C(1) << IOL_TRACE_OFF_BITS) - 1));
        v >>= IOL_TRACE_OFF_BITS;
        len = v & ((UINT64_C(1) << IOL_TRACE_LEN_BITS) - 1);
        v >>= IOL_TRACE_LEN_BITS;
        start = c->prev_end + (v & ((UINT64_C(1) << IOL_TRACE_GAP_BITS) - 1));
        end = start + (v >> IOL_TRACE_GAP_BITS);
        k += 1;
    } else if (v == (IOL_TRACE_TAGGED | IOL_TRACE_TAG_LONG) && n - k >= 5) {
        off = w[k + 1];
        len = w[k + 2];
        start = w[k + 3];
        end = w[k + 4];
        k += 5;
    } else {
        return 0;
    }
    c->next_off = off + len;
    c->prev_end = end;
    if (out) {
        out->offset = (int64_t)off;
        out->length = (int64_t)len;
        out->start_time = (double)(int64_t)start * 0x1p-22;
        out->end_time = (double)(int64_t)end * 0x1p-22;
        out->thread_id = c->thread;
    }
    return k;
}

/* Walk the list starting at chunk first: decode its segments into out
 * (NULL: only count them), at most cap_segs of them. @return the segments in
 * it. */
static int64_t walk_list(const struct iol_map_header *h, uint32_t first,
                         struct iolens_dxt_segment *out, int64_t cap_segs)
{
    int64_t n = 0;
    struct list_cursor cur = {0, 0, 0};
    const struct iol_trace_chunk *c = chunk_at(h, first);
    /* At most trace_chunks steps: a damaged file's links may loop. */
    for (uint32_t steps = 0; c && steps < h->trace_chunks; steps++) {
        uint32_t used = atomic_load_explicit(&c->used, memory_order_acquire);
        if (used > IOL_TRACE_CHUNK_WORDS)
            return n; /* damaged */
        for (uint32_t k = 0; k < used;) {
            if (out && n >= cap_segs)
                return n;
            uint32_t took = decode(&cur, c->word + k, used - k, out ? &out[n] : NULL);
            if (!took)
                return n;
            k += took;
            n++;
        }
        c = chunk_at(h, atomic_load_explicit(&c->next, memory_order_acquire));
    }
    return n;
}

size_t iol_dxt_recfile_build(const struct iol_map_header *h, const struct iol_map_module *m,
                             const unsigned char *slot, void *buf, size_t cap)
{
    const size_t state_off = IOL_SLOT_STATE_OFF(sizeof(struct iolens_dxt_record));
    if (m->rec_size != sizeof(struct iolens_dxt_record) ||
        m->stride < state_off + sizeof(struct iol_trace_lists) || !h->trace_off)
        return 0; /* not the layout this code knows, or no trace area */
    const struct iol_trace_lists *l = (const void *)(slot + state_off);
    uint32_t first[2] = {atomic_load_explicit(&l->first[0], memory_order_acquire),
                         atomic_load_explicit(&l->first[1], memory_order_acquire)};
    int64_t w = walk_list(h, first[0], NULL, 0), r = walk_list(h, first[1], NULL, 0);
    size_t bytes = sizeof(struct iolens_dxt_record) +
                   (size_t)(w + r) * sizeof(struct iolens_dxt_segment);

    if (w + r == 0)
        return 0; /* as in Darshan: no traced access, no record */
    if (bytes > cap)
        return bytes;
    struct iolens_dxt_record *out = buf;
    memcpy(out, slot + IOL_MAP_SLOT_HEAD, sizeof(*out));
    /* A running process may add segments between the two walks: the counts
     * are those of the first, which every list still holds. */
    out->write_count = w;
    out->read_count = r;
    walk_list(h, first[0], out->segments, w);
    walk_list(h, first[1], out->segments + w, r);
    return bytes;
}
