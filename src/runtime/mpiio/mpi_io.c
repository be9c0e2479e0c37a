/* MPI-IO module: the record, the table of open handles and the counter
 * updates. Each wrapper (mpi_io_meta.c, mpi_io_rw.c) finds its handle's
 * record in the table, times the real call and hands the outcome to one of
 * the iol_mpiio_note_* functions below, which take the record's own lock.
 * What is counted, and how, is Darshan 3.5's MPI-IO v3 semantics. */
#include "mpi_io_mod.h"

#include <dlfcn.h>
#include <fcntl.h>

#include "callsites/callsites.h"
#include "core/counting.h"
#include "events/events.h"
#include "heatmap/heatmap.h"
#include "posix/posix.h"

/* Per-record state that is not part of the log record. */
struct mpiio_state {
    int last_io_type;     /* IO_READ, IO_WRITE or 0: for MPIIO_RW_SWITCHES */
    double last_meta_end; /* ends of the last timed operations, so that */
    double last_read_end; /* overlapping calls (threads) are not counted */
    double last_write_end; /* twice in the cumulative times */
    struct iol_vals access; /* distinct access sizes */
    void *dxt;              /* the file's DXT_MPIIO record (dxt/dxt.h), NULL until
                             * its first traced access */
    int64_t closes;         /* closes counted: the close event's cnt */
};

enum { IO_READ = 1, IO_WRITE = 2 };

struct iol_mpiio_fh iol_mpiio_fhtab[IOL_MPIIO_FH_TABLE];
unsigned char iol_mpiio_rw_extra;
/* Set once a handle was ever tracked: until then the table (64 KiB of zero
 * pages never touched) needs no clearing, and reading it would cost a page
 * fault per page at every start of every process. */
static _Atomic int fhtab_used;

static struct iol_pool *mpiio_pool;
static struct iol_vals_pool *vals_pool;

/* MPI functions the counting needs but does not wrap, looked up at the
 * first open (before any handle is tracked, so before any read or write). */
typedef int (*comm_size_fn)(MPI_Comm, int *);
typedef int (*type_size_fn)(MPI_Datatype, int *);
typedef int (*position_fn)(MPI_File, MPI_Offset *);
typedef int (*byte_offset_fn)(MPI_File, MPI_Offset, MPI_Offset *);
static _Atomic(comm_size_fn) comm_size;
static _Atomic(type_size_fn) type_size;
/* DXT_MPIIO's offsets (looked up only when it records). */
static _Atomic(position_fn) get_position;
static _Atomic(position_fn) get_position_shared;
static _Atomic(byte_offset_fn) get_byte_offset;

/* The null handles, known once libiolens-mpi.so handed them over at
 * MPI_Init (set before the program can open a file). */
static MPI_Info info_null;
static MPI_Datatype datatype_null;
static int info_null_known, datatype_null_known;

static inline struct iolens_mpiio_record *rec_of(struct iol_slot *s)
{
    return iol_slot_rec(s);
}

static inline struct mpiio_state *state_of(struct iol_slot *s)
{
    return iol_slot_state(s, sizeof(struct iolens_mpiio_record));
}

void *iol_mpiio_next_slow(void **cached, const char *name)
{
    void *p = dlsym(RTLD_NEXT, name);
    __atomic_store_n(cached, p, __ATOMIC_RELEASE);
    return p;
}

void iol_mpiio_set_nulls(const void *info, const void *datatype)
{
    if (info) {
        memcpy(&info_null, info, sizeof(info_null));
        info_null_known = 1;
    }
    if (datatype) {
        memcpy(&datatype_null, datatype, sizeof(datatype_null));
        datatype_null_known = 1;
    }
}

const void *iol_mpiio_datatype_null(void)
{
    return datatype_null_known ? &datatype_null : NULL;
}

/* Does info carry hints? Unknown (no libiolens-mpi.so): no, so that
 * MPIIO_HINTS never counts calls that passed none. */
static int has_hints(MPI_Info info)
{
    return info_null_known && info != info_null;
}

/* ---- the handle table ---- */

/* Track the handle key as the record s: an entry still holding key (a close
 * that was never seen) is taken over, else a free one near its home is
 * claimed. A handle that finds no entry is not tracked: its file keeps the
 * open, but not what is done through that handle. */
static void fh_track(uint64_t key, struct iol_slot *s)
{
    uint32_t h = iol_mpiio_fh_home(key);
    if (!atomic_load_explicit(&fhtab_used, memory_order_relaxed))
        atomic_store_explicit(&fhtab_used, 1, memory_order_relaxed);
    for (uint32_t i = 0; i < IOL_MPIIO_FH_PROBE; i++) {
        struct iol_mpiio_fh *e = &iol_mpiio_fhtab[(h + i) & (IOL_MPIIO_FH_TABLE - 1)];
        if (atomic_load_explicit(&e->key, memory_order_relaxed) == key) {
            atomic_store_explicit(&e->slot, s, memory_order_relaxed);
            return;
        }
    }
    for (uint32_t i = 0; i < IOL_MPIIO_FH_PROBE; i++) {
        struct iol_mpiio_fh *e = &iol_mpiio_fhtab[(h + i) & (IOL_MPIIO_FH_TABLE - 1)];
        uint64_t free_key = 0;
        if (atomic_load_explicit(&e->key, memory_order_relaxed) == 0 &&
            atomic_compare_exchange_strong_explicit(&e->key, &free_key, IOL_MPIIO_FH_BUSY,
                                                    memory_order_acquire,
                                                    memory_order_relaxed)) {
            atomic_store_explicit(&e->slot, s, memory_order_relaxed);
            atomic_store_explicit(&e->key, key, memory_order_release);
            return;
        }
    }
}

/* Stop tracking the handle key. */
static void fh_forget(uint64_t key)
{
    uint32_t h = iol_mpiio_fh_home(key);
    for (uint32_t i = 0; i < IOL_MPIIO_FH_PROBE; i++) {
        struct iol_mpiio_fh *e = &iol_mpiio_fhtab[(h + i) & (IOL_MPIIO_FH_TABLE - 1)];
        if (atomic_load_explicit(&e->key, memory_order_relaxed) == key) {
            atomic_store_explicit(&e->key, 0, memory_order_release);
            return;
        }
    }
}

/* ---- open, close, sync, view ---- */

/* The record of the file MPI_File_open named path. As ROMIO (and Darshan)
 * do, a "prefix:" (e.g. "ufs:") is dropped when the colon comes after the
 * second character, so that "c:\..." keeps its drive letter.
 * @return the record, or NULL (excluded, no room, bad name). */
static struct iol_slot *path_record(const char *path)
{
    const char *colon = path ? strchr(path, ':') : NULL;
    if (colon && colon > path + 1)
        path = colon + 1;
    return iol_path_record(mpiio_pool, AT_FDCWD, path);
}

/* Look up the MPI functions the counters need, once. */
static void resolve_helpers(void)
{
    if (!atomic_load_explicit(&comm_size, memory_order_relaxed))
        atomic_store_explicit(&comm_size, (comm_size_fn)dlsym(RTLD_NEXT, "PMPI_Comm_size"),
                              memory_order_relaxed);
    if (!atomic_load_explicit(&type_size, memory_order_relaxed))
        atomic_store_explicit(&type_size, (type_size_fn)dlsym(RTLD_NEXT, "PMPI_Type_size"),
                              memory_order_relaxed);
    if (!(iol_mpiio_rw_extra & IOL_MPIIO_RW_AT) || atomic_load_explicit(&get_byte_offset, memory_order_relaxed))
        return;
    atomic_store_explicit(&get_position, (position_fn)dlsym(RTLD_NEXT, "PMPI_File_get_position"),
                          memory_order_relaxed);
    atomic_store_explicit(&get_position_shared,
                          (position_fn)dlsym(RTLD_NEXT, "PMPI_File_get_position_shared"),
                          memory_order_relaxed);
    atomic_store_explicit(&get_byte_offset,
                          (byte_offset_fn)dlsym(RTLD_NEXT, "PMPI_File_get_byte_offset"),
                          memory_order_relaxed);
}

int64_t iol_mpiio_dxt_offset(MPI_File fh, MPI_Offset offset)
{
    byte_offset_fn to_bytes = atomic_load_explicit(&get_byte_offset, memory_order_relaxed);
    MPI_Offset b = -1;
    if (!to_bytes || to_bytes(fh, offset, &b) != MPI_SUCCESS)
        return -1;
    return (int64_t)b;
}

/* The byte offset of the file pointer that pos reads. */
static int64_t pointer_offset(MPI_File fh, _Atomic(position_fn) *pos)
{
    position_fn get = atomic_load_explicit(pos, memory_order_relaxed);
    MPI_Offset off = 0;
    if (!get || get(fh, &off) != MPI_SUCCESS)
        return -1;
    return iol_mpiio_dxt_offset(fh, off);
}

int64_t iol_mpiio_dxt_position(MPI_File fh)
{
    return pointer_offset(fh, &get_position);
}

int64_t iol_mpiio_dxt_shared(MPI_File fh)
{
    return pointer_offset(fh, &get_position_shared);
}

/* ---- live events (the caller holds the record's lock) ---- */

/* One event of record s, with the connector's MPI-IO fields: no max_byte
 * and no flushes; switches on reads and writes only. Out of line, so that
 * the notes pay one test when events are off. */
__attribute__((noinline, cold)) static void mpiio_event(struct iol_slot *s, int op, int64_t off,
                                                        int64_t len, int64_t cnt, double t0,
                                                        double t1, double total)
{
    struct iolens_mpiio_record *r = rec_of(s);
    int rw = op == IOL_EV_READ || op == IOL_EV_WRITE;
    struct iol_event_claim claim;
    struct iol_event *e = iol_events_begin(&claim, s, IOL_EV_MPIIO, op, t0, t1, total);
    if (!e)
        return;
    e->off = off;
    e->len = len;
    e->cnt = cnt;
    e->max_byte = -1;
    e->switches = rw ? r->counters[MPIIO_RW_SWITCHES] : -1;
    e->flushes = -1;
    iol_events_commit(&claim);
}

void iol_mpiio_note_open(int ret, MPI_Comm comm, const char *path, int amode, MPI_Info info,
                         const MPI_File *fh, double t0, double t1)
{
    if (ret != MPI_SUCCESS || !fh)
        return;
    struct iol_slot *s = path_record(path);
    if (!s)
        return;
    resolve_helpers();
    int nprocs = 0;
    comm_size_fn size_of = atomic_load_explicit(&comm_size, memory_order_relaxed);
    if (size_of)
        size_of(comm, &nprocs);
    if (iol_slot_lock(s) == 0) {
        struct iolens_mpiio_record *r = rec_of(s);
        r->counters[MPIIO_MODE] = amode;
        r->counters[nprocs == 1 ? MPIIO_INDEP_OPENS : MPIIO_COLL_OPENS]++;
        if (has_hints(info))
            r->counters[MPIIO_HINTS]++;
        iol_set_start_end(&r->fcounters[MPIIO_F_OPEN_START_TIMESTAMP],
                          &r->fcounters[MPIIO_F_OPEN_END_TIMESTAMP], t0, t1);
        iol_add_time(&r->fcounters[MPIIO_F_META_TIME], t0, t1, &state_of(s)->last_meta_end);
        if (iol_events_mask & IOL_EV_MPIIO)
            mpiio_event(s, IOL_EV_OPEN, -1, -1,
                        r->counters[MPIIO_INDEP_OPENS] + r->counters[MPIIO_COLL_OPENS], t0, t1,
                        r->fcounters[MPIIO_F_META_TIME]);
        iol_slot_unlock(s);
    }
    uint64_t key = iol_mpiio_fh_key(*fh);
    if (key != 0 && key != IOL_MPIIO_FH_BUSY)
        fh_track(key, s);
    iol_callsites_call(IOLENS_MOD_MPIIO, IOLENS_CALLSITES_OPEN, t0, t1);
}

void iol_mpiio_fh_forget(MPI_File fh)
{
    fh_forget(iol_mpiio_fh_key(fh));
}

void iol_mpiio_note_close(struct iol_slot *s, double t0, double t1)
{
    /* Counted whatever the real call returned, as Darshan does: the handle
     * is gone for the program either way. */
    if (iol_slot_lock(s) == 0) {
        struct iolens_mpiio_record *r = rec_of(s);
        struct mpiio_state *st = state_of(s);
        iol_set_start_end(&r->fcounters[MPIIO_F_CLOSE_START_TIMESTAMP],
                          &r->fcounters[MPIIO_F_CLOSE_END_TIMESTAMP], t0, t1);
        iol_add_time(&r->fcounters[MPIIO_F_META_TIME], t0, t1, &st->last_meta_end);
        st->closes++;
        if (iol_events_mask & IOL_EV_MPIIO)
            mpiio_event(s, IOL_EV_CLOSE, -1, -1, st->closes, t0, t1,
                        r->fcounters[MPIIO_F_META_TIME]);
        iol_slot_unlock(s);
    }
    iol_callsites_call(IOLENS_MOD_MPIIO, IOLENS_CALLSITES_CLOSE, t0, t1);
}

void iol_mpiio_note_sync(struct iol_slot *s, int ret, double t0, double t1)
{
    if (ret != MPI_SUCCESS || iol_slot_lock(s) != 0)
        return;
    struct iolens_mpiio_record *r = rec_of(s);
    r->counters[MPIIO_SYNCS]++;
    /* Darshan counts a sync's time as writing (it pushes written data out). */
    iol_add_time(&r->fcounters[MPIIO_F_WRITE_TIME], t0, t1, &state_of(s)->last_write_end);
    if (iol_events_mask & IOL_EV_MPIIO)
        mpiio_event(s, IOL_EV_FLUSH, -1, -1, r->counters[MPIIO_SYNCS], t0, t1,
                    r->fcounters[MPIIO_F_WRITE_TIME]);
    iol_slot_unlock(s);
    iol_callsites_call(IOLENS_MOD_MPIIO, IOLENS_CALLSITES_FLUSH, t0, t1);
}

void iol_mpiio_note_view(struct iol_slot *s, int ret, MPI_Info info, double t0, double t1)
{
    if (ret != MPI_SUCCESS || iol_slot_lock(s) != 0)
        return;
    struct iolens_mpiio_record *r = rec_of(s);
    r->counters[MPIIO_VIEWS]++;
    /* Only a view that passes hints counts as metadata time (Darshan's rule). */
    if (has_hints(info)) {
        r->counters[MPIIO_HINTS]++;
        iol_add_time(&r->fcounters[MPIIO_F_META_TIME], t0, t1, &state_of(s)->last_meta_end);
    }
    iol_slot_unlock(s);
    iol_callsites_call(IOLENS_MOD_MPIIO, IOLENS_CALLSITES_META, t0, t1);
}

/* ---- reads and writes ---- */

/* Indices of the counters that differ between reads and writes. */
struct rw_kind {
    int io_type, other_type;
    int bytes, hist0, max_time_size;
    int f_start, f_end, f_max_time, f_time;
};

static const struct rw_kind kind_read = {
    IO_READ, IO_WRITE, MPIIO_BYTES_READ, MPIIO_SIZE_READ_AGG_0_100, MPIIO_MAX_READ_TIME_SIZE,
    MPIIO_F_READ_START_TIMESTAMP, MPIIO_F_READ_END_TIMESTAMP, MPIIO_F_MAX_READ_TIME,
    MPIIO_F_READ_TIME,
};

static const struct rw_kind kind_write = {
    IO_WRITE, IO_READ, MPIIO_BYTES_WRITTEN, MPIIO_SIZE_WRITE_AGG_0_100,
    MPIIO_MAX_WRITE_TIME_SIZE, MPIIO_F_WRITE_START_TIMESTAMP, MPIIO_F_WRITE_END_TIMESTAMP,
    MPIIO_F_MAX_WRITE_TIME, MPIIO_F_WRITE_TIME,
};

/* Bytes of count items of type: what the call asked for, whatever the file
 * view makes of it (Darshan's measure). 0 for no items or a null type. */
static inline int64_t access_size(int count, MPI_Datatype type)
{
    if (count <= 0 || (datatype_null_known && type == datatype_null))
        return 0;
    type_size_fn size_of = atomic_load_explicit(&type_size, memory_order_relaxed);
    int n = 0;
    if (!size_of || size_of(type, &n) != MPI_SUCCESS || n < 0)
        return 0;
    return (int64_t)n * count;
}

/* One successful read or write. Inlined into the read and the write note,
 * where k is a constant: the counter indices fold into the code. */
static inline __attribute__((always_inline)) void note_rw(struct iol_slot *s,
                                                          const struct rw_kind *k, int counter,
                                                          int count, MPI_Datatype type,
                                                          int64_t at, double t0, double t1)
{
    int64_t size = access_size(count, type);
    iol_heatmap_update(IOL_HEATMAP_MPIIO, k->io_type == IO_WRITE, size, t0, t1);
    if (iol_slot_lock(s) != 0)
        return;
    struct iolens_mpiio_record *r = rec_of(s);
    struct mpiio_state *st = state_of(s);
    double *last_end = k->io_type == IO_READ ? &st->last_read_end : &st->last_write_end;
    r->counters[k->hist0 + iol_size_bucket(size)]++;
    int64_t n = iol_vals_add(&st->access, size, vals_pool);
    if (n)
        iol_top4_update(&r->counters[MPIIO_ACCESS1_ACCESS], &r->counters[MPIIO_ACCESS1_COUNT],
                        size, n);
    r->counters[k->bytes] += size;
    r->counters[counter]++;
    if (st->last_io_type == k->other_type)
        r->counters[MPIIO_RW_SWITCHES]++;
    st->last_io_type = k->io_type;
    iol_set_start_end(&r->fcounters[k->f_start], &r->fcounters[k->f_end], t0, t1);
    if (r->fcounters[k->f_max_time] < t1 - t0) {
        r->fcounters[k->f_max_time] = t1 - t0;
        r->counters[k->max_time_size] = size;
    }
    iol_add_time(&r->fcounters[k->f_time], t0, t1, last_end);
    if (__builtin_expect(iol_mpiio_rw_extra, 0)) {
        if (iol_mpiio_rw_extra & IOL_MPIIO_RW_DXT)
            iol_dxt_mpiio_note(s, &st->dxt, k->io_type == IO_WRITE, at, size, t0, t1);
        if (iol_mpiio_rw_extra & IOL_MPIIO_RW_EVENTS)
            mpiio_event(s, k->io_type == IO_WRITE ? IOL_EV_WRITE : IOL_EV_READ, at, size,
                        r->counters[counter], t0, t1, r->fcounters[k->f_time]);
        if (iol_mpiio_rw_extra & IOL_MPIIO_RW_CALLSITES) {
            /* The stack walk is long: not under the record's lock. */
            iol_slot_unlock(s);
            iol_callsites_note(IOLENS_MOD_MPIIO, k->io_type == IO_WRITE, size, t0, t1,
                               __builtin_return_address(0));
            return;
        }
    }
    iol_slot_unlock(s);
}

void iol_mpiio_note_read(struct iol_slot *s, enum iolens_mpiio_counter counter, int ret,
                         int count, MPI_Datatype type, int64_t at, double t0, double t1)
{
    if (ret == MPI_SUCCESS)
        note_rw(s, &kind_read, counter, count, type, at, t0, t1);
}

void iol_mpiio_note_write(struct iol_slot *s, enum iolens_mpiio_counter counter, int ret,
                          int count, MPI_Datatype type, int64_t at, double t0, double t1)
{
    if (ret == MPI_SUCCESS)
        note_rw(s, &kind_write, counter, count, type, at, t0, t1);
}

/* ---- the module ---- */

static void mpiio_init_record(struct iolens_record_base *rec, void *state, const char *name)
{
    (void)rec;
    (void)state;
    (void)name;
}

/* A fresh record set (start, fork child, failed exec): handles tracked so
 * far point into the earlier set's records (in a forked child, the parent's
 * record file, which the child must not write), so they are all forgotten. */
static void mpiio_start(struct iol_pool *pool)
{
    if (atomic_load_explicit(&fhtab_used, memory_order_relaxed))
        for (uint32_t i = 0; i < IOL_MPIIO_FH_TABLE; i++)
            if (atomic_load_explicit(&iol_mpiio_fhtab[i].key, memory_order_relaxed))
                atomic_store_explicit(&iol_mpiio_fhtab[i].key, 0, memory_order_relaxed);
    mpiio_pool = pool;
    vals_pool = iol_records_vals_pool();
}

static const struct iol_binding_table *const mpiio_tables[] = {
    &iol_mpiio_meta_bindings, &iol_mpiio_rw_bindings, NULL,
};

const struct iol_module iol_mpiio_module = {
    .id = IOLENS_MOD_MPIIO,
    .name = "MPI-IO",
    .version = IOLENS_MPIIO_VERSION,
    .record_size = sizeof(struct iolens_mpiio_record),
    .state_size = sizeof(struct mpiio_state),
    .names_are_paths = 1,
    .bindings = mpiio_tables,
    .bindings_at_first_use = 1, /* iol_mpiio_next */
    .init_record = mpiio_init_record,
    .start = mpiio_start,
};
