/* The job's one log, written by every process together (Darshan's layout).
 *
 * After the reductions (LOG_COMPAT, modules used anywhere, partial flags,
 * record versions, start and end time, the heatmaps' common end) and the
 * shared-record hooks, the log is
 * opened collectively under a temporary name. Rank 0 writes the job region
 * after the space kept for the header. Every later region (the names, then
 * each module used anywhere, by module id; a trace module's variable-size
 * records, packed with rec_size 0, laid out by iolens_log_records_bytes with
 * stride 0) is each process's own zlib
 * stream, empty if it has nothing, placed back to back in rank order: an
 * MPI_Scan of the compressed sizes gives each process its offset, and one
 * MPI_File_write_at_all writes the region. Rank 0 writes the header last and
 * renames the file once it is complete. After every step the processes
 * agree on whether any failed (iol_mpi_any_failed), so all of them stop
 * together, none waits forever, and a failed log is removed. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/hash.h"
#include "core/diag.h"
#include "core/fmt.h"
#include "format/runtime_api.h"
#include "hm_align.h"
#include "iolens/log_parts.h"
#include "iolens/modules/stdio.h"
#include "mpilib.h"
#include "rank_log.h"
#include "shared.h"

/* The runtime writes zlib logs (its copy of the log library has no other
 * compressor). */
#define LOG_COMP IOLENS_COMP_ZLIB

/* MPI-IO hints of the log when LOGHINTS is unset: those of Darshan 3.5
 * configured without --with-log-hints for the same MPI (for Open MPI one
 * aggregator, which avoids a corruption of the log by Open MPI up to 5.0.5
 * and the serialised writes of later versions; else ROMIO's deferred open
 * and four aggregators). */
#ifdef OPEN_MPI
#define DEFAULT_LOG_HINTS "cb_nodes=1"
#else
#define DEFAULT_LOG_HINTS "romio_no_indep_rw=true;cb_nodes=4"
#endif

struct joblog {
    struct iol_mpi_local *l;
    MPI_File fh;
    int opened;                 /* fh is open */
    int created;                /* rank 0: tmp is ours to remove on failure */
    char path[IOL_PATH_MAX];    /* final name (rank 0's choice) */
    char tmp[IOL_PATH_MAX];     /* name while being written */
    uint64_t used;              /* bit per module id with records on some process */
    uint64_t partial;           /* rank 0: bit per module id that dropped records */
    uint32_t versions[IOLENS_MAX_MODS]; /* rank 0: record version per module id */
    iolens_log_compat compat;   /* the tools the log is for: LOG_COMPAT of any rank */
    int64_t start_ns, end_ns;   /* rank 0: the job's first start and last end */
    uint64_t *shared;           /* per name: modules in which it is shared */
    char *hints;                /* rank 0's LOGHINTS (or the default), on every rank */
    uint64_t next;              /* where the next region starts (all ranks) */
    struct iolens_region_map names;
    struct iolens_region_map mods[IOLENS_MAX_MODS];
};

static int64_t ns_of(int64_t sec, int64_t nsec)
{
    return sec * 1000000000 + nsec;
}

/* The tools the log is for (on all ranks: the records' layout depends on it);
 * modules used anywhere (on all ranks), but those such a log leaves out;
 * partial flags, versions and the job's times (on rank 0).
 * @return 0, or -1 on an MPI error. */
static int reduce_job(struct joblog *j)
{
    const struct iol_mpi_local *l = j->l;
    uint64_t used = 0, partial = 0;
    uint32_t versions[IOLENS_MAX_MODS] = {0};
    int64_t start = ns_of(l->job.job.start_time_sec, l->job.job.start_time_nsec);
    int64_t end = ns_of(l->job.job.end_time_sec, l->job.job.end_time_nsec);
    int compat = (int)l->log_compat, any_compat;

    MPI_Comm c = iol_mpi.comm;
    if (PMPI_Allreduce(&compat, &any_compat, 1, MPI_INT, MPI_MAX, c) != MPI_SUCCESS)
        return -1;
    j->compat = (iolens_log_compat)any_compat;
    for (size_t i = 0; i < l->nmods; i++) {
        const struct iol_mpi_module *m = &l->mods[i];
        uint32_t ver = iolens_module_compat_version(iolens_module(m->mod_id), j->compat);
        if (!ver)
            continue; /* not in a log for Darshan 3.5.0's tools */
        if (m->count)
            used |= 1ULL << m->mod_id;
        if (m->partial) /* in the header even if no rank kept a record */
            partial |= 1ULL << m->mod_id;
        versions[m->mod_id] = ver;
    }
    if (PMPI_Allreduce(&used, &j->used, 1, MPI_UINT64_T, MPI_BOR, c) != MPI_SUCCESS ||
        PMPI_Reduce(&partial, &j->partial, 1, MPI_UINT64_T, MPI_BOR, 0, c) != MPI_SUCCESS ||
        PMPI_Reduce(versions, j->versions, IOLENS_MAX_MODS, MPI_UINT32_T, MPI_MAX, 0, c) !=
            MPI_SUCCESS ||
        PMPI_Reduce(&start, &j->start_ns, 1, MPI_INT64_T, MPI_MIN, 0, c) != MPI_SUCCESS ||
        PMPI_Reduce(&end, &j->end_ns, 1, MPI_INT64_T, MPI_MAX, 0, c) != MPI_SUCCESS)
        return -1;
    return 0;
}

/* Rank 0's hints ("key=value;..."), for every rank: the open is collective
 * and some hints must be the same everywhere. @return 0, or -1 (everywhere). */
static int share_hints(struct joblog *j)
{
    const char *mine = j->l->log_hints ? j->l->log_hints : DEFAULT_LOG_HINTS;
    uint64_t len = iol_mpi.rank == 0 ? strlen(mine) + 1 : 0;

    if (PMPI_Bcast(&len, 1, MPI_UINT64_T, 0, iol_mpi.comm) != MPI_SUCCESS)
        return -1;
    int failed = len > INT_MAX || !(j->hints = malloc(len));
    if (iol_mpi_any_failed(failed))
        return -1;
    if (iol_mpi.rank == 0)
        memcpy(j->hints, mine, len);
    if (PMPI_Bcast(j->hints, (int)len, MPI_CHAR, 0, iol_mpi.comm) != MPI_SUCCESS)
        return -1;
    j->hints[len - 1] = '\0';
    return 0;
}

/* The info object of the log's open: every "key=value" entry of the hints,
 * as Darshan takes them. An entry without '=' or with an empty key, or one
 * longer than the MPI allows (MPI_Info_set would call the fatal error
 * handler), is skipped with a diagnostic (rank 0's). The MPI ignores hints
 * it does not know. @return 0, or -1 if the object cannot be made. */
static int hints_info(const struct joblog *j, MPI_Info *info)
{
    char *copy = strdup(j->hints), *save = NULL;
    int rc = -1;

    if (!copy || PMPI_Info_create(info) != MPI_SUCCESS) {
        free(copy);
        return -1;
    }
    for (char *e = strtok_r(copy, ";", &save); e; e = strtok_r(NULL, ";", &save)) {
        char *eq = strchr(e, '=');
        const char *why = !eq ? "no '='" : eq == e ? "no key"
                          : eq - e >= MPI_MAX_INFO_KEY ? "key too long"
                          : strlen(eq + 1) >= MPI_MAX_INFO_VAL ? "value too long" : NULL;
        if (why) {
            if (iol_mpi.rank == 0)
                iol_diag("LOGHINTS: \"%s\" skipped (%s)", e, why);
            continue;
        }
        *eq = '\0';
        if (PMPI_Info_set(*info, e, eq + 1) != MPI_SUCCESS)
            goto out;
    }
    rc = 0;
out:
    if (rc != 0)
        PMPI_Info_free(info);
    free(copy);
    return rc;
}

/* Rank 0's diagnostic: the hints the log was opened with, as the info
 * object handed to MPI_File_open holds them. */
static void say_hints(const struct joblog *j, MPI_Info info)
{
    char line[1024], key[MPI_MAX_INFO_KEY + 1], val[MPI_MAX_INFO_VAL + 1];
    int nkeys = 0, flag = 0;
    size_t used = 0;

    if (iol_mpi.rank != 0 || PMPI_Info_get_nkeys(info, &nkeys) != MPI_SUCCESS)
        return;
    line[0] = '\0';
    for (int i = 0; i < nkeys && used < sizeof(line); i++)
        if (PMPI_Info_get_nthkey(info, i, key) == MPI_SUCCESS &&
            PMPI_Info_get(info, key, MPI_MAX_INFO_VAL, val, &flag) == MPI_SUCCESS && flag)
            used += iol_fmt(line + used, sizeof(line) - used, "%s%s=%s", used ? ";" : "", key,
                            val);
    iol_diag("created %s with MPI-IO hints: %s", j->tmp, nkeys ? line : "(none)");
}

/* Open rank 0's candidate paths in turn, collectively, until one works.
 * @return 0, or -1 when none could be created (on every rank). */
static int open_log(struct joblog *j)
{
    int npaths = (int)j->l->npaths;
    MPI_Info info = MPI_INFO_NULL;
    if (share_hints(j) != 0 || iol_mpi_any_failed(hints_info(j, &info) != 0))
        goto fail;
    if (PMPI_Bcast(&npaths, 1, MPI_INT, 0, iol_mpi.comm) != MPI_SUCCESS)
        goto fail;
    for (int i = 0; i < npaths; i++) {
        if (iol_mpi.rank == 0)
            memcpy(j->path, j->l->paths[i], sizeof(j->path));
        if (PMPI_Bcast(j->path, sizeof(j->path), MPI_CHAR, 0, iol_mpi.comm) != MPI_SUCCESS)
            return -1;
        j->path[sizeof(j->path) - 1] = '\0';
        if (iol_fmt(j->tmp, sizeof(j->tmp), "%s.partial", j->path) >= sizeof(j->tmp))
            continue; /* the same on every rank */
        int rc = PMPI_File_open(iol_mpi.comm, j->tmp, MPI_MODE_CREATE | MPI_MODE_WRONLY |
                                MPI_MODE_EXCL, info, &j->fh);
        j->opened = rc == MPI_SUCCESS;
        j->created = iol_mpi.rank == 0 && j->opened;
        if (!iol_mpi_any_failed(!j->opened)) {
            say_hints(j, info);
            PMPI_Info_free(&info);
            return 0;
        }
        iol_diag("cannot create %s", j->tmp);
        if (j->opened)
            PMPI_File_close(&j->fh);
        j->opened = 0;
        if (j->created)
            unlink(j->tmp);
        j->created = 0;
    }
fail:
    if (info != MPI_INFO_NULL)
        PMPI_Info_free(&info);
    return -1;
}

/* Place this process's len bytes of the region that starts at j->next after
 * those of lower ranks, write them with every process, and record the
 * region's extent in *map. prep_failed: this process could not prepare its
 * bytes. @return 0, or -1 (on every rank). */
static int put_region(struct joblog *j, const unsigned char *buf, size_t len, int prep_failed,
                      struct iolens_region_map *map)
{
    uint64_t mine = len, upto = 0, end = 0;
    MPI_Status status;
    int count = 0;

    if (iol_mpi_any_failed(prep_failed || len > INT_MAX))
        return -1;
    if (PMPI_Scan(&mine, &upto, 1, MPI_UINT64_T, MPI_SUM, iol_mpi.comm) != MPI_SUCCESS)
        return -1; /* a scan that fails fails everywhere */
    int rc = PMPI_File_write_at_all(j->fh, (MPI_Offset)(j->next + upto - mine), buf, (int)len,
                                    MPI_BYTE, &status);
    int failed = rc != MPI_SUCCESS ||
                 PMPI_Get_count(&status, MPI_BYTE, &count) != MPI_SUCCESS ||
                 (size_t)count != len;
    end = j->next + upto;
    if (iol_mpi_any_failed(failed) ||
        PMPI_Bcast(&end, 1, MPI_UINT64_T, iol_mpi.nprocs - 1, iol_mpi.comm) != MPI_SUCCESS)
        return -1;
    map->off = end > j->next ? j->next : 0;
    map->len = end - j->next;
    j->next = end;
    return 0;
}

/* The hints the log was written with, as Darshan records them: a line
 * "h=<LOGHINTS as given>" of the job metadata, when there are any and the
 * line fits. */
static void add_hints_metadata(struct iolens_job *job, const char *hints)
{
    size_t used = strnlen(job->metadata, sizeof(job->metadata));
    if (hints[0] && used + strlen(hints) + 4 <= sizeof(job->metadata))
        iol_fmt(job->metadata + used, sizeof(job->metadata) - used, "h=%s\n", hints);
}

/* Rank 0 writes the job region after the header's space; all learn its end. */
static int put_job(struct joblog *j)
{
    int failed = 0;
    uint64_t end = IOLENS_LOG_HEADER_BYTES;

    if (iol_mpi.rank == 0) {
        unsigned char *raw = calloc(1, IOLENS_LOG_JOB_MAX), *z = NULL;
        size_t zlen = 0;
        struct iolens_job job = j->l->job.job;
        MPI_Status status;
        job.nprocs = iol_mpi.nprocs;
        job.start_time_sec = j->start_ns / 1000000000;
        job.start_time_nsec = j->start_ns % 1000000000;
        job.end_time_sec = j->end_ns / 1000000000;
        job.end_time_nsec = j->end_ns % 1000000000;
        add_hints_metadata(&job, j->hints);
        failed = !raw;
        if (!failed) {
            size_t len = iolens_log_job_bytes(raw, &job, j->l->job.exe, j->l->job.mounts,
                                              j->l->job.nmounts);
            failed = iolens_log_compress(LOG_COMP, raw, len, 0, &z, &zlen) != IOLENS_OK ||
                     PMPI_File_write_at(j->fh, IOLENS_LOG_HEADER_BYTES, z, (int)zlen, MPI_BYTE,
                                        &status) != MPI_SUCCESS;
            end += zlen;
        }
        free(z);
        free(raw);
    }
    if (iol_mpi_any_failed(failed) ||
        PMPI_Bcast(&end, 1, MPI_UINT64_T, 0, iol_mpi.comm) != MPI_SUCCESS)
        return -1;
    j->next = end;
    return 0;
}

/* This process's names (rank != 0: without the shared ones), compressed. */
static int put_names(struct joblog *j)
{
    const struct iol_mpi_local *l = j->l;
    size_t cap = 0, used = 0;
    unsigned char *raw, *z = NULL;
    size_t zlen = 0;

    for (size_t i = 0; i < l->nnames; i++)
        cap += sizeof(uint64_t) + strlen(l->names[i].name) + 1;
    raw = malloc(cap ? cap : 1);
    int failed = !raw;
    for (size_t i = 0; raw && i < l->nnames; i++) {
        if ((iol_mpi.rank != 0 && j->shared[i]) || !l->names[i].mods)
            continue;
        size_t n = strlen(l->names[i].name) + 1;
        memcpy(raw + used, &l->names[i].id, sizeof(uint64_t));
        memcpy(raw + used + sizeof(uint64_t), l->names[i].name, n);
        used += sizeof(uint64_t) + n;
    }
    if (!failed)
        failed = iolens_log_compress(LOG_COMP, raw, used, 0, &z, &zlen) != IOLENS_OK;
    int rc = put_region(j, z, zlen, failed, &j->names);
    free(z);
    free(raw);
    return rc;
}

/* Every module used anywhere, in increasing id: this process's records. */
static int put_modules(struct joblog *j)
{
    const struct iol_mpi_local *l = j->l;
    for (int id = 0; id < IOLENS_MAX_MODS; id++) {
        if (!(j->used & (1ULL << id)))
            continue;
        const struct iol_mpi_module *m = NULL;
        for (size_t i = 0; i < l->nmods && !m; i++)
            if (l->mods[i].mod_id == id)
                m = &l->mods[i];
        unsigned char *raw = NULL, *z = NULL;
        size_t len = 0, zlen = 0;
        int failed = 0;
        if (m && m->count)
            failed = iolens_log_records_bytes(id,
                                              iolens_module_compat_version(iolens_module(id),
                                                                           j->compat),
                                              m->recs, m->count, m->rec_size, &raw, &len) !=
                         IOLENS_OK ||
                     iolens_log_compress(LOG_COMP, raw, len, 1, &z, &zlen) != IOLENS_OK;
        int rc = put_region(j, z, zlen, failed, &j->mods[id]);
        free(z);
        free(raw);
        if (rc != 0)
            return -1;
    }
    return 0;
}

/* Rank 0 writes the header; all close the file; rank 0 renames it. */
static int finish_log(struct joblog *j)
{
    int failed = 0;
    if (iol_mpi.rank == 0) {
        unsigned char h[IOLENS_LOG_HEADER_BYTES];
        MPI_Status status;
        iolens_log_header_bytes(h, LOG_COMP, j->partial, &j->names, j->mods, j->versions);
        failed = PMPI_File_write_at(j->fh, 0, h, sizeof(h), MPI_BYTE, &status) != MPI_SUCCESS;
    }
    failed |= PMPI_File_close(&j->fh) != MPI_SUCCESS;
    j->opened = 0;
    if (iol_mpi_any_failed(failed))
        return -1;
    if (iol_mpi.rank == 0)
        failed = chmod(j->tmp, j->l->mode) != 0 || iol_io_rename(j->tmp, j->path) != 0;
    if (iol_mpi_any_failed(failed))
        return -1;
    j->created = 0;
    return 0;
}

/* The standard streams' STDIO records that moved no byte, dropped once the
 * shared ones are reduced (Darshan's order: every rank that made a STDIO
 * call has the three, stdio.c lists them for the reduction), with their
 * names where no other module has a record of them. */
static void drop_quiet_std(struct iol_mpi_local *l)
{
    const uint64_t std_ids[3] = {iol_hash64("<STDIN>", 7, 0), iol_hash64("<STDOUT>", 8, 0),
                                 iol_hash64("<STDERR>", 8, 0)};
    for (size_t i = 0; i < l->nmods; i++) {
        struct iol_mpi_module *m = &l->mods[i];
        if (m->mod_id != IOLENS_MOD_STDIO || m->rec_size != sizeof(struct iolens_stdio_record))
            continue;
        size_t kept = 0;
        for (size_t k = 0; k < m->count; k++) {
            const struct iolens_stdio_record *r =
                (const struct iolens_stdio_record *)(m->recs + k * m->rec_size);
            int is_std = r->base.id == std_ids[0] || r->base.id == std_ids[1] ||
                         r->base.id == std_ids[2];
            if (is_std && r->counters[STDIO_READS] == 0 && r->counters[STDIO_WRITES] == 0) {
                const struct iol_mpi_name *nm = iol_mpi_name_find(l, r->base.id);
                if (nm)
                    l->names[nm - l->names].mods &= ~(1ULL << IOLENS_MOD_STDIO);
                continue;
            }
            if (kept != k)
                memmove(m->recs + kept * m->rec_size, r, m->rec_size);
            kept++;
        }
        m->count = kept;
    }
}

static int write_log(struct joblog *j)
{
    int failed = !(j->shared = calloc(j->l->nnames ? j->l->nnames : 1, sizeof(*j->shared)));
    if (iol_mpi_any_failed(failed) || reduce_job(j) != 0 || iol_mpi_heatmap_align(j->l) != 0)
        return -1;
    if (iol_mpi_any_failed(iol_mpi_shared_find(j->l, j->shared) != 0) ||
        iol_mpi_any_failed(iol_mpi_shared_reduce(j->l, j->shared) != 0))
        return -1;
    drop_quiet_std(j->l);
    if (open_log(j) != 0 || put_job(j) != 0 || put_names(j) != 0 || put_modules(j) != 0)
        return -1;
    return finish_log(j);
}

int iol_mpi_write_job_log(struct iol_mpi_local *l, char *written, size_t len)
{
    struct joblog *j = calloc(1, sizeof(*j));
    int rc = -1;

    /* Every process must take part: one without its data (or without memory)
     * means no log at all, decided together. */
    if (iol_mpi_any_failed(!l || !j)) {
        free(j);
        return -1;
    }
    j->l = l;
    /* One rank's LOG_PER_RANK holds for all: the job log is collective. */
    int mine = l->log_per_rank, per_rank = 0;
    if (PMPI_Allreduce(&mine, &per_rank, 1, MPI_INT, MPI_LOR, iol_mpi.comm) != MPI_SUCCESS)
        rc = -1;
    else if (per_rank) {
        drop_quiet_std(l);
        rc = iol_mpi_write_rank_log(l, written, len);
    }
    else
        rc = write_log(j);
    if (j->opened)
        PMPI_File_close(&j->fh);
    if (j->created)
        unlink(j->tmp);
    if (rc == 0 && !per_rank && written && len)
        iol_fmt(written, len, "%s", j->path);
    free(j->hints);
    free(j->shared);
    free(j);
    return rc;
}
