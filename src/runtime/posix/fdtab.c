/* The descriptor table and its pool of open file descriptions. The pool's
 * free list is a Treiber stack whose head carries a generation count, so a
 * description freed and reused between a load and a compare-and-swap is
 * detected. */
#include "fdtab.h"

#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>

#include "core/real.h"

#define FDTAB_MAX (1u << 20)
#define FDTAB_MIN 1024u

struct iol_fdtab iol_fdtab;

static struct {
    struct iol_ofd *ofds;
    uint32_t capacity;
    _Atomic uint32_t bump;       /* descriptions never used yet start here */
    _Atomic uint64_t free_head;  /* generation << 32 | (index + 1) */
} P;

static void *map_zeroed(size_t bytes)
{
    void *p = iol_sys_mmap(NULL, bytes, PROT_READ | PROT_WRITE,
                           MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    return p == MAP_FAILED ? NULL : p;
}

/* Bytes of the one mapping that holds the table (n pointers) and, from
 * *ofds_off on (64-byte aligned), the pool of n descriptions: one mmap at
 * start and one mapping to tear down at exit, not two. */
static size_t tables_bytes(uint32_t n, size_t *ofds_off)
{
    *ofds_off = ((size_t)n * sizeof(*iol_fdtab.fds) + 63) & ~(size_t)63;
    return *ofds_off + (size_t)n * sizeof(*P.ofds);
}

int iol_fdtab_init(void)
{
    struct rlimit rl;
    uint32_t n = FDTAB_MAX;

    /* The old table is abandoned, not unmapped: a thread of a process that
     * restarts after a failed exec may still be reading it. */
    memset(&iol_fdtab, 0, sizeof(iol_fdtab));
    memset(&P, 0, sizeof(P));
    if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_max != RLIM_INFINITY &&
        rl.rlim_max < FDTAB_MAX)
        n = (uint32_t)rl.rlim_max;
    if (n < FDTAB_MIN)
        n = FDTAB_MIN;
    size_t ofds_off, bytes = tables_bytes(n, &ofds_off);
    unsigned char *mem = map_zeroed(bytes);
    if (!mem)
        return -1;
    P.ofds = (struct iol_ofd *)(mem + ofds_off);
    P.capacity = n;
    iol_fdtab.fds = (_Atomic(struct iol_ofd *) *)mem;
    iol_fdtab.size = n;
    return 0;
}

static struct iol_ofd *ofd_alloc(void)
{
    uint64_t head = atomic_load_explicit(&P.free_head, memory_order_acquire);
    while ((uint32_t)head) {
        struct iol_ofd *o = &P.ofds[(uint32_t)head - 1];
        uint64_t next = ((head >> 32) + 1) << 32 | o->next_free;
        if (atomic_compare_exchange_weak_explicit(&P.free_head, &head, next,
                                                  memory_order_acq_rel,
                                                  memory_order_acquire))
            return o;
    }
    uint32_t i = atomic_fetch_add_explicit(&P.bump, 1, memory_order_relaxed);
    return i < P.capacity ? &P.ofds[i] : NULL;
}

static void ofd_put(struct iol_ofd *o)
{
    if (!o || atomic_fetch_sub_explicit(&o->refs, 1, memory_order_acq_rel) != 1)
        return;
    uint32_t idx = (uint32_t)(o - P.ofds) + 1;
    uint64_t head = atomic_load_explicit(&P.free_head, memory_order_acquire);
    do {
        o->next_free = (uint32_t)head;
    } while (!atomic_compare_exchange_weak_explicit(&P.free_head, &head,
                                                    ((head >> 32) + 1) << 32 | idx,
                                                    memory_order_acq_rel,
                                                    memory_order_acquire));
}

struct iol_ofd *iol_fd_open(int fd, struct iol_slot *slot)
{
    struct iol_ofd *o;
    if ((unsigned)fd >= iol_fdtab.size || !(o = ofd_alloc()))
        return NULL;
    atomic_store_explicit(&o->slot, slot, memory_order_relaxed);
    atomic_store_explicit(&o->pending_id, 0, memory_order_relaxed);
    atomic_store_explicit(&o->maker, 0, memory_order_relaxed);
    o->pending_name = NULL;
    o->pos = 0;
    o->end = 0;
    o->append = 0;
    atomic_store_explicit(&o->refs, 1, memory_order_relaxed);
    ofd_put(atomic_exchange_explicit(&iol_fdtab.fds[fd], o, memory_order_acq_rel));
    return o;
}

struct iol_ofd *iol_fd_dup(int oldfd, int newfd)
{
    struct iol_ofd *o = iol_fd_get(oldfd);
    if ((unsigned)newfd >= iol_fdtab.size || oldfd == newfd)
        return o;
    if (o)
        atomic_fetch_add_explicit(&o->refs, 1, memory_order_relaxed);
    ofd_put(atomic_exchange_explicit(&iol_fdtab.fds[newfd], o, memory_order_acq_rel));
    return o;
}

void iol_fd_close(int fd)
{
    /* Streams' descriptors are mostly unknown here: no locked exchange then. */
    if ((unsigned)fd >= iol_fdtab.size ||
        !atomic_load_explicit(&iol_fdtab.fds[fd], memory_order_relaxed))
        return;
    ofd_put(iol_fd_take(fd));
}

void iol_fd_release(struct iol_ofd *o)
{
    ofd_put(o);
}

int iol_fdtab_fork(void (*inherit)(struct iol_ofd *n, const struct iol_ofd *old, void *arg),
                   void *arg)
{
    struct iol_fdtab old = iol_fdtab;
    struct iol_ofd *old_ofds = P.ofds;
    uint32_t old_cap = P.capacity;
    size_t ofds_off;

    if (iol_fdtab_init() != 0)
        return -1;
    /* new description of each old one, by old index (the child is single-threaded) */
    size_t map_bytes = (size_t)old_cap * sizeof(struct iol_ofd *);
    struct iol_ofd **map = map_zeroed(map_bytes);
    for (uint32_t fd = 0; map && fd < old.size && fd < iol_fdtab.size; fd++) {
        struct iol_ofd *o = atomic_load_explicit(&old.fds[fd], memory_order_relaxed);
        if (!o)
            continue;
        size_t i = (size_t)(o - old_ofds);
        if (!map[i]) {
            struct iol_ofd *n = ofd_alloc();
            if (!n)
                continue;
            atomic_store_explicit(&n->slot, NULL, memory_order_relaxed);
            inherit(n, o, arg);
            n->pos = o->pos;
            n->end = o->end;
            n->append = o->append;
            atomic_store_explicit(&n->refs, 0, memory_order_relaxed);
            map[i] = n;
        }
        atomic_fetch_add_explicit(&map[i]->refs, 1, memory_order_relaxed);
        atomic_store_explicit(&iol_fdtab.fds[fd], map[i], memory_order_relaxed);
    }
    if (map)
        munmap(map, map_bytes);
    munmap(old.fds, tables_bytes(old_cap, &ofds_off));
    return 0;
}
