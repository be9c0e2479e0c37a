/* POSIX module, asynchronous I/O: aio_read, aio_write and lio_listio submit
 * requests, aio_return collects their results (and the 64-bit forms of all
 * four). What is counted is what Darshan 3.5 counts:
 *
 * - a request is counted once, by aio_return, as a read or write (by the
 *   aiocb's aio_lio_opcode at that moment) of the bytes aio_return gives, at
 *   aio_offset (positional: no descriptor's offset moves), from the end of
 *   the submitting call to the end of aio_return;
 * - only requests submitted successfully on a descriptor the module tracks,
 *   and only while that descriptor still belongs to the same record when
 *   aio_return is called (not after a close);
 * - a request whose aio_return is never called, or fails, counts nothing;
 *   aio_error, aio_suspend, aio_cancel and aio_fsync are not wrapped.
 *
 * Two corrections (docs/runtime.md, tests/workloads/deviations.md D22):
 * NULL entries of a lio_listio list are skipped (POSIX says they are
 * ignored); and when lio_listio fails with EAGAIN, EINTR or EIO, the requests
 * it did queue (aio_error 0 or EINPROGRESS) are still tracked.
 *
 * Requests between submission and aio_return live in a fixed table keyed by
 * the aiocb's address: open addressing over AIO_TABLE entries, a request
 * looking at most AIO_PROBE entries from its home; entries are claimed and
 * given back with compare-and-swap, so there is no allocation and no lock
 * (aio_return may be called from a signal handler). A request that finds no
 * free entry is not counted. A request never passed to aio_return keeps its
 * entry until its aiocb is submitted again. */
#include "posix.h"

#include <aio.h>
#include <errno.h>

#define AIO_TABLE_BITS 10
#define AIO_TABLE (1u << AIO_TABLE_BITS) /* entries */
#define AIO_PROBE 32                     /* entries looked at from a request's home */

/* Low bit of a key: the entry is being filled or emptied by one thread.
 * An aiocb holds pointers, so its address has the bit clear. */
#define AIO_BUSY ((uintptr_t)1)

/* One request in flight. key: 0 free; the aiocb's address when it holds a
 * request; that address | AIO_BUSY while its owner reads or writes the other
 * fields (which only the owner of the busy key touches). */
struct aio_entry {
    _Atomic uintptr_t key;
    struct iol_slot *slot; /* the record of the descriptor it was submitted on */
    double t0;             /* when its submission ended */
};

static struct aio_entry aio_tab[AIO_TABLE];

static int (*real_aio_read)(struct aiocb *);
static int (*real_aio_write)(struct aiocb *);
static int (*real_aio_read64)(struct aiocb64 *);
static int (*real_aio_write64)(struct aiocb64 *);
static ssize_t (*real_aio_return)(struct aiocb *);
static ssize_t (*real_aio_return64)(struct aiocb64 *);
static int (*real_lio_listio)(int, struct aiocb *const[], int, struct sigevent *);
static int (*real_lio_listio64)(int, struct aiocb64 *const[], int, struct sigevent *);

static int missing(void)
{
    errno = ENOSYS;
    return -1;
}

/* ---- the table ---- */

static size_t aio_home(uintptr_t key)
{
    return (size_t)(((uint64_t)key * 0x9e3779b97f4a7c15ull) >> (64 - AIO_TABLE_BITS));
}

/* The entry holding key, now marked busy. @return it, or NULL. */
static struct aio_entry *aio_claim(uintptr_t key)
{
    size_t h = aio_home(key);
    for (size_t i = 0; i < AIO_PROBE; i++) {
        struct aio_entry *e = &aio_tab[(h + i) & (AIO_TABLE - 1)];
        uintptr_t k = key;
        if (atomic_load_explicit(&e->key, memory_order_relaxed) == key &&
            atomic_compare_exchange_strong_explicit(&e->key, &k, key | AIO_BUSY,
                                                    memory_order_acquire, memory_order_relaxed))
            return e;
    }
    return NULL;
}

/* A free entry near key's home, now marked busy for key. @return it, or
 * NULL when all AIO_PROBE entries there are taken. */
static struct aio_entry *aio_claim_free(uintptr_t key)
{
    size_t h = aio_home(key);
    for (size_t i = 0; i < AIO_PROBE; i++) {
        struct aio_entry *e = &aio_tab[(h + i) & (AIO_TABLE - 1)];
        uintptr_t k = 0;
        if (atomic_load_explicit(&e->key, memory_order_relaxed) == 0 &&
            atomic_compare_exchange_strong_explicit(&e->key, &k, key | AIO_BUSY,
                                                    memory_order_acquire, memory_order_relaxed))
            return e;
    }
    return NULL;
}

/* Give a busy entry back: holding key (its fields set), or free (0). */
static void aio_release(struct aio_entry *e, uintptr_t key)
{
    atomic_store_explicit(&e->key, key, memory_order_release);
}

/* ---- submission and return ---- */

/* Before the request cb on fd is submitted: track it if fd is tracked (an
 * entry still held under cb, from an aiocb reused without aio_return, is
 * taken over). Tracking starts before the call so that an aio_return racing
 * with the submission (another thread, a completion signal) finds it.
 * @return 1 if tracked. */
static int aio_begin(const void *cb, int fd, double t0)
{
    uintptr_t key = (uintptr_t)cb;
    struct iol_ofd *o;
    int err = errno;
    struct iol_slot *s = (key & AIO_BUSY) ? NULL : iol_posix_fd(fd, &o);
    struct aio_entry *e = NULL;
    if (s && !(e = aio_claim(key)))
        e = aio_claim_free(key); /* none free: the request is not counted */
    if (e) {
        e->slot = s;
        e->t0 = t0;
        aio_release(e, key);
    }
    errno = err;
    return e != NULL;
}

/* After the submission of a tracked request, which ended at t: keep it,
 * timed from t (as Darshan times it), or drop it. */
static void aio_end(const void *cb, int keep, double t)
{
    uintptr_t key = (uintptr_t)cb;
    struct aio_entry *e = aio_claim(key);
    if (!e) /* already collected by a racing aio_return */
        return;
    if (keep)
        e->t0 = t;
    aio_release(e, keep ? key : 0);
}

/* A request of a failed lio_listio (errno err): was it queued anyway? POSIX
 * leaves requests queued after EAGAIN, EINTR and EIO; aio_error tells which
 * (it only reads the aiocb). */
static int aio_listed(int err, int cb_error)
{
    return (err == EAGAIN || err == EINTR || err == EIO) &&
           (cb_error == 0 || cb_error == EINPROGRESS);
}

/* aio_return of cb gave ret at t1: count the request if it was tracked, as
 * the fields of cb say (opcode, fd, offset, buffer). */
static void aio_finish(const void *cb, int opcode, int fd, int64_t offset, const void *buf,
                       ssize_t ret, double t1)
{
    uintptr_t key = (uintptr_t)cb;
    struct aio_entry *e = (key & AIO_BUSY) ? NULL : aio_claim(key);
    if (!e)
        return;
    struct iol_slot *s = e->slot;
    double t0 = e->t0;
    aio_release(e, 0);
    /* glibc adds 128 to the opcode of the 64-bit forms where off_t is 32-bit */
    opcode &= 127;
    if (ret < 0 || (opcode != LIO_READ && opcode != LIO_WRITE))
        return;
    int err = errno;
    struct iol_ofd *o;
    if (iol_posix_fd(fd, &o) == s) /* as Darshan: the descriptor is still the file's */
        iol_posix_note_rw_at(s, opcode == LIO_WRITE, offset, ret, iol_posix_mem_aligned(buf),
                             t0, t1);
    errno = err;
}

/* Is a lio_listio entry of this opcode a read or a write? (NULL entries,
 * which POSIX says are ignored, and LIO_NOP entries are not tracked; Darshan
 * tracks the latter too, but they can never count.) */
static inline int lio_counted(int opcode)
{
    return opcode == LIO_READ || opcode == LIO_WRITE;
}

/* After the real submission of cb returned ret: a tracked request is kept
 * (ret 0) or dropped, timed from now. errno is kept. */
static void aio_submitted(const void *cb, int tracked, int ret)
{
    if (!tracked)
        return;
    int err = errno;
    aio_end(cb, ret == 0, iol_now());
    errno = err;
}

/* ---- wrappers ---- */

/* aio_read, aio_write (and their aiocb64 forms, a distinct type with the
 * same fields): the submission is timed; the note comes at aio_return. */

IOL_EXPORT int aio_read(struct aiocb *cb)
{
    if (!real_aio_read)
        return missing();
    if (!iol_active())
        return real_aio_read(cb);
    int tracked = aio_begin(cb, cb->aio_fildes, iol_now());
    int ret = real_aio_read(cb);
    aio_submitted(cb, tracked, ret);
    return ret;
}

IOL_EXPORT int aio_write(struct aiocb *cb)
{
    if (!real_aio_write)
        return missing();
    if (!iol_active())
        return real_aio_write(cb);
    int tracked = aio_begin(cb, cb->aio_fildes, iol_now());
    int ret = real_aio_write(cb);
    aio_submitted(cb, tracked, ret);
    return ret;
}

IOL_EXPORT int aio_read64(struct aiocb64 *cb)
{
    if (!real_aio_read64)
        return missing();
    if (!iol_active())
        return real_aio_read64(cb);
    int tracked = aio_begin(cb, cb->aio_fildes, iol_now());
    int ret = real_aio_read64(cb);
    aio_submitted(cb, tracked, ret);
    return ret;
}

IOL_EXPORT int aio_write64(struct aiocb64 *cb)
{
    if (!real_aio_write64)
        return missing();
    if (!iol_active())
        return real_aio_write64(cb);
    int tracked = aio_begin(cb, cb->aio_fildes, iol_now());
    int ret = real_aio_write64(cb);
    aio_submitted(cb, tracked, ret);
    return ret;
}

/* aio_return: the request's read or write is counted now. */

IOL_EXPORT ssize_t aio_return(struct aiocb *cb)
{
    if (!real_aio_return)
        return missing();
    if (!iol_active())
        return real_aio_return(cb);
    ssize_t ret = real_aio_return(cb);
    double t1 = iol_now();
    aio_finish(cb, cb->aio_lio_opcode, cb->aio_fildes, cb->aio_offset,
               (const void *)cb->aio_buf, ret, t1);
    return ret;
}

IOL_EXPORT ssize_t aio_return64(struct aiocb64 *cb)
{
    if (!real_aio_return64)
        return missing();
    if (!iol_active())
        return real_aio_return64(cb);
    ssize_t ret = real_aio_return64(cb);
    double t1 = iol_now();
    aio_finish(cb, cb->aio_lio_opcode, cb->aio_fildes, cb->aio_offset,
               (const void *)cb->aio_buf, ret, t1);
    return ret;
}

/* lio_listio: each read or write entry is a submission, tracked before the
 * call; after it, kept if the call succeeded or, failing, queued the entry
 * anyway (aio_listed, from the entry's aio_error). */

IOL_EXPORT int lio_listio(int mode, struct aiocb *const list[], int n, struct sigevent *sev)
{
    if (!real_lio_listio)
        return missing();
    if (!iol_active() || n <= 0)
        return real_lio_listio(mode, list, n, sev);
    double t0 = iol_now();
    int tracked = 0;
    for (int i = 0; i < n; i++)
        if (list[i] && lio_counted(list[i]->aio_lio_opcode))
            tracked += aio_begin(list[i], list[i]->aio_fildes, t0);
    int ret = real_lio_listio(mode, list, n, sev);
    int err = errno;
    double t1 = tracked ? iol_now() : 0;
    for (int i = 0; tracked && i < n; i++)
        if (list[i] && lio_counted(list[i]->aio_lio_opcode))
            aio_end(list[i], ret == 0 || aio_listed(err, aio_error(list[i])), t1);
    errno = err;
    return ret;
}

IOL_EXPORT int lio_listio64(int mode, struct aiocb64 *const list[], int n,
                            struct sigevent *sev)
{
    if (!real_lio_listio64)
        return missing();
    if (!iol_active() || n <= 0)
        return real_lio_listio64(mode, list, n, sev);
    double t0 = iol_now();
    int tracked = 0;
    for (int i = 0; i < n; i++)
        if (list[i] && lio_counted(list[i]->aio_lio_opcode))
            tracked += aio_begin(list[i], list[i]->aio_fildes, t0);
    int ret = real_lio_listio64(mode, list, n, sev);
    int err = errno;
    double t1 = tracked ? iol_now() : 0;
    for (int i = 0; tracked && i < n; i++)
        if (list[i] && lio_counted(list[i]->aio_lio_opcode))
            aio_end(list[i], ret == 0 || aio_listed(err, aio_error64(list[i])), t1);
    errno = err;
    return ret;
}

/* ---- bindings ---- */

static const struct iol_binding bindings[] = {
    {"aio_read", (void *)aio_read, (void **)&real_aio_read},
    {"aio_write", (void *)aio_write, (void **)&real_aio_write},
    {"aio_read64", (void *)aio_read64, (void **)&real_aio_read64},
    {"aio_write64", (void *)aio_write64, (void **)&real_aio_write64},
    {"aio_return", (void *)aio_return, (void **)&real_aio_return},
    {"aio_return64", (void *)aio_return64, (void **)&real_aio_return64},
    {"lio_listio", (void *)lio_listio, (void **)&real_lio_listio},
    {"lio_listio64", (void *)lio_listio64, (void **)&real_lio_listio64},
};

const struct iol_binding_table iol_posix_aio_bindings = {
    bindings, sizeof(bindings) / sizeof(bindings[0]),
};
