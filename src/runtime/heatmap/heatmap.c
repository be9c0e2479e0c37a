/* HEATMAP module: bytes moved per time bin and interface.
 *
 * What Darshan 3.5 records by default (darshan-heatmap.c gives the
 * semantics): one record per interface that moved bytes, named
 * "heatmap:POSIX", "heatmap:STDIO" or "heatmap:MPIIO"; 200 bins, the first
 * 0.1 s wide; when a call ends past the last bin, adjacent bins are merged
 * pairwise and the width doubles, as often as needed; a call's bytes are shared among the bins
 * it spans in proportion to its time in each; at the end the bins are cut
 * back to the ones the run reached. Records whose interface never moved a
 * byte do not exist (Darshan makes them and drops them at the end).
 *
 * Two things differ on purpose: the shares of a call always add up to its
 * bytes (Darshan rounds each share on its own, which can gain or lose a byte
 * per bin), and no lock is taken on the update path. Bins change by atomic
 * adds, in the shard of the caller's CPU (heatmap_layout.h); only the rare
 * doubling takes the record's lock, and it moves the bins with atomic
 * exchanges, so an update racing with a doubling is never lost (at worst it
 * lands one bin early or late). */
#include "heatmap.h"

#include <string.h>

#include "common/hash.h"
#include "iolens/modules/heatmap.h"

#define HM_BINS IOL_HEATMAP_BINS
#define HM_WIDTH0 0.1         /* seconds of a bin at the start */
#define HM_MAX_RECORDS 8      /* records the pool holds (Darshan's limit) */
#define HM_RECORD_BYTES IOL_HEATMAP_RECORD_BYTES
#define HM_MAX_DOUBLINGS IOL_HEATMAP_MAX_DOUBLINGS

static const char *const iface_names[IOL_HEATMAP_NIFACES] = {
    [IOL_HEATMAP_POSIX] = "heatmap:POSIX",
    [IOL_HEATMAP_STDIO] = "heatmap:STDIO",
    [IOL_HEATMAP_MPIIO] = "heatmap:MPIIO",
};

static struct iol_pool *hm_pool;
static uint64_t hm_ids[IOL_HEATMAP_NIFACES];
static _Atomic(struct iol_slot *) hm_slots[IOL_HEATMAP_NIFACES];
/* At a cache line's start: read by every update, written only at creation and doubling. */
_Alignas(64) struct iol_heatmap_hot iol_heatmap_hot[IOL_HEATMAP_NIFACES];
ptrdiff_t iol_heatmap_rseq_cpu;
double iol_heatmap_inv[HM_MAX_DOUBLINGS + 1], iol_heatmap_reach[HM_MAX_DOUBLINGS + 1];

static inline struct iolens_heatmap_record *rec_of(struct iol_slot *s)
{
    return iol_slot_rec(s);
}

static inline struct iol_heatmap_state *state_of(struct iol_slot *s)
{
    return iol_slot_state(s, HM_RECORD_BYTES);
}

static inline double width_of(uint32_t doublings)
{
    return HM_WIDTH0 * (double)((uint64_t)1 << doublings);
}

static void heatmap_init_record(struct iolens_record_base *base, void *state, const char *name)
{
    struct iolens_heatmap_record *r = (struct iolens_heatmap_record *)base;
    (void)state;
    (void)name;
    r->bin_width_seconds = HM_WIDTH0;
    r->nbins = HM_BINS;
}

#ifdef IOL_HAVE_THREAD_POINTER
/* glibc 2.35 and later: where each thread's rseq area lies (weak: older C
 * libraries have neither, and the shard is then always 0). */
extern const ptrdiff_t __rseq_offset __attribute__((weak));
extern const unsigned int __rseq_size __attribute__((weak));
#endif

/* iol_heatmap_rseq_cpu's value: the rseq area's cpu_id field (after the
 * 4-byte cpu_id_start), if the C library registered one. */
static ptrdiff_t rseq_cpu_offset(void)
{
#ifdef IOL_HAVE_THREAD_POINTER
    if (&__rseq_size && &__rseq_offset && __rseq_size >= 8)
        return __rseq_offset + 4;
#endif
    return 0;
}

static void heatmap_start(struct iol_pool *pool)
{
    hm_pool = pool;
    iol_heatmap_rseq_cpu = rseq_cpu_offset();
    for (uint32_t k = 0; k <= HM_MAX_DOUBLINGS; k++) {
        iol_heatmap_inv[k] = 1.0 / width_of(k);
        iol_heatmap_reach[k] = width_of(k) * HM_BINS;
    }
    for (int i = 0; i < IOL_HEATMAP_NIFACES; i++) {
        hm_ids[i] = iol_hash64(iface_names[i], strlen(iface_names[i]), 0);
        atomic_store_explicit(&hm_slots[i], NULL, memory_order_relaxed);
        atomic_store_explicit(&iol_heatmap_hot[i].bins, NULL, memory_order_relaxed);
    }
}

/* Create the record of iface at its first bytes. @return it, or NULL. */
static struct iol_slot *heatmap_slot_create(enum iol_heatmap_iface iface)
{
    if (!hm_pool)
        return NULL;
    struct iol_slot *s = iol_record_get(hm_pool, hm_ids[iface], iface_names[iface]);
    if (s) {
        atomic_store_explicit(&hm_slots[iface], s, memory_order_release);
        atomic_store_explicit(&iol_heatmap_hot[iface].doublings,
                              atomic_load_explicit(&state_of(s)->doublings, memory_order_acquire),
                              memory_order_relaxed);
        atomic_store_explicit(&iol_heatmap_hot[iface].bins, state_of(s)->shards[0],
                              memory_order_release);
    }
    return s;
}

/* Merge bins pairwise into the first half of one array and empty the second
 * half. Step i drains bins 2i and 2i + 1 with atomic exchanges and adds them
 * to bin i, which step i / 2 has already drained: a concurrent add lands in
 * a bin that is either still to be drained or already final, so it is moved
 * (at worst one bin off), never dropped. */
static void merge_pairs(int64_t *bins)
{
    for (int i = 0; i < HM_BINS / 2; i++) {
        int64_t v = __atomic_exchange_n(&bins[2 * i], 0, __ATOMIC_RELAXED);
        v += __atomic_exchange_n(&bins[2 * i + 1], 0, __ATOMIC_RELAXED);
        __atomic_fetch_add(&bins[i], v, __ATOMIC_RELAXED);
    }
}

/* Double the width of s if it still is HM_WIDTH0 * 2^seen. The caller holds
 * the record's lock. */
static void double_width_locked(struct iol_slot *s, uint32_t seen)
{
    struct iol_heatmap_state *st = state_of(s);
    struct iolens_heatmap_record *r = rec_of(s);
    if (atomic_load_explicit(&st->doublings, memory_order_relaxed) != seen)
        return; /* another thread did it */
    for (int i = 0; i < IOL_HEATMAP_SHARDS; i++) {
        merge_pairs(st->shards[i]);
        merge_pairs(st->shards[i] + HM_BINS);
    }
    r->bin_width_seconds = width_of(seen + 1);
    atomic_store_explicit(&st->doublings, seen + 1, memory_order_release);
    for (int i = 0; i < IOL_HEATMAP_NIFACES; i++) /* the fast path's copy */
        if (atomic_load_explicit(&hm_slots[i], memory_order_relaxed) == s)
            atomic_store_explicit(&iol_heatmap_hot[i].doublings, seen + 1, memory_order_release);
}

/* Widen the bins of s until t fits. @return the number of doublings (the
 * bins may still end before t if the lock could not be taken: a signal
 * handler interrupted this thread's own doubling; the caller then clamps to
 * the last bin). */
static uint32_t widen_for(struct iol_slot *s, double t)
{
    struct iol_heatmap_state *st = state_of(s);
    uint32_t k = atomic_load_explicit(&st->doublings, memory_order_acquire);
    while (t > iol_heatmap_reach[k] && k < HM_MAX_DOUBLINGS) {
        if (iol_slot_lock(s) != 0)
            break;
        double_width_locked(s, k);
        iol_slot_unlock(s);
        k = atomic_load_explicit(&st->doublings, memory_order_acquire);
    }
    return k;
}

static inline int64_t bin_of(double t, double inv_width)
{
    double b = t * inv_width;
    if (!(b > 0))
        return 0;
    return b >= HM_BINS - 1 ? HM_BINS - 1 : (int64_t)b;
}

/* A call whose bytes go to more than one bin, or past the bins' reach. */
static void update_spread(struct iol_slot *s, int is_write, int64_t bytes, double t0,
                          double t1)
{
    uint32_t k = widen_for(s, t1);
    int64_t *bins = state_of(s)->shards[iol_heatmap_shard()] + (is_write ? 0 : HM_BINS);
    int64_t first = bin_of(t0, iol_heatmap_inv[k]), last = bin_of(t1, iol_heatmap_inv[k]);

    if (first >= last || !(t1 > t0)) {
        __atomic_fetch_add(&bins[last], bytes, __ATOMIC_RELAXED);
        return;
    }
    /* Each bin gets the rounded running total minus what earlier bins got,
     * so the shares add up to bytes exactly. */
    double span = t1 - t0, w = width_of(k);
    int64_t given = 0;
    for (int64_t i = first; i <= last; i++) {
        double upto = (double)(i + 1) * w;
        int64_t total = bytes;
        if (i < last && upto < t1)
            total = (int64_t)((double)bytes * ((upto - t0) / span) + 0.5);
        if (total > bytes)
            total = bytes;
        if (total > given)
            __atomic_fetch_add(&bins[i], total - given, __ATOMIC_RELAXED);
        if (total > given)
            given = total;
    }
}

void iol_heatmap_update_slow(enum iol_heatmap_iface iface, int is_write, int64_t bytes,
                             double t0, double t1)
{
    if (bytes <= 0 || (unsigned)iface >= IOL_HEATMAP_NIFACES)
        return;
    struct iol_slot *s = atomic_load_explicit(&hm_slots[iface], memory_order_acquire);
    if (!s && !(s = heatmap_slot_create(iface)))
        return;
    struct iol_heatmap_state *st = state_of(s);
    if (atomic_load_explicit(&st->frozen, memory_order_relaxed))
        return;
    update_spread(s, is_write, bytes, t0, t1);
}

/* Cut one record for the log: wide enough for the whole run, then only the
 * bins the run reached (Darshan's rule: ceil(end / width) of them). */
static void finish_record(struct iol_slot *s, double end)
{
    struct iol_heatmap_state *st = state_of(s);
    struct iolens_heatmap_record *r = rec_of(s);
    /* Bounded: in a log writer forked after a fatal signal, a holder of the
     * lock may not exist any more. */
    int locked = iol_slot_lock_bounded(s);

    atomic_store_explicit(&st->frozen, 1, memory_order_relaxed);
    uint32_t k = atomic_load_explicit(&st->doublings, memory_order_relaxed);
    while (end > iol_heatmap_reach[k] && k < HM_MAX_DOUBLINGS)
        double_width_locked(s, k++);
    iol_heatmap_fold(r->bins, st);
    memset(st->shards, 0, sizeof(st->shards)); /* folded: the log writer adds nothing more */
    double w = width_of(k);
    int64_t n = (int64_t)(end / w);
    if ((double)n * w < end)
        n++;
    if (n < 1)
        n = 1;
    if (n < HM_BINS) {
        int64_t *wr = r->bins, *rd = r->bins + HM_BINS;
        /* Bytes can only be past the end after a clamp; keep them. */
        for (int64_t i = n; i < HM_BINS; i++) {
            wr[n - 1] += wr[i];
            rd[n - 1] += rd[i];
        }
        memmove(wr + n, rd, (size_t)n * sizeof(int64_t));
        r->nbins = n;
    }
    if (locked)
        iol_slot_unlock(s);
}

static void heatmap_finish(struct iol_pool *pool)
{
    double end = iol_now();
    (void)pool;
    for (int i = 0; i < IOL_HEATMAP_NIFACES; i++) {
        struct iol_slot *s = atomic_load_explicit(&hm_slots[i], memory_order_acquire);
        atomic_store_explicit(&iol_heatmap_hot[i].bins, NULL, memory_order_release);
        if (s)
            finish_record(s, end);
    }
}

static const struct iol_binding_table *const heatmap_tables[] = {NULL};

const struct iol_module iol_heatmap_module = {
    .id = IOLENS_MOD_HEATMAP,
    .name = "HEATMAP",
    .version = IOLENS_HEATMAP_VERSION,
    .record_size = HM_RECORD_BYTES,
    .state_size = sizeof(struct iol_heatmap_state),
    .max_records = HM_MAX_RECORDS,
    .names_are_paths = 0,
    .bindings = heatmap_tables,
    .init_record = heatmap_init_record,
    .start = heatmap_start,
    .finish = heatmap_finish,
};
