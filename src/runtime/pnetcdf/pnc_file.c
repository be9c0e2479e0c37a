/* PNETCDF_FILE module: the record of each file created or opened with
 * PnetCDF, the table of open ncids and the counter updates, with Darshan
 * 3.5's PNETCDF_FILE v3 semantics: creates and opens apart, returns to define
 * mode, syncs, waits (by kind, and failed ones), the bytes PnetCDF reports at
 * close, and the time of every timed call but waits as metadata. */
#include "pnc_mod.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <string.h>

#include "callsites/callsites.h"
#include "core/counting.h"
#include "posix/posix.h"

/* Per-record state that is not part of the log record. */
struct file_state {
    double last_meta_end; /* ends of the last timed calls, so that overlapping */
    double last_wait_end; /* calls (threads) are not counted twice */
};

_Atomic(struct iol_slot *) iol_pnc_ncid_tab[IOL_PNC_NCIDS];
/* Set once an ncid was ever tracked: until then the table needs no clearing
 * (its pages are never touched by a program without PnetCDF). */
static _Atomic int ncid_tab_used;

static struct iol_pool *file_pool;

/* PnetCDF's own reports of a handle's bytes, looked up at the first close. */
typedef int (*size_fn)(int, MPI_Offset *);
static void *inq_put_size;
static void *inq_get_size;

static inline struct iolens_pnetcdf_file_record *rec_of(struct iol_slot *s)
{
    return iol_slot_rec(s);
}

static inline struct file_state *state_of(struct iol_slot *s)
{
    return iol_slot_state(s, sizeof(struct iolens_pnetcdf_file_record));
}

void *iol_pnc_next_slow(void **cached, const char *name)
{
    void *p = dlsym(RTLD_NEXT, name);
    __atomic_store_n(cached, p, __ATOMIC_RELEASE);
    return p;
}

void iol_pnc_note_file_open(int created, const char *path, int ncid, double t0, double t1)
{
    /* As ROMIO (and Darshan) do, a "prefix:" such as "ufs:" is dropped when
     * the colon comes after the second character ("c:\..." keeps it). */
    const char *colon = path ? strchr(path, ':') : NULL;
    if (colon && colon > path + 1)
        path = colon + 1;
    struct iol_slot *s = iol_path_record(file_pool, AT_FDCWD, path);
    if (!s)
        return;
    if (iol_slot_lock(s) == 0) {
        struct iolens_pnetcdf_file_record *r = rec_of(s);
        iol_set_start_end(&r->fcounters[PNETCDF_FILE_F_OPEN_START_TIMESTAMP],
                          &r->fcounters[PNETCDF_FILE_F_OPEN_END_TIMESTAMP], t0, t1);
        r->counters[created ? PNETCDF_FILE_CREATES : PNETCDF_FILE_OPENS]++;
        iol_add_time(&r->fcounters[PNETCDF_FILE_F_META_TIME], t0, t1,
                     &state_of(s)->last_meta_end);
        iol_slot_unlock(s);
    }
    if (ncid >= 0 && ncid < IOL_PNC_NCIDS) {
        if (!atomic_load_explicit(&ncid_tab_used, memory_order_relaxed))
            atomic_store_explicit(&ncid_tab_used, 1, memory_order_relaxed);
        atomic_store_explicit(&iol_pnc_ncid_tab[ncid], s, memory_order_release);
    }
    iol_callsites_call(IOLENS_MOD_PNETCDF_FILE, IOLENS_CALLSITES_OPEN, t0, t1);
}

/* One of PnetCDF's byte reports. @return it, or -1. */
static int64_t file_size(void **fn, const char *name, int ncid)
{
    size_fn get = (size_fn)iol_pnc_next(fn, name);
    MPI_Offset n = 0;
    if (!get || get(ncid, &n) != NC_NOERR)
        return -1;
    return (int64_t)n;
}

void iol_pnc_file_sizes(int ncid, int64_t *put, int64_t *got)
{
    *put = file_size(&inq_put_size, "ncmpi_inq_put_size", ncid);
    *got = file_size(&inq_get_size, "ncmpi_inq_get_size", ncid);
}

/* Add a byte report to a counter; an unknown report makes it -1 for good. */
static void add_bytes(int64_t *counter, int64_t n)
{
    *counter = n >= 0 && *counter >= 0 ? *counter + n : -1;
}

void iol_pnc_note_close(struct iol_slot *s, int ncid, int64_t put, int64_t got, double t0,
                        double t1)
{
    if (iol_slot_lock(s) == 0) {
        struct iolens_pnetcdf_file_record *r = rec_of(s);
        add_bytes(&r->counters[PNETCDF_FILE_BYTES_WRITTEN], put);
        add_bytes(&r->counters[PNETCDF_FILE_BYTES_READ], got);
        iol_set_start_end(&r->fcounters[PNETCDF_FILE_F_CLOSE_START_TIMESTAMP],
                          &r->fcounters[PNETCDF_FILE_F_CLOSE_END_TIMESTAMP], t0, t1);
        iol_add_time(&r->fcounters[PNETCDF_FILE_F_META_TIME], t0, t1,
                     &state_of(s)->last_meta_end);
        iol_slot_unlock(s);
    }
    atomic_store_explicit(&iol_pnc_ncid_tab[ncid], NULL, memory_order_release);
    iol_callsites_call(IOLENS_MOD_PNETCDF_FILE, IOLENS_CALLSITES_CLOSE, t0, t1);
}

void iol_pnc_note_file_meta(struct iol_slot *s, int counter, double t0, double t1)
{
    if (iol_slot_lock(s) != 0)
        return;
    struct iolens_pnetcdf_file_record *r = rec_of(s);
    if (counter >= 0)
        r->counters[counter]++;
    iol_add_time(&r->fcounters[PNETCDF_FILE_F_META_TIME], t0, t1, &state_of(s)->last_meta_end);
    iol_slot_unlock(s);
    iol_callsites_call(IOLENS_MOD_PNETCDF_FILE, counter == PNETCDF_FILE_SYNCS ? IOLENS_CALLSITES_FLUSH : IOLENS_CALLSITES_META, t0, t1);
}

void iol_pnc_note_wait(struct iol_slot *s, int counter, int ret, double t0, double t1)
{
    if (iol_slot_lock(s) != 0)
        return;
    struct iolens_pnetcdf_file_record *r = rec_of(s);
    r->counters[ret == NC_NOERR ? counter : PNETCDF_FILE_WAIT_FAILURES]++;
    iol_set_start_end(&r->fcounters[PNETCDF_FILE_F_WAIT_START_TIMESTAMP],
                      &r->fcounters[PNETCDF_FILE_F_WAIT_END_TIMESTAMP], t0, t1);
    iol_add_time(&r->fcounters[PNETCDF_FILE_F_WAIT_TIME], t0, t1, &state_of(s)->last_wait_end);
    iol_slot_unlock(s);
}

/* ---- the module ---- */

static void file_init_record(struct iolens_record_base *rec, void *state, const char *name)
{
    (void)rec;
    (void)state;
    (void)name;
}

/* A fresh record set (start, fork child, failed exec): tracked ncids point
 * into the earlier set's records, so they are all forgotten. */
static void file_start(struct iol_pool *pool)
{
    if (atomic_load_explicit(&ncid_tab_used, memory_order_relaxed))
        for (size_t i = 0; i < IOL_PNC_NCIDS; i++)
            atomic_store_explicit(&iol_pnc_ncid_tab[i], NULL, memory_order_relaxed);
    file_pool = pool;
}

static const struct iol_binding_table *const file_tables[] = {&iol_pnc_meta_bindings, NULL};

const struct iol_module iol_pnetcdf_file_module = {
    .id = IOLENS_MOD_PNETCDF_FILE,
    .name = "PNETCDF_FILE",
    .version = IOLENS_PNETCDF_FILE_VERSION,
    .record_size = sizeof(struct iolens_pnetcdf_file_record),
    .state_size = sizeof(struct file_state),
    .names_are_paths = 1,
    .bindings = file_tables,
    .bindings_at_first_use = 1, /* iol_pnc_next */
    .init_record = file_init_record,
    .start = file_start,
};
