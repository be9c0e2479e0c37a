/* The job summary in one streaming pass (include/iolens/analysis.h): each
 * module's records are read once, MPI-IO's first so that the POSIX records
 * of MPI-IO files are known as such when they come. */
#include <stdlib.h>
#include <string.h>

#include "analysis_internal.h"
#include "iolens/combine.h"

/* Record ids of MPI-IO files, at most MPIIO_IDS_MAX (beyond, the POSIX
 * records of further MPI-IO files are judged as POSIX files). */
#define MPIIO_IDS_MAX 65536

struct id_set {
    uint64_t *slots; /* 0: empty (id 0 is never a file's: the hash of "") */
    size_t nslots, n;
};

static size_t id_home(uint64_t id, size_t nslots)
{
    return (size_t)((id * 0x9e3779b97f4a7c15ULL) >> 20) & (nslots - 1);
}

static int id_set_has(const struct id_set *s, uint64_t id)
{
    if (!s->nslots)
        return 0;
    for (size_t i = id_home(id, s->nslots); s->slots[i]; i = (i + 1) & (s->nslots - 1))
        if (s->slots[i] == id)
            return 1;
    return 0;
}

static void id_set_add(struct id_set *s, uint64_t id)
{
    if (!s->nslots || s->n >= MPIIO_IDS_MAX || id == 0)
        return;
    size_t i = id_home(id, s->nslots);
    while (s->slots[i] && s->slots[i] != id)
        i = (i + 1) & (s->nslots - 1);
    if (!s->slots[i]) {
        s->slots[i] = id;
        s->n++;
    }
}

/* What the pass keeps besides the summary itself. */
struct pass {
    struct iolens_summary *s;
    struct iol_file_table files;
    struct id_set mpiio_ids;
    size_t max_ranks;
};

static struct iolens_rank_summary *rank_entry(struct iolens_summary *s, int64_t rank)
{
    if (rank >= 0 && (uint64_t)rank < s->nranks)
        return &s->ranks[rank];
    return &s->rest_ranks;
}

static int bit_length(uint64_t v)
{
    int b = 0;
    while (v) {
        b++;
        v >>= 1;
    }
    return b;
}

/* The judged record's bytes and time go to its rank, or (shared records) to
 * the fastest and slowest ranks, for the bytes the record gives them. */
static void attribute_to_ranks(struct iolens_summary *s, int64_t rank,
                               const struct iolens_io_stats *st)
{
    if (rank >= 0) {
        struct iolens_rank_summary *r = rank_entry(s, rank);
        r->bytes_read = iol_add(r->bytes_read, st->bytes_read);
        r->bytes_written = iol_add(r->bytes_written, st->bytes_written);
        r->io_time += st->read_time + st->write_time;
        r->meta_time += st->meta_time;
        return;
    }
    int64_t given = st->slowest_bytes;
    struct iolens_rank_summary *slow = rank_entry(s, st->slowest_rank);
    slow->bytes_written = iol_add(slow->bytes_written, st->slowest_bytes);
    if (st->fastest_rank != st->slowest_rank) {
        struct iolens_rank_summary *fast = rank_entry(s, st->fastest_rank);
        fast->bytes_written = iol_add(fast->bytes_written, st->fastest_bytes);
        given = iol_add(given, st->fastest_bytes);
    }
    int64_t left = iol_stats_bytes(st) - given;
    s->shared_unattributed_bytes = iol_add(s->shared_unattributed_bytes, left > 0 ? left : 0);
    s->shared_meta_time += st->meta_time;
}

static void add_iface_record(struct pass *p, int iface, const void *rec)
{
    struct iolens_summary *s = p->s;
    struct iolens_record_base b;
    struct iolens_io_stats st;
    memcpy(&b, rec, sizeof(b));
    iol_ifaces[iface].stats(rec, &st);
    iol_stats_add(&s->iface[iface], &st);
    iol_files_add(&p->files, b.id, iface, &st, iol_weight(&st), s->rest, &s->rest_files);
    if (iface == IOLENS_IFACE_MPIIO)
        id_set_add(&p->mpiio_ids, b.id);
    if (iface != IOLENS_IFACE_POSIX || !id_set_has(&p->mpiio_ids, b.id)) {
        attribute_to_ranks(s, b.rank, &st);
        s->judged_time += iol_stats_time(&st);
    }
    if (iface != IOLENS_IFACE_MPIIO && st.bytes_written > 0) {
        int64_t size = st.extent_written > st.bytes_written ? st.extent_written
                                                             : st.bytes_written;
        int bin = bit_length((uint64_t)size);
        s->written_file_sizes[bin < IOLENS_FILE_SIZE_BINS ? bin : IOLENS_FILE_SIZE_BINS - 1]++;
    }
}

/* Read every record of module id. @return IOLENS_OK or an error. */
static iolens_status read_module(struct pass *p, iolens_log *log, int id)
{
    const struct iolens_module_desc *mod = iolens_module(id);
    struct iolens_module_summary *m = &p->s->modules[id];
    int iface = iol_iface_of_module(id);
    const void *rec;
    iolens_status st;

    iolens_accumulator *acc = NULL;

    if (mod->roles && (mod->roles->flags & IOLENS_ROLE_METRICS)) {
        st = iolens_accumulator_create(mod, p->s->nprocs, &acc);
        /* The page and the insights use no file counts: one pass, no file table. */
        if (st == IOLENS_OK)
            iolens_accumulator_no_file_counts(acc);
        if (st == IOLENS_OK && !(m->metrics = calloc(1, sizeof(*m->metrics))))
            st = IOLENS_ERR_NOMEM;
        if (st != IOLENS_OK) {
            iolens_accumulator_free(acc);
            return st;
        }
    }
    if (iolens_combine_supported(mod, IOLENS_COMBINE_TOTAL) &&
        !(m->total = calloc(1, mod->record_size))) {
        iolens_accumulator_free(acc);
        return IOLENS_ERR_NOMEM;
    }
    if (iface == IOLENS_IFACE_MPIIO && !(p->mpiio_ids.slots = calloc(2 * MPIIO_IDS_MAX, 8)))
        return IOLENS_ERR_NOMEM;
    p->mpiio_ids.nslots = iface == IOLENS_IFACE_MPIIO ? 2 * MPIIO_IDS_MAX : p->mpiio_ids.nslots;
    while ((st = iolens_log_next_record(log, id, &rec)) == IOLENS_OK) {
        /* The accumulator merges the totals record by the same rules. */
        if (acc && (st = iolens_accumulator_inject(acc, rec)) != IOLENS_OK)
            break;
        if (m->total && !acc)
            iolens_combine_record(mod, IOLENS_COMBINE_TOTAL, m->total, rec, m->records == 0);
        m->records++;
        if (iface >= 0)
            add_iface_record(p, iface, rec);
        else if (id == IOLENS_MOD_HEATMAP && iol_heatmap_add(p->s, rec) < 0) {
            st = IOLENS_ERR_NOMEM;
            break;
        }
    }
    if (acc && st == IOLENS_END)
        iolens_accumulator_emit(acc, m->metrics, m->total);
    iolens_accumulator_free(acc);
    return st == IOLENS_END ? IOLENS_OK : st;
}

/* Is module id one the pass reads? Trace modules are not: they repeat
 * what POSIX and MPI-IO count, op by op. */
static int readable(const struct iolens_log_info *in, int id)
{
    const struct iolens_module_desc *mod = iolens_module(id);
    return in->mod_map[id].len > 0 && mod && !mod->trace;
}

static int heavier_first(const void *a, const void *b)
{
    double wa = ((const struct iolens_file_summary *)a)->weight;
    double wb = ((const struct iolens_file_summary *)b)->weight;
    return (wa < wb) - (wa > wb);
}

/* Order the kept files and give them their names. */
static iolens_status finish_files(struct pass *p, iolens_log *log)
{
    struct iolens_summary *s = p->s;
    s->files = p->files.files;
    s->nfiles = p->files.n;
    p->files.files = NULL;
    qsort(s->files, s->nfiles, sizeof(*s->files), heavier_first);
    /* Only the kept files' names: memory bounded by the table, whatever the
     * log's number of names. */
    uint64_t *ids = malloc((s->nfiles ? s->nfiles : 1) * sizeof(*ids));
    if (!ids)
        return IOLENS_ERR_NOMEM;
    for (size_t i = 0; i < s->nfiles; i++)
        ids[i] = s->files[i].id;
    iolens_status st = iolens_log_load_names_of(log, ids, s->nfiles);
    free(ids);
    if (st != IOLENS_OK)
        return st;
    for (size_t i = 0; i < s->nfiles; i++) {
        const char *name = iolens_log_name(log, s->files[i].id);
        if (name && !(s->files[i].name = strdup(name)))
            return IOLENS_ERR_NOMEM;
    }
    return IOLENS_OK;
}

static iolens_status start(struct pass *p, iolens_log *log, const struct iolens_summary_options *o)
{
    const struct iolens_log_info *in = iolens_log_get_info(log);
    size_t max_files = o && o->max_files ? o->max_files : IOLENS_SUMMARY_DEFAULT_FILES;
    size_t max_ranks = o && o->max_ranks ? o->max_ranks : IOLENS_SUMMARY_DEFAULT_RANKS;
    struct iolens_summary *s = p->s;

    s->nprocs = in->job.nprocs;
    s->run_time = iolens_log_run_time(in); /* what iolens parse's header says */
    s->partial_flags = in->partial_flags;
    s->nranks = s->nprocs > 0 ? (size_t)s->nprocs : 1;
    s->nranks = s->nranks < max_ranks ? s->nranks : max_ranks;
    if (!(s->exe = strdup(in->exe ? in->exe : "")) ||
        !(s->ranks = calloc(s->nranks, sizeof(*s->ranks))) ||
        iol_files_init(&p->files, max_files) < 0)
        return IOLENS_ERR_NOMEM;
    for (int id = 0; id < IOLENS_MAX_MODS; id++)
        s->modules[id].present = in->mod_map[id].len > 0;
    return IOLENS_OK;
}

iolens_status iolens_summary_build(iolens_log *log, const struct iolens_summary_options *opts,
                                   struct iolens_summary **out)
{
    const struct iolens_log_info *in = iolens_log_get_info(log);
    struct pass p = {0};
    iolens_status st;

    *out = NULL;
    if (!(p.s = calloc(1, sizeof(*p.s))))
        return IOLENS_ERR_NOMEM;
    st = start(&p, log, opts);
    if (st == IOLENS_OK && readable(in, IOLENS_MOD_MPIIO))
        st = read_module(&p, log, IOLENS_MOD_MPIIO);
    for (int id = 0; id < IOLENS_MAX_MODS && st == IOLENS_OK; id++)
        if (id != IOLENS_MOD_MPIIO && readable(in, id))
            st = read_module(&p, log, id);
    if (st == IOLENS_OK)
        st = finish_files(&p, log);
    for (int id = 0; id < IOLENS_MAX_MODS; id++)
        p.s->modules[id].partial = (int)(in->partial_flags >> id & 1);
    p.s->uses_hdf5 = p.s->modules[IOLENS_MOD_H5F].present || p.s->modules[IOLENS_MOD_H5D].present;
    p.s->uses_pnetcdf = p.s->modules[IOLENS_MOD_PNETCDF_FILE].present ||
                        p.s->modules[IOLENS_MOD_PNETCDF_VAR].present;
    iol_files_free_index(&p.files);
    free(p.mpiio_ids.slots);
    if (st != IOLENS_OK) {
        if (p.files.files) {
            p.s->files = p.files.files;
            p.s->nfiles = 0;
        }
        iolens_summary_free(p.s);
        return st;
    }
    *out = p.s;
    return IOLENS_OK;
}

void iolens_summary_free(struct iolens_summary *s)
{
    if (!s)
        return;
    for (size_t i = 0; i < s->nfiles; i++)
        free(s->files[i].name);
    for (int id = 0; id < IOLENS_MAX_MODS; id++) {
        free(s->modules[id].total);
        free(s->modules[id].metrics);
    }
    free(s->files);
    free(s->ranks);
    free(s->exe);
    iol_heatmap_free(s);
    free(s);
}

double iolens_summary_io_share(const struct iolens_summary *s)
{
    double job = (double)s->nprocs * s->run_time;
    return job > 0 && s->judged_time > 0 ? s->judged_time / job : 0;
}
