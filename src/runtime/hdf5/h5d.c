/* H5D module: one record per dataset, named as Darshan 3.5 names it: the
 * file's cleaned path (H5Fget_name of the location), ":", the location's
 * own path in the file (H5Iget_name), then the name given, unseparated
 * ("/grp" and "dset" make "/grpdset"), the whole cut to 255 bytes; with it
 * the H5F record id of the file. The counters follow darshan-hdf5.c: opens,
 * reads and writes with the bytes of the file selection, its kind, the four
 * most common (size, lengths, strides) shapes, dataspace, datatype and chunk
 * sizes, collective transfers, deprecated calls, times. Updates take the
 * record's own lock; the HDF5 queries they need run before it. */
#include <fcntl.h>
#include <string.h>

#include "callsites/callsites.h"
#include "common/hash.h"
#include "core/counting.h"
#include "core/tuples.h"
#include "events/events.h"
#include "h5_hid.h"
#include "h5_mods.h"
#include "h5d_mod.h"
#include "iolens/modules/h5d.h"
#include "posix/posix.h"

_Static_assert(IOL_TUPLE_WORDS == 1 + 2 * IOLENS_H5D_MAX_NDIMS,
               "an access shape is a size, then lengths and strides of each dimension kept");

/* Darshan's limit on a dataset record's name, NUL included. */
#define NAME_CAP 256
/* Per-record state that is not part of the log record. */
struct h5d_state {
    int last_io_type; /* IO_READ, IO_WRITE or 0: for H5D_RW_SWITCHES */
    double last_read_end, last_write_end, last_meta_end; /* overlaps count once */
    struct iol_tuples shapes; /* the access shapes counted */
    int64_t closes;           /* closes counted: the close event's cnt */
    size_t set_at;            /* where the dataset's path starts in the name, 0 if cut */
};

enum { IO_READ = 1, IO_WRITE = 2 };

static struct iol_pool *h5d_pool;
static struct iol_h5_hids datasets;

static inline struct iolens_h5d_record *rec_of(struct iol_slot *s)
{
    return iol_slot_rec(s);
}

static inline struct h5d_state *state_of(struct iol_slot *s)
{
    return iol_slot_state(s, sizeof(struct iolens_h5d_record));
}

struct iol_slot *iol_h5d_slot(hid_t id)
{
    return iol_h5_hid_slot(&datasets, id);
}

/* ---- names ---- */

/* The record name of the dataset name opened through loc, into buf, the
 * record id of its file into *file_id (0 when the file's name did not fit)
 * and where the dataset's path starts in buf into *set_at (0 then).
 * @return 0, or -1 if HDF5 cannot name the location (no record). */
static int dataset_name(hid_t loc, const char *name, char buf[NAME_CAP], uint64_t *file_id,
                        size_t *set_at)
{
    char clean[IOL_PATH_MAX];
    size_t room = NAME_CAP - 1;

    memset(buf, 0, NAME_CAP);
    *file_id = 0;
    *set_at = 0;
    ssize_t n = iol_h5.Fget_name ? iol_h5.Fget_name(loc, buf, room) : -1;
    if (n < 0)
        return -1;
    if ((size_t)n >= room)
        return 0; /* the file name cut short, as it came */
    int len = iol_posix_path_name(AT_FDCWD, buf, clean);
    if (len < 0)
        return -1;
    *file_id = iol_hash64(clean, (size_t)len, 0);
    size_t used = (size_t)len < room ? (size_t)len : room;
    memcpy(buf, clean, used);
    buf[used] = '\0';
    if (used + 2 > room)
        return 0;
    buf[used++] = ':';
    *set_at = used;
    room = NAME_CAP - 1 - used;
    n = iol_h5.Iget_name ? iol_h5.Iget_name(loc, buf + used, room) : -1;
    if (n < 0)
        return -1;
    if ((size_t)n < room && name) {
        used = strlen(buf);
        size_t add = strnlen(name, NAME_CAP - 1 - used);
        memcpy(buf + used, name, add);
        buf[used + add] = '\0';
    }
    return 0;
}

/* ---- live events ---- */

/* One event of record s (its lock held), with the connector's H5D fields:
 * the record's flushes, switches on reads and writes, its selection counts
 * and dataspace, the dataset's path; len the access's bytes (reads and
 * writes), no offset or max_byte. Out of line, so that the notes pay one
 * test when events are off. */
__attribute__((noinline, cold)) static void h5d_event(struct iol_slot *s, int op, int64_t len,
                                                      int64_t cnt, double t0, double t1,
                                                      double total)
{
    struct iolens_h5d_record *r = rec_of(s);
    struct h5d_state *st = state_of(s);
    int rw = op == IOL_EV_READ || op == IOL_EV_WRITE;
    struct iol_event_claim claim;
    struct iol_event *e = iol_events_begin(&claim, s, IOL_EV_H5D, op, t0, t1, total);
    if (!e)
        return;
    e->len = len;
    e->cnt = cnt;
    e->switches = rw ? r->counters[H5D_RW_SWITCHES] : -1;
    e->flushes = r->counters[H5D_FLUSHES];
    e->pt_sel = r->counters[H5D_POINT_SELECTS];
    e->irreg_hslab = r->counters[H5D_IRREGULAR_HYPERSLAB_SELECTS];
    e->reg_hslab = r->counters[H5D_REGULAR_HYPERSLAB_SELECTS];
    e->ndims = (int16_t)r->counters[H5D_DATASPACE_NDIMS];
    e->npoints = r->counters[H5D_DATASPACE_NPOINTS];
    e->data_set = st->set_at ? e->name + st->set_at : NULL;
    iol_events_commit(&claim);
}

/* ---- opens ---- */

/* What an open records of the dataset's dataspace, datatype and layout. */
struct dataset_shape {
    int64_t ndims, npoints, type_size;
    int nchunk; /* chunk dimensions known (< 0: not chunked) */
    hsize_t chunk[IOLENS_H5D_MAX_NDIMS];
};

static void shape_of(hid_t type, hid_t space, hid_t dcpl, struct dataset_shape *sh)
{
    memset(sh, 0, sizeof(*sh));
    sh->nchunk = -1;
    if (iol_h5.Sget_simple_extent_ndims)
        sh->ndims = iol_h5.Sget_simple_extent_ndims(space);
    if (iol_h5.Sget_simple_extent_npoints)
        sh->npoints = iol_h5.Sget_simple_extent_npoints(space);
    if (dcpl != H5P_DEFAULT && iol_h5.Pget_layout && iol_h5.Pget_chunk &&
        iol_h5.Pget_layout(dcpl) == H5D_CHUNKED) {
        sh->nchunk = iol_h5.Pget_chunk(dcpl, IOLENS_H5D_MAX_NDIMS, sh->chunk);
        if (sh->nchunk > IOLENS_H5D_MAX_NDIMS)
            sh->nchunk = IOLENS_H5D_MAX_NDIMS;
    }
    if (iol_h5.Tget_size)
        sh->type_size = (int64_t)iol_h5.Tget_size(type);
}

void iol_h5d_note_open(hid_t id, hid_t loc, const char *name, hid_t type, hid_t space,
                       hid_t dcpl, int deprecated, double t0, double t1)
{
    char rec_name[NAME_CAP];
    uint64_t file_id;
    size_t set_at;
    struct dataset_shape sh;

    if (id < 0 || dataset_name(loc, name, rec_name, &file_id, &set_at) != 0)
        return;
    shape_of(type, space, dcpl, &sh);
    struct iol_slot *s = iol_record_of_name(h5d_pool, rec_name, strlen(rec_name));
    if (!s || iol_slot_lock(s) != 0)
        return;
    struct iolens_h5d_record *r = rec_of(s);
    r->counters[H5D_OPENS]++;
    r->counters[H5D_USE_DEPRECATED] = deprecated;
    iol_set_start_end(&r->fcounters[H5D_F_OPEN_START_TIMESTAMP],
                      &r->fcounters[H5D_F_OPEN_END_TIMESTAMP], t0, t1);
    iol_add_time(&r->fcounters[H5D_F_META_TIME], t0, t1, &state_of(s)->last_meta_end);
    r->counters[H5D_DATASPACE_NDIMS] = sh.ndims;
    r->counters[H5D_DATASPACE_NPOINTS] = sh.npoints;
    /* D1 is the last (fastest-varying) dimension. */
    for (int i = 0; i < sh.nchunk; i++)
        r->counters[H5D_CHUNK_SIZE_D1 + i] = (int64_t)sh.chunk[sh.nchunk - i - 1];
    r->counters[H5D_DATATYPE_SIZE] = sh.type_size;
    r->file_rec_id = file_id;
    state_of(s)->set_at = set_at;
    if (iol_events_mask & IOL_EV_HDF5)
        h5d_event(s, IOL_EV_OPEN, -1, r->counters[H5D_OPENS], t0, t1,
                  r->fcounters[H5D_F_META_TIME]);
    iol_slot_unlock(s);
    iol_h5_hid_track(&datasets, id, s);
    iol_callsites_call(IOLENS_MOD_H5D, IOLENS_CALLSITES_OPEN, t0, t1);
}

void iol_h5d_note_reopen(hid_t id, hid_t loc, const char *name, int deprecated, double t0,
                         double t1)
{
    if (id < 0 || !iol_h5.Dget_type || !iol_h5.Dget_space || !iol_h5.Dget_create_plist ||
        !iol_h5.Tclose || !iol_h5.Sclose || !iol_h5.Pclose)
        return;
    hid_t type = iol_h5.Dget_type(id);
    if (type < 0)
        return;
    hid_t space = iol_h5.Dget_space(id);
    if (space >= 0) {
        hid_t dcpl = iol_h5.Dget_create_plist(id);
        if (dcpl >= 0) {
            iol_h5d_note_open(id, loc, name, type, space, dcpl, deprecated, t0, t1);
            iol_h5.Pclose(dcpl);
        }
        iol_h5.Sclose(space);
    }
    iol_h5.Tclose(type);
}

/* ---- reads and writes ---- */

/* The file selection of an access, asked of HDF5 before the record's lock. */
struct selection {
    int64_t npoints;   /* elements (H5S_ALL: the dataspace's, read under the lock) */
    H5S_sel_type type;
    int regular;       /* a hyperslab: 1 regular, 0 not */
    int64_t tuple[IOL_TUPLE_WORDS]; /* size (set later), lengths, strides */
};

static void selection_of(hid_t file_space, struct selection *sel)
{
    memset(sel, 0, sizeof(*sel));
    sel->type = H5S_SEL_ALL;
    if (file_space == H5S_ALL)
        return;
    sel->npoints = iol_h5.Sget_select_npoints ? iol_h5.Sget_select_npoints(file_space) : 0;
    sel->type = iol_h5.Sget_select_type ? iol_h5.Sget_select_type(file_space) : H5S_SEL_ERROR;
    if (sel->type != H5S_SEL_HYPERSLABS || !iol_h5.Sis_regular_hyperslab)
        return;
    /* Darshan takes any non-zero answer, an error too, as "regular". */
    sel->regular = iol_h5.Sis_regular_hyperslab(file_space) != 0;
    if (!sel->regular || !iol_h5.Sget_regular_hyperslab)
        return;
    hsize_t start[H5S_MAX_RANK] = {0}, stride[H5S_MAX_RANK] = {0};
    hsize_t count[H5S_MAX_RANK] = {0}, block[H5S_MAX_RANK] = {0};
    iol_h5.Sget_regular_hyperslab(file_space, start, stride, count, block);
    /* Darshan's order: D1 from the fifth dimension down to D5 from the first. */
    for (int i = 0; i < IOLENS_H5D_MAX_NDIMS; i++) {
        int d = IOLENS_H5D_MAX_NDIMS - i - 1;
        sel->tuple[1 + i] = (int64_t)(count[d] * block[d]);
        sel->tuple[1 + IOLENS_H5D_MAX_NDIMS + i] = (int64_t)stride[d];
    }
}

/* Darshan's histogram bucket of a size held in a size_t: a negative size
 * (an error's -1 elements) is a huge one. */
static int bucket_of(int64_t size)
{
    return size < 0 ? 9 : iol_size_bucket(size);
}

void iol_h5d_note_rw(struct iol_slot *s, int is_write, hid_t file_space, hid_t dxpl, double t0,
                     double t1)
{
    struct selection sel;
    selection_of(file_space, &sel);
    int collective = dxpl != H5P_DEFAULT && iol_h5_dxpl_is_collective(dxpl);
    if (iol_slot_lock(s) != 0)
        return;
    struct iolens_h5d_record *r = rec_of(s);
    struct h5d_state *st = state_of(s);
    int io = is_write ? IO_WRITE : IO_READ;
    r->counters[is_write ? H5D_WRITES : H5D_READS]++;
    if (st->last_io_type == (is_write ? IO_READ : IO_WRITE))
        r->counters[H5D_RW_SWITCHES]++;
    st->last_io_type = io;
    if (file_space == H5S_ALL)
        sel.npoints = r->counters[H5D_DATASPACE_NPOINTS];
    if (sel.type == H5S_SEL_POINTS)
        r->counters[H5D_POINT_SELECTS]++;
    else if (sel.type == H5S_SEL_HYPERSLABS)
        r->counters[sel.regular ? H5D_REGULAR_HYPERSLAB_SELECTS
                                : H5D_IRREGULAR_HYPERSLAB_SELECTS]++;
    int64_t size = (int64_t)((uint64_t)sel.npoints * (uint64_t)r->counters[H5D_DATATYPE_SIZE]);
    r->counters[is_write ? H5D_BYTES_WRITTEN : H5D_BYTES_READ] += size;
    r->counters[(is_write ? H5D_SIZE_WRITE_AGG_0_100 : H5D_SIZE_READ_AGG_0_100) +
                bucket_of(size)]++;
    sel.tuple[0] = size;
    iol_tuples_note(&st->shapes, &r->counters[H5D_ACCESS1_ACCESS],
                    &r->counters[H5D_ACCESS1_COUNT], sel.tuple);
    if (collective)
        r->counters[H5D_USE_MPIIO_COLLECTIVE] = 1;
    if (is_write) {
        iol_set_start_end(&r->fcounters[H5D_F_WRITE_START_TIMESTAMP],
                          &r->fcounters[H5D_F_WRITE_END_TIMESTAMP], t0, t1);
        if (r->fcounters[H5D_F_MAX_WRITE_TIME] < t1 - t0) {
            r->fcounters[H5D_F_MAX_WRITE_TIME] = t1 - t0;
            r->counters[H5D_MAX_WRITE_TIME_SIZE] = size;
        }
        iol_add_time(&r->fcounters[H5D_F_WRITE_TIME], t0, t1, &st->last_write_end);
    } else {
        iol_set_start_end(&r->fcounters[H5D_F_READ_START_TIMESTAMP],
                          &r->fcounters[H5D_F_READ_END_TIMESTAMP], t0, t1);
        if (r->fcounters[H5D_F_MAX_READ_TIME] < t1 - t0) {
            r->fcounters[H5D_F_MAX_READ_TIME] = t1 - t0;
            r->counters[H5D_MAX_READ_TIME_SIZE] = size;
        }
        iol_add_time(&r->fcounters[H5D_F_READ_TIME], t0, t1, &st->last_read_end);
    }
    if (iol_events_mask & IOL_EV_HDF5)
        h5d_event(s, is_write ? IOL_EV_WRITE : IOL_EV_READ, size,
                  r->counters[is_write ? H5D_WRITES : H5D_READS], t0, t1,
                  r->fcounters[is_write ? H5D_F_WRITE_TIME : H5D_F_READ_TIME]);
    iol_slot_unlock(s);
    if (__builtin_expect(iol_callsites_on, 0))
        iol_callsites_note(IOLENS_MOD_H5D, is_write, size, t0, t1, __builtin_return_address(0));
}

/* ---- flush and close ---- */

void iol_h5d_note_flush(struct iol_slot *s, double t0, double t1)
{
    if (iol_slot_lock(s) != 0)
        return;
    struct iolens_h5d_record *r = rec_of(s);
    r->counters[H5D_FLUSHES]++;
    iol_add_time(&r->fcounters[H5D_F_META_TIME], t0, t1, &state_of(s)->last_meta_end);
    if (iol_events_mask & IOL_EV_HDF5)
        h5d_event(s, IOL_EV_FLUSH, -1, r->counters[H5D_FLUSHES], t0, t1,
                  r->fcounters[H5D_F_META_TIME]);
    iol_slot_unlock(s);
    iol_callsites_call(IOLENS_MOD_H5D, IOLENS_CALLSITES_FLUSH, t0, t1);
}

void iol_h5d_note_close(struct iol_slot *s, hid_t id, double t0, double t1)
{
    if (iol_slot_lock(s) == 0) {
        struct iolens_h5d_record *r = rec_of(s);
        struct h5d_state *st = state_of(s);
        iol_set_start_end(&r->fcounters[H5D_F_CLOSE_START_TIMESTAMP],
                          &r->fcounters[H5D_F_CLOSE_END_TIMESTAMP], t0, t1);
        iol_add_time(&r->fcounters[H5D_F_META_TIME], t0, t1, &st->last_meta_end);
        st->closes++;
        if (iol_events_mask & IOL_EV_HDF5)
            h5d_event(s, IOL_EV_CLOSE, -1, st->closes, t0, t1, r->fcounters[H5D_F_META_TIME]);
        iol_slot_unlock(s);
    }
    iol_h5_hid_forget(&datasets, id);
    iol_callsites_call(IOLENS_MOD_H5D, IOLENS_CALLSITES_CLOSE, t0, t1);
}

/* ---- the module ---- */

static void h5d_init_record(struct iolens_record_base *rec, void *state, const char *name)
{
    (void)rec;
    (void)state;
    (void)name;
}

/* A fresh record set (start, fork child, failed exec): identifiers tracked
 * so far point into the earlier set's records. */
static void h5d_start(struct iol_pool *pool)
{
    iol_h5_hid_clear(&datasets);
    h5d_pool = pool;
}

static const struct iol_binding_table *const h5d_tables[] = {&iol_h5d_bindings, NULL};

const struct iol_module iol_h5d_module = {
    .id = IOLENS_MOD_H5D,
    .name = "H5D",
    .version = IOLENS_H5D_VERSION,
    .record_size = sizeof(struct iolens_h5d_record),
    .state_size = sizeof(struct h5d_state),
    .names_are_paths = 1,
    .bindings = h5d_tables,
    .bindings_at_first_use = 1, /* iol_h5_next: most programs have no HDF5 */
    .init_record = h5d_init_record,
    .start = h5d_start,
};
