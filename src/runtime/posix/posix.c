/* POSIX module, data path: open, close, read, write and their variants, lseek.
 * Each wrapper: (1) not recording, or a descriptor we do not track -> the
 * real call; (2) clock; (3) real call; (4) clock; (5) a plain update
 * function, under the record's own lock. errno is the real call's. */
#include "posix.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

#include "common/hash.h"
#include "callsites/callsites.h"
#include "core/counting.h"
#include "core/diag.h"
#include "heatmap/heatmap.h"
#include "core/paths.h"
#include "dxt/dxt.h"
#include "events/events.h"

struct iol_pool *iol_posix_pool_of_module;
unsigned char iol_posix_rw_extra;
static struct iol_vals_pool *vals_pool;
static int mem_alignment = 8;
static uintptr_t mem_align_mask = 7; /* mem_alignment - 1 if a power of two, else 0 */

static ssize_t (*real_pread)(int, void *, size_t, off_t);
static ssize_t (*real_pread64)(int, void *, size_t, off64_t);
static ssize_t (*real_pwrite)(int, const void *, size_t, off_t);
static ssize_t (*real_pwrite64)(int, const void *, size_t, off64_t);
static ssize_t (*real_read_chk)(int, void *, size_t, size_t);
static ssize_t (*real_pread_chk)(int, void *, size_t, off_t, size_t);
static ssize_t (*real_pread64_chk)(int, void *, size_t, off64_t, size_t);
static ssize_t (*real_readv)(int, const struct iovec *, int);
static ssize_t (*real_writev)(int, const struct iovec *, int);
static ssize_t (*real_preadv)(int, const struct iovec *, int, off_t);
static ssize_t (*real_preadv64)(int, const struct iovec *, int, off64_t);
static ssize_t (*real_pwritev)(int, const struct iovec *, int, off_t);
static ssize_t (*real_pwritev64)(int, const struct iovec *, int, off64_t);
static ssize_t (*real_preadv2)(int, const struct iovec *, int, off_t, int);
static ssize_t (*real_preadv64v2)(int, const struct iovec *, int, off64_t, int);
static ssize_t (*real_pwritev2)(int, const struct iovec *, int, off_t, int);
static ssize_t (*real_pwritev64v2)(int, const struct iovec *, int, off64_t, int);
static off_t (*real_lseek)(int, off_t, int);
static off64_t (*real_lseek64)(int, off64_t, int);
static int (*real_close_range)(unsigned, unsigned, int);
static void (*real_closefrom)(int);

/* ---- the record ---- */

static inline struct iolens_posix_record *rec_of(struct iol_slot *s)
{
    return iol_slot_rec(s);
}

static inline struct posix_state *state_of(struct iol_slot *s)
{
    return iol_slot_state(s, sizeof(struct iolens_posix_record));
}

static inline struct posix_hot *hot_of(struct iol_slot *s)
{
    return iol_slot_hot(s);
}

static void posix_init_record(struct iolens_record_base *base, void *state, const char *name)
{
    struct iolens_posix_record *r = (struct iolens_posix_record *)base;
    const struct iol_mount_entry *m = iol_mounts_match(&iol_rt.mounts, name);
    (void)state;
    r->counters[POSIX_MEM_ALIGNMENT] = mem_alignment;
    r->counters[POSIX_FILE_ALIGNMENT] = m ? m->block_size : -1;
}

static void posix_start(struct iol_pool *pool)
{
    iol_posix_pool_of_module = pool;
    vals_pool = iol_records_vals_pool();
    mem_alignment = iol_rt.cfg.mem_alignment;
    mem_align_mask = (mem_alignment & (mem_alignment - 1)) == 0 ? (uintptr_t)mem_alignment - 1 : 0;
}

/* In a forked child: an inherited descriptor keeps the parent's record name
 * (the parent's record file stays mapped in the child) until first use. */
static void posix_inherit(struct iol_ofd *n, const struct iol_ofd *old, void *arg)
{
    const struct iol_map_header *parent = arg;
    struct iol_slot *s = atomic_load_explicit(&((struct iol_ofd *)old)->slot, memory_order_relaxed);
    if (!s) { /* not used in the parent either: pass the pending name on */
        n->pending_name = old->pending_name;
        atomic_store_explicit(&n->pending_id, atomic_load(&((struct iol_ofd *)old)->pending_id),
                              memory_order_relaxed);
        return;
    }
    const struct iol_map_slot_head *head = (const struct iol_map_slot_head *)s;
    const struct iolens_record_base *base = iol_slot_rec(s);
    if (head->name_off >= parent->names_size)
        return;
    n->pending_name = (const char *)parent + parent->names_off + head->name_off;
    atomic_store_explicit(&n->pending_id, base->id, memory_order_relaxed);
}

static void posix_fork_child(struct iol_pool *pool, const struct iol_map_header *parent)
{
    (void)pool;
    if (iol_fdtab_fork(posix_inherit, (void *)parent) != 0)
        iol_diag("no memory for the descriptor table after fork; not tracking descriptors");
}

struct iol_slot *iol_posix_ofd_slot(struct iol_ofd *o)
{
    /* One thread makes the record; the others wait for it rather than go
     * uncounted, except a signal handler that interrupted the making. */
    if (iol_owner_lock(&o->maker) != 0)
        return NULL;
    uint64_t id = atomic_exchange_explicit(&o->pending_id, 0, memory_order_acq_rel);
    struct iol_slot *s = id ? iol_record_get(iol_posix_pool_of_module, id, o->pending_name) : NULL;
    if (s)
        atomic_store_explicit(&o->slot, s, memory_order_release);
    iol_owner_unlock(&o->maker);
    return atomic_load_explicit(&o->slot, memory_order_acquire);
}

/* x % align, without a division when align is a power of two (nearly always). */
static inline uint64_t align_rest(uint64_t x, uint64_t align)
{
    return (align & (align - 1)) == 0 ? x & (align - 1) : x % align;
}

int iol_posix_mem_aligned(const void *buf)
{
    if (mem_align_mask)
        return ((uintptr_t)buf & mem_align_mask) == 0;
    return align_rest((uintptr_t)buf, (uint64_t)mem_alignment) == 0;
}

/* ---- counter updates (the caller holds the record's lock) ---- */

static inline __attribute__((always_inline)) void count_common(struct iolens_posix_record *r, struct posix_state *st, int64_t size,
                         int64_t stride)
{
    struct iol_vals_pool *pool = vals_pool;
    int64_t n = iol_vals_add(&st->access, size, pool);
    if (n)
        iol_top4_update(&r->counters[POSIX_ACCESS1_ACCESS], &r->counters[POSIX_ACCESS1_COUNT],
                        size, n);
    n = iol_vals_add(&st->stride, stride, pool);
    if (n)
        iol_top4_update(&r->counters[POSIX_STRIDE1_STRIDE], &r->counters[POSIX_STRIDE1_COUNT],
                        stride, n);
}

/* ---- live events (the caller holds the record's lock) ---- */

/* One event of record s: out of line, so that the note functions pay one
 * test of iol_events_mask when events are off. switches: -1 for open and
 * close, as Darshan's connector sends them. */
__attribute__((noinline, cold)) static void posix_event(struct iol_slot *s, int op, int64_t off,
                                                        int64_t len, int64_t cnt,
                                                        int64_t max_byte, double t0, double t1,
                                                        double total)
{
    struct iolens_posix_record *r = rec_of(s);
    int rw = op == IOL_EV_READ || op == IOL_EV_WRITE;
    struct iol_event_claim claim;
    struct iol_event *e = iol_events_begin(&claim, s, IOL_EV_POSIX, op, t0, t1, total);
    if (!e)
        return;
    e->off = off;
    e->len = len;
    e->cnt = cnt;
    e->max_byte = max_byte;
    e->switches = rw ? r->counters[POSIX_RW_SWITCHES] : -1;
    e->flushes = -1;
    iol_events_commit(&claim);
}

void iol_posix_event_flush(struct iol_slot *s, double t0, double t1)
{
    struct iolens_posix_record *r = rec_of(s);
    posix_event(s, IOL_EV_FLUSH, -1, -1, r->counters[POSIX_FSYNCS] + r->counters[POSIX_FDSYNCS],
                -1, t0, t1, r->fcounters[POSIX_F_WRITE_TIME]);
}

/* Indices of the counters that differ between reads and writes. */
struct rw_kind {
    int io_type, other_type;
    int seq, consec, max_byte, bytes, ops, hist0, max_time_size;
    int f_start, f_end, f_max_time, f_time;
};

static const struct rw_kind kind_read = {
    POSIX_IO_READ, POSIX_IO_WRITE, POSIX_SEQ_READS, POSIX_CONSEC_READS, POSIX_MAX_BYTE_READ,
    POSIX_BYTES_READ, POSIX_READS, POSIX_SIZE_READ_0_100, POSIX_MAX_READ_TIME_SIZE,
    POSIX_F_READ_START_TIMESTAMP, POSIX_F_READ_END_TIMESTAMP, POSIX_F_MAX_READ_TIME,
    POSIX_F_READ_TIME,
};

static const struct rw_kind kind_write = {
    POSIX_IO_WRITE, POSIX_IO_READ, POSIX_SEQ_WRITES, POSIX_CONSEC_WRITES, POSIX_MAX_BYTE_WRITTEN,
    POSIX_BYTES_WRITTEN, POSIX_WRITES, POSIX_SIZE_WRITE_0_100, POSIX_MAX_WRITE_TIME_SIZE,
    POSIX_F_WRITE_START_TIMESTAMP, POSIX_F_WRITE_END_TIMESTAMP, POSIX_F_MAX_WRITE_TIME,
    POSIX_F_WRITE_TIME,
};

/* One read or write of n bytes at offset (-1: at the description's offset,
 * which then advances). Inlined into the read and the write note, where k is
 * a constant: the counter indices fold into the code. */
static inline __attribute__((always_inline)) void note_rw(struct iol_slot *s, struct iol_ofd *o, const struct rw_kind *k,
                    int64_t offset, int64_t n, int aligned, double t0, double t1)
{
    struct iolens_posix_record *r = rec_of(s);
    struct posix_state *st = state_of(s);
    struct posix_hot *h = hot_of(s);
    int64_t *last = k->io_type == POSIX_IO_READ ? &h->last_byte_read : &h->last_byte_written;
    double *last_end = k->io_type == POSIX_IO_READ ? &h->last_read_end : &h->last_write_end;

    iol_heatmap_update(IOL_HEATMAP_POSIX, k->io_type == POSIX_IO_WRITE, n, t0, t1);
    if (iol_slot_lock(s) != 0)
        return;
    int64_t at;
    if (offset >= 0) {
        at = offset;
    } else if (o->append && k->io_type == POSIX_IO_WRITE) {
        at = o->end; /* O_APPEND: the kernel writes at end of file */
        o->pos = o->end = at + n;
    } else {
        at = o->pos;
        o->pos = at + n;
    }
    if (at > *last)
        r->counters[k->seq]++;
    if (at == *last + 1)
        r->counters[k->consec]++;
    int64_t stride = (at > 0 && at > *last && *last != 0) ? at - *last - 1 : 0;
    *last = at + n - 1;
    if (r->counters[k->max_byte] < at + n - 1)
        r->counters[k->max_byte] = at + n - 1;
    r->counters[k->bytes] += n;
    r->counters[k->ops]++;
    r->counters[k->hist0 + iol_size_bucket(n)]++;
    count_common(r, st, n, stride);
    if (!aligned)
        r->counters[POSIX_MEM_NOT_ALIGNED]++;
    int64_t falign = r->counters[POSIX_FILE_ALIGNMENT];
    if (falign > 0 && align_rest((uint64_t)at, (uint64_t)falign) != 0)
        r->counters[POSIX_FILE_NOT_ALIGNED]++;
    if (h->last_io_type == k->other_type)
        r->counters[POSIX_RW_SWITCHES]++;
    h->last_io_type = k->io_type;
    iol_set_start_end(&r->fcounters[k->f_start], &r->fcounters[k->f_end], t0, t1);
    if (r->fcounters[k->f_max_time] < t1 - t0) {
        r->fcounters[k->f_max_time] = t1 - t0;
        r->counters[k->max_time_size] = n;
    }
    iol_add_time(&r->fcounters[k->f_time], t0, t1, last_end);
    if (__builtin_expect(iol_posix_rw_extra, 0)) {
        if (iol_posix_rw_extra & IOL_POSIX_RW_DXT)
            iol_dxt_posix_note(s, &st->dxt, k->io_type == POSIX_IO_WRITE, at, n, t0, t1);
        if (iol_posix_rw_extra & IOL_POSIX_RW_EVENTS)
            posix_event(s, k->io_type == POSIX_IO_WRITE ? IOL_EV_WRITE : IOL_EV_READ, at, n,
                        r->counters[k->ops], r->counters[k->max_byte], t0, t1,
                        r->fcounters[k->f_time]);
        if (iol_posix_rw_extra & IOL_POSIX_RW_CALLSITES) {
            /* The stack walk is long: not under the record's lock. */
            iol_slot_unlock(s);
            iol_callsites_note(IOLENS_MOD_POSIX, k->io_type == POSIX_IO_WRITE, n, t0, t1,
                               __builtin_return_address(0));
            return;
        }
    }
    iol_slot_unlock(s);
}

/* A read or write on description o, which the wrapper looked up before the
 * call (the note does not look it up again). */
static inline __attribute__((always_inline)) void posix_note_read(struct iol_ofd *o, int64_t offset, ssize_t ret, int aligned,
                            double t0, double t1)
{
    struct iol_slot *s = ret >= 0 ? iol_posix_ofd_record(o) : NULL;
    if (s)
        note_rw(s, o, &kind_read, offset, ret, aligned, t0, t1);
}

static inline __attribute__((always_inline)) void posix_note_write(struct iol_ofd *o, int64_t offset, ssize_t ret, int aligned,
                             double t0, double t1)
{
    struct iol_slot *s = ret >= 0 ? iol_posix_ofd_record(o) : NULL;
    if (s)
        note_rw(s, o, &kind_write, offset, ret, aligned, t0, t1);
}

void iol_posix_note_rw_at(struct iol_slot *s, int is_write, int64_t offset, int64_t n,
                          int aligned, double t0, double t1)
{
    if (!s || offset < 0 || n < 0)
        return;
    /* offset >= 0: note_rw never looks at the description */
    if (is_write)
        note_rw(s, NULL, &kind_write, offset, n, aligned, t0, t1);
    else
        note_rw(s, NULL, &kind_read, offset, n, aligned, t0, t1);
}

static int iov_aligned(const struct iovec *iov, int n)
{
    for (int i = 0; i < n; i++)
        if (!iol_posix_mem_aligned(iov[i].iov_base))
            return 0;
    return 1;
}

/* A vector read or write: alignment is looked at only after success (the
 * vector is then known to be readable). */
static void posix_note_readv(struct iol_ofd *o, int64_t offset, ssize_t ret,
                             const struct iovec *iov, int n, double t0, double t1)
{
    if (ret >= 0)
        posix_note_read(o, offset, ret, iov_aligned(iov, n), t0, t1);
}

static void posix_note_writev(struct iol_ofd *o, int64_t offset, ssize_t ret,
                              const struct iovec *iov, int n, double t0, double t1)
{
    if (ret >= 0)
        posix_note_write(o, offset, ret, iov_aligned(iov, n), t0, t1);
}

void iol_posix_note_open(int fd, struct iol_slot *s, int flags, int mode, double t0,
                         double t1)
{
    if (fd < 0)
        return;
    if (!s) {
        iol_fd_close(fd); /* fd may still be mapped from a close we did not see */
        return;
    }
    struct iolens_posix_record *r = rec_of(s);
    struct posix_hot *h = hot_of(s);
    struct iol_ofd *o = iol_fd_open(fd, s);
    if (o && (flags & O_APPEND)) {
        int err = errno; /* called after the real open: errno is its */
        int64_t size = iol_sys_file_size(fd);
        errno = err;
        o->append = 1;
        o->end = size > 0 ? size : 0;
    }
    iol_callsites_call(IOLENS_MOD_POSIX, IOLENS_CALLSITES_OPEN, t0, t1);
    if (iol_slot_lock(s) != 0)
        return;
    if (mode)
        r->counters[POSIX_MODE] = mode;
    h->last_byte_read = 0;
    h->last_byte_written = 0;
    r->counters[POSIX_OPENS]++;
    iol_set_start_end(&r->fcounters[POSIX_F_OPEN_START_TIMESTAMP],
                      &r->fcounters[POSIX_F_OPEN_END_TIMESTAMP], t0, t1);
    iol_add_time(&r->fcounters[POSIX_F_META_TIME], t0, t1, &h->last_meta_end);
    if (iol_events_mask & IOL_EV_POSIX)
        posix_event(s, IOL_EV_OPEN, -1, -1, r->counters[POSIX_OPENS], -1, t0, t1,
                    r->fcounters[POSIX_F_META_TIME]);
    iol_slot_unlock(s);
}

void iol_posix_note_refopen(struct iol_ofd *o, enum posix_ref_kind kind, double t0, double t1)
{
    struct iol_slot *s = o ? iol_posix_ofd_record(o) : NULL;
    if (!s || iol_slot_lock(s) != 0)
        return;
    struct iolens_posix_record *r = rec_of(s);
    r->counters[POSIX_OPENS]++;
    r->counters[kind]++;
    iol_set_start_end(&r->fcounters[POSIX_F_OPEN_START_TIMESTAMP],
                      &r->fcounters[POSIX_F_OPEN_END_TIMESTAMP], t0, t1);
    iol_add_time(&r->fcounters[POSIX_F_META_TIME], t0, t1, &hot_of(s)->last_meta_end);
    iol_slot_unlock(s);
    iol_callsites_call(IOLENS_MOD_POSIX, IOLENS_CALLSITES_OPEN, t0, t1);
}

void iol_posix_note_stat(struct iol_slot *s, double t0, double t1)
{
    if (!s || iol_slot_lock(s) != 0)
        return;
    rec_of(s)->counters[POSIX_STATS]++;
    iol_add_time(&rec_of(s)->fcounters[POSIX_F_META_TIME], t0, t1, &hot_of(s)->last_meta_end);
    iol_slot_unlock(s);
    iol_callsites_call(IOLENS_MOD_POSIX, IOLENS_CALLSITES_META, t0, t1);
}

void iol_posix_fd_sync(struct iol_ofd *o, int fd)
{
    int err = errno;
    long pos = syscall(SYS_lseek, fd, 0L, SEEK_CUR);
    long flags = syscall(SYS_fcntl, fd, F_GETFL);
    if (pos > 0)
        o->pos = pos;
    if (flags >= 0 && (flags & O_APPEND)) {
        int64_t size = iol_sys_file_size(fd);
        o->append = 1;
        o->end = size > 0 ? size : 0;
    }
    errno = err;
}

/* The close of a description taken out of the table (iol_fd_take): its
 * reference is given back here. */
static void posix_note_close(struct iol_ofd *o, double t0, double t1)
{
    struct iol_slot *s = iol_posix_ofd_record(o);
    if (s)
        iol_callsites_call(IOLENS_MOD_POSIX, IOLENS_CALLSITES_CLOSE, t0, t1);
    if (!s || iol_slot_lock(s) != 0) {
        iol_fd_release(o);
        return;
    }
    struct iolens_posix_record *r = rec_of(s);
    struct posix_state *st = state_of(s);
    struct posix_hot *h = hot_of(s);
    h->last_byte_read = 0;
    h->last_byte_written = 0;
    iol_set_start_end(&r->fcounters[POSIX_F_CLOSE_START_TIMESTAMP],
                      &r->fcounters[POSIX_F_CLOSE_END_TIMESTAMP], t0, t1);
    iol_add_time(&r->fcounters[POSIX_F_META_TIME], t0, t1, &h->last_meta_end);
    st->closes++;
    if (iol_events_mask & IOL_EV_POSIX)
        posix_event(s, IOL_EV_CLOSE, -1, -1, st->closes, -1, t0, t1,
                    r->fcounters[POSIX_F_META_TIME]);
    iol_slot_unlock(s);
    iol_fd_release(o);
}

/* A seek on description o. Inlined: lseek is cheap, and a call's frame is
 * a good part of what the runtime would add to it. */
static inline __attribute__((always_inline)) void posix_note_seek(struct iol_ofd *o, int64_t ret,
                                                                  double t0, double t1)
{
    if (ret < 0)
        return;
    struct iol_slot *s = iol_posix_ofd_record(o);
    if (!s)
        return;
    /* Before the update: t0 and t1 need not outlive it on the common path. */
    iol_callsites_call(IOLENS_MOD_POSIX, IOLENS_CALLSITES_SEEK, t0, t1);
    if (iol_slot_lock(s) != 0)
        return;
    o->pos = ret;
    rec_of(s)->counters[POSIX_SEEKS]++;
    iol_add_time(&rec_of(s)->fcounters[POSIX_F_META_TIME], t0, t1, &hot_of(s)->last_meta_end);
    iol_slot_unlock(s);
}

/* The description of fd, when the runtime records and tracks fd: what every
 * wrapper here asks first. @return it, or NULL (then only the real call). */
static inline struct iol_ofd *posix_tracked(int fd)
{
    return iol_active() ? iol_fd_get(fd) : NULL;
}

/* ---- wrappers: close ---- */

IOL_EXPORT int close(int fd)
{
    struct iol_ofd *o = posix_tracked(fd);
    if (!o || !(o = iol_fd_take(fd)))
        return iol_real_close(fd);
    struct iol_stamp s0 = iol_stamp_now();
    int ret = iol_real_close(fd);
    struct iol_stamp s1 = iol_stamp_now();
    double t0 = iol_stamp_sec(s0), t1 = iol_stamp_sec(s1);
    posix_note_close(o, t0, t1); /* no system call: errno stays the real call's */
    return ret;
}

/* close_range and closefrom close descriptors behind our back: forget them,
 * before the call, as close does (a number freed may be opened and mapped by
 * another thread at once). */
static void forget_range(unsigned first, unsigned last)
{
    if (last >= iol_fdtab.size)
        last = iol_fdtab.size ? iol_fdtab.size - 1 : 0;
    for (unsigned fd = first; fd <= last && fd < iol_fdtab.size; fd++)
        if (iol_fd_get((int)fd))
            iol_fd_close((int)fd);
}

IOL_EXPORT int close_range(unsigned first, unsigned last, int flags)
{
    if (!real_close_range) {
        errno = ENOSYS;
        return -1;
    }
    /* the kernel refuses other flags, and first > last, closing nothing */
    if (first <= last && !(flags & ~(CLOSE_RANGE_CLOEXEC | CLOSE_RANGE_UNSHARE)) &&
        !(flags & CLOSE_RANGE_CLOEXEC) && iol_active())
        forget_range(first, last);
    return real_close_range(first, last, flags);
}

IOL_EXPORT void closefrom(int lowfd)
{
    if (real_closefrom && iol_active() && lowfd >= 0)
        forget_range((unsigned)lowfd, ~0u);
    if (real_closefrom)
        real_closefrom(lowfd);
}

/* ---- wrappers: read and write ---- */

/* Each wrapper: a descriptor the runtime does not track (or not recording)
 * goes straight to the real call; a tracked one is timed and its note gets
 * the description looked up here (o). The notes leave errno as the real call
 * set it (the only system calls on their path are a new record's, and
 * iol_record_get keeps errno): no save and restore around them.
 *
 * The wrappers here take the two clock readings raw and convert them after
 * the real call, where the two conversions overlap (iol_stamp_now,
 * iol_stamp_sec): a few ns a call. */

IOL_EXPORT ssize_t read(int fd, void *buf, size_t count)
{
    struct iol_ofd *o = posix_tracked(fd);
    if (!o)
        return iol_real_read(fd, buf, count);
    struct iol_stamp t0 = iol_stamp_now();
    ssize_t ret = iol_real_read(fd, buf, count);
    struct iol_stamp t1 = iol_stamp_now();
    posix_note_read(o, -1, ret, iol_posix_mem_aligned(buf),
                    iol_stamp_sec(t0), iol_stamp_sec(t1));
    return ret;
}

IOL_EXPORT ssize_t __read_chk(int fd, void *buf, size_t count, size_t buflen)
{
    struct iol_ofd *o = posix_tracked(fd);
    if (!o)
        return real_read_chk(fd, buf, count, buflen);
    struct iol_stamp s0 = iol_stamp_now();
    ssize_t ret = real_read_chk(fd, buf, count, buflen);
    struct iol_stamp s1 = iol_stamp_now();
    double t0 = iol_stamp_sec(s0), t1 = iol_stamp_sec(s1);
    posix_note_read(o, -1, ret, iol_posix_mem_aligned(buf), t0, t1);
    return ret;
}

IOL_EXPORT ssize_t write(int fd, const void *buf, size_t count)
{
    struct iol_ofd *o = posix_tracked(fd);
    if (!o)
        return iol_real_write(fd, buf, count);
    struct iol_stamp t0 = iol_stamp_now();
    ssize_t ret = iol_real_write(fd, buf, count);
    struct iol_stamp t1 = iol_stamp_now();
    posix_note_write(o, -1, ret, iol_posix_mem_aligned(buf),
                     iol_stamp_sec(t0), iol_stamp_sec(t1));
    return ret;
}

IOL_EXPORT ssize_t pread(int fd, void *buf, size_t count, off_t offset)
{
    struct iol_ofd *o = posix_tracked(fd);
    if (!o)
        return real_pread(fd, buf, count, offset);
    struct iol_stamp t0 = iol_stamp_now();
    ssize_t ret = real_pread(fd, buf, count, offset);
    struct iol_stamp t1 = iol_stamp_now();
    posix_note_read(o, offset, ret, iol_posix_mem_aligned(buf),
                    iol_stamp_sec(t0), iol_stamp_sec(t1));
    return ret;
}

IOL_EXPORT ssize_t pread64(int fd, void *buf, size_t count, off64_t offset)
{
    struct iol_ofd *o = posix_tracked(fd);
    if (!o)
        return real_pread64(fd, buf, count, offset);
    struct iol_stamp t0 = iol_stamp_now();
    ssize_t ret = real_pread64(fd, buf, count, offset);
    struct iol_stamp t1 = iol_stamp_now();
    posix_note_read(o, offset, ret, iol_posix_mem_aligned(buf),
                    iol_stamp_sec(t0), iol_stamp_sec(t1));
    return ret;
}

IOL_EXPORT ssize_t __pread_chk(int fd, void *buf, size_t count, off_t offset, size_t buflen)
{
    struct iol_ofd *o = posix_tracked(fd);
    if (!o)
        return real_pread_chk(fd, buf, count, offset, buflen);
    struct iol_stamp s0 = iol_stamp_now();
    ssize_t ret = real_pread_chk(fd, buf, count, offset, buflen);
    struct iol_stamp s1 = iol_stamp_now();
    double t0 = iol_stamp_sec(s0), t1 = iol_stamp_sec(s1);
    posix_note_read(o, offset, ret, iol_posix_mem_aligned(buf), t0, t1);
    return ret;
}

IOL_EXPORT ssize_t __pread64_chk(int fd, void *buf, size_t count, off64_t offset,
                                 size_t buflen)
{
    struct iol_ofd *o = posix_tracked(fd);
    if (!o)
        return real_pread64_chk(fd, buf, count, offset, buflen);
    struct iol_stamp s0 = iol_stamp_now();
    ssize_t ret = real_pread64_chk(fd, buf, count, offset, buflen);
    struct iol_stamp s1 = iol_stamp_now();
    double t0 = iol_stamp_sec(s0), t1 = iol_stamp_sec(s1);
    posix_note_read(o, offset, ret, iol_posix_mem_aligned(buf), t0, t1);
    return ret;
}

IOL_EXPORT ssize_t pwrite(int fd, const void *buf, size_t count, off_t offset)
{
    struct iol_ofd *o = posix_tracked(fd);
    if (!o)
        return real_pwrite(fd, buf, count, offset);
    struct iol_stamp t0 = iol_stamp_now();
    ssize_t ret = real_pwrite(fd, buf, count, offset);
    struct iol_stamp t1 = iol_stamp_now();
    posix_note_write(o, offset, ret, iol_posix_mem_aligned(buf),
                     iol_stamp_sec(t0), iol_stamp_sec(t1));
    return ret;
}

IOL_EXPORT ssize_t pwrite64(int fd, const void *buf, size_t count, off64_t offset)
{
    struct iol_ofd *o = posix_tracked(fd);
    if (!o)
        return real_pwrite64(fd, buf, count, offset);
    struct iol_stamp t0 = iol_stamp_now();
    ssize_t ret = real_pwrite64(fd, buf, count, offset);
    struct iol_stamp t1 = iol_stamp_now();
    posix_note_write(o, offset, ret, iol_posix_mem_aligned(buf),
                     iol_stamp_sec(t0), iol_stamp_sec(t1));
    return ret;
}

/* ---- wrappers: vectors ---- */

/* The v2 forms' offset as the notes take it: -1 (at the description's
 * offset) for any negative one. */
static inline int64_t v2_offset(int64_t offset)
{
    return offset < 0 ? -1 : offset;
}

IOL_EXPORT ssize_t readv(int fd, const struct iovec *iov, int n)
{
    struct iol_ofd *o = posix_tracked(fd);
    if (!o)
        return real_readv(fd, iov, n);
    struct iol_stamp s0 = iol_stamp_now();
    ssize_t ret = real_readv(fd, iov, n);
    struct iol_stamp s1 = iol_stamp_now();
    double t0 = iol_stamp_sec(s0), t1 = iol_stamp_sec(s1);
    posix_note_readv(o, -1, ret, iov, n, t0, t1);
    return ret;
}

IOL_EXPORT ssize_t writev(int fd, const struct iovec *iov, int n)
{
    struct iol_ofd *o = posix_tracked(fd);
    if (!o)
        return real_writev(fd, iov, n);
    struct iol_stamp s0 = iol_stamp_now();
    ssize_t ret = real_writev(fd, iov, n);
    struct iol_stamp s1 = iol_stamp_now();
    double t0 = iol_stamp_sec(s0), t1 = iol_stamp_sec(s1);
    posix_note_writev(o, -1, ret, iov, n, t0, t1);
    return ret;
}

IOL_EXPORT ssize_t preadv(int fd, const struct iovec *iov, int n, off_t offset)
{
    struct iol_ofd *o = posix_tracked(fd);
    if (!o)
        return real_preadv(fd, iov, n, offset);
    struct iol_stamp s0 = iol_stamp_now();
    ssize_t ret = real_preadv(fd, iov, n, offset);
    struct iol_stamp s1 = iol_stamp_now();
    double t0 = iol_stamp_sec(s0), t1 = iol_stamp_sec(s1);
    posix_note_readv(o, offset, ret, iov, n, t0, t1);
    return ret;
}

IOL_EXPORT ssize_t preadv64(int fd, const struct iovec *iov, int n, off64_t offset)
{
    struct iol_ofd *o = posix_tracked(fd);
    if (!o)
        return real_preadv64(fd, iov, n, offset);
    struct iol_stamp s0 = iol_stamp_now();
    ssize_t ret = real_preadv64(fd, iov, n, offset);
    struct iol_stamp s1 = iol_stamp_now();
    double t0 = iol_stamp_sec(s0), t1 = iol_stamp_sec(s1);
    posix_note_readv(o, offset, ret, iov, n, t0, t1);
    return ret;
}

IOL_EXPORT ssize_t pwritev(int fd, const struct iovec *iov, int n, off_t offset)
{
    struct iol_ofd *o = posix_tracked(fd);
    if (!o)
        return real_pwritev(fd, iov, n, offset);
    struct iol_stamp s0 = iol_stamp_now();
    ssize_t ret = real_pwritev(fd, iov, n, offset);
    struct iol_stamp s1 = iol_stamp_now();
    double t0 = iol_stamp_sec(s0), t1 = iol_stamp_sec(s1);
    posix_note_writev(o, offset, ret, iov, n, t0, t1);
    return ret;
}

IOL_EXPORT ssize_t pwritev64(int fd, const struct iovec *iov, int n, off64_t offset)
{
    struct iol_ofd *o = posix_tracked(fd);
    if (!o)
        return real_pwritev64(fd, iov, n, offset);
    struct iol_stamp s0 = iol_stamp_now();
    ssize_t ret = real_pwritev64(fd, iov, n, offset);
    struct iol_stamp s1 = iol_stamp_now();
    double t0 = iol_stamp_sec(s0), t1 = iol_stamp_sec(s1);
    posix_note_writev(o, offset, ret, iov, n, t0, t1);
    return ret;
}

/* The v2 forms take offset -1 to mean "at the current offset". */
IOL_EXPORT ssize_t preadv2(int fd, const struct iovec *iov, int n, off_t offset, int flags)
{
    if (!real_preadv2) {
        errno = ENOSYS;
        return -1;
    }
    struct iol_ofd *o = posix_tracked(fd);
    if (!o)
        return real_preadv2(fd, iov, n, offset, flags);
    struct iol_stamp s0 = iol_stamp_now();
    ssize_t ret = real_preadv2(fd, iov, n, offset, flags);
    struct iol_stamp s1 = iol_stamp_now();
    double t0 = iol_stamp_sec(s0), t1 = iol_stamp_sec(s1);
    posix_note_readv(o, v2_offset(offset), ret, iov, n, t0, t1);
    return ret;
}

IOL_EXPORT ssize_t preadv64v2(int fd, const struct iovec *iov, int n, off64_t offset, int flags)
{
    if (!real_preadv64v2) {
        errno = ENOSYS;
        return -1;
    }
    struct iol_ofd *o = posix_tracked(fd);
    if (!o)
        return real_preadv64v2(fd, iov, n, offset, flags);
    struct iol_stamp s0 = iol_stamp_now();
    ssize_t ret = real_preadv64v2(fd, iov, n, offset, flags);
    struct iol_stamp s1 = iol_stamp_now();
    double t0 = iol_stamp_sec(s0), t1 = iol_stamp_sec(s1);
    posix_note_readv(o, v2_offset(offset), ret, iov, n, t0, t1);
    return ret;
}

IOL_EXPORT ssize_t pwritev2(int fd, const struct iovec *iov, int n, off_t offset, int flags)
{
    if (!real_pwritev2) {
        errno = ENOSYS;
        return -1;
    }
    struct iol_ofd *o = posix_tracked(fd);
    if (!o)
        return real_pwritev2(fd, iov, n, offset, flags);
    struct iol_stamp s0 = iol_stamp_now();
    ssize_t ret = real_pwritev2(fd, iov, n, offset, flags);
    struct iol_stamp s1 = iol_stamp_now();
    double t0 = iol_stamp_sec(s0), t1 = iol_stamp_sec(s1);
    posix_note_writev(o, v2_offset(offset), ret, iov, n, t0, t1);
    return ret;
}

IOL_EXPORT ssize_t pwritev64v2(int fd, const struct iovec *iov, int n, off64_t offset,
                               int flags)
{
    if (!real_pwritev64v2) {
        errno = ENOSYS;
        return -1;
    }
    struct iol_ofd *o = posix_tracked(fd);
    if (!o)
        return real_pwritev64v2(fd, iov, n, offset, flags);
    struct iol_stamp s0 = iol_stamp_now();
    ssize_t ret = real_pwritev64v2(fd, iov, n, offset, flags);
    struct iol_stamp s1 = iol_stamp_now();
    double t0 = iol_stamp_sec(s0), t1 = iol_stamp_sec(s1);
    posix_note_writev(o, v2_offset(offset), ret, iov, n, t0, t1);
    return ret;
}

/* ---- wrappers: seek ---- */

IOL_EXPORT off_t lseek(int fd, off_t offset, int whence)
{
    struct iol_ofd *o = posix_tracked(fd);
    if (!o)
        return real_lseek(fd, offset, whence);
    struct iol_stamp t0 = iol_stamp_now();
    off_t ret = real_lseek(fd, offset, whence);
    struct iol_stamp t1 = iol_stamp_now();
    posix_note_seek(o, ret, iol_stamp_sec(t0), iol_stamp_sec(t1));
    return ret;
}

IOL_EXPORT off64_t lseek64(int fd, off64_t offset, int whence)
{
    struct iol_ofd *o = posix_tracked(fd);
    if (!o)
        return real_lseek64(fd, offset, whence);
    struct iol_stamp t0 = iol_stamp_now();
    off64_t ret = real_lseek64(fd, offset, whence);
    struct iol_stamp t1 = iol_stamp_now();
    posix_note_seek(o, ret, iol_stamp_sec(t0), iol_stamp_sec(t1));
    return ret;
}

/* ---- the module ---- */

static const struct iol_binding bindings[] = {
    {"close", (void *)close, (void **)&iol_real_close},
    {"close_range", (void *)close_range, (void **)&real_close_range},
    {"closefrom", (void *)closefrom, (void **)&real_closefrom},
    {"read", (void *)read, (void **)&iol_real_read},
    {"__read_chk", (void *)__read_chk, (void **)&real_read_chk},
    {"write", (void *)write, (void **)&iol_real_write},
    {"pread", (void *)pread, (void **)&real_pread},
    {"pread64", (void *)pread64, (void **)&real_pread64},
    {"__pread_chk", (void *)__pread_chk, (void **)&real_pread_chk},
    {"__pread64_chk", (void *)__pread64_chk, (void **)&real_pread64_chk},
    {"pwrite", (void *)pwrite, (void **)&real_pwrite},
    {"pwrite64", (void *)pwrite64, (void **)&real_pwrite64},
    {"readv", (void *)readv, (void **)&real_readv},
    {"writev", (void *)writev, (void **)&real_writev},
    {"preadv", (void *)preadv, (void **)&real_preadv},
    {"preadv64", (void *)preadv64, (void **)&real_preadv64},
    {"pwritev", (void *)pwritev, (void **)&real_pwritev},
    {"pwritev64", (void *)pwritev64, (void **)&real_pwritev64},
    {"preadv2", (void *)preadv2, (void **)&real_preadv2},
    {"preadv64v2", (void *)preadv64v2, (void **)&real_preadv64v2},
    {"pwritev2", (void *)pwritev2, (void **)&real_pwritev2},
    {"pwritev64v2", (void *)pwritev64v2, (void **)&real_pwritev64v2},
    {"lseek", (void *)lseek, (void **)&real_lseek},
    {"lseek64", (void *)lseek64, (void **)&real_lseek64},
};

static const struct iol_binding_table data_bindings = {
    bindings, sizeof(bindings) / sizeof(bindings[0]),
};

static const struct iol_binding_table *const posix_tables[] = {
    &data_bindings, &iol_posix_open_bindings, &iol_posix_meta_bindings, &iol_posix_aio_bindings,
    NULL,
};

const struct iol_module iol_posix_module = {
    .id = IOLENS_MOD_POSIX,
    .name = "POSIX",
    .version = IOLENS_POSIX_VERSION,
    .record_size = sizeof(struct iolens_posix_record),
    .state_size = sizeof(struct posix_state),
    .names_are_paths = 1,
    .bindings = posix_tables,
    .init_record = posix_init_record,
    .start = posix_start,
    .fork_child = posix_fork_child,
};
