/* DXT_POSIX and DXT_MPIIO modules: per-file traces of POSIX and MPI-IO
 * reads and writes.
 *
 * What Darshan's DXT records (darshan-dxt.c gives the facts): for each file,
 * every read and write the POSIX (MPI-IO) module counts, as offset, length,
 * start and end time relative to the job's start; the host name of the process; the
 * number of writes and of reads. A file with no traced access has no record
 * in the log.
 *
 * Where things live: the record's head (id, rank, host name; counts zero)
 * is a slot of the module's pool in the record file; the private state
 * beside it lists the record's segment chunks. The chunks of both modules
 * are taken from one anonymous mapping of DXT_MEM bytes (reserved at start, its pages touched
 * only as they are used) by an atomic counter, so the hot path allocates
 * nothing and makes no system call. A segment is stored under the lock of
 * the source record (the POSIX or MPI-IO record the hook is called with,
 * which holds it already): each DXT record has one source record (the one of
 * the same id), so no second lock is taken. The fast path is a store at the
 * list's cursor; a new chunk is taken only when the cursor reaches the end of
 * its chunk. At the end the log writer copies each record whole
 * (dxt_full_record), holding the source record's lock (bounded) too. A killed process's record file has no segments: the
 * DXT module is left out of its recovered log.
 *
 * The triggers (DXT_SMALL_IO_TRIGGER, DXT_UNALIGNED_IO_TRIGGER), as in
 * Darshan: decided per file when its record is written, from the file's POSIX
 * counters of this process: the share of its reads and writes that are small
 * (the size histogram's bins up to 10 KiB) or at an offset not file-aligned
 * (POSIX_FILE_NOT_ALIGNED). A file below a set threshold loses its whole
 * trace; with both set, it must reach both. Nothing is decided on the hot
 * path. A DXT_MPIIO trace is kept when the file's POSIX counters reach the
 * triggers (as Darshan drops it with the file's DXT_POSIX trace); with a
 * trigger set and no POSIX record of the file, it is dropped. */
#include "dxt.h"

#include <stdatomic.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "core/diag.h"
#include "iolens/modules/dxt_mpiio.h"
#include "iolens/modules/dxt_posix.h"
#include "iolens/modules/dxt_stdio.h"
#include "iolens/modules/posix.h"
#include "posix/posix.h"

#define DXT_CHUNK_SEGS 31 /* segments per chunk: 1 KiB with its head */

/* A run of one record's segments of one kind (writes or reads). */
struct dxt_chunk {
    uint32_t next;       /* index + 1 of the list's next chunk, 0: none */
    uint32_t unused[7];  /* pads the head to one segment's size */
    struct iolens_dxt_segment seg[DXT_CHUNK_SEGS];
};

_Static_assert(sizeof(struct dxt_chunk) == 1024, "DXT chunk size");

/* Writes (0) and reads (1) of a record: a list of chunks, index + 1 each. */
struct dxt_list {
    /* The next free segment of the last chunk and the end of that chunk's
     * segments (both NULL before the first chunk): the hot path stores at
     * cur while cur != end. */
    struct iolens_dxt_segment *cur, *end;
    uint32_t first, last; /* 0: no chunk yet */
    int64_t before;       /* segments in the (full) chunks before the last */
};

/* Private state beside each DXT record, changed under the lock of its source
 * record src (the POSIX or MPI-IO record that feeds it). */
struct dxt_state {
    struct dxt_list list[2];
    /* The source record, set (release) before the first segment is stored;
     * for DXT_POSIX also the file's POSIX record, for the triggers. */
    struct iol_slot *_Atomic src;
};

/* What each of the two modules keeps apart: its pool and its losses. */
struct dxt_mod {
    struct iol_pool *pool;
    _Atomic uint64_t dropped; /* segments dropped: the memory was full */
    const char *name;
};

int iol_dxt_posix_on;
#ifdef IOLENS_WITH_MPI /* DXT_MPIIO is fed by the MPI-IO module */
int iol_dxt_mpiio_on;
#endif
static struct dxt_mod dxt_posix = {.name = "DXT_POSIX"};
#ifdef IOLENS_WITH_MPI /* DXT_MPIIO is fed by the MPI-IO module */
static struct dxt_mod dxt_mpiio = {.name = "DXT_MPIIO"};
#endif
static struct dxt_chunk *chunks; /* the mapping, once made; kept across restarts */
static uint32_t nchunks;         /* chunks it holds */
static _Atomic uint32_t chunks_used;
static char hostname[IOLENS_DXT_HOSTNAME_SIZE];
/* A source record's cache entry for a file whose DXT record is not kept. */
static char not_kept;

static inline struct dxt_state *state_of(struct iol_slot *s)
{
    return iol_slot_state(s, sizeof(struct iolens_dxt_record));
}

static void dxt_init_record(struct iolens_record_base *base, void *state, const char *name)
{
    struct iolens_dxt_record *r = (struct iolens_dxt_record *)base;
    (void)state;
    (void)name;
    memcpy(r->hostname, hostname, sizeof(r->hostname));
}

/* The pool of module m is ready: at start, after fork in the child, after a
 * failed exec. The mapping is made once, by the first module enabled; a new
 * record set starts with every chunk free (a forked child's copy of the
 * parent's chunks is simply reused; both modules' starts run before any
 * segment is stored). @return 1 when m records, else 0. */
static int dxt_start(struct dxt_mod *m, struct iol_pool *pool)
{
    m->pool = pool;
    atomic_store_explicit(&chunks_used, 0, memory_order_relaxed);
    atomic_store_explicit(&m->dropped, 0, memory_order_relaxed);
    if (pool->capacity == 0)
        return 0; /* the module is not enabled */
    if (!chunks) {
        size_t n = iol_rt.cfg.dxt_mem / sizeof(struct dxt_chunk);
        if (n > UINT32_MAX - 1)
            n = UINT32_MAX - 1;
        void *p = n ? iol_sys_mmap(NULL, n * sizeof(struct dxt_chunk), PROT_READ | PROT_WRITE,
                                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0)
                    : MAP_FAILED;
        if (p == MAP_FAILED) {
            if (n)
                iol_diag("%s: cannot map %zu bytes for segments", m->name,
                         n * sizeof(struct dxt_chunk));
            n = 0;
        } else {
            chunks = p;
        }
        nchunks = (uint32_t)n;
    }
    if (gethostname(hostname, sizeof(hostname)) != 0)
        memcpy(hostname, "unknown", sizeof("unknown"));
    return 1;
}

/* DXT_POSIX's start hook. */
static void dxt_posix_start(struct iol_pool *pool)
{
    iol_dxt_posix_on = dxt_start(&dxt_posix, pool);
}

#ifdef IOLENS_WITH_MPI /* DXT_MPIIO is fed by the MPI-IO module */
/* DXT_MPIIO's start hook. */
static void dxt_mpiio_start(struct iol_pool *pool)
{
    iol_dxt_mpiio_on = dxt_start(&dxt_mpiio, pool);
}
#endif

/* Segments kept in list l. */
static int64_t list_count(const struct dxt_list *l)
{
    return l->last ? l->before + (l->cur - chunks[l->last - 1].seg) : 0;
}

/* The list l of module m is at the end of its chunk (or has none): a new
 * chunk for it. @return its first segment, or NULL when the memory is used
 * up (m is then marked partial and the segment counted as dropped). */
static __attribute__((noinline, cold)) struct iolens_dxt_segment *add_chunk(struct dxt_mod *m,
                                                                            struct dxt_list *l)
{
    uint32_t i = atomic_load_explicit(&chunks_used, memory_order_relaxed);
    if (i < nchunks)
        i = atomic_fetch_add_explicit(&chunks_used, 1, memory_order_relaxed);
    if (i >= nchunks) {
        if (!atomic_load_explicit(&m->pool->mm->partial, memory_order_relaxed))
            atomic_store_explicit(&m->pool->mm->partial, 1, memory_order_relaxed);
        atomic_fetch_add_explicit(&m->dropped, 1, memory_order_relaxed);
        return NULL;
    }
    chunks[i].next = 0;
    if (l->last) {
        chunks[l->last - 1].next = i + 1;
        l->before += DXT_CHUNK_SEGS;
    } else {
        l->first = i + 1;
    }
    l->last = i + 1;
    l->end = chunks[i].seg + DXT_CHUNK_SEGS;
    return l->cur = chunks[i].seg;
}

/* A segment for list l of module m, whose last chunk is full (or which has
 * none): stored in a new chunk, or dropped. Out of line, and called last (a
 * tail call), so that the fast path saves no register. */
static __attribute__((noinline, cold)) void note_new_chunk(struct dxt_mod *m, struct dxt_list *l,
                                                           int64_t offset, int64_t length,
                                                           double t0, double t1)
{
    struct iolens_dxt_segment *p = add_chunk(m, l);
    if (!p)
        return;
    *p = (struct iolens_dxt_segment){offset, length, t0, t1};
    l->cur = p + 1;
}

/* The first segment of the source record src for module m: its DXT record,
 * made now, is cached in *dxt (or, when none can be made, the mark that it
 * is not kept), then the segment is stored. */
static __attribute__((noinline, cold)) void note_first(struct dxt_mod *m, struct iol_slot *src,
                                                       void **dxt, int is_write, int64_t offset,
                                                       int64_t length, double t0, double t1)
{
    const struct iolens_record_base *b = iol_slot_rec(src);
    struct iol_slot *s = iol_record_get(m->pool, b->id, iol_record_name(src));
    if (!s) {
        *dxt = &not_kept;
        return;
    }
    atomic_store_explicit(&state_of(s)->src, src, memory_order_release);
    *dxt = s;
    note_new_chunk(m, &state_of(s)->list[is_write ? 0 : 1], offset, length, t0, t1);
}

/* One segment in module m's trace of the source record src (its lock held);
 * *dxt is src's cache of its DXT record (made at first, or marked as not
 * kept). The common case, room in the list's last chunk, is a few stores. */
static inline __attribute__((always_inline)) void note(struct dxt_mod *m, struct iol_slot *src,
                                                       void **dxt, int is_write, int64_t offset,
                                                       int64_t length, double t0, double t1)
{
    struct iol_slot *s = *dxt;
    if (__builtin_expect(!s, 0)) {
        note_first(m, src, dxt, is_write, offset, length, t0, t1);
        return;
    }
    if (__builtin_expect((void *)s == (void *)&not_kept, 0))
        return;
    struct dxt_list *l = &state_of(s)->list[is_write ? 0 : 1];
    struct iolens_dxt_segment *p = l->cur;
    if (__builtin_expect(p == l->end, 0)) {
        note_new_chunk(m, l, offset, length, t0, t1);
        return;
    }
    *p = (struct iolens_dxt_segment){offset, length, t0, t1};
    l->cur = p + 1;
}

void iol_dxt_posix_note(struct iol_slot *posix, void **dxt, int is_write, int64_t offset,
                        int64_t length, double t0, double t1)
{
    note(&dxt_posix, posix, dxt, is_write, offset, length, t0, t1);
}

#ifdef IOLENS_WITH_MPI /* DXT_MPIIO is fed by the MPI-IO module */
void iol_dxt_mpiio_note(struct iol_slot *mpiio, void **dxt, int is_write, int64_t offset,
                        int64_t length, double t0, double t1)
{
    note(&dxt_mpiio, mpiio, dxt, is_write, offset, length, t0, t1);
}
#endif

/* Copy the first n segments of list l into out. */
static void copy_list(const struct dxt_list *l, int64_t n_segs, struct iolens_dxt_segment *out)
{
    int64_t left = n_segs;
    for (uint32_t c = l->first; c && left > 0; c = chunks[c - 1].next) {
        int64_t n = left < DXT_CHUNK_SEGS ? left : DXT_CHUNK_SEGS;
        memcpy(out, chunks[c - 1].seg, (size_t)n * sizeof(*out));
        out += n;
        left -= n;
    }
}

/* Do the file's POSIX counters c reach the triggers set (all of them)? As in
 * Darshan, a share is of the file's reads and writes, and reaching a
 * threshold is being at or above it. @return 1: keep the trace. */
static int triggers_reached(const int64_t *c)
{
    double small = iol_rt.cfg.dxt_small_io_trigger;
    double unaligned = iol_rt.cfg.dxt_unaligned_io_trigger;
    double ops = (double)(c[POSIX_READS] + c[POSIX_WRITES]);

    if (small >= 0) {
        int64_t n = c[POSIX_SIZE_READ_0_100] + c[POSIX_SIZE_READ_100_1K] +
                    c[POSIX_SIZE_READ_1K_10K] + c[POSIX_SIZE_WRITE_0_100] +
                    c[POSIX_SIZE_WRITE_100_1K] + c[POSIX_SIZE_WRITE_1K_10K];
        if (!(ops > 0 && (double)n / ops >= small))
            return 0;
    }
    if (unaligned >= 0 && !(ops > 0 && (double)c[POSIX_FILE_NOT_ALIGNED] / ops >= unaligned))
        return 0;
    return 1;
}

/* Would the POSIX record posix (NULL: none) keep its file's traces? */
static int keeps_traces(struct iol_slot *posix)
{
    if (iol_rt.cfg.dxt_small_io_trigger < 0 && iol_rt.cfg.dxt_unaligned_io_trigger < 0)
        return 1;
    /* The runtime is off: the POSIX counters are final (a call still inside
     * its note can only add to them, which Darshan's reading races with too). */
    return posix &&
           triggers_reached(((const struct iolens_posix_record *)iol_slot_rec(posix))->counters);
}

/* The whole record of slot s (its lock held by the caller), for the log;
 * src is its source record, whose lock (guarding the segment lists) the
 * caller holds when it can; posix is the file's POSIX record (NULL: none),
 * for the triggers. */
static size_t full_record_locked(struct iol_slot *s, struct iol_slot *posix, void *buf,
                                 size_t cap)
{
    const struct dxt_state *st = state_of(s);
    int64_t w = list_count(&st->list[0]), r = list_count(&st->list[1]);
    size_t bytes = sizeof(struct iolens_dxt_record) +
                   (size_t)(w + r) * sizeof(struct iolens_dxt_segment);

    if (w + r == 0)
        return 0; /* as in Darshan: no traced access, no record */
    if (!keeps_traces(posix))
        return 0;
    if (bytes > cap)
        return bytes;
    struct iolens_dxt_record *out = buf;
    memcpy(out, iol_slot_rec(s), sizeof(*out));
    out->write_count = w;
    out->read_count = r;
    copy_list(&st->list[0], w, out->segments);
    copy_list(&st->list[1], r, out->segments + w);
    return bytes;
}

/* The whole record of slot s, read under the lock of its source record
 * (taken for a bounded time: a thread that died may hold it); posix as
 * above, or (void *)1 for the source record itself (DXT_POSIX). */
static size_t full_record(struct iol_slot *s, struct iol_slot *posix, void *buf, size_t cap)
{
    struct iol_slot *src = atomic_load_explicit(&state_of(s)->src, memory_order_acquire);
    if (!src)
        return 0; /* no segment stored yet */
    if (posix == (void *)1)
        posix = src;
    int locked = iol_slot_lock_bounded(src);
    size_t n = full_record_locked(s, posix, buf, cap);
    if (locked)
        iol_slot_unlock(src);
    return n;
}

/* DXT_POSIX's full_record hook. */
static size_t dxt_posix_full_record(struct iol_slot *s, void *buf, size_t cap)
{
    return full_record(s, (void *)1, buf, cap);
}

#ifdef IOLENS_WITH_MPI /* DXT_MPIIO is fed by the MPI-IO module */
/* DXT_MPIIO's full_record hook: the file's POSIX record is the one of the
 * same record id (the same name), if this process has one. */
static size_t dxt_mpiio_full_record(struct iol_slot *s, void *buf, size_t cap)
{
    const struct iolens_record_base *b = iol_slot_rec(s);
    struct iol_pool *posix = iol_posix_pool();
    return full_record(s, posix ? iol_record_find(posix, b->id) : NULL, buf, cap);
}
#endif

/* Say on stderr when module m dropped segments, and what to raise. */
static void dxt_finish(struct dxt_mod *m)
{
    uint64_t lost = atomic_load_explicit(&m->dropped, memory_order_relaxed);
    if (lost)
        iol_diag_always("%s: %llu segments dropped (the trace memory is full): raise "
                        "IOLENS_DXT_MEM (now %zu KiB)",
                        m->name, (unsigned long long)lost, iol_rt.cfg.dxt_mem >> 10);
}

/* DXT_POSIX's finish hook. */
static void dxt_posix_finish(struct iol_pool *pool)
{
    (void)pool;
    dxt_finish(&dxt_posix);
}

#ifdef IOLENS_WITH_MPI /* DXT_MPIIO is fed by the MPI-IO module */
/* DXT_MPIIO's finish hook. */
static void dxt_mpiio_finish(struct iol_pool *pool)
{
    (void)pool;
    dxt_finish(&dxt_mpiio);
}
#endif

static const struct iol_binding_table *const dxt_tables[] = {NULL}; /* wraps nothing */

const struct iol_module iol_dxt_posix_module = {
    .id = IOLENS_MOD_DXT_POSIX,
    .name = "DXT_POSIX",
    .version = IOLENS_DXT_POSIX_VERSION,
    .record_size = sizeof(struct iolens_dxt_record),
    .state_size = sizeof(struct dxt_state),
    .max_records = 0,
    .names_are_paths = 1,
    .bindings = dxt_tables,
    .init_record = dxt_init_record,
    .start = dxt_posix_start,
    .finish = dxt_posix_finish,
    .full_record = dxt_posix_full_record,
};

#ifdef IOLENS_WITH_MPI
const struct iol_module iol_dxt_mpiio_module = {
    .id = IOLENS_MOD_DXT_MPIIO,
    .name = "DXT_MPIIO",
    .version = IOLENS_DXT_MPIIO_VERSION,
    .record_size = sizeof(struct iolens_dxt_record),
    .state_size = sizeof(struct dxt_state),
    .max_records = 0,
    .names_are_paths = 1,
    .bindings = dxt_tables,
    .init_record = dxt_init_record,
    .start = dxt_mpiio_start,
    .finish = dxt_mpiio_finish,
    .full_record = dxt_mpiio_full_record,
};
#endif

/* ---- DXT_STDIO (an iolens module, id 63): the STDIO module's reads and
 * writes, fed from its notes as DXT_POSIX is from POSIX's. Like DXT_MPIIO's,
 * a trace is kept under the triggers only when the file's POSIX record (of
 * the same name, in this process) reaches them. ---- */

int iol_dxt_stdio_on;
static struct dxt_mod dxt_stdio = {.name = "DXT_STDIO"};

/* DXT_STDIO's start hook. */
static void dxt_stdio_start(struct iol_pool *pool)
{
    iol_dxt_stdio_on = dxt_start(&dxt_stdio, pool);
}

void iol_dxt_stdio_note(struct iol_slot *stdio, void **dxt, int is_write, int64_t offset,
                        int64_t length, double t0, double t1)
{
    note(&dxt_stdio, stdio, dxt, is_write, offset, length, t0, t1);
}

/* DXT_STDIO's full_record hook: the file's POSIX record for the triggers. */
static size_t dxt_stdio_full_record(struct iol_slot *s, void *buf, size_t cap)
{
    const struct iolens_record_base *b = iol_slot_rec(s);
    struct iol_pool *posix = iol_posix_pool();
    return full_record(s, posix ? iol_record_find(posix, b->id) : NULL, buf, cap);
}

/* DXT_STDIO's finish hook. */
static void dxt_stdio_finish(struct iol_pool *pool)
{
    (void)pool;
    dxt_finish(&dxt_stdio);
}

const struct iol_module iol_dxt_stdio_module = {
    .id = IOLENS_MOD_DXT_STDIO,
    .name = "DXT_STDIO",
    .version = IOLENS_DXT_STDIO_VERSION,
    .record_size = sizeof(struct iolens_dxt_record),
    .state_size = sizeof(struct dxt_state),
    .max_records = 0,
    .names_are_paths = 1,
    .bindings = dxt_tables,
    .init_record = dxt_init_record,
    .start = dxt_stdio_start,
    .finish = dxt_stdio_finish,
    .full_record = dxt_stdio_full_record,
};
