/* STDIO module: the stream table, the standard streams and the counter
 * updates. The wrappers are in stdio_open.c, stdio_rw.c and stdio_fmt.c;
 * each one calls exactly one of the stdio_note_* functions below, which
 * take the record's own lock (never one shared by all streams). */
#include "stdio_mod.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>

#include "common/hash.h"
#include "callsites/callsites.h"
#include "core/counting.h"
#include "core/diag.h"
#include "posix/fdtab.h"
#include "dxt/dxt.h"
#include "events/events.h"
#include "heatmap/heatmap.h"
#include "posix/posix.h"

unsigned char iol_stdio_rw_extra;

/* Per-record state that is not part of the log record. */
struct stdio_state {
    double last_meta_end; /* ends of the last timed operations, so that */
    double last_read_end; /* overlapping calls (threads) are not counted */
    double last_write_end; /* twice in the cumulative times */
    void *dxt;             /* the file's DXT_STDIO record (dxt/dxt.h), NULL until
                            * its first traced access */
    int64_t closes;        /* closes so far: the count of close events, as Darshan's
                            * connector sends it (the log has no such counter) */
};

struct stdio_table iol_stdio_tab;
_Atomic int iol_stdio_called;
static struct iol_pool *stdio_pool;
static int std_registered;

static inline struct iolens_stdio_record *rec_of(struct iol_slot *s)
{
    return iol_slot_rec(s);
}

static inline struct stdio_state *state_of(struct iol_slot *s)
{
    return iol_slot_state(s, sizeof(struct iolens_stdio_record));
}

/* ---- the stream table ---- */

static int table_init(void)
{
    uint32_t n = iol_fdtab.size ? iol_fdtab.size : 1024;
    void *p = iol_sys_mmap(NULL, (size_t)n * sizeof(struct stdio_stream),
                           PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                           -1, 0);
    if (p == MAP_FAILED)
        return -1;
    iol_stdio_tab.e = p;
    atomic_store_explicit(&iol_stdio_tab.high, 0, memory_order_relaxed);
    iol_stdio_tab.size = n;
    return 0;
}

static void note_high(unsigned fd)
{
    uint32_t h = atomic_load_explicit(&iol_stdio_tab.high, memory_order_relaxed);
    while (fd + 1 > h &&
           !atomic_compare_exchange_weak_explicit(&iol_stdio_tab.high, &h, fd + 1,
                                                  memory_order_relaxed, memory_order_relaxed))
        ;
}

/* One event of record slot (its lock held), out of line: with events off a
 * note pays one test of iol_events_mask. Fields as Darshan's connector
 * sends them for STDIO: no switches; flushes on writes and close. */
__attribute__((noinline, cold)) static void stdio_event(struct iol_slot *slot, int op, int64_t off,
                                                        int64_t len, double t0, double t1)
{
    struct iolens_stdio_record *r = rec_of(slot);
    const int64_t *c = r->counters;
    int64_t cnt = op == IOL_EV_READ    ? c[STDIO_READS]
                  : op == IOL_EV_WRITE ? c[STDIO_WRITES]
                  : op == IOL_EV_FLUSH ? c[STDIO_FLUSHES]
                  : op == IOL_EV_CLOSE ? state_of(slot)->closes
                                       : c[STDIO_OPENS];
    int timer = op == IOL_EV_READ                         ? STDIO_F_READ_TIME
                : op == IOL_EV_WRITE || op == IOL_EV_FLUSH ? STDIO_F_WRITE_TIME
                                                           : STDIO_F_META_TIME;
    struct iol_event_claim claim;
    struct iol_event *e =
        iol_events_begin(&claim, slot, IOL_EV_STDIO, op, t0, t1, r->fcounters[timer]);
    if (!e)
        return;
    e->off = off;
    e->len = len;
    e->cnt = cnt;
    e->max_byte = op == IOL_EV_READ    ? c[STDIO_MAX_BYTE_READ]
                  : op == IOL_EV_WRITE ? c[STDIO_MAX_BYTE_WRITTEN]
                                       : -1;
    e->switches = -1;
    e->flushes = op == IOL_EV_OPEN || op == IOL_EV_READ ? -1 : c[STDIO_FLUSHES];
    iol_events_commit(&claim);
}

static void count_open(struct iol_slot *slot, int fdopen, double t0, double t1)
{
    if (iol_slot_lock(slot) != 0)
        return;
    struct iolens_stdio_record *r = rec_of(slot);
    r->counters[STDIO_OPENS]++;
    if (fdopen)
        r->counters[STDIO_FDOPENS]++;
    iol_set_start_end(&r->fcounters[STDIO_F_OPEN_START_TIMESTAMP],
                      &r->fcounters[STDIO_F_OPEN_END_TIMESTAMP], t0, t1);
    iol_add_time(&r->fcounters[STDIO_F_META_TIME], t0, t1, &state_of(slot)->last_meta_end);
    if (iol_events_mask & IOL_EV_STDIO)
        stdio_event(slot, IOL_EV_OPEN, -1, -1, t0, t1);
    iol_slot_unlock(slot);
    /* a standard stream's open at time 0 is no call of the program */
    if (__builtin_expect(iol_callsites_on, 0) && t1 > 0)
        iol_callsites_note(IOLENS_MOD_STDIO, IOLENS_CALLSITES_OPEN, 0, t0, t1,
                           __builtin_return_address(0));
}

/* The record of a standard stream was just made in its kept slot: counted
 * as opened at time 0, as Darshan's is, and unlisted until it moves bytes
 * (see list_record). */
static void std_made(struct stdio_stream *s, struct iol_slot *slot, uint64_t id)
{
    __atomic_store_n(&rec_of(slot)->base.id, 0, __ATOMIC_RELEASE);
    atomic_store_explicit(&s->unlisted_id, id, memory_order_relaxed);
    count_open(slot, 0, 0, 0);
}

/* The record of a stream inherited from an earlier record set (fork, failed
 * exec), or of a standard stream, created at its first use. One thread
 * creates it; the others wait for it (threads that all start printing at
 * once would otherwise go uncounted until it exists), except a signal
 * handler that interrupted the creating thread. @return it, or NULL. */
static struct iol_slot *stream_slot_inherited(struct stdio_stream *s)
{
    if (iol_owner_lock(&s->maker) != 0)
        return NULL;
    uint64_t id = atomic_exchange_explicit(&s->pending_id, 0, memory_order_acq_rel);
    const char *name = atomic_load_explicit(&s->name, memory_order_acquire);
    uint32_t res = s->is_std ? s->std_res : 0;
    struct iol_slot *slot = id && name && stdio_pool ? iol_record_get_in(stdio_pool, id, name, res)
                                                     : NULL;
    if (slot) {
        if (res)
            std_made(s, slot, id);
        else
            atomic_store_explicit(&s->name, iol_record_name(slot), memory_order_release);
        atomic_store_explicit(&s->slot, slot, memory_order_release);
    }
    iol_owner_unlock(&s->maker);
    return atomic_load_explicit(&s->slot, memory_order_acquire);
}

/* The record of s. @return it, or NULL (not kept). */
static inline struct iol_slot *stream_slot(struct stdio_stream *s)
{
    struct iol_slot *slot = atomic_load_explicit(&s->slot, memory_order_acquire);
    return slot ? slot : stream_slot_inherited(s);
}

/* A standard stream's record enters the log at its first read or write
 * (Darshan drops standard streams that never moved a byte). */
static void list_record(struct stdio_stream *s, struct iol_slot *slot)
{
    if (!atomic_load_explicit(&s->unlisted_id, memory_order_relaxed))
        return;
    uint64_t id = atomic_exchange_explicit(&s->unlisted_id, 0, memory_order_relaxed);
    if (id)
        __atomic_store_n(&rec_of(slot)->base.id, id, __ATOMIC_RELEASE);
}

/* Fill the entry of descriptor fd for f (unpublished until the end). */
static void set_entry(struct stdio_stream *e, FILE *f, struct iol_slot *slot, const char *name,
                      int64_t pos, int append, int64_t end)
{
    atomic_store_explicit(&e->file, NULL, memory_order_relaxed);
    atomic_store_explicit(&e->slot, slot, memory_order_relaxed);
    atomic_store_explicit(&e->name, name, memory_order_relaxed);
    atomic_store_explicit(&e->pending_id, 0, memory_order_relaxed);
    atomic_store_explicit(&e->maker, 0, memory_order_relaxed);
    atomic_store_explicit(&e->unlisted_id, 0, memory_order_relaxed);
    e->pos = pos;
    e->end = end;
    e->append = append;
    e->is_std = 0;
    e->std_waiting = NULL;
    atomic_store_explicit(&e->file, f, memory_order_release);
}

struct iol_slot *stdio_record(const char *name)
{
    return name && stdio_pool ? iol_record_of_name(stdio_pool, name, strlen(name)) : NULL;
}

struct iol_slot *stdio_path_record(const char *path)
{
    return iol_path_record(stdio_pool, AT_FDCWD, path);
}

void stdio_note_open(FILE *f, struct iol_slot *slot, int64_t pos, int append, int64_t end,
                     enum stdio_open_kind kind, double t0, double t1)
{
    unsigned fd = f ? (unsigned)iol_stdio_fd_of(f) : ~0u;
    if (fd >= iol_stdio_tab.size)
        return;
    struct stdio_stream *e = &iol_stdio_tab.e[fd];
    if (!slot) {
        /* Not recorded: make sure no stale entry claims this stream. */
        FILE *expect = f;
        atomic_compare_exchange_strong(&e->file, &expect, NULL);
        return;
    }
    set_entry(e, f, slot, iol_record_name(slot), pos, append, end);
    note_high(fd);
    if (kind != STDIO_OPEN_UNCOUNTED)
        count_open(slot, kind == STDIO_OPEN_FD, t0, t1);
}

struct iol_slot *stdio_forget(struct stdio_stream *s)
{
    struct iol_slot *slot = stream_slot(s);
    atomic_store_explicit(&s->file, NULL, memory_order_release);
    return slot;
}

void stdio_note_close(struct iol_slot *slot, double t0, double t1)
{
    if (!slot || iol_slot_lock(slot) != 0)
        return;
    struct iolens_stdio_record *r = rec_of(slot);
    iol_set_start_end(&r->fcounters[STDIO_F_CLOSE_START_TIMESTAMP],
                      &r->fcounters[STDIO_F_CLOSE_END_TIMESTAMP], t0, t1);
    iol_add_time(&r->fcounters[STDIO_F_META_TIME], t0, t1, &state_of(slot)->last_meta_end);
    state_of(slot)->closes++;
    if (iol_events_mask & IOL_EV_STDIO)
        stdio_event(slot, IOL_EV_CLOSE, -1, -1, t0, t1);
    iol_slot_unlock(slot);
    iol_callsites_call(IOLENS_MOD_STDIO, IOLENS_CALLSITES_CLOSE, t0, t1);
}

/* ---- data ---- */

/* DXT_STDIO is on: one segment for the record slot (its lock held). Kept
 * out of line, so that with DXT off a read or write pays one flag test. */
__attribute__((noinline, cold)) static void dxt_note(struct iol_slot *slot, int is_write,
                                                     int64_t at, int64_t bytes, double t0,
                                                     double t1)
{
    iol_dxt_stdio_note(slot, &state_of(slot)->dxt, is_write, at, bytes, t0, t1);
}

/* The end of a read or write note, the record's lock held: the trace
 * segment and the event when on, the lock released, the record listed, and
 * the call site noted when on (its stack walk is long: not under the lock).
 * Inlined, so that the call site's return address is the note's. */
static inline __attribute__((always_inline)) void rw_done(struct stdio_stream *s,
                                                          struct iol_slot *slot, int is_write,
                                                          int64_t at, int64_t bytes, double t0,
                                                          double t1)
{
    if (__builtin_expect(iol_stdio_rw_extra, 0)) {
        if (iol_stdio_rw_extra & IOL_STDIO_RW_DXT)
            dxt_note(slot, is_write, at, bytes, t0, t1);
        if (iol_stdio_rw_extra & IOL_STDIO_RW_EVENTS)
            stdio_event(slot, is_write ? IOL_EV_WRITE : IOL_EV_READ, at, bytes, t0, t1);
        if (iol_stdio_rw_extra & IOL_STDIO_RW_CALLSITES) {
            iol_slot_unlock(slot);
            list_record(s, slot);
            iol_callsites_note(IOLENS_MOD_STDIO,
                               is_write ? IOLENS_CALLSITES_WRITE : IOLENS_CALLSITES_READ, bytes,
                               t0, t1, __builtin_return_address(0));
            return;
        }
    }
    iol_slot_unlock(slot);
    list_record(s, slot);
}

/* A read of bytes (>= 0) at the stream's position. */
static void count_read(struct stdio_stream *s, int64_t bytes, double t0, double t1)
{
    struct iol_slot *slot = stream_slot(s);
    if (!slot)
        return;
    iol_heatmap_update(IOL_HEATMAP_STDIO, 0, bytes, t0, t1);
    if (iol_slot_lock(slot) != 0)
        return;
    struct iolens_stdio_record *r = rec_of(slot);
    int64_t at = s->pos;
    s->pos = at + bytes;
    if (bytes > 0 && r->counters[STDIO_MAX_BYTE_READ] < at + bytes - 1)
        r->counters[STDIO_MAX_BYTE_READ] = at + bytes - 1;
    r->counters[STDIO_BYTES_READ] += bytes;
    r->counters[STDIO_READS]++;
    iol_set_start_end(&r->fcounters[STDIO_F_READ_START_TIMESTAMP],
                      &r->fcounters[STDIO_F_READ_END_TIMESTAMP], t0, t1);
    iol_add_time(&r->fcounters[STDIO_F_READ_TIME], t0, t1, &state_of(slot)->last_read_end);
    rw_done(s, slot, 0, at, bytes, t0, t1);
}

void stdio_note_read(struct stdio_stream *s, int64_t bytes, double t0, double t1)
{
    if (bytes > 0)
        count_read(s, bytes, t0, t1);
}

void stdio_note_scan(struct stdio_stream *s, int ret, int64_t p0, int64_t p1, double t0,
                     double t1)
{
    if (p0 >= 0 && p1 >= 0) {
        if (p1 > p0)
            count_read(s, p1 - p0, t0, t1);
    } else if (ret > 0) {
        count_read(s, 0, t0, t1);
    }
}

void stdio_note_write(struct stdio_stream *s, int64_t bytes, double t0, double t1)
{
    struct iol_slot *slot = bytes > 0 ? stream_slot(s) : NULL;
    if (!slot)
        return;
    iol_heatmap_update(IOL_HEATMAP_STDIO, 1, bytes, t0, t1);
    if (iol_slot_lock(slot) != 0)
        return;
    struct iolens_stdio_record *r = rec_of(slot);
    int64_t at;
    if (s->append) { /* the C library writes at the end of file */
        at = s->end;
        s->pos = s->end = at + bytes;
    } else {
        at = s->pos;
        s->pos = at + bytes;
    }
    if (r->counters[STDIO_MAX_BYTE_WRITTEN] < at + bytes - 1)
        r->counters[STDIO_MAX_BYTE_WRITTEN] = at + bytes - 1;
    r->counters[STDIO_BYTES_WRITTEN] += bytes;
    r->counters[STDIO_WRITES]++;
    iol_set_start_end(&r->fcounters[STDIO_F_WRITE_START_TIMESTAMP],
                      &r->fcounters[STDIO_F_WRITE_END_TIMESTAMP], t0, t1);
    iol_add_time(&r->fcounters[STDIO_F_WRITE_TIME], t0, t1, &state_of(slot)->last_write_end);
    rw_done(s, slot, 1, at, bytes, t0, t1);
}

/* Darshan times a flush as a write (it is where buffered bytes reach the
 * file), but it moves no byte: STDIO_MAX_BYTE_WRITTEN stays. */
void stdio_note_flush(struct stdio_stream *s, double t0, double t1)
{
    struct iol_slot *slot = stream_slot(s);
    if (!slot || iol_slot_lock(slot) != 0)
        return;
    struct iolens_stdio_record *r = rec_of(slot);
    r->counters[STDIO_FLUSHES]++;
    iol_set_start_end(&r->fcounters[STDIO_F_WRITE_START_TIMESTAMP],
                      &r->fcounters[STDIO_F_WRITE_END_TIMESTAMP], t0, t1);
    iol_add_time(&r->fcounters[STDIO_F_WRITE_TIME], t0, t1, &state_of(slot)->last_write_end);
    if (iol_events_mask & IOL_EV_STDIO)
        stdio_event(slot, IOL_EV_FLUSH, -1, -1, t0, t1);
    iol_slot_unlock(slot);
    iol_callsites_call(IOLENS_MOD_STDIO, IOLENS_CALLSITES_FLUSH, t0, t1);
}

void stdio_note_seek(struct stdio_stream *s, int64_t pos, double t0, double t1)
{
    struct iol_slot *slot = stream_slot(s);
    if (!slot || iol_slot_lock(slot) != 0)
        return;
    struct iolens_stdio_record *r = rec_of(slot);
    if (pos >= 0)
        s->pos = pos;
    r->counters[STDIO_SEEKS]++;
    iol_add_time(&r->fcounters[STDIO_F_META_TIME], t0, t1, &state_of(slot)->last_meta_end);
    iol_slot_unlock(slot);
    iol_callsites_call(IOLENS_MOD_STDIO, IOLENS_CALLSITES_SEEK, t0, t1);
}

/* Position changes that count nothing create no record: a stream inherited
 * through fork and only asked for its position stays out of the log. */
static void set_pos(struct stdio_stream *s, int64_t pos, int back)
{
    struct iol_slot *slot = atomic_load_explicit(&s->slot, memory_order_acquire);
    if (slot && iol_slot_lock(slot) != 0)
        return;
    if (back)
        pos = s->pos > 0 ? s->pos - 1 : 0;
    if (pos >= 0)
        s->pos = pos;
    if (slot)
        iol_slot_unlock(slot);
}

void stdio_note_pos(struct stdio_stream *s, int64_t pos)
{
    set_pos(s, pos, 0);
}

void stdio_note_unget(struct stdio_stream *s)
{
    set_pos(s, -1, 1);
}

/* ---- standard streams, and what POSIX asks ---- */

/* A standard stream is known from the program's first STDIO call on, as in
 * Darshan, whose STDIO module starts there and makes the three records
 * first: until then its entry waits unpublished (std_waiting). Published,
 * it takes its record's place in the pool (iol_record_reserve), but the
 * record is made at the stream's first use (std_made) and listed only once
 * it moves bytes. Its position carries over from an earlier record set. */
static void register_std(FILE *f, const char *name)
{
    unsigned fd = f ? (unsigned)iol_stdio_fd_of(f) : ~0u;
    if (fd >= iol_stdio_tab.size)
        return;
    struct stdio_stream *e = &iol_stdio_tab.e[fd];
    int64_t pos = atomic_load_explicit(&e->file, memory_order_relaxed) == f ? e->pos : 0;
    set_entry(e, NULL, NULL, name, pos, 0, 0);
    e->is_std = 1;
    e->std_waiting = f;
    atomic_store_explicit(&e->pending_id, iol_hash64(name, strlen(name), 0),
                          memory_order_release);
    note_high(fd);
}

/* Give the waiting standard stream e its place, and publish it (or drop it
 * when the pool has no room, as Darshan's record then fails). */
static void publish_std(struct stdio_stream *e)
{
    FILE *f = e->std_waiting, *expect = NULL;
    e->std_waiting = NULL;
    const char *name = atomic_load_explicit(&e->name, memory_order_relaxed);
    if (!f || !(e->std_res = iol_record_reserve(stdio_pool, name)))
        return;
    atomic_compare_exchange_strong_explicit(&e->file, &expect, f, memory_order_acq_rel,
                                            memory_order_relaxed);
}

static const char *stdio_stream_name(FILE *f)
{
    struct stdio_stream *s = iol_stdio_lookup(f);
    return s ? atomic_load_explicit(&s->name, memory_order_acquire) : NULL;
}

/* Held while the first call publishes the standard streams. */
static _Atomic uint64_t first_call_lock;

void iol_stdio_first_call(void)
{
    if (iol_owner_lock(&first_call_lock) != 0)
        return; /* a signal handler interrupted this thread's publishing */
    if (!atomic_load_explicit(&iol_stdio_called, memory_order_relaxed)) {
        uint32_t high = atomic_load_explicit(&iol_stdio_tab.high, memory_order_relaxed);
        for (uint32_t fd = 0; iol_stdio_tab.e && fd < high; fd++)
            if (iol_stdio_tab.e[fd].is_std)
                publish_std(&iol_stdio_tab.e[fd]);
        atomic_store_explicit(&iol_stdio_called, 1, memory_order_release);
    }
    iol_owner_unlock(&first_call_lock);
}

/* ---- the module ---- */

static void stdio_init_record(struct iolens_record_base *base, void *state, const char *name)
{
    (void)base;
    (void)state;
    (void)name;
}

/* Every start (process start, fork child, failed exec) begins a new record
 * set: streams already open keep their entries and positions, and get a
 * record in the new set at their next use. */
static void stdio_start(struct iol_pool *pool)
{
    stdio_pool = pool;
    if (!iol_stdio_tab.e && table_init() != 0) {
        iol_diag("no memory for the stream table; not recording STDIO");
        return;
    }
    /* a publishing or a creation cut short by fork: its thread is not in
     * this process */
    atomic_store_explicit(&first_call_lock, 0, memory_order_relaxed);
    uint32_t high = atomic_load_explicit(&iol_stdio_tab.high, memory_order_relaxed);
    for (uint32_t fd = 0; fd < high; fd++) {
        struct stdio_stream *e = &iol_stdio_tab.e[fd];
        FILE *f = atomic_load_explicit(&e->file, memory_order_relaxed);
        if (!f && e->is_std && e->std_waiting)
            f = e->std_waiting; /* still waiting for the first call */
        if (!f)
            continue;
        atomic_store_explicit(&e->maker, 0, memory_order_relaxed);
        if (e->is_std) {
            register_std(f, f == stdin ? "<STDIN>" : f == stdout ? "<STDOUT>" : "<STDERR>");
            if (atomic_load_explicit(&iol_stdio_called, memory_order_relaxed))
                publish_std(e);
            continue;
        }
        struct iol_slot *slot = atomic_load_explicit(&e->slot, memory_order_relaxed);
        if (slot) {
            atomic_store_explicit(&e->pending_id, rec_of(slot)->base.id, memory_order_relaxed);
            atomic_store_explicit(&e->slot, NULL, memory_order_relaxed);
        }
    }
    if (!std_registered) {
        std_registered = 1;
        register_std(stdin, "<STDIN>");
        register_std(stdout, "<STDOUT>");
        register_std(stderr, "<STDERR>");
    }
    iol_posix_stream_name = stdio_stream_name;
}

/* Before an MPI job's shared records are found, every standard stream this
 * process knows (from its first STDIO call on, when Darshan's STDIO module
 * makes their three records) is listed, made now if it was never used: a
 * stream every rank knows is then one shared record, reduced, as in
 * Darshan, and the job log drops those that moved no byte afterwards
 * (drop_quiet_std, mpi/joblog.c). A process's own log keeps them out. */
static void stdio_finish(struct iol_pool *pool)
{
    (void)pool;
    if (!iol_core_ending_for_job() || !atomic_load_explicit(&iol_stdio_called, memory_order_acquire))
        return;
    uint32_t high = atomic_load_explicit(&iol_stdio_tab.high, memory_order_relaxed);
    for (uint32_t fd = 0; iol_stdio_tab.e && fd < high; fd++) {
        struct stdio_stream *e = &iol_stdio_tab.e[fd];
        if (!e->is_std || !atomic_load_explicit(&e->file, memory_order_acquire))
            continue;
        struct iol_slot *slot = stream_slot(e);
        if (slot)
            list_record(e, slot);
    }
}

static const struct iol_binding_table *const stdio_tables[] = {
    &iol_stdio_open_bindings, &iol_stdio_rw_bindings, &iol_stdio_fmt_bindings, NULL,
};

const struct iol_module iol_stdio_module = {
    .id = IOLENS_MOD_STDIO,
    .name = "STDIO",
    .version = IOLENS_STDIO_VERSION,
    .record_size = sizeof(struct iolens_stdio_record),
    .state_size = sizeof(struct stdio_state),
    .names_are_paths = 1,
    .bindings = stdio_tables,
    .init_record = stdio_init_record,
    .start = stdio_start,
    .finish = stdio_finish,
};
