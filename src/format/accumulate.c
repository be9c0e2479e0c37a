/* The accumulator: merges every record of a module into a totals record and
 * gathers what the derived metrics need, per file and per rank. */
#include <stdlib.h>
#include <string.h>

#include "iolens/accumulate.h"
#include "../common/hash.h"
#include "combine.h"
#include "words.h"

/* What one file (record id) adds up to over all its records. */
struct file_sum {
    uint64_t id;
    int64_t read_bytes, written_bytes;
    int64_t max_offset; /* -1 once a record could not tell */
    int64_t nprocs;     /* records of single ranks seen; -1 once a shared record was */
};

/* I/O time one rank spent on files it did not share. */
struct rank_sum {
    int64_t rank;
    double io_time, rw_time, meta_time;
};

/* Open-addressing map from a 64-bit key to 1 + the index of an entry. */
struct idmap_slot {
    uint64_t key;
    size_t index; /* 0: empty */
};

struct idmap {
    struct idmap_slot *slots;
    size_t cap; /* a power of two, or 0 */
    size_t used;
};

struct iolens_accumulator {
    const struct iolens_module_desc *mod;
    int64_t nprocs;
    unsigned char *total; /* the merged record, record_size bytes */
    size_t nrecords;
    int64_t total_bytes;
    double shared_io_time;
    struct file_sum *files;
    size_t nfiles, files_cap;
    struct rank_sum *ranks;
    size_t nranks, ranks_cap;
    struct idmap file_map, rank_map;
    int totals_only;      /* skip the bookkeeping behind the metrics */
    struct iol_combine_plan plan;
};

/* Slot of key in m: where it is, or the empty slot where it would go. */
static size_t map_slot(const struct idmap *m, uint64_t key)
{
    size_t i = iol_hash_mix(key) & (m->cap - 1);
    while (m->slots[i].index && m->slots[i].key != key)
        i = (i + 1) & (m->cap - 1);
    return i;
}

static iolens_status map_grow(struct idmap *m)
{
    size_t cap = m->cap ? 2 * m->cap : 64;
    struct idmap n = {calloc(cap, sizeof(struct idmap_slot)), cap, m->used};
    if (!n.slots)
        return IOLENS_ERR_NOMEM;
    for (size_t i = 0; i < m->cap; i++)
        if (m->slots[i].index)
            n.slots[map_slot(&n, m->slots[i].key)] = m->slots[i];
    free(m->slots);
    *m = n;
    return IOLENS_OK;
}

/* Make sure one more key fits in m without growing. */
static iolens_status map_reserve(struct idmap *m)
{
    return 2 * (m->used + 1) > m->cap ? map_grow(m) : IOLENS_OK;
}

/* Index of key's entry; a new key (*added set) gets index *count, and
 * *count grows by one. The map must have room (map_reserve). */
static size_t map_find_or_add(struct idmap *m, uint64_t key, size_t *count, int *added)
{
    struct idmap_slot *sl = &m->slots[map_slot(m, key)];
    *added = !sl->index;
    if (*added) {
        sl->key = key;
        sl->index = ++*count;
        m->used++;
    }
    return sl->index - 1;
}

/* Make room for one more element in a growable array. */
static iolens_status reserve(void **array, size_t n, size_t *cap, size_t elem)
{
    if (n < *cap)
        return IOLENS_OK;
    size_t want = *cap ? 2 * *cap : 64;
    void *p = realloc(*array, want * elem);
    if (!p)
        return IOLENS_ERR_NOMEM;
    *array = p;
    *cap = want;
    return IOLENS_OK;
}

/* Room for one more file and one more rank, so that a record is counted
 * everywhere or nowhere. */
static iolens_status make_room(iolens_accumulator *acc)
{
    iolens_status st = reserve((void **)&acc->files, acc->nfiles, &acc->files_cap,
                               sizeof(*acc->files));
    if (st == IOLENS_OK)
        st = reserve((void **)&acc->ranks, acc->nranks, &acc->ranks_cap, sizeof(*acc->ranks));
    if (st == IOLENS_OK)
        st = map_reserve(&acc->file_map);
    if (st == IOLENS_OK)
        st = map_reserve(&acc->rank_map);
    return st;
}

iolens_status iolens_accumulator_create(const struct iolens_module_desc *mod, int64_t nprocs,
                                        iolens_accumulator **out)
{
    iolens_status st = IOLENS_ERR_ARGUMENT;
    iolens_accumulator *acc = NULL;

    *out = NULL;
    /* A module whose tables the combining engine cannot apply is refused
     * now, so that injecting never fails for that reason. */
    if (!mod || !mod->roles || !(mod->roles->flags & IOLENS_ROLE_METRICS) ||
        !iolens_combine_supported(mod, IOLENS_COMBINE_TOTAL))
        goto done;
    acc = calloc(1, sizeof(*acc));
    if (!acc || !(acc->total = calloc(1, mod->record_size))) {
        st = IOLENS_ERR_NOMEM;
        goto done;
    }
    if ((st = iol_combine_plan_init(&acc->plan, mod, IOLENS_COMBINE_TOTAL)) != IOLENS_OK)
        goto done;
    acc->mod = mod;
    acc->nprocs = nprocs;
    *out = acc;
    acc = NULL;
done:
    iolens_accumulator_free(acc);
    return st;
}

/* The generic figures of one record, read through the module's roles. */
struct rec_figures {
    uint64_t id;
    int64_t rank, read_bytes, written_bytes, max_offset;
    double io_time, meta_time, rw_time;
};

/* The counter, or fcounter, of role r, which the module has. */
static int64_t counter(const struct iolens_module_desc *mod, const void *rec, iolens_role r)
{
    return iol_word_i((const unsigned char *)rec + mod->counters_offset, iol_role_at(r));
}

static double fcounter(const struct iolens_module_desc *mod, const void *rec, iolens_role r)
{
    return iol_word_f((const unsigned char *)rec + mod->fcounters_offset, iol_role_at(r));
}

static struct rec_figures figures(const struct iolens_module_desc *mod, const void *rec)
{
    const struct iolens_module_roles *r = mod->roles;
    struct iolens_record_base b;
    struct rec_figures f;

    memcpy(&b, rec, sizeof(b));
    f.id = b.id;
    f.rank = b.rank;
    f.read_bytes = counter(mod, rec, r->c_bytes_read);
    f.written_bytes = counter(mod, rec, r->c_bytes_written);
    f.max_offset = -1;
    if (r->c_max_byte_read && r->c_max_byte_written) {
        int64_t a = counter(mod, rec, r->c_max_byte_read);
        int64_t w = counter(mod, rec, r->c_max_byte_written);
        f.max_offset = a > w ? a : w;
    }
    if (b.rank < 0) {
        /* A shared record holds its slowest rank's time, without a split. */
        f.io_time = r->f_slowest_time ? fcounter(mod, rec, r->f_slowest_time) : 0;
        f.meta_time = 0;
        f.rw_time = 0;
    } else {
        double rd = fcounter(mod, rec, r->f_read_time), wr = fcounter(mod, rec, r->f_write_time);
        f.meta_time = fcounter(mod, rec, r->f_meta_time);
        f.io_time = f.meta_time + rd + wr;
        f.rw_time = rd + wr;
    }
    return f;
}

static void note_file(iolens_accumulator *acc, const struct rec_figures *f)
{
    int added;
    size_t i = map_find_or_add(&acc->file_map, f->id, &acc->nfiles, &added);
    struct file_sum *fs = &acc->files[i];
    if (added)
        *fs = (struct file_sum){.id = f->id};
    fs->read_bytes = iol_add_wrap(fs->read_bytes, f->read_bytes);
    fs->written_bytes = iol_add_wrap(fs->written_bytes, f->written_bytes);
    if (f->max_offset == -1)
        fs->max_offset = -1;
    else if (f->max_offset > fs->max_offset)
        fs->max_offset = f->max_offset;
    if (f->rank < 0)
        fs->nprocs = -1;
    else
        fs->nprocs = iol_add_wrap(fs->nprocs, 1);
}

static void note_rank(iolens_accumulator *acc, const struct rec_figures *f)
{
    int added;
    size_t i = map_find_or_add(&acc->rank_map, (uint64_t)f->rank, &acc->nranks, &added);
    struct rank_sum *rs = &acc->ranks[i];
    if (added)
        *rs = (struct rank_sum){.rank = f->rank};
    rs->io_time += f->io_time;
    rs->rw_time += f->rw_time;
    rs->meta_time += f->meta_time;
}

void iolens_accumulator_totals_only(iolens_accumulator *acc)
{
    if (acc)
        acc->totals_only = 1;
}

iolens_status iolens_accumulator_inject(iolens_accumulator *acc, const void *rec)
{
    if (!acc || !rec)
        return IOLENS_ERR_ARGUMENT;
    if (acc->totals_only) {
        iol_combine_planned(&acc->plan, acc->total, rec, acc->nrecords == 0);
        acc->nrecords++;
        return IOLENS_OK;
    }
    iolens_status st = make_room(acc);
    if (st != IOLENS_OK)
        return st;
    struct rec_figures f = figures(acc->mod, rec);
    iol_combine_planned(&acc->plan, acc->total, rec, acc->nrecords == 0);
    acc->nrecords++;
    acc->total_bytes =
        iol_add_wrap(acc->total_bytes, iol_add_wrap(f.read_bytes, f.written_bytes));
    if (f.rank < 0)
        acc->shared_io_time += f.io_time;
    else
        note_rank(acc, &f);
    note_file(acc, &f);
    return IOLENS_OK;
}

static void count_file(struct iolens_file_counts *c, const struct file_sum *fs, int64_t nprocs)
{
    c->count++;
    c->read_bytes = iol_add_wrap(c->read_bytes, fs->read_bytes);
    c->written_bytes = iol_add_wrap(c->written_bytes, fs->written_bytes);
    if (fs->read_bytes > c->max_read_bytes)
        c->max_read_bytes = fs->read_bytes;
    if (fs->written_bytes > c->max_written_bytes)
        c->max_written_bytes = fs->written_bytes;
    if (fs->max_offset == -1) {
        c->total_max_offset = -1;
        c->max_offset = -1;
    } else {
        c->total_max_offset = iol_add_wrap(c->total_max_offset, fs->max_offset);
        if (fs->max_offset > c->max_offset)
            c->max_offset = fs->max_offset;
    }
    if (fs->nprocs > 0 && c->nprocs > -1)
        c->nprocs = iol_add_wrap(c->nprocs, fs->nprocs);
    if (fs->nprocs < 0 || c->nprocs >= nprocs)
        c->nprocs = -1;
}

/* Which read/write kind a file is, or -1 if it moved no bytes. */
static int rw_kind(const struct file_sum *fs)
{
    if (fs->read_bytes > 0 && fs->written_bytes == 0)
        return IOLENS_FILES_READ_ONLY;
    if (fs->written_bytes > 0 && fs->read_bytes == 0)
        return IOLENS_FILES_WRITE_ONLY;
    if (fs->written_bytes > 0 && fs->read_bytes > 0)
        return IOLENS_FILES_READ_WRITE;
    return -1;
}

static int share_kind(const struct file_sum *fs)
{
    if (fs->nprocs == 1)
        return IOLENS_FILES_UNIQUE;
    if (fs->nprocs == -1)
        return IOLENS_FILES_SHARED;
    return IOLENS_FILES_PART_SHARED;
}

iolens_status iolens_accumulator_emit(const iolens_accumulator *acc,
                                      struct iolens_metrics *metrics, void *total)
{
    if (!acc)
        return IOLENS_ERR_ARGUMENT;
    if (total)
        memcpy(total, acc->total, acc->mod->record_size);
    if (!metrics)
        return IOLENS_OK;

    struct iolens_metrics *m = metrics;
    memset(m, 0, sizeof(*m));
    /* Files in the order they were first seen: a -1 offset in one file resets
     * the offset sums that later files then add to. */
    for (size_t i = 0; i < acc->nfiles; i++) {
        const struct file_sum *fs = &acc->files[i];
        int k = rw_kind(fs);
        count_file(&m->files[IOLENS_FILES_ALL], fs, acc->nprocs);
        if (k >= 0)
            count_file(&m->files[k], fs, acc->nprocs);
        count_file(&m->files[share_kind(fs)], fs, acc->nprocs);
    }

    m->total_bytes = acc->total_bytes;
    m->shared_io_time = acc->shared_io_time;
    /* The slowest rank: most I/O time, the lowest rank among equals. */
    for (size_t i = 0; i < acc->nranks; i++) {
        const struct rank_sum *rs = &acc->ranks[i];
        if (rs->io_time > m->unique_io_time ||
            (rs->io_time == m->unique_io_time && rs->io_time > 0 &&
             rs->rank < m->unique_slowest_rank)) {
            m->unique_io_time = rs->io_time;
            m->unique_rw_time = rs->rw_time;
            m->unique_meta_time = rs->meta_time;
            m->unique_slowest_rank = rs->rank;
        }
    }
    m->agg_time = m->unique_io_time + m->shared_io_time;
    if (m->agg_time != 0)
        m->agg_perf = ((double)m->total_bytes / 1048576.0) / m->agg_time;
    return IOLENS_OK;
}

void iolens_accumulator_free(iolens_accumulator *acc)
{
    if (!acc)
        return;
    free(acc->total);
    free(acc->files);
    free(acc->ranks);
    free(acc->file_map.slots);
    free(acc->rank_map.slots);
    iol_combine_plan_free(&acc->plan);
    free(acc);
}
