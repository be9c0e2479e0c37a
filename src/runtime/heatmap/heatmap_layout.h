/* The HEATMAP module's records in the record file: the log record, whose bins
 * stay zero until the end, and beside it the bins proper, one copy (shard)
 * per group of CPUs (struct iol_heatmap_state in common/recfile.h, where the
 * log library finds it too: it adds the shards into the log record when it
 * writes the log of a record file). */
#ifndef IOL_RT_HEATMAP_LAYOUT_H
#define IOL_RT_HEATMAP_LAYOUT_H

#include <stddef.h>
#include <stdint.h>

#include "common/recfile.h"
#include "iolens/modules/heatmap.h"

#define IOL_HEATMAP_RECORD_BYTES \
    (sizeof(struct iolens_heatmap_record) + 2 * IOL_HEATMAP_BINS * sizeof(int64_t))

#endif
