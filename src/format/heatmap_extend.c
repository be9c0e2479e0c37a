/* HEATMAP records on a job's common end, for the logs that hold several
 * processes: the MPI job log (src/runtime/mpi/hm_align.c) and iolens run's
 * job log (joblog.c). Each process cut its heatmaps at its own end, so ranks
 * that ended a bin apart have different bin counts. Darshan's runtime agrees
 * on the latest end first, and darshan-parser relies on it: it "repairs" a
 * record whose bin count is one off the log's first heatmap, and reads such a
 * record wrongly. Here every rank extends its records with empty bins up to
 * the longest span of any rank (the span of a record is bins x width: the
 * same as Darshan's latest end rounded up to a bin), doubling the width, as
 * the module does, when its bins would not reach. No byte moves to another
 * time. */
#include <stdint.h>
#include <string.h>

#include "runtime_api.h"

/* span / width rounded up, forgiving the float error of span itself (no
 * libm: this file is linked into the runtime, which loads nothing more). */
static int64_t bins_for(double span, double width)
{
    double x = span / width - 1e-9;
    if (!(x < 9e15))
        return INT64_MAX;
    int64_t k = (int64_t)x;
    return (double)k < x ? k + 1 : k;
}

void iol_heatmap_extend(struct iolens_heatmap_record *r, double span, int64_t cap)
{
    int64_t n = r->nbins, wr[cap], rd[cap];
    double width = r->bin_width_seconds;

    if (n < 1 || n > cap || !(width > 0))
        return; /* not a record this code made: left as it is */
    memset(wr, 0, sizeof(wr));
    memset(rd, 0, sizeof(rd));
    memcpy(wr, r->bins, (size_t)n * sizeof(int64_t));
    memcpy(rd, r->bins + n, (size_t)n * sizeof(int64_t));
    while (bins_for(span, width) > cap) {
        for (int64_t i = 0; i < (n + 1) / 2; i++) {
            wr[i] = wr[2 * i] + (2 * i + 1 < n ? wr[2 * i + 1] : 0);
            rd[i] = rd[2 * i] + (2 * i + 1 < n ? rd[2 * i + 1] : 0);
        }
        for (int64_t i = (n + 1) / 2; i < n; i++)
            wr[i] = rd[i] = 0;
        n = (n + 1) / 2;
        width *= 2;
    }
    int64_t want = bins_for(span, width);
    if (want < n)
        want = n;
    r->bin_width_seconds = width;
    r->nbins = want;
    memcpy(r->bins, wr, (size_t)want * sizeof(int64_t));
    memcpy(r->bins + want, rd, (size_t)want * sizeof(int64_t));
}
