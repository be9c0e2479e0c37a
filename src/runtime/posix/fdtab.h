/* Descriptor table: file descriptor -> open file description (the record it
 * belongs to and its current offset). An array sized from RLIMIT_NOFILE at
 * start-up, of atomic pointers into a preallocated pool of descriptions;
 * lookups are one bounds check and one load. dup'ed descriptors share one
 * description, as they share one offset in the kernel. */
#ifndef IOL_RT_FDTAB_H
#define IOL_RT_FDTAB_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

struct iol_slot;

/* One open file description the runtime tracks. One cache line each: the
 * offset changes on every read and write, and threads working on their own
 * files must not share lines. */
struct iol_ofd {
    _Alignas(64) _Atomic uint32_t refs; /* descriptors sharing it */
    uint32_t next_free;      /* free-list link: index + 1, or 0 */
    _Atomic(struct iol_slot *) slot; /* the POSIX record of the file; NULL until
                                      * first use for a descriptor inherited
                                      * through fork (see pending_*) */
    const char *pending_name; /* inherited: the parent's record name ... */
    _Atomic uint64_t pending_id; /* ... and id, 0 once the record exists or is refused */
    _Atomic uint64_t maker;  /* owner lock of the thread making that record */
    int64_t pos;             /* current offset; changed under the record's lock */
    int64_t end;             /* O_APPEND: where the next write lands (end of file) */
    int append;              /* opened with O_APPEND */
};

struct iol_fdtab {
    _Atomic(struct iol_ofd *) *fds;
    uint32_t size;           /* descriptors covered: 0 .. size - 1 */
};

extern struct iol_fdtab iol_fdtab;

/* Map an empty table (size from the hard RLIMIT_NOFILE, at most 2^20).
 * Also used after fork and exec failures: the old table is dropped.
 * @return 0, or -1 (no memory; descriptors are then not tracked). */
int iol_fdtab_init(void);

/* The description of fd. @return it, or NULL if fd is not tracked. */
static inline struct iol_ofd *iol_fd_get(int fd)
{
    if ((unsigned)fd >= iol_fdtab.size)
        return NULL;
    return atomic_load_explicit(&iol_fdtab.fds[fd], memory_order_acquire);
}

/* fd now refers to a new description of slot, at offset 0 (any previous
 * mapping of fd is dropped). @return the description, or NULL (pool full). */
struct iol_ofd *iol_fd_open(int fd, struct iol_slot *slot);

/* newfd now shares oldfd's description (dup, dup2, dup3, F_DUPFD); if oldfd
 * is not tracked, newfd is not either. @return the description, or NULL. */
struct iol_ofd *iol_fd_dup(int oldfd, int newfd);

/* fd is closed. */
void iol_fd_close(int fd);

/* Take fd's mapping out of the table, before fd is closed: once the number
 * is free again, another thread's open may get it and map it, which a
 * removal after the close would undo. @return the description, whose
 * reference the caller now holds (give it back with iol_fd_release), or
 * NULL if fd was not tracked. */
static inline struct iol_ofd *iol_fd_take(int fd)
{
    if ((unsigned)fd >= iol_fdtab.size)
        return NULL;
    return atomic_exchange_explicit(&iol_fdtab.fds[fd], NULL, memory_order_acq_rel);
}

/* Give back a reference iol_fd_take handed over. */
void iol_fd_release(struct iol_ofd *o);

/* In a forked child: start a new table in which every inherited descriptor
 * refers to a new description (shared again by descriptors that shared one)
 * with the same offsets and no record yet; inherit(new, old, arg) fills its
 * pending_name and pending_id, so that the record is created at first use
 * (a child that never touches an inherited descriptor gets no record for
 * it). The parent's table is unmapped.
 * @return 0, or -1 (no memory: nothing is tracked). */
int iol_fdtab_fork(void (*inherit)(struct iol_ofd *n, const struct iol_ofd *old, void *arg),
                   void *arg);

#endif
