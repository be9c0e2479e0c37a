/* Record ids for iolens convert: id sets and maps, the ids a record refers
 * to, and a converted log's job fields. */
#include <stdlib.h>
#include <string.h>

#include "convert.h"
#include "iolens/modules/dxt.h"
#include "pseudonym.h"

int id_table_add(struct id_table *t, int map, uint64_t id, uint64_t new_id)
{
    if (t->n == t->alloc) {
        size_t want = t->alloc ? 2 * t->alloc : 1024;
        uint64_t *from = realloc(t->from, want * sizeof(*from));
        if (!from)
            return -1;
        t->from = from;
        if (map) {
            uint64_t *to = realloc(t->to, want * sizeof(*to));
            if (!to)
                return -1;
            t->to = to;
        }
        t->alloc = want;
    }
    t->from[t->n] = id;
    if (map)
        t->to[t->n] = new_id;
    t->n++;
    t->sorted = 0;
    return 0;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* A map is sorted as pairs, then put back into its two arrays. */
struct pair {
    uint64_t from, to;
};

static int cmp_pair(const void *a, const void *b)
{
    return cmp_u64(&((const struct pair *)a)->from, &((const struct pair *)b)->from);
}

int id_table_sort(struct id_table *t)
{
    if (t->sorted || t->n == 0) {
        t->sorted = 1;
        return 0;
    }
    if (!t->to) {
        qsort(t->from, t->n, sizeof(*t->from), cmp_u64);
        size_t k = 0;
        for (size_t i = 0; i < t->n; i++)
            if (k == 0 || t->from[i] != t->from[k - 1])
                t->from[k++] = t->from[i];
        t->n = k;
    } else {
        struct pair *p = malloc(t->n * sizeof(*p));
        if (!p)
            return -1;
        for (size_t i = 0; i < t->n; i++)
            p[i] = (struct pair){t->from[i], t->to[i]};
        qsort(p, t->n, sizeof(*p), cmp_pair);
        for (size_t i = 0; i < t->n; i++) {
            t->from[i] = p[i].from;
            t->to[i] = p[i].to;
        }
        free(p);
    }
    t->sorted = 1;
    return 0;
}

long id_table_find(const struct id_table *t, uint64_t id)
{
    size_t lo = 0, hi = t->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (t->from[mid] < id)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < t->n && t->from[lo] == id ? (long)lo : -1;
}

void id_table_free(struct id_table *t)
{
    free(t->from);
    free(t->to);
    memset(t, 0, sizeof(*t));
}

/* The head words after id and rank of a fixed-size record are other
 * records' ids (module.h: "id, rank and any extra ids"). */
static size_t extra_ids(const struct iolens_module_desc *mod)
{
    return mod->record_size && mod->head_words > 2 ? mod->head_words - 2u : 0;
}

int convert_record_ids(const struct iolens_module_desc *mod, const void *rec,
                       int (*fn)(uint64_t id, void *arg), void *arg)
{
    const unsigned char *p = rec;
    for (size_t i = 0; i < 1 + extra_ids(mod); i++) {
        uint64_t id;
        memcpy(&id, p + (i ? 8 * (i + 1) : 0), sizeof(id));
        int rc = fn(id, arg);
        if (rc)
            return rc;
    }
    return 0;
}

static uint64_t renamed(const struct id_table *map, uint64_t id, const char *key)
{
    long at = id_table_find(map, id);
    return at >= 0 ? map->to[at] : pseudonym64(key, PSEUDO_ID, &id, sizeof(id));
}

void convert_rename_record(const struct iolens_module_desc *mod, void *rec,
                           const struct id_table *map, const char *key)
{
    unsigned char *p = rec;
    for (size_t i = 0; i < 1 + extra_ids(mod); i++) {
        uint64_t id;
        unsigned char *at = p + (i ? 8 * (i + 1) : 0);
        memcpy(&id, at, sizeof(id));
        id = renamed(map, id, key);
        memcpy(at, &id, sizeof(id));
    }
    if (mod->trace) { /* every trace module has the DXT record layout */
        struct iolens_dxt_record *d = rec;
        char hex[PSEUDONYM_HEX + 1];
        size_t len = strnlen(d->hostname, sizeof(d->hostname));
        pseudonym_hex(key, PSEUDO_HOST, d->hostname, len, hex);
        memset(d->hostname, 0, sizeof(d->hostname));
        memcpy(d->hostname, "host-", 5);
        memcpy(d->hostname + 5, hex, PSEUDONYM_HEX);
    }
}

int convert_job_make(struct convert_job *cj, const struct iolens_log_info *in,
                     const struct convert_opts *opts)
{
    memset(cj, 0, sizeof(*cj));
    cj->job = in->job;
    cj->nmounts = in->nmounts;
    cj->exe = opts->key ? pseudonym_command(opts->key, in->exe) : strdup(in->exe);
    cj->mounts = calloc(in->nmounts ? in->nmounts : 1, sizeof(*cj->mounts));
    if (opts->key && !opts->keep_mounts)
        cj->obf_mounts = calloc(in->nmounts ? in->nmounts : 1, sizeof(*cj->obf_mounts));
    if (!cj->exe || !cj->mounts || (opts->key && !opts->keep_mounts && !cj->obf_mounts))
        return -1;
    for (size_t i = 0; i < in->nmounts; i++) {
        cj->mounts[i].type = in->mounts[i].type;
        cj->mounts[i].path = cj->obf_mounts ? pseudonym_mount(opts->key, in->mounts[i].path)
                                            : strdup(in->mounts[i].path);
        if (!cj->mounts[i].path)
            return -1;
        if (cj->obf_mounts)
            cj->obf_mounts[i] = cj->mounts[i].path;
    }
    if (opts->key) {
        /* A uid-sized uid; a job id of 0 says "none" and stays 0, as in darshan-convert. */
        cj->job.uid = (int64_t)(pseudonym64(opts->key, PSEUDO_UID, &in->job.uid, 8) >> 33);
        if (in->job.jobid)
            cj->job.jobid =
                (int64_t)(pseudonym64(opts->key, PSEUDO_JOBID, &in->job.jobid, 8) >> 1);
    }
    return 0;
}

void convert_job_free(struct convert_job *cj)
{
    for (size_t i = 0; cj->mounts && i < cj->nmounts; i++)
        free(cj->mounts[i].path);
    free(cj->mounts);
    free(cj->obf_mounts);
    free(cj->exe);
    memset(cj, 0, sizeof(*cj));
}
