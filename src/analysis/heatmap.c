/* The HEATMAP records folded into one bounded grid per interface
 * (struct iolens_heatmap_grid): the first record of an interface fixes the
 * grid's time span and bin width, every record's bins are added by the time
 * their middle falls at, its rank into its row of ranks. */
#include <stdlib.h>
#include <string.h>

#include "../common/hash.h"
#include "analysis_internal.h"
#include "iolens/modules/heatmap.h"

/* The interface a HEATMAP record is for, from its id (the hash of its name,
 * "heatmap:POSIX", ...), or -1. */
static int heatmap_iface(uint64_t id)
{
    static const char *const names[IOLENS_IFACES] = {
        [IOLENS_IFACE_POSIX] = "heatmap:POSIX",
        [IOLENS_IFACE_MPIIO] = "heatmap:MPIIO",
        [IOLENS_IFACE_STDIO] = "heatmap:STDIO",
    };
    for (int i = 0; i < IOLENS_IFACES; i++)
        if (id == iol_hash64(names[i], strlen(names[i]), 0))
            return i;
    return -1;
}

int iol_heatmap_grid_shape(struct iolens_heatmap_grid *g, int nbins, double bin_seconds,
                           int64_t nprocs)
{
    int64_t ranks = nprocs > 0 ? nprocs : 1;
    g->nbins = nbins;
    g->bin_seconds = bin_seconds;
    g->ranks_per_row = (ranks + IOLENS_HEATMAP_MAX_ROWS - 1) / IOLENS_HEATMAP_MAX_ROWS;
    g->nrows = (int)((ranks + g->ranks_per_row - 1) / g->ranks_per_row);
    g->read = calloc((size_t)g->nrows * (size_t)g->nbins, sizeof(*g->read));
    g->written = calloc((size_t)g->nrows * (size_t)g->nbins, sizeof(*g->written));
    g->present = 1;
    return g->read && g->written ? 0 : -1;
}

/* Shape the grid after the first record of its interface. @return 0 or -1. */
static int grid_start(struct iolens_heatmap_grid *g, const struct iolens_heatmap_record *r,
                      int64_t nprocs)
{
    int64_t merge = (r->nbins + IOLENS_HEATMAP_MAX_BINS - 1) / IOLENS_HEATMAP_MAX_BINS;
    return iol_heatmap_grid_shape(g, (int)((r->nbins + merge - 1) / merge),
                                  r->bin_width_seconds * (double)merge, nprocs);
}

int iol_heatmap_add(struct iolens_summary *s, const void *rec)
{
    const struct iolens_heatmap_record *r = rec;
    int iface = heatmap_iface(r->base.id);
    if (iface < 0 || r->nbins <= 0 || !(r->bin_width_seconds > 0))
        return 0;
    struct iolens_heatmap_grid *g = &s->heatmap[iface];
    if (!g->present && grid_start(g, r, s->nprocs) < 0)
        return -1;
    if (!(g->bin_seconds > 0))
        return 0;
    int64_t row = r->base.rank >= 0 ? r->base.rank / g->ranks_per_row : 0;
    row = row < g->nrows ? row : g->nrows - 1;
    const int64_t *w = iolens_heatmap_write_bins(r), *rd = iolens_heatmap_read_bins(r);
    for (int64_t b = 0; b < r->nbins; b++) {
        if (w[b] <= 0 && rd[b] <= 0)
            continue;
        double at = ((double)b + 0.5) * r->bin_width_seconds / g->bin_seconds;
        int64_t col = at < (double)g->nbins ? (int64_t)at : g->nbins - 1;
        size_t cell = (size_t)row * (size_t)g->nbins + (size_t)col;
        g->written[cell] = iol_add(g->written[cell], w[b] > 0 ? w[b] : 0);
        g->read[cell] = iol_add(g->read[cell], rd[b] > 0 ? rd[b] : 0);
    }
    return 0;
}

void iol_heatmap_free(struct iolens_summary *s)
{
    for (int i = 0; i < IOLENS_IFACES; i++) {
        free(s->heatmap[i].read);
        free(s->heatmap[i].written);
    }
}
