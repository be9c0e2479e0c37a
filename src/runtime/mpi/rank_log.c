/* LOG_PER_RANK: every rank writes a log of its own instead of the job's, its
 * records unreduced and with their rank, for `iolens merge` to make the job
 * log of later (docs/runtime.md, "Logs per rank"; docs/merge.md).
 *
 * What the job log takes from all ranks is agreed first, collectively: the
 * tools the logs are for (LOG_COMPAT of any rank), the job's first start and
 * last end, rank 0's job id and log paths, and the heatmaps' common end.
 * Each log then carries the job's header (nprocs, job id, start and end) and
 * the metadata line iolens_rank=R, and is named as rank 0's job log would
 * be, with "_rankR" before ".darshan". Each rank then writes its own file,
 * with no more collective calls: a rank that fails returns -1 alone, and
 * writes a log of its own the usual way (mpi_job.c). */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/diag.h"
#include "core/fmt.h"
#include "format/runtime_api.h"
#include "hm_align.h"
#include "iolens/joblog.h"
#include "iolens/log_parts.h"
#include "rank_log.h"

#define LOG_COMP IOLENS_COMP_ZLIB

/* What every rank's log takes from the job. */
struct rank_job {
    iolens_log_compat compat;
    int64_t start_ns, end_ns, jobid;
    char paths[IOL_MPI_MAX_PATHS][IOL_PATH_MAX]; /* rank 0's */
    int npaths;
};

static int64_t ns_of(int64_t sec, int64_t nsec)
{
    return sec * 1000000000 + nsec;
}

/* The collective part. @return 0, or -1 on an MPI error. */
static int agree(struct iol_mpi_local *l, struct rank_job *rj)
{
    MPI_Comm c = iol_mpi.comm;
    const struct iolens_job *job = &l->job.job;
    int compat = (int)l->log_compat, any_compat;
    int64_t start = ns_of(job->start_time_sec, job->start_time_nsec);
    int64_t end = ns_of(job->end_time_sec, job->end_time_nsec);

    rj->jobid = job->jobid;
    rj->npaths = (int)l->npaths;
    memcpy(rj->paths, l->paths, sizeof(rj->paths));
    if (PMPI_Allreduce(&compat, &any_compat, 1, MPI_INT, MPI_MAX, c) != MPI_SUCCESS ||
        PMPI_Allreduce(&start, &rj->start_ns, 1, MPI_INT64_T, MPI_MIN, c) != MPI_SUCCESS ||
        PMPI_Allreduce(&end, &rj->end_ns, 1, MPI_INT64_T, MPI_MAX, c) != MPI_SUCCESS ||
        PMPI_Bcast(&rj->jobid, 1, MPI_INT64_T, 0, c) != MPI_SUCCESS ||
        PMPI_Bcast(&rj->npaths, 1, MPI_INT, 0, c) != MPI_SUCCESS ||
        PMPI_Bcast(rj->paths, (int)sizeof(rj->paths), MPI_CHAR, 0, c) != MPI_SUCCESS)
        return -1;
    rj->compat = (iolens_log_compat)any_compat;
    for (int i = 0; i < IOL_MPI_MAX_PATHS; i++)
        rj->paths[i][IOL_PATH_MAX - 1] = '\0';
    return iol_mpi_heatmap_align(l);
}

/* One file being written: where the next region goes, and the header's parts. */
struct out {
    int fd;
    uint64_t next;
    uint64_t partial;
    uint32_t versions[IOLENS_MAX_MODS];
    struct iolens_region_map names, mods[IOLENS_MAX_MODS];
};

/* Compress len bytes of raw and write them as the next region, into *map.
 * @return 0 or -1. */
static int put_region(struct out *o, const unsigned char *raw, size_t len, int records,
                      struct iolens_region_map *map)
{
    unsigned char *z = NULL;
    size_t zlen = 0;
    int rc = -1;

    if (iolens_log_compress(LOG_COMP, raw, len, records, &z, &zlen) == IOLENS_OK &&
        (zlen == 0 || iol_io_pwrite(o->fd, z, zlen, (off_t)o->next) == (ssize_t)zlen)) {
        *map = (struct iolens_region_map){zlen ? o->next : 0, zlen};
        o->next += zlen;
        rc = 0;
    }
    free(z);
    return rc;
}

static int put_job(struct out *o, const struct iol_mpi_local *l, const struct rank_job *rj)
{
    struct iolens_job job = l->job.job;
    struct iolens_region_map map;
    unsigned char *raw = calloc(1, IOLENS_LOG_JOB_MAX);
    size_t used = strnlen(job.metadata, sizeof(job.metadata));

    if (!raw)
        return -1;
    job.nprocs = iol_mpi.nprocs;
    job.jobid = rj->jobid;
    job.start_time_sec = rj->start_ns / 1000000000;
    job.start_time_nsec = rj->start_ns % 1000000000;
    job.end_time_sec = rj->end_ns / 1000000000;
    job.end_time_nsec = rj->end_ns % 1000000000;
    if (used < sizeof(job.metadata))
        iol_fmt(job.metadata + used, sizeof(job.metadata) - used, "%s=%d\n", IOLENS_META_RANK,
                iol_mpi.rank);
    size_t len = iolens_log_job_bytes(raw, &job, l->job.exe, l->job.mounts, l->job.nmounts);
    int rc = put_region(o, raw, len, 0, &map);
    free(raw);
    return rc;
}

static int put_names(struct out *o, const struct iol_mpi_local *l)
{
    size_t cap = 1, used = 0;
    for (size_t i = 0; i < l->nnames; i++)
        cap += sizeof(uint64_t) + strlen(l->names[i].name) + 1;
    unsigned char *raw = malloc(cap);
    if (!raw)
        return -1;
    for (size_t i = 0; i < l->nnames; i++) {
        size_t n = strlen(l->names[i].name) + 1;
        memcpy(raw + used, &l->names[i].id, sizeof(uint64_t));
        memcpy(raw + used + sizeof(uint64_t), l->names[i].name, n);
        used += sizeof(uint64_t) + n;
    }
    int rc = put_region(o, raw, used, 0, &o->names);
    free(raw);
    return rc;
}

/* This rank's modules (already in increasing id), as the job log has them. */
static int put_modules(struct out *o, const struct iol_mpi_local *l, iolens_log_compat compat)
{
    for (size_t i = 0; i < l->nmods; i++) {
        const struct iol_mpi_module *m = &l->mods[i];
        uint32_t ver = iolens_module_compat_version(iolens_module(m->mod_id), compat);
        unsigned char *raw = NULL;
        size_t len = 0;
        if (!ver)
            continue; /* not in a log for Darshan 3.5.0's tools */
        o->versions[m->mod_id] = ver;
        if (m->partial)
            o->partial |= 1ULL << m->mod_id;
        if (!m->count)
            continue;
        int rc = iolens_log_records_bytes(m->mod_id, ver, m->recs, m->count, m->rec_size, &raw,
                                          &len) == IOLENS_OK
                     ? put_region(o, raw, len, 1, &o->mods[m->mod_id])
                     : -1;
        free(raw);
        if (rc != 0)
            return -1;
    }
    return 0;
}

/* Write this rank's log at path. @return 0, or -1 (nothing left behind). */
static int write_at(const struct iol_mpi_local *l, const struct rank_job *rj, const char *path)
{
    char tmp[IOL_PATH_MAX];
    unsigned char h[IOLENS_LOG_HEADER_BYTES];
    struct out o;

    if (iol_fmt(tmp, sizeof(tmp), "%s.partial", path) >= sizeof(tmp))
        return -1;
    memset(&o, 0, sizeof(o));
    o.next = IOLENS_LOG_HEADER_BYTES;
    if ((o.fd = iol_io_open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600)) < 0)
        return -1;
    int failed = put_job(&o, l, rj) != 0 || put_names(&o, l) != 0 ||
                 put_modules(&o, l, rj->compat) != 0;
    if (!failed) {
        iolens_log_header_bytes(h, LOG_COMP, o.partial, &o.names, o.mods, o.versions);
        failed = iol_io_pwrite(o.fd, h, sizeof(h), 0) != (ssize_t)sizeof(h);
    }
    failed |= iol_io_close(o.fd) != 0;
    if (!failed)
        failed = chmod(tmp, l->mode) != 0 || iol_io_rename(tmp, path) != 0;
    if (failed)
        iol_io_unlink(tmp);
    return failed ? -1 : 0;
}

/* Rank 0's job log path with "_rankR" before its ".darshan". */
static int rank_path(const char *job_path, char *out, size_t len)
{
    static const char ext[] = ".darshan";
    size_t n = strlen(job_path), e = sizeof(ext) - 1;
    size_t base = n >= e && strcmp(job_path + n - e, ext) == 0 ? n - e : n;
    if (base >= len)
        return -1;
    memcpy(out, job_path, base); /* iol_fmt has no precision */
    return iol_fmt(out + base, len - base, "_rank%d%s", iol_mpi.rank, ext) < len - base ? 0
                                                                                      : -1;
}

int iol_mpi_write_rank_log(struct iol_mpi_local *l, char *written, size_t len)
{
    struct rank_job *rj = calloc(1, sizeof(*rj));
    char path[IOL_PATH_MAX];
    int rc = -1;

    if (iol_mpi_any_failed(!rj) || agree(l, rj) != 0)
        goto out;
    for (int i = 0; i < rj->npaths && i < IOL_MPI_MAX_PATHS && rc != 0; i++) {
        if (rank_path(rj->paths[i], path, sizeof(path)) != 0)
            continue;
        rc = write_at(l, rj, path);
        if (rc != 0)
            iol_diag("cannot write log %s", path);
    }
    if (rc == 0 && written && len)
        iol_fmt(written, len, "%s", path);
out:
    free(rj);
    return rc;
}
