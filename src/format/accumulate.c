/* The accumulator: merges every record of a module into a totals record and
 * gathers what the derived metrics need, per file and per rank.
 *
 * The files are counted in bounded memory (accum_files.h): when a module has
 * more files than the table holds, the records are read again, once per part
 * of the files, and each part's files are counted into the metrics when its
 * pass ends (accum_counts.h: the parts add up to the figures of one pass,
 * with a second round of passes in one case Darshan's runtime never makes).
 * Everything else (totals, bytes, ranks' times) is taken in the first pass. */
#include <stdlib.h>
#include <string.h>

#include "iolens/accumulate.h"
#include "../common/hash.h"
#include "accum_counts.h"
#include "accum_files.h"
#include "combine.h"
#include "log_internal.h"
#include "words.h"

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
    struct iol_file_table files; /* the files of the part this pass counts */
    struct iol_file_counts counts; /* of the parts whose pass ended */
    int passes;           /* passes begun: 1 during the first */
    int round;            /* of passes over every part: 1, or 2 (accum_counts.h) */
    uint64_t pass_records; /* records injected in this pass */
    int complete;         /* the last pass ended: counts holds every file */
    struct rank_sum *ranks;
    size_t nranks, ranks_cap;
    struct idmap rank_map;
    int totals_only;      /* skip the bookkeeping behind the metrics */
    int no_file_counts;   /* skip the file table (metrics.files) */
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

/* Room for one more file and (first pass) one more rank, so that a record
 * is counted everywhere or nowhere. */
static iolens_status make_room(iolens_accumulator *acc)
{
    iolens_status st = acc->no_file_counts ? IOLENS_OK : iol_ftab_reserve(&acc->files);
    if (st == IOLENS_OK && acc->passes == 1)
        st = reserve((void **)&acc->ranks, acc->nranks, &acc->ranks_cap, sizeof(*acc->ranks));
    if (st == IOLENS_OK && acc->passes == 1)
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
    acc->passes = 1;
    acc->round = 1;
    iol_ftab_init(&acc->files, IOLENS_ACCUMULATOR_DEFAULT_FILES);
    iol_counts_init(&acc->counts);
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
    struct iol_file_sum *fs = iol_ftab_find(&acc->files, f->id, acc->pass_records);
    if (!fs)
        return; /* a file of another part: another pass counts it */
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

void iolens_accumulator_no_file_counts(iolens_accumulator *acc)
{
    if (acc && acc->nrecords == 0)
        acc->no_file_counts = 1;
}

void iolens_accumulator_set_max_files(iolens_accumulator *acc, size_t max_files)
{
    if (acc && acc->passes == 1 && acc->nrecords == 0)
        iol_ftab_init(&acc->files, max_files ? max_files : IOLENS_ACCUMULATOR_DEFAULT_FILES);
}

iolens_status iolens_accumulator_inject(iolens_accumulator *acc, const void *rec)
{
    if (!acc || !rec || acc->complete)
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
    if (acc->passes == 1) {
        iol_combine_planned(&acc->plan, acc->total, rec, acc->nrecords == 0);
        acc->nrecords++;
        acc->total_bytes =
            iol_add_wrap(acc->total_bytes, iol_add_wrap(f.read_bytes, f.written_bytes));
        if (f.rank < 0)
            acc->shared_io_time += f.io_time;
        else
            note_rank(acc, &f);
    }
    if (!acc->no_file_counts)
        note_file(acc, &f);
    acc->pass_records++;
    return IOLENS_OK;
}

/* Count the files of the part just passed and take the next part: a part
 * of the first round counts its files; of the second (or the only part),
 * their offsets past their kinds' last reset (accum_counts.h).
 * @return 1 when a pass over the next part must follow, 0 when all is counted. */
static int count_part(iolens_accumulator *acc)
{
    struct iol_file_table *t = &acc->files;
    int only = t->lo == 0 && t->hi == UINT64_MAX;

    if (acc->round == 1)
        iol_counts_add(&acc->counts, t, acc->nprocs);
    if (acc->round == 2 || only)
        iol_counts_add_after(&acc->counts, t);
    if (iol_ftab_next_part(t))
        return 1;
    if (acc->round == 2 || only || !iol_counts_need_after(&acc->counts))
        return 0;
    acc->round = 2;
    iol_ftab_restart(t);
    return 1;
}

int iolens_accumulator_next_pass(iolens_accumulator *acc)
{
    if (!acc || acc->complete)
        return 0;
    if (!acc->totals_only && !acc->no_file_counts && count_part(acc)) {
        acc->passes++;
        acc->pass_records = 0;
        return 1;
    }
    acc->complete = 1;
    iol_ftab_free(&acc->files);
    return 0;
}

iolens_status iolens_accumulator_finish(iolens_accumulator *acc, iolens_log *log, int mod_id)
{
    iolens_status st = IOLENS_OK;
    const void *rec;

    if (!acc || !log)
        return IOLENS_ERR_ARGUMENT;
    while (st == IOLENS_OK && iolens_accumulator_next_pass(acc)) {
        iol_log_rewind(log);
        while ((st = iolens_log_next_record(log, mod_id, &rec)) == IOLENS_OK)
            if ((st = iolens_accumulator_inject(acc, rec)) != IOLENS_OK)
                return st;
        st = st == IOLENS_END ? IOLENS_OK : st;
    }
    return st;
}

int iolens_accumulator_passes(const iolens_accumulator *acc)
{
    return acc ? acc->passes : 0;
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
    /* Without a next pass, the table holds every file while its part is
     * still the whole key space. */
    const struct iol_file_table *t = &acc->files;
    if (!acc->complete && !(acc->passes == 1 && t->lo == 0 && t->hi == UINT64_MAX))
        return IOLENS_ERR_ARGUMENT;
    struct iol_file_counts counts = acc->counts;
    if (!acc->complete) {
        iol_counts_add(&counts, t, acc->nprocs);
        iol_counts_add_after(&counts, t);
    }
    iol_counts_result(&counts, m->files);

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
    iol_ftab_free(&acc->files);
    free(acc->ranks);
    free(acc->rank_map.slots);
    iol_combine_plan_free(&acc->plan);
    free(acc);
}
