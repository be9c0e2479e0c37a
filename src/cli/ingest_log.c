/* iolens ingest: one finished log read into its main counters, and stored. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "../common/hash.h"
#include "ingest.h"

/* The file's identity: two 64-bit hashes chained over its content in
 * 1 MiB blocks. The same bytes, wherever they are, are one log. */
static int content_key(struct ingest_log *l)
{
    enum { BLOCK = 1 << 20 };
    int fd = open(l->path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        snprintf(l->why, sizeof(l->why), "%s", strerror(errno));
        return -1;
    }
    unsigned char *buf = malloc(BLOCK);
    uint64_t h1 = 0x696f6c656e73ULL, h2 = 0x6461727368616eULL;
    ssize_t n = 0;
    while (buf && (n = read(fd, buf, BLOCK)) > 0) {
        h1 = iol_hash64(buf, (size_t)n, h1);
        h2 = iol_hash64(buf, (size_t)n, h2 ^ h1);
    }
    int err = errno;
    free(buf);
    close(fd);
    if (!buf || n < 0) {
        snprintf(l->why, sizeof(l->why), "%s", buf ? strerror(err) : "out of memory");
        return -1;
    }
    snprintf(l->key, sizeof(l->key), "log:%016" PRIx64 "%016" PRIx64, h1, h2);
    return 0;
}

/* Counter i of rec, or -1 when role names none. */
static int64_t counter(const struct iolens_module_desc *m, const void *rec, iolens_role role)
{
    int64_t v;
    if (!role)
        return -1;
    memcpy(&v, (const unsigned char *)rec + m->counters_offset + 8 * iolens_role_index(role), 8);
    return v;
}

static double fcounter(const struct iolens_module_desc *m, const void *rec, iolens_role role)
{
    double v;
    if (!role)
        return NAN;
    memcpy(&v, (const unsigned char *)rec + m->fcounters_offset + 8 * iolens_role_index(role), 8);
    return v;
}

/* Does a counter name count operations of kind ("_READS")? Consecutive and
 * sequential counts are kinds of those operations, not more of them. */
static int counts_ops(const char *name, const char *kind)
{
    size_t n = strlen(name), k = strlen(kind);
    return n > k && !strcmp(name + n - k, kind) && !strstr(name, "_CONSEC_") &&
           !strstr(name, "_SEQ_");
}

/* The module's operations of kind added up (MPI-IO: independent,
 * collective, split and non-blocking); -1 when it counts none. */
static int64_t op_count(const struct iolens_module_desc *m, const void *rec, const char *kind)
{
    int64_t sum = -1;
    for (size_t i = 0; i < m->ncounters; i++) {
        if (!counts_ops(m->counters[i].name, kind))
            continue;
        int64_t v;
        memcpy(&v, (const unsigned char *)rec + m->counters_offset + 8 * i, 8);
        if (v >= 0)
            sum = (sum < 0 ? 0 : sum) + v;
    }
    return sum;
}

/* Does the module hold file records (not traces, not the
 * heatmap's summaries)? */
static const struct iolens_module_desc *file_module(const struct iolens_log_info *in, int id)
{
    const struct iolens_module_desc *m = iolens_module(id);
    if (!m || in->mod_map[id].len == 0 || m->trace || m->summarises_others)
        return NULL;
    return m;
}

static int add_record(struct ingest_log *l, size_t *cap, const struct iolens_module_desc *m,
                      const void *rec)
{
    if (l->nrecs == *cap) {
        size_t ncap = *cap ? *cap * 2 : 64;
        struct ingest_record *r = realloc(l->recs, ncap * sizeof(*r));
        if (!r)
            return -1;
        l->recs = r;
        *cap = ncap;
    }
    const struct iolens_module_roles no_roles = {0};
    const struct iolens_module_roles *ro = m->roles ? m->roles : &no_roles;
    struct iolens_record_base b;
    memcpy(&b, rec, sizeof(b));
    l->recs[l->nrecs++] = (struct ingest_record){
        .module = m->id,
        .rank = b.rank,
        .id = b.id,
        .opens = op_count(m, rec, "_OPENS"),
        .reads = op_count(m, rec, "_READS"),
        .writes = op_count(m, rec, "_WRITES"),
        .bytes_read = counter(m, rec, ro->c_bytes_read),
        .bytes_written = counter(m, rec, ro->c_bytes_written),
        .max_byte_read = counter(m, rec, ro->c_max_byte_read),
        .max_byte_written = counter(m, rec, ro->c_max_byte_written),
        .read_time = fcounter(m, rec, ro->f_read_time),
        .write_time = fcounter(m, rec, ro->f_write_time),
        .meta_time = fcounter(m, rec, ro->f_meta_time),
    };
    return 0;
}

int ingest_read(struct ingest_log *l)
{
    size_t cap = 0;
    if (content_key(l) < 0)
        return -1;
    iolens_status st = iolens_log_open(l->path, &l->log, l->why, sizeof(l->why));
    if (st != IOLENS_OK) {
        if (!l->why[0])
            snprintf(l->why, sizeof(l->why), "%s", iolens_strerror(st));
        return -1;
    }
    const struct iolens_log_info *in = iolens_log_get_info(l->log);
    if (iolens_log_load_names(l->log) != IOLENS_OK)
        goto fail;
    for (int id = 0; id < IOLENS_MAX_MODS; id++) {
        if ((in->partial_flags >> id) & 1 && iolens_module_name(id)) {
            size_t n = strlen(l->partial);
            snprintf(l->partial + n, sizeof(l->partial) - n, "%s%s", n ? "," : "",
                     iolens_module_name(id));
        }
        const struct iolens_module_desc *m = file_module(in, id);
        const void *rec;
        if (!m)
            continue;
        while ((st = iolens_log_next_record(l->log, id, &rec)) == IOLENS_OK)
            if (add_record(l, &cap, m, rec) < 0) {
                snprintf(l->why, sizeof(l->why), "out of memory");
                return -1;
            }
        if (st != IOLENS_END)
            goto fail;
    }
    return 0;
fail:
    snprintf(l->why, sizeof(l->why), "%s", iolens_log_error(l->log));
    return -1;
}

void ingest_free(struct ingest_log *l)
{
    iolens_log_close(l->log);
    free(l->recs);
    l->log = NULL;
    l->recs = NULL;
}

/* A counter value, NULL when the module has none (-1: not monitored). */
static struct db_val opt_int(int64_t v)
{
    return v < 0 ? DB_NUL : DB_I(v);
}

static struct db_val opt_real(double v)
{
    return isnan(v) || v < 0 ? DB_NUL : DB_R(v);
}

int64_t ingest_store(struct db *db, const struct ingest_log *l, int *already)
{
    const struct iolens_log_info *in = iolens_log_get_info(l->log);
    const struct iolens_job *j = &in->job;
    struct db_val job[] = {
        DB_S(l->key), DB_I(j->jobid), DB_I(j->uid), DB_S(in->exe), DB_I(j->nprocs),
        DB_R((double)j->start_time_sec + j->start_time_nsec * 1e-9),
        DB_R((double)j->end_time_sec + j->end_time_nsec * 1e-9), DB_S(l->path),
        DB_S(in->version), DB_S(j->metadata), DB_S(l->partial[0] ? l->partial : NULL),
    };
    int64_t rc = db_run(db, DB_JOB_FROM_LOG, job, sizeof(job) / sizeof(job[0]));
    *already = rc == 0;
    if (rc <= 0)
        return rc;
    for (size_t i = 0; i < l->nrecs; i++) {
        const struct ingest_record *r = &l->recs[i];
        char id[24];
        const char *name = iolens_log_name(l->log, r->id), *mnt, *fs;
        cli_match_mount(in, name, &mnt, &fs);
        snprintf(id, sizeof(id), "%" PRIu64, r->id);
        struct db_val rec[] = {
            DB_S(l->key), DB_S(iolens_module_name(r->module)), DB_I(r->rank), DB_S(id),
            DB_S(name), DB_S(mnt), DB_S(fs), opt_int(r->opens), opt_int(r->reads),
            opt_int(r->writes), opt_int(r->bytes_read), opt_int(r->bytes_written),
            opt_int(r->max_byte_read), opt_int(r->max_byte_written), opt_real(r->read_time),
            opt_real(r->write_time), opt_real(r->meta_time),
        };
        struct db_val file[] = {DB_S(l->key), DB_S(id), DB_S(name)};
        if (db_queue(db, DB_RECORD, rec, sizeof(rec) / sizeof(rec[0])) < 0 ||
            db_queue(db, DB_FILE, file, 3) < 0)
            return -1;
    }
    return (int64_t)l->nrecs;
}
