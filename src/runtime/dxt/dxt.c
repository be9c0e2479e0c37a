/* DXT_POSIX module: per-file traces of POSIX reads and writes.
 *
 * What Darshan's DXT records (darshan-dxt.c gives the facts): for each file,
 * every read and write the POSIX module counts, as offset, length, start and
 * end time relative to the job's start; the host name of the process; the
 * number of writes and of reads. A file with no traced access has no record
 * in the log.
 *
 * Where things live: the record's head (id, rank, host name; counts zero)
 * is a slot of the module's pool in the record file; the private state
 * beside it lists the record's segment chunks. The chunks are taken from one
 * anonymous mapping of DXT_MEM bytes (reserved at start, its pages touched
 * only as they are used) by an atomic counter, so the hot path allocates
 * nothing and makes no system call; a segment is stored under the DXT
 * record's own lock. At the end the log writer copies each record whole
 * (dxt_full_record). A killed process's record file has no segments: the
 * DXT module is left out of its recovered log.
 *
 * The triggers (DXT_SMALL_IO_TRIGGER, DXT_UNALIGNED_IO_TRIGGER), as in
 * Darshan: decided per file when its record is written, from the file's POSIX
 * counters of this process: the share of its reads and writes that are small
 * (the size histogram's bins up to 10 KiB) or at an offset not file-aligned
 * (POSIX_FILE_NOT_ALIGNED). A file below a set threshold loses its whole
 * trace; with both set, it must reach both. Nothing is decided on the hot
 * path. */
#include "dxt.h"

#include <stdatomic.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "core/diag.h"
#include "iolens/modules/dxt_posix.h"
#include "iolens/modules/posix.h"

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
    uint32_t first, last; /* 0: no chunk yet */
    int64_t count;        /* segments kept; every chunk but the last is full */
};

/* Private state beside each DXT record (changed under the record's lock). */
struct dxt_state {
    struct dxt_list list[2];
    struct iol_slot *posix; /* the file's POSIX record, for the triggers */
};

int iol_dxt_posix_on;
static struct iol_pool *dxt_pool;
static struct dxt_chunk *chunks; /* the mapping, once made; kept across restarts */
static uint32_t nchunks;         /* chunks it holds */
static _Atomic uint32_t chunks_used;
static _Atomic uint64_t segs_dropped;
static char hostname[IOLENS_DXT_HOSTNAME_SIZE];
/* A POSIX record's cache entry for a file whose DXT record is not kept. */
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

/* The pool is ready: at start, after fork in the child, after a failed exec.
 * The mapping is made once; a new record set starts with every chunk free
 * (a forked child's copy of the parent's chunks is simply reused). */
static void dxt_start(struct iol_pool *pool)
{
    dxt_pool = pool;
    atomic_store_explicit(&chunks_used, 0, memory_order_relaxed);
    atomic_store_explicit(&segs_dropped, 0, memory_order_relaxed);
    iol_dxt_posix_on = 0;
    if (pool->capacity == 0)
        return; /* DXT_POSIX not enabled */
    if (!chunks) {
        size_t n = iol_rt.cfg.dxt_mem / sizeof(struct dxt_chunk);
        if (n > UINT32_MAX - 1)
            n = UINT32_MAX - 1;
        void *p = n ? iol_sys_mmap(NULL, n * sizeof(struct dxt_chunk), PROT_READ | PROT_WRITE,
                                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0)
                    : MAP_FAILED;
        if (p == MAP_FAILED) {
            if (n)
                iol_diag("DXT_POSIX: cannot map %zu bytes for segments", n * sizeof(struct dxt_chunk));
            n = 0;
        } else {
            chunks = p;
        }
        nchunks = (uint32_t)n;
    }
    if (gethostname(hostname, sizeof(hostname)) != 0)
        memcpy(hostname, "unknown", sizeof("unknown"));
    iol_dxt_posix_on = 1;
}

/* A new chunk for the list l. @return 0, or -1 when the memory is used up
 * (the module is then marked partial). */
static int add_chunk(struct dxt_list *l)
{
    uint32_t i = atomic_load_explicit(&chunks_used, memory_order_relaxed);
    if (i < nchunks)
        i = atomic_fetch_add_explicit(&chunks_used, 1, memory_order_relaxed);
    if (i >= nchunks) {
        if (!atomic_load_explicit(&dxt_pool->mm->partial, memory_order_relaxed))
            atomic_store_explicit(&dxt_pool->mm->partial, 1, memory_order_relaxed);
        return -1;
    }
    chunks[i].next = 0;
    if (l->last)
        chunks[l->last - 1].next = i + 1;
    else
        l->first = i + 1;
    l->last = i + 1;
    return 0;
}

void iol_dxt_posix_note(struct iol_slot *posix, void **dxt, int is_write, int64_t offset,
                        int64_t length, double t0, double t1)
{
    struct iol_slot *s = *dxt;
    if (!s) {
        const struct iolens_record_base *b = iol_slot_rec(posix);
        s = iol_record_get(dxt_pool, b->id, iol_record_name(posix));
        if (s)
            state_of(s)->posix = posix; /* read under s's lock, taken below */
        *dxt = s ? (void *)s : (void *)&not_kept;
    }
    if ((void *)s == (void *)&not_kept || !s || iol_slot_lock(s) != 0)
        return;
    struct dxt_list *l = &state_of(s)->list[is_write ? 0 : 1];
    int64_t at = l->count % DXT_CHUNK_SEGS;
    if (at == 0 && add_chunk(l) != 0) {
        iol_slot_unlock(s);
        atomic_fetch_add_explicit(&segs_dropped, 1, memory_order_relaxed);
        return;
    }
    chunks[l->last - 1].seg[at] = (struct iolens_dxt_segment){offset, length, t0, t1};
    l->count++;
    iol_slot_unlock(s);
}

/* Copy the segments of list l into out. */
static void copy_list(const struct dxt_list *l, struct iolens_dxt_segment *out)
{
    int64_t left = l->count;
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

/* The whole record of slot s (its lock held by the caller), for the log. */
static size_t dxt_full_record(struct iol_slot *s, void *buf, size_t cap)
{
    const struct dxt_state *st = state_of(s);
    int64_t w = st->list[0].count, r = st->list[1].count;
    size_t bytes = sizeof(struct iolens_dxt_record) +
                   (size_t)(w + r) * sizeof(struct iolens_dxt_segment);

    if (w + r == 0)
        return 0; /* as in Darshan: no traced access, no record */
    /* The runtime is off: the POSIX counters are final (a call still inside
     * its note can only add to them, which Darshan's reading races with too). */
    if (!triggers_reached(((const struct iolens_posix_record *)iol_slot_rec(st->posix))->counters))
        return 0;
    if (bytes > cap)
        return bytes;
    struct iolens_dxt_record *out = buf;
    memcpy(out, iol_slot_rec(s), sizeof(*out));
    out->write_count = w;
    out->read_count = r;
    copy_list(&st->list[0], out->segments);
    copy_list(&st->list[1], out->segments + w);
    return bytes;
}

/* Say on stderr when segments were dropped, and what to raise. */
static void dxt_finish(struct iol_pool *pool)
{
    uint64_t lost = atomic_load_explicit(&segs_dropped, memory_order_relaxed);
    (void)pool;
    if (lost)
        iol_diag_always("DXT_POSIX: %llu segments dropped (the trace memory is full): raise "
                        "IOLENS_DXT_MEM (now %zu KiB)",
                        (unsigned long long)lost, iol_rt.cfg.dxt_mem >> 10);
}

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
    .start = dxt_start,
    .finish = dxt_finish,
    .full_record = dxt_full_record,
};
