/* HEATMAP records on a job's common end, for the logs that hold several
 * processes: the MPI job log (src/runtime/mpi/hm_align.c) and iolens run's
 * job log (combine.c). Each process cut its heatmaps at
 * its own end, so ranks that ended a bin apart have different bin counts.
 * Darshan's runtime agrees on the latest end first, and darshan-parser
 * relies on it: it "repairs" a record whose bin count is one off the log's
 * first heatmap, and reads such a record wrongly. Here every rank extends its
 * records with empty bins up to the longest span of any rank (the span of a
 * record is bins x width: the same as Darshan's latest end rounded up to a
 * bin), doubling the width, as the module does, when its bins would not
 * reach. No byte moves to another time. */
#ifndef IOL_FORMAT_HEATMAP_EXTEND_H
#define IOL_FORMAT_HEATMAP_EXTEND_H

#include <stdint.h>

#include "iolens/modules/heatmap.h"

/* Give r (room for cap bins per array) the bins needed to span span seconds
 * in its width, doubling the width (bins merged pairwise) until cap bins
 * reach; never fewer bins than it had. A record with no bins, more than cap,
 * or no width is left as it is. */
void iol_heatmap_extend(struct iolens_heatmap_record *r, double span, int64_t cap);

#endif
