/* H5F module: H5Fcreate, H5Fopen, H5Fflush and H5Fclose, the record of each
 * file (named after the file's path, cleaned as POSIX names it, once a
 * "prefix:" of more than one character is dropped as ROMIO does) and its
 * counters. Each wrapper: the HDF5 library's definition (looked up at first
 * use; none: the call fails with -1), the real call timed, then the note
 * function, which takes the record's own lock. */
#include <fcntl.h>
#include <string.h>

#include "callsites/callsites.h"
#include "core/counting.h"
#include "events/events.h"
#include "h5_hid.h"
#include "h5_lib.h"
#include "h5_mods.h"
#include "iolens/modules/h5f.h"
#include "posix/posix.h"

/* Per-record state that is not part of the log record. */
struct h5f_state {
    double last_meta_end; /* end of the last timed call: overlaps count once */
    int64_t closes;       /* closes counted: the close event's cnt */
};

static struct iol_pool *h5f_pool;
static struct iol_h5_hids files;

static inline struct iolens_h5f_record *rec_of(struct iol_slot *s)
{
    return iol_slot_rec(s);
}

static inline struct h5f_state *state_of(struct iol_slot *s)
{
    return iol_slot_state(s, sizeof(struct iolens_h5f_record));
}

/* ---- updates ---- */

/* One event of record s (its lock held), with the connector's H5F fields:
 * the record's flushes, no max_byte, offset, length or switches. Out of
 * line, so that the notes pay one test when events are off. */
__attribute__((noinline, cold)) static void h5f_event(struct iol_slot *s, int op, int64_t cnt,
                                                      double t0, double t1)
{
    struct iolens_h5f_record *r = rec_of(s);
    struct iol_event_claim claim;
    struct iol_event *e =
        iol_events_begin(&claim, s, IOL_EV_HDF5, op, t0, t1, r->fcounters[H5F_F_META_TIME]);
    if (!e)
        return;
    e->off = -1;
    e->len = -1;
    e->cnt = cnt;
    e->max_byte = -1;
    e->switches = -1;
    e->flushes = r->counters[H5F_FLUSHES];
    iol_events_commit(&claim);
}

/* H5Fcreate or H5Fopen of path with the access list fapl returned id. */
static void note_open(hid_t id, const char *path, hid_t fapl, double t0, double t1)
{
    if (id < 0 || !path)
        return;
    const char *colon = strchr(path, ':');
    if (colon && colon > path + 1)
        path = colon + 1;
    int use_mpio = fapl != H5P_DEFAULT && iol_h5_fapl_is_mpio(fapl);
    struct iol_slot *s = iol_path_record(h5f_pool, AT_FDCWD, path);
    if (!s || iol_slot_lock(s) != 0)
        return;
    struct iolens_h5f_record *r = rec_of(s);
    r->counters[H5F_USE_MPIIO] = use_mpio;
    r->counters[H5F_OPENS]++;
    iol_set_start_end(&r->fcounters[H5F_F_OPEN_START_TIMESTAMP],
                      &r->fcounters[H5F_F_OPEN_END_TIMESTAMP], t0, t1);
    iol_add_time(&r->fcounters[H5F_F_META_TIME], t0, t1, &state_of(s)->last_meta_end);
    if (iol_events_mask & IOL_EV_HDF5)
        h5f_event(s, IOL_EV_OPEN, r->counters[H5F_OPENS], t0, t1);
    iol_slot_unlock(s);
    iol_h5_hid_track(&files, id, s);
    iol_callsites_call(IOLENS_MOD_H5F, IOLENS_CALLSITES_OPEN, t0, t1);
}

/* A flush of the tracked file s. */
static void note_flush(struct iol_slot *s, double t0, double t1)
{
    if (iol_slot_lock(s) != 0)
        return;
    struct iolens_h5f_record *r = rec_of(s);
    r->counters[H5F_FLUSHES]++;
    iol_add_time(&r->fcounters[H5F_F_META_TIME], t0, t1, &state_of(s)->last_meta_end);
    if (iol_events_mask & IOL_EV_HDF5)
        h5f_event(s, IOL_EV_FLUSH, r->counters[H5F_FLUSHES], t0, t1);
    iol_slot_unlock(s);
    iol_callsites_call(IOLENS_MOD_H5F, IOLENS_CALLSITES_FLUSH, t0, t1);
}

/* The tracked file s, open as id, was closed. */
static void note_close(struct iol_slot *s, hid_t id, double t0, double t1)
{
    if (iol_slot_lock(s) == 0) {
        struct iolens_h5f_record *r = rec_of(s);
        struct h5f_state *st = state_of(s);
        iol_set_start_end(&r->fcounters[H5F_F_CLOSE_START_TIMESTAMP],
                          &r->fcounters[H5F_F_CLOSE_END_TIMESTAMP], t0, t1);
        iol_add_time(&r->fcounters[H5F_F_META_TIME], t0, t1, &st->last_meta_end);
        st->closes++;
        if (iol_events_mask & IOL_EV_HDF5)
            h5f_event(s, IOL_EV_CLOSE, st->closes, t0, t1);
        iol_slot_unlock(s);
    }
    iol_h5_hid_forget(&files, id);
    iol_callsites_call(IOLENS_MOD_H5F, IOLENS_CALLSITES_CLOSE, t0, t1);
}

/* ---- wrappers ---- */

typedef hid_t (*fcreate_fn)(const char *, unsigned, hid_t, hid_t);
typedef hid_t (*fopen_fn)(const char *, unsigned, hid_t);
typedef herr_t (*fflush_fn)(hid_t, H5F_scope_t);
typedef herr_t (*fclose_fn)(hid_t);

static fcreate_fn real_fcreate;
static fopen_fn real_fopen;
static fflush_fn real_fflush;
static fclose_fn real_fclose;

IOL_EXPORT hid_t H5Fcreate(const char *filename, unsigned flags, hid_t fcpl, hid_t fapl)
{
    fcreate_fn real = (fcreate_fn)iol_h5_next((void **)&real_fcreate, "H5Fcreate");
    if (!real)
        return H5I_INVALID_HID;
    if (!iol_h5_recording())
        return real(filename, flags, fcpl, fapl);
    double t0 = iol_now();
    hid_t ret = real(filename, flags, fcpl, fapl);
    double t1 = iol_now();
    note_open(ret, filename, fapl, t0, t1);
    return ret;
}

IOL_EXPORT hid_t H5Fopen(const char *filename, unsigned flags, hid_t fapl)
{
    fopen_fn real = (fopen_fn)iol_h5_next((void **)&real_fopen, "H5Fopen");
    if (!real)
        return H5I_INVALID_HID;
    if (!iol_h5_recording())
        return real(filename, flags, fapl);
    double t0 = iol_now();
    hid_t ret = real(filename, flags, fapl);
    double t1 = iol_now();
    note_open(ret, filename, fapl, t0, t1);
    return ret;
}

/* H5Fflush takes any object of a file: the file is found through the
 * identifier H5Iget_file_id gives (a new reference, released with the real
 * H5Fclose, which is not counted as a close). */
IOL_EXPORT herr_t H5Fflush(hid_t object_id, H5F_scope_t scope)
{
    fflush_fn real = (fflush_fn)iol_h5_next((void **)&real_fflush, "H5Fflush");
    if (!real)
        return -1;
    if (!iol_h5_recording())
        return real(object_id, scope);
    double t0 = iol_now();
    herr_t ret = real(object_id, scope);
    double t1 = iol_now();
    fclose_fn release = (fclose_fn)iol_h5_next((void **)&real_fclose, "H5Fclose");
    if (ret < 0 || !iol_h5.Iget_file_id || !release)
        return ret;
    hid_t file_id = iol_h5.Iget_file_id(object_id);
    if (file_id <= 0)
        return ret;
    struct iol_slot *s = iol_h5_hid_slot(&files, file_id);
    if (s)
        note_flush(s, t0, t1);
    release(file_id);
    return ret;
}

IOL_EXPORT herr_t H5Fclose(hid_t file_id)
{
    fclose_fn real = (fclose_fn)iol_h5_next((void **)&real_fclose, "H5Fclose");
    if (!real)
        return -1;
    struct iol_slot *s = iol_h5_recording() ? iol_h5_hid_slot(&files, file_id) : NULL;
    if (!s)
        return real(file_id);
    double t0 = iol_now();
    herr_t ret = real(file_id);
    double t1 = iol_now();
    if (ret >= 0)
        note_close(s, file_id, t0, t1);
    return ret;
}

static const struct iol_binding bindings[] = {
    {"H5Fcreate", (void *)H5Fcreate, (void **)&real_fcreate},
    {"H5Fopen", (void *)H5Fopen, (void **)&real_fopen},
    {"H5Fflush", (void *)H5Fflush, (void **)&real_fflush},
    {"H5Fclose", (void *)H5Fclose, (void **)&real_fclose},
};

static const struct iol_binding_table h5f_bindings = {
    bindings, sizeof(bindings) / sizeof(bindings[0]),
};

/* ---- the module ---- */

static void h5f_init_record(struct iolens_record_base *rec, void *state, const char *name)
{
    (void)rec;
    (void)state;
    (void)name;
}

/* A fresh record set (start, fork child, failed exec): identifiers tracked
 * so far point into the earlier set's records. */
static void h5f_start(struct iol_pool *pool)
{
    iol_h5_hid_clear(&files);
    h5f_pool = pool;
}

static const struct iol_binding_table *const h5f_tables[] = {&h5f_bindings, NULL};

const struct iol_module iol_h5f_module = {
    .id = IOLENS_MOD_H5F,
    .name = "H5F",
    .version = IOLENS_H5F_VERSION,
    .record_size = sizeof(struct iolens_h5f_record),
    .state_size = sizeof(struct h5f_state),
    .names_are_paths = 1,
    .bindings = h5f_tables,
    .bindings_at_first_use = 1, /* iol_h5_next: most programs have no HDF5 */
    .init_record = h5f_init_record,
    .start = h5f_start,
};
