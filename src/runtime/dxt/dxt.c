/* DXT_POSIX, DXT_MPIIO and DXT_STDIO modules: per-file traces of POSIX,
 * MPI-IO and STDIO reads and writes.
 *
 * What Darshan's DXT records (darshan-dxt.c gives the facts): for each file,
 * every read and write the POSIX (MPI-IO) module counts, as offset, length,
 * start and end time relative to the job's start, and (the record versions
 * after Darshan 3.5.0: DXT_POSIX 2, DXT_MPIIO 3) the thread that made it, as
 * pthread_self() gives it; the host name of the process; the number of writes
 * and of reads. A file with no traced access has no record in the log.
 *
 * Where things live: all in the record file (common/recfile.h), so that the
 * log of a killed process has the traces up to the kill. The record's head
 * (id, rank, host name; counts zero) is a slot of the module's pool; the
 * state beside it starts with the first chunk of its writes and of its
 * reads; the chunks (1 KiB) come from the file's trace area of
 * DXT_MEM bytes, shared by the three modules, handed out by an atomic counter
 * (trace_used) and reserved on the file system 256 at a time, out of line,
 * so the hot path allocates nothing and makes no system call. A segment is
 * stored under the lock of the source record (the POSIX, MPI-IO or STDIO
 * record the hook is called with, which holds it already): each DXT record
 * has one source record (the one of the same id), so no second lock is taken.
 * A segment is stored as its difference from the list's previous one, in
 * one word when it is short (common/recfile.h gives the encoding), then the
 * chunk's count of words is raised (release), which makes it count: the fast
 * path is one store of 8 bytes where a whole segment took 40, because the
 * fresh memory those bytes take (its pages reserved, mapped and zeroed, its
 * cache lines fetched) cost more than all the rest of the trace. The thread
 * id is the thread pointer, what pthread_self() returns, read without a call
 * where the C library allows (iol_self); it is stored when it changes. A new
 * chunk is taken only when a segment does not fit in the list's last one.
 * At the end the log writer builds each record
 * from the file (iol_dxt_recfile_build, the code iolens recover uses), holding
 * the source record's lock (bounded).
 *
 * The triggers (DXT_SMALL_IO_TRIGGER, DXT_UNALIGNED_IO_TRIGGER), as in
 * Darshan: decided per file when its record is written, from the file's POSIX
 * counters of this process: the share of its reads and writes that are small
 * (the size histogram's bins up to 10 KiB) or at an offset not file-aligned
 * (POSIX_FILE_NOT_ALIGNED). A file below a set threshold loses its whole
 * trace; with both set, it must reach both. Nothing is decided on the hot
 * path. A DXT_MPIIO trace is kept when the file's POSIX counters reach the
 * triggers (as Darshan drops it with the file's DXT_POSIX trace); with a
 * trigger set and no POSIX record of the file, it is dropped. A killed
 * process never reaches that decision: its recovered log keeps every trace. */
#include "dxt.h"

#include <errno.h>
#include <stdatomic.h>
#include <string.h>
#include <unistd.h>

#include "core/diag.h"
#include "format/runtime_api.h"
#include "iolens/modules/dxt_mpiio.h"
#include "iolens/modules/dxt_posix.h"
#include "iolens/modules/dxt_stdio.h"
#include "iolens/modules/posix.h"
#include "posix/posix.h"
#include "stdio/stdio_mod.h"
#ifdef IOLENS_WITH_MPI
#include "mpiio/mpi_io.h"
#endif

#define DXT_GROW_CHUNKS 256u /* chunks of file space reserved at a time */

/* Where the hot path stores a list's next segment, and what the next one is
 * a difference from. */
struct dxt_list {
    struct iol_trace_chunk *chunk; /* the last chunk (NULL: none yet) */
    uint32_t used;                /* its words in use; IOL_TRACE_CHUNK_WORDS also when none */
    uint32_t last;                /* index + 1 of the last chunk, 0: none yet */
    uint64_t next_off;            /* offset + length of the previous segment */
    int64_t prev_end;             /* its end, in clock ticks */
    uint64_t thread;              /* the thread id the list's segments have now, 0: none */
    uint64_t unused[3];           /* 64 bytes: the hot path finds a list with one shift */
};

/* Private state beside each DXT record, changed under the lock of its source
 * record src (the POSIX, MPI-IO or STDIO record that feeds it). */
struct dxt_state {
    struct iol_trace_lists lists; /* first: read from the file (common/recfile.h) */
    struct dxt_list list[2];      /* writes, reads */
    /* The source record, set (release) before the first segment is stored;
     * for DXT_POSIX also the file's POSIX record, for the triggers. */
    struct iol_slot *_Atomic src;
};

/* What each module keeps apart: its pool and its losses. */
struct dxt_mod {
    struct iol_pool *pool;
    _Atomic uint64_t dropped; /* segments dropped: the memory was full */
    const char *name;
};

static struct dxt_mod dxt_posix = {.name = "DXT_POSIX"};
#ifdef IOLENS_WITH_MPI /* DXT_MPIIO is fed by the MPI-IO module */
static struct dxt_mod dxt_mpiio = {.name = "DXT_MPIIO"};
#endif
static struct iol_map_header *hdr;    /* the record file of this record set */
static struct iol_trace_chunk *chunks; /* its trace area */
/* Chunks that may be handed out: the area's, fewer once file space could
 * not be reserved (later chunks are then dropped without trying again). */
static _Atomic uint32_t chunk_cap;
static _Atomic uint64_t grow_lock; /* held while reserving file space */
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
 * failed exec. Each record set has its own record file, whose trace area
 * starts empty. @return 1 when m records, else 0. */
static int dxt_start(struct dxt_mod *m, struct iol_pool *pool)
{
    m->pool = pool;
    atomic_store_explicit(&m->dropped, 0, memory_order_relaxed);
    if (pool->capacity == 0)
        return 0; /* the module is not enabled */
    hdr = iol_rt.map.hdr;
    chunks = (struct iol_trace_chunk *)((unsigned char *)hdr + hdr->trace_off);
    atomic_store_explicit(&chunk_cap, hdr->trace_chunks, memory_order_relaxed);
    if (gethostname(hostname, sizeof(hostname)) != 0)
        memcpy(hostname, "unknown", sizeof("unknown"));
    return 1;
}

/* DXT_POSIX's start hook. */
static void dxt_posix_start(struct iol_pool *pool)
{
    iol_flag_set(&iol_posix_rw_extra, IOL_POSIX_RW_DXT, dxt_start(&dxt_posix, pool));
}

#ifdef IOLENS_WITH_MPI /* DXT_MPIIO is fed by the MPI-IO module */
/* DXT_MPIIO's start hook. */
static void dxt_mpiio_start(struct iol_pool *pool)
{
    iol_flag_set(&iol_mpiio_rw_extra, IOL_MPIIO_RW_DXT, dxt_start(&dxt_mpiio, pool));
}
#endif

/* Make sure chunk i has file space reserved (a step of DXT_GROW_CHUNKS; the
 * first ones were reserved with the file). On failure no later chunk is
 * handed out. errno is kept. @return 0, or -1. */
static int chunk_back(uint32_t i)
{
    if (i < atomic_load_explicit(&hdr->trace_backed, memory_order_acquire))
        return 0;
    if (iol_owner_lock(&grow_lock) != 0)
        return -1; /* a signal handler interrupted this thread's own growing */
    int rc = 0, saved = errno;
    uint32_t have = atomic_load_explicit(&hdr->trace_backed, memory_order_relaxed);
    if (i >= have) {
        uint32_t want = (i / DXT_GROW_CHUNKS + 1) * DXT_GROW_CHUNKS;
        if (want > hdr->trace_chunks)
            want = hdr->trace_chunks;
        rc = iol_map_reserve(&iol_rt.map, hdr->trace_off + (uint64_t)have * sizeof(*chunks),
                             (uint64_t)(want - have) * sizeof(*chunks));
        if (rc == 0) {
            iol_map_populate((unsigned char *)(chunks + have),
                             (size_t)(want - have) * sizeof(*chunks));
            atomic_store_explicit(&hdr->trace_backed, want, memory_order_release);
        } else {
            iol_diag("DXT: cannot reserve space for more segments (errno %d)", errno);
            atomic_store_explicit(&chunk_cap, have, memory_order_relaxed);
        }
    }
    iol_owner_unlock(&grow_lock);
    errno = saved;
    return rc;
}

/* List kind (0 writes, 1 reads) of the record whose state is st, in module
 * m, has no room for a segment in its last chunk (or has none): a new chunk
 * for it. @return its first word, or NULL when the memory is used up (m is then
 * marked partial and the segment counted as dropped). */
static __attribute__((noinline, cold)) uint64_t *
add_chunk(struct dxt_mod *m, struct dxt_state *st, int kind)
{
    struct dxt_list *l = &st->list[kind];
    uint32_t cap = atomic_load_explicit(&chunk_cap, memory_order_relaxed);
    uint32_t i = atomic_load_explicit(&hdr->trace_used, memory_order_relaxed);
    if (i < cap)
        i = atomic_fetch_add_explicit(&hdr->trace_used, 1, memory_order_relaxed);
    if (i >= cap || chunk_back(i) != 0) {
        if (!atomic_load_explicit(&m->pool->mm->partial, memory_order_relaxed))
            atomic_store_explicit(&m->pool->mm->partial, 1, memory_order_relaxed);
        atomic_fetch_add_explicit(&m->dropped, 1, memory_order_relaxed);
        return NULL;
    }
    /* Linked before its first segment is stored: a reader that finds the
     * link finds the chunk's segments as they come. */
    if (l->last)
        atomic_store_explicit(&chunks[l->last - 1].next, i + 1, memory_order_release);
    else
        atomic_store_explicit(&st->lists.first[kind], i + 1, memory_order_release);
    l->last = i + 1;
    l->chunk = &chunks[i];
    l->used = 0;
    return chunks[i].word;
}

/* The runtime clock's seconds (whole ticks of 2^-22 s) as ticks, exactly. */
static inline int64_t ticks_of(double t)
{
    return (int64_t)(t * 0x1p22);
}

/* The short form of a segment (common/recfile.h), given its fields'
 * differences from the list's previous segment, or 0 when one does not fit.
 * A segment whose differences are all 0 (an empty access at once, right at
 * the previous one's end) takes the long form, as 0 means "does not fit". */
static inline uint64_t short_form(uint64_t off, uint64_t len, uint64_t gap, uint64_t dur)
{
    if ((off >> IOL_TRACE_OFF_BITS) | (len >> IOL_TRACE_LEN_BITS) | (gap >> IOL_TRACE_GAP_BITS) |
        (dur >> IOL_TRACE_DUR_BITS))
        return 0;
    return off | len << IOL_TRACE_OFF_BITS | gap << (IOL_TRACE_OFF_BITS + IOL_TRACE_LEN_BITS) |
           dur << (IOL_TRACE_OFF_BITS + IOL_TRACE_LEN_BITS + IOL_TRACE_GAP_BITS);
}

/* Make the first used words of l's last chunk count, and the segment just
 * stored there, ending at offset + length and at tick end, the list's new
 * reference. */
static inline void commit(struct dxt_list *l, uint32_t used, uint64_t offset, uint64_t length,
                          int64_t end)
{
    l->used = used;
    atomic_store_explicit(&l->chunk->used, used, memory_order_release);
    l->next_off = offset + length;
    l->prev_end = end;
}

/* A segment of list kind of the record whose state is st, in module m, that
 * the fast path does not store: its thread changed, it needs the long form,
 * or it does not fit in the list's last chunk (or the list has none). Stored
 * in the words it needs, in a new chunk if need be, or dropped. Out of line,
 * and called last (a tail call), so that the fast path saves no register. */
static __attribute__((noinline, cold)) void note_slow(struct dxt_mod *m, struct dxt_state *st,
                                                      int kind, uint64_t offset, uint64_t length,
                                                      int64_t t0, int64_t t1)
{
    struct dxt_list *l = &st->list[kind];
    uint64_t thread = iol_self();
    uint64_t word = short_form(iol_trace_zigzag((int64_t)(offset - l->next_off)), length,
                               (uint64_t)(t0 - l->prev_end), (uint64_t)(t1 - t0));
    int new_thread = thread != l->thread;
    uint32_t need = (new_thread ? 2 : 0) + (word ? 1 : 5);
    uint64_t *p;
    if (IOL_TRACE_CHUNK_WORDS - l->used >= need) {
        p = l->chunk->word + l->used;
    } else {
        p = add_chunk(m, st, kind);
        if (!p)
            return;
    }
    if (new_thread) {
        p[0] = IOL_TRACE_TAGGED | IOL_TRACE_TAG_THREAD;
        p[1] = thread;
        p += 2;
        l->thread = thread;
    }
    if (word) {
        *p++ = word;
    } else {
        p[0] = IOL_TRACE_TAGGED | IOL_TRACE_TAG_LONG;
        p[1] = offset;
        p[2] = length;
        p[3] = (uint64_t)t0;
        p[4] = (uint64_t)t1;
        p += 5;
    }
    commit(l, (uint32_t)(p - l->chunk->word), offset, length, t1);
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
    for (int kind = 0; kind < 2; kind++)
        state_of(s)->list[kind].used = IOL_TRACE_CHUNK_WORDS; /* no chunk yet */
    *dxt = s;
    note_slow(m, state_of(s), is_write ? 0 : 1, (uint64_t)offset, (uint64_t)length,
              ticks_of(t0), ticks_of(t1));
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
    int kind = is_write ? 0 : 1;
    struct dxt_list *l = &state_of(s)->list[kind];
    int64_t tick0 = ticks_of(t0), tick1 = ticks_of(t1);
    uint64_t word = short_form(iol_trace_zigzag((int64_t)((uint64_t)offset - l->next_off)),
                               (uint64_t)length, (uint64_t)(tick0 - l->prev_end),
                               (uint64_t)(tick1 - tick0));
    uint32_t used = l->used;
    if (__builtin_expect(used == IOL_TRACE_CHUNK_WORDS || !word || iol_self() != l->thread, 0)) {
        note_slow(m, state_of(s), kind, (uint64_t)offset, (uint64_t)length, tick0, tick1);
        return;
    }
    l->chunk->word[used] = word;
    commit(l, used + 1, (uint64_t)offset, (uint64_t)length, tick1);
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

/* The whole record of slot s of module m (its lock held by the caller),
 * for the log, read under the lock of its source record (taken for a bounded
 * time: a thread that died may hold it); posix is the file's POSIX record
 * (NULL: none) for the triggers, or (void *)1 for the source record itself
 * (DXT_POSIX). */
static size_t full_record(struct dxt_mod *m, struct iol_slot *s, struct iol_slot *posix,
                          void *buf, size_t cap)
{
    struct iol_slot *src = atomic_load_explicit(&state_of(s)->src, memory_order_acquire);
    if (!src)
        return 0; /* no segment stored yet */
    if (posix == (void *)1)
        posix = src;
    int locked = iol_slot_lock_bounded(src);
    size_t n = keeps_traces(posix)
                   ? iol_dxt_recfile_build(hdr, m->pool->mm, (unsigned char *)s, buf, cap)
                   : 0;
    if (locked)
        iol_slot_unlock(src);
    return n;
}

/* DXT_POSIX's full_record hook. */
static size_t dxt_posix_full_record(struct iol_slot *s, void *buf, size_t cap)
{
    return full_record(&dxt_posix, s, (void *)1, buf, cap);
}

#ifdef IOLENS_WITH_MPI /* DXT_MPIIO is fed by the MPI-IO module */
/* DXT_MPIIO's full_record hook: the file's POSIX record is the one of the
 * same record id (the same name), if this process has one. */
static size_t dxt_mpiio_full_record(struct iol_slot *s, void *buf, size_t cap)
{
    const struct iolens_record_base *b = iol_slot_rec(s);
    struct iol_pool *posix = iol_posix_pool();
    return full_record(&dxt_mpiio, s, posix ? iol_record_find(posix, b->id) : NULL, buf, cap);
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

static struct dxt_mod dxt_stdio = {.name = "DXT_STDIO"};

/* DXT_STDIO's start hook. */
static void dxt_stdio_start(struct iol_pool *pool)
{
    iol_flag_set(&iol_stdio_rw_extra, IOL_STDIO_RW_DXT, dxt_start(&dxt_stdio, pool));
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
    return full_record(&dxt_stdio, s, posix ? iol_record_find(posix, b->id) : NULL, buf, cap);
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
