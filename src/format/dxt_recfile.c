/* DXT records out of a record file (common/recfile.h, "the trace area"): the
 * record's head in its slot, its segments in chunks of the trace area. The
 * one reading of that layout, for the runtime at the end of a process and for
 * a record file read from outside (iolens recover, iolens run, any verb). No
 * lock is needed: a segment counts once its thread id is set, which the
 * runtime stores last. */
#include "runtime_api.h"

#include <string.h>

/* Chunk i (from 1) of h's trace area, or NULL when i is outside it. */
static const struct iol_trace_chunk *chunk_at(const struct iol_map_header *h, uint32_t i)
{
    if (i == 0 || i > h->trace_chunks)
        return NULL;
    return (const struct iol_trace_chunk *)((const unsigned char *)h + h->trace_off) + (i - 1);
}

/* Walk the list starting at chunk first: copy its segments into out (NULL:
 * only count them), at most cap_segs of them. @return the segments in it. */
static int64_t walk_list(const struct iol_map_header *h, uint32_t first,
                         struct iolens_dxt_segment *out, int64_t cap_segs)
{
    int64_t n = 0;
    const struct iol_trace_chunk *c = chunk_at(h, first);
    /* At most trace_chunks steps: a damaged file's links may loop. */
    for (uint32_t steps = 0; c && steps < h->trace_chunks; steps++) {
        for (int k = 0; k < IOL_TRACE_CHUNK_SEGS; k++) {
            const struct iolens_dxt_segment *s = &c->seg[k];
            uint64_t thread = __atomic_load_n(&s->thread_id, __ATOMIC_ACQUIRE);
            if (thread == 0)
                return n;
            if (out && n < cap_segs) {
                memcpy(&out[n], s, sizeof(*s));
                out[n].thread_id = thread;
            }
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
