/* HEATMAP records on the job's common end. Each process cut its heatmaps at
 * its own end, so ranks that ended a bin apart have different bin counts.
 * Darshan's runtime agrees on the latest end first, and darshan-parser
 * relies on it: it "repairs" a record whose bin count is one off the log's
 * first heatmap, and reads such a record wrongly. Here every rank extends its
 * records with empty bins up to the longest span of any rank (the span of a
 * record is bins x width: the same as Darshan's latest end rounded up to a
 * bin), doubling the width, as the module does, when its bins would not
 * reach. No byte moves to another time. */
#include "format/runtime_api.h"
#include "hm_align.h"
#include "iolens/modules/heatmap.h"

int iol_mpi_heatmap_align(struct iol_mpi_local *l)
{
    struct iol_mpi_module *hm = NULL;
    double mine = 0, span = 0;

    for (size_t i = 0; i < l->nmods; i++)
        if (l->mods[i].mod_id == IOLENS_MOD_HEATMAP)
            hm = &l->mods[i];
    int64_t cap = hm ? (int64_t)((hm->rec_size - sizeof(struct iolens_heatmap_record)) /
                                 (2 * sizeof(int64_t)))
                     : 0;
    for (size_t i = 0; hm && i < hm->count; i++) {
        const struct iolens_heatmap_record *r =
            (const void *)(hm->recs + i * hm->rec_size);
        double s = (double)r->nbins * r->bin_width_seconds;
        if (r->nbins > 0 && r->nbins <= cap && s > mine)
            mine = s;
    }
    if (PMPI_Allreduce(&mine, &span, 1, MPI_DOUBLE, MPI_MAX, iol_mpi.comm) != MPI_SUCCESS)
        return -1;
    for (size_t i = 0; hm && i < hm->count && span > 0; i++)
        iol_heatmap_extend((struct iolens_heatmap_record *)(hm->recs + i * hm->rec_size), span, cap);
    return 0;
}
