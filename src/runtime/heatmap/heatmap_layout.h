/* The HEATMAP module's records in the record file: the log record, whose bins
 * stay zero until the end, and beside it the bins proper, one copy (shard)
 * per group of CPUs. Threads on different CPUs add to different cache lines:
 * with a single array every thread's update of the current bin moved one
 * line between cores, and two threads writing to their own files kept 83%
 * of their uninstrumented throughput instead of 97%. The shards are added
 * into the log record when the log is written: by the module at the end, and
 * by iolens recover for the record file of a killed process (maplog.c). */
#ifndef IOL_RT_HEATMAP_LAYOUT_H
#define IOL_RT_HEATMAP_LAYOUT_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "iolens/modules/heatmap.h"

#define IOL_HEATMAP_BINS 200         /* bins per array (Darshan's default) */
#define IOL_HEATMAP_SHARDS 16        /* copies of the bins; CPU n uses n % 16 */
#define IOL_HEATMAP_RECORD_BYTES \
    (sizeof(struct iolens_heatmap_record) + 2 * IOL_HEATMAP_BINS * sizeof(int64_t))

/* Per-record state beside the log record. */
struct iol_heatmap_state {
    _Atomic uint32_t doublings; /* bin width is 0.1 s * 2^doublings */
    _Atomic int frozen;         /* 1 once the record has been cut for the log */
    /* Bytes written (first IOL_HEATMAP_BINS) and read, per shard. */
    int64_t shards[IOL_HEATMAP_SHARDS][2 * IOL_HEATMAP_BINS];
};

/* Add every shard's bytes into the log record rec (IOL_HEATMAP_BINS bins
 * per array, as the shards). */
static inline void iol_heatmap_fold(struct iolens_heatmap_record *rec,
                                    const struct iol_heatmap_state *st)
{
    for (int s = 0; s < IOL_HEATMAP_SHARDS; s++)
        for (int i = 0; i < 2 * IOL_HEATMAP_BINS; i++)
            rec->bins[i] += __atomic_load_n(&st->shards[s][i], __ATOMIC_RELAXED);
}

#endif
