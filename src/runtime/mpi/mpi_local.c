/* This process's part of the MPI job's log, copied out of the record file:
 * job data, names with the modules that use them, each module's records
 * with the process's rank, and the log paths the non-MPI rules give. */
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "core/logwrite.h"
#include "mpi_job.h"

static int cmp_name(const void *a, const void *b)
{
    const struct iol_mpi_name *x = a, *y = b;
    return x->id < y->id ? -1 : x->id > y->id;
}

/* Can the log library write this pool's records (a trace module's: as
 * full_record gives them)? */
static int writable(const struct iol_map_module *m)
{
    const struct iolens_module_desc *d = iolens_module((int)m->mod_id);
    return d && (d->trace || !d->record_size || d->record_size == m->rec_size) &&
           d->version == m->rec_version;
}

/* The first bytes of a trace module's buffer, grown as records need. */
#define TRACE_BUF_START 4096

/* Trace module m's live records, each whole from its full_record hook
 * (iol_core_full_record, which leaves out a record failing the DXT
 * triggers), packed one after the other into out (rec_size 0, rank set),
 * their names appended to l. */
static int collect_trace(struct iol_mpi_local *l, const struct iol_map_header *h,
                         const struct iol_map_module *m, int rank, size_t names_cap)
{
    struct iol_mpi_module *out = &l->mods[l->nmods];
    uint32_t live = iol_maplog_live_count(m);
    size_t used = 0, cap = TRACE_BUF_START;

    out->mod_id = (int)m->mod_id;
    out->partial = atomic_load((_Atomic uint32_t *)&m->partial) != 0;
    out->rec_size = 0;
    if (!(out->recs = malloc(cap)))
        return -1;
    l->nmods++; /* out->recs is freed with l from here on */
    for (uint32_t j = 0; j < live; j++) {
        size_t n;
        while ((n = iol_maplog_trace_record(h, m, j, iol_core_full_record, out->recs + used,
                                            cap - used)) > cap - used) {
            size_t want = 2 * cap > used + n ? 2 * cap : used + n;
            unsigned char *more = realloc(out->recs, want);
            if (!more)
                return -1;
            out->recs = more;
            cap = want;
        }
        if (!n)
            continue;
        struct iolens_record_base *rec = (struct iolens_record_base *)(out->recs + used);
        rec->rank = rank;
        used += n;
        out->count++;
        const char *name = iol_maplog_record_name(h, m, j);
        if (name && l->nnames < names_cap)
            l->names[l->nnames++] = (struct iol_mpi_name){rec->id, 1ULL << m->mod_id, name};
    }
    return 0;
}

/* Module m's live records into out (rank set), their names appended to l. */
static int collect_module(struct iol_mpi_local *l, const struct iol_map_header *h,
                          const struct iol_map_module *m, int rank, size_t names_cap)
{
    struct iol_mpi_module *out = &l->mods[l->nmods];
    uint32_t live = iol_maplog_live_count(m);

    out->mod_id = (int)m->mod_id;
    out->partial = atomic_load((_Atomic uint32_t *)&m->partial) != 0;
    out->rec_size = m->rec_size;
    if (live && !(out->recs = malloc((size_t)live * m->rec_size)))
        return -1;
    for (uint32_t j = 0; j < live; j++) {
        unsigned char *rec = out->recs + out->count * m->rec_size;
        uint64_t id = iol_maplog_copy_record(h, m, j, rec);
        if (!id)
            continue;
        ((struct iolens_record_base *)rec)->rank = rank;
        out->count++;
        const char *name = iol_maplog_record_name(h, m, j);
        if (name && l->nnames < names_cap)
            l->names[l->nnames++] = (struct iol_mpi_name){id, 1ULL << m->mod_id, name};
    }
    l->nmods++;
    return 0;
}

/* Sort the names by id and merge duplicates (one name, several modules). */
static void merge_names(struct iol_mpi_local *l)
{
    size_t n = 0;
    qsort(l->names, l->nnames, sizeof(*l->names), cmp_name);
    for (size_t i = 0; i < l->nnames; i++) {
        if (n > 0 && l->names[n - 1].id == l->names[i].id)
            l->names[n - 1].mods |= l->names[i].mods;
        else
            l->names[n++] = l->names[i];
    }
    l->nnames = n;
}

struct iol_mpi_local *iol_mpi_local_collect(int rank, int with_records)
{
    struct iol_map_header *h = iol_rt.map.hdr;
    struct iol_mpi_local *l = calloc(1, sizeof(*l));
    uint32_t order[IOL_MAP_MAX_MODS];
    size_t names_cap = 0;

    if (!l)
        return NULL;
    iol_log_set_end(&iol_rt);
    iol_maplog_job(h, &l->job);
    l->npaths = iol_log_paths(&iol_rt, l->paths, IOL_MPI_MAX_PATHS);
    l->mode = 0400;
    l->disable_shared_reduction = iol_rt.cfg.disable_shared_reduction;
    l->log_per_rank = iol_rt.cfg.log_per_rank;
    l->log_compat = (iolens_log_compat)h->log_compat;
    l->log_hints = iol_rt.cfg.log_hints;
    iol_maplog_module_order(h, order);
    for (uint32_t i = 0; i < h->nmods; i++)
        names_cap += iol_maplog_live_count(&h->mods[i]);
    if (!(l->names = calloc(names_cap ? names_cap : 1, sizeof(*l->names))))
        goto fail;
    for (uint32_t i = 0; with_records && i < h->nmods; i++) {
        const struct iol_map_module *m = &h->mods[order[i]];
        const struct iolens_module_desc *d = iolens_module((int)m->mod_id);
        if (writable(m) && (d->trace ? collect_trace(l, h, m, rank, names_cap)
                                     : collect_module(l, h, m, rank, names_cap)) != 0)
            goto fail;
    }
    merge_names(l);
    return l;
fail:
    iol_mpi_local_free(l);
    return NULL;
}

void iol_mpi_local_free(struct iol_mpi_local *l)
{
    if (!l)
        return;
    for (size_t i = 0; i < l->nmods; i++)
        free(l->mods[i].recs);
    free(l->names);
    free(l);
}
