/* Record pools, the record-id tables and the name area. Creating a record
 * takes no lock that I/O waits on: ids are inserted with compare-and-swap and
 * slots are handed out with an atomic counter; only growing the reserved file
 * space (once per IOL_GROW_SLOTS records) is serialised. */
#include "records.h"

#include <errno.h>
#include <pthread.h>
#include <string.h>
#include <sys/mman.h>

#include "common/hash.h"
#include "config.h"
#include "core.h"
#include "diag.h"
#include "mapfile.h"
#include "name_hash.h"

#define IOL_GROW_SLOTS 256            /* slots reserved at a time */
#define IOL_GROW_NAMES (256u << 10)   /* name bytes reserved at a time */
/* Bytes of each pool and of the name area reserved with the header, through
 * the descriptor that creates the file: the records made at start (the
 * standard streams') then need no growth step, which reopens the file and,
 * on tmpfs, allocates and clears every page of IOL_GROW_SLOTS slots or
 * IOL_GROW_NAMES bytes (0.1 ms at every start). */
#define IOL_FIRST_SPACE 4096
#define IOL_FIRST_TRACE 16u /* chunks of the trace area reserved with the header */
#define IOL_IDX_FULL UINT64_MAX       /* value of an id whose record was dropped */
/* Found while this thread is itself claiming the entry (a signal handler's
 * I/O interrupted the claim): no record for this call, nothing dropped. */
#define IOL_IDX_SKIP (UINT64_MAX - 1)
/* An entry's value while a thread claims it: this bit and the claimant's
 * iol_self() (a user-space address, below 2^47). Published values are slot
 * indexes and name offsets + 1 (32 bits) or IOL_IDX_FULL. */
#define IOL_IDX_CLAIMED (1ull << 62)
#define IOL_SPIN_LIMIT (1u << 22)     /* waits for a publishing thread, then give up */
/* Each name cache level: twice the last. A level is in use while the
 * pool's records fill at most half of it, and every set of a level in use is
 * touched: doubling rather than growing 8 times keeps that footprint at 2 to
 * 4 entries per name (stat of 50,000 names: -56 ns, bench/README.md). */
#define IOL_NAME_CACHE_GROWTH 1u
#define IOL_NAME_CACHE_WAYS 8u        /* entries of a name cache set: one cache line */

static struct {
    struct iol_mapping *map;
    const struct iol_config *cfg;
    struct iol_idx names;             /* record id -> name offset + 1 */
    _Atomic uint64_t names_charged;   /* name memory used, counted as Darshan does */
    _Atomic uint64_t names_grow_lock;
    struct iol_vals_pool vals;
} R;

/* IOLENS_MODMEM, shared between the modules: each has a floor of records
 * of its own, and takes the rest from a common part as it makes records, so
 * that a small limit still leaves every module some records (a module's whole
 * share taken in turn at start left none to the modules after POSIX). */
static struct {
    uint32_t floor[IOL_MAP_MAX_MODS]; /* per module: slots outside the common part */
    _Atomic uint64_t common_left;     /* bytes of the common part not yet taken */
} B;

/* Entries of name cache level lv. */
static inline uint64_t name_cache_entries(unsigned lv)
{
    return (uint64_t)IOL_NAME_CACHE << (lv * IOL_NAME_CACHE_GROWTH);
}

/* Levels a pool of capacity records gets: enough for twice as many names. */
static unsigned name_cache_levels(uint32_t capacity)
{
    unsigned n = 1;
    while (n < IOL_NAME_CACHE_LEVELS && name_cache_entries(n - 1) < 2 * (uint64_t)capacity)
        n++;
    return n;
}

/* ---- open-addressing tables ---- */

/* A table's entries are spread over levels: the first of IOL_IDX_LEVEL0
 * entries, each next one IOL_IDX_GROWTH times larger. A key's probe sequence
 * is one window of IOL_IDX_WINDOW entries in each level in turn, then the
 * whole of the last level. A key lands in a level only when its windows in
 * every level below were full, so a table of n keys touches memory in
 * proportion to n: a single table sized for the pool's capacity spread its
 * first ten thousand keys over as many pages (19 MB at 10,000 files, where
 * the records themselves take 10). Entries are never removed, so a window
 * with an empty entry ends a search. */
#define IOL_IDX_LEVEL0 1024u
#define IOL_IDX_GROWTH 4u
#define IOL_IDX_WINDOW 8u

/* Entries of the levels of a table for at least min_entries, into sizes.
 * @return the number of levels. */
static unsigned idx_levels(uint64_t min_entries, uint64_t *sizes)
{
    unsigned n = 0;
    uint64_t size = IOL_IDX_LEVEL0, total = 0;
    do {
        sizes[n++] = size;
        total += size;
        size *= IOL_IDX_GROWTH;
    } while (total < min_entries && n < IOL_IDX_MAX_LEVELS);
    return n;
}

/* Bytes of a table for at least min_entries entries. */
static uint64_t idx_bytes(uint64_t min_entries)
{
    uint64_t sizes[IOL_IDX_MAX_LEVELS], bytes = 0;
    unsigned n = idx_levels(min_entries, sizes);
    for (unsigned i = 0; i < n; i++)
        bytes += sizes[i] * sizeof(struct iol_idx_entry);
    return bytes;
}

/* Entries of the table t, all levels. */
static uint64_t idx_entries(const struct iol_idx *t)
{
    uint64_t n = 0;
    for (unsigned i = 0; i < t->nlevels; i++)
        n += t->mask[i] + 1;
    return n;
}

/* Put a table for min_entries at *at (zeroed memory) and move *at past it. */
static void idx_place(struct iol_idx *t, unsigned char **at, uint64_t min_entries)
{
    uint64_t sizes[IOL_IDX_MAX_LEVELS];
    t->nlevels = idx_levels(min_entries, sizes);
    for (unsigned i = 0; i < t->nlevels; i++) {
        t->level[i] = (struct iol_idx_entry *)*at;
        t->mask[i] = sizes[i] - 1;
        *at += sizes[i] * sizeof(struct iol_idx_entry);
    }
}

/* Where key's probes start in level lv: other bits of the key at each level,
 * so that keys sharing a full window below are spread apart above. */
static inline uint64_t idx_home(const struct iol_idx *t, unsigned lv, uint64_t key)
{
    uint64_t h = key ^ (key >> 31);
    h = (h << (lv * 7 % 64)) | (h >> ((64 - lv * 7 % 64) % 64));
    return h & t->mask[lv];
}

/* Entries of key's probe sequence in level lv: a window, or the whole last level. */
static inline uint64_t idx_probe_count(const struct iol_idx *t, unsigned lv)
{
    return lv + 1 < t->nlevels ? IOL_IDX_WINDOW : t->mask[lv] + 1;
}

/* The i-th entry of key's probe sequence in level lv. */
static inline struct iol_idx_entry *idx_probe(const struct iol_idx *t, unsigned lv,
                                              uint64_t home, uint64_t i)
{
    uint64_t window = ~(uint64_t)(IOL_IDX_WINDOW - 1);
    uint64_t at = lv + 1 < t->nlevels ? (home & window) | ((home + i) & ~window)
                                      : (home + i) & t->mask[lv];
    return &t->level[lv][at];
}

static inline int idx_claimed(uint64_t v)
{
    return (v >> 62) == 1;
}

/* Wait until the value of e (v when read) is published: a claim by another
 * thread is waited for; this thread's own claim is never (only a signal
 * handler on it can find one). @return the value, IOL_IDX_SKIP, or 0 on
 * timeout. */
static uint64_t idx_wait(struct iol_idx_entry *e, uint64_t v)
{
    uint64_t mine = IOL_IDX_CLAIMED | iol_self();
    for (unsigned i = 0; idx_claimed(v); i++) {
        if (v == mine)
            return IOL_IDX_SKIP;
        if (i == IOL_SPIN_LIMIT)
            return 0;
        iol_cpu_relax(i);
        v = atomic_load_explicit(&e->val, memory_order_acquire);
    }
    return v;
}

/* The key of e, whose value v (non-zero) says it is claimed: the claimant
 * stores the key just after its claim. @return the key, or 0 when this
 * thread's own claim was interrupted before it stored one (or on timeout). */
static uint64_t idx_key_of_claimed(struct iol_idx_entry *e, uint64_t v)
{
    uint64_t mine = IOL_IDX_CLAIMED | iol_self();
    for (unsigned i = 0; i < IOL_SPIN_LIMIT; i++) {
        uint64_t k = atomic_load_explicit(&e->key, memory_order_acquire);
        if (k || v == mine)
            return k;
        iol_cpu_relax(i);
    }
    return 0;
}

/* Find key. @return its published value, IOL_IDX_SKIP, or 0 if absent (or
 * not published in time). */
static uint64_t idx_find(const struct iol_idx *t, uint64_t key)
{
    for (unsigned lv = 0; lv < t->nlevels; lv++) {
        uint64_t home = idx_home(t, lv, key), n = idx_probe_count(t, lv);
        for (uint64_t i = 0; i < n; i++) {
            struct iol_idx_entry *e = idx_probe(t, lv, home, i);
            uint64_t k = atomic_load_explicit(&e->key, memory_order_acquire);
            if (k == 0) { /* free, or claimed an instant ago */
                uint64_t v = atomic_load_explicit(&e->val, memory_order_acquire);
                if (v == 0 || (k = idx_key_of_claimed(e, v)) == 0)
                    return 0;
            }
            if (k == key)
                return idx_wait(e, atomic_load_explicit(&e->val, memory_order_acquire));
        }
    }
    return 0;
}

/* Find key or claim an entry for it. On return *entry is its entry (NULL if
 * the table is full, or with IOL_IDX_SKIP) and the result is its value
 * (IOL_IDX_FULL when it cannot be had, IOL_IDX_SKIP when a signal handler
 * found its own thread's claim), or 0 when this thread claimed it and must
 * publish the value.
 *
 * The claim is a compare-and-swap of the value from 0 to IOL_IDX_CLAIMED
 * and the claimant's identity, then the key is stored: a signal handler on
 * the claiming thread knows the claim for its own at once, and skips its
 * record instead of waiting for itself forever. */
static uint64_t idx_claim(struct iol_idx *t, uint64_t key, struct iol_idx_entry **entry)
{
    uint64_t mine = IOL_IDX_CLAIMED | iol_self();
    *entry = NULL;
    for (unsigned lv = 0; lv < t->nlevels; lv++) {
        uint64_t home = idx_home(t, lv, key), n = idx_probe_count(t, lv);
        for (uint64_t i = 0; i < n; i++) {
            struct iol_idx_entry *e = idx_probe(t, lv, home, i);
            /* The compare-and-swap is the first access, not a load: a load of
             * an untouched page maps the zero page, and the store then faults
             * again (two page faults, about 2 us each on a VM, per new page). */
            uint64_t v = 0;
            if (atomic_compare_exchange_strong_explicit(&e->val, &v, mine, memory_order_acq_rel,
                                                        memory_order_acquire)) {
                atomic_store_explicit(&e->key, key, memory_order_release);
                *entry = e;
                return 0;
            }
            uint64_t k = idx_claimed(v) ? idx_key_of_claimed(e, v)
                                        : atomic_load_explicit(&e->key, memory_order_acquire);
            if (k == 0) /* this thread's own claim, its key not stored: maybe key */
                return IOL_IDX_SKIP;
            if (k == key) {
                *entry = e;
                v = idx_wait(e, v);
                return v ? v : IOL_IDX_FULL;
            }
        }
    }
    return IOL_IDX_FULL;
}

static void idx_publish(struct iol_idx_entry *e, uint64_t val)
{
    atomic_store_explicit(&e->val, val, memory_order_release);
}

/* ---- layout ---- */

static size_t round_up(size_t v, size_t a)
{
    return (v + a - 1) / a * a;
}

size_t iol_records_layout(struct iol_map_header *h, const struct iol_module *const *mods,
                          size_t nmods, const struct iol_config *cfg)
{
    size_t off = round_up(sizeof(*h), 4096);
    uint32_t caps[IOL_MAP_MAX_MODS];
    size_t n = nmods < IOL_MAP_MAX_MODS ? nmods : IOL_MAP_MAX_MODS, users = 0, floors = 0;

    for (size_t i = 0; i < n; i++) {
        caps[i] = iol_config_max_records(cfg, (int)mods[i]->id, mods[i]->max_records);
        users += caps[i] != 0;
    }
    /* Half of the limit is split evenly as floors; the rest is common. */
    for (size_t i = 0; i < n; i++) {
        B.floor[i] = caps[i];
        if (cfg->mod_mem && caps[i]) {
            size_t fit = cfg->mod_mem / (2 * users) / mods[i]->record_size;
            B.floor[i] = fit < caps[i] ? (uint32_t)fit : caps[i];
            floors += (size_t)B.floor[i] * mods[i]->record_size;
        }
    }
    atomic_store(&B.common_left, cfg->mod_mem - floors);
    int traces = 0; /* a trace module (DXT) records: the file gets a trace area */
    h->nmods = 0;
    for (size_t i = 0; i < n; i++) {
        const struct iol_module *mod = mods[i];
        struct iol_map_module *mm = &h->mods[h->nmods++];
        uint32_t cap = caps[i];
        if (cfg->mod_mem) {
            size_t fit = B.floor[i] + (cfg->mod_mem - floors) / mod->record_size;
            if (fit < cap)
                cap = (uint32_t)fit;
        }
        mm->mod_id = (uint32_t)mod->id;
        mm->rec_version = mod->version;
        mm->rec_size = mod->record_size;
        mm->stride = round_up(IOL_SLOT_STATE_OFF(mod->record_size) + mod->state_size, 64);
        mm->capacity = cap;
        mm->pool_off = off;
        off = round_up(off + (size_t)cap * mm->stride, 4096);
        traces |= cap && mod->full_record;
    }
    h->names_off = off;
    h->names_size = cfg->name_mem < IOL_MAP_NAMES_MAX ? cfg->name_mem : IOL_MAP_NAMES_MAX;
    off = round_up(off + h->names_size, 4096);
    size_t chunks = traces ? cfg->dxt_mem / sizeof(struct iol_trace_chunk) : 0;
    if (!chunks)
        return off;
    h->trace_off = off;
    h->trace_chunks = chunks < UINT32_MAX ? (uint32_t)chunks : UINT32_MAX;
    return round_up(off + (size_t)h->trace_chunks * sizeof(struct iol_trace_chunk), 4096);
}

size_t iol_records_first_space(struct iol_map_header *h, struct iol_map_range *r)
{
    size_t n = 0;

    r[n++] = (struct iol_map_range){0, round_up(sizeof(*h), 4096)};
    for (uint32_t i = 0; i < h->nmods; i++) {
        struct iol_map_module *mm = &h->mods[i];
        uint64_t len = IOL_FIRST_SPACE;
        uint32_t slots = (uint32_t)(len / mm->stride);
        if (slots > mm->capacity) {
            slots = mm->capacity;
            len = (uint64_t)slots * mm->stride;
        }
        if (!slots)
            continue; /* slots larger than a page: pool_back, at the first record */
        atomic_store_explicit(&mm->backed, slots, memory_order_relaxed);
        if (r[n - 1].off + r[n - 1].len == mm->pool_off)
            r[n - 1].len += len; /* one call for both */
        else
            r[n++] = (struct iol_map_range){mm->pool_off, len};
    }
    uint64_t names = h->names_size < IOL_FIRST_SPACE ? h->names_size : IOL_FIRST_SPACE;
    if (names) {
        atomic_store_explicit(&h->names_backed, names, memory_order_relaxed);
        r[n++] = (struct iol_map_range){h->names_off, names};
    }
    uint32_t chunks = h->trace_chunks < IOL_FIRST_TRACE ? h->trace_chunks : IOL_FIRST_TRACE;
    if (chunks) {
        atomic_store_explicit(&h->trace_backed, chunks, memory_order_relaxed);
        r[n++] = (struct iol_map_range){h->trace_off, chunks * sizeof(struct iol_trace_chunk)};
    }
    return n;
}

int iol_records_init(struct iol_pool *pools, size_t npools, struct iol_mapping *m,
                     const struct iol_config *cfg)
{
    struct iol_map_header *h = m->hdr;
    uint64_t total = 0, bytes = 0;

    memset(&R, 0, sizeof(R));
    R.map = m;
    R.cfg = cfg;
    for (size_t i = 0; i < npools; i++) {
        struct iol_pool *p = &pools[i];
        p->mm = &h->mods[i];
        p->slots = (unsigned char *)h + p->mm->pool_off;
        p->stride = p->mm->stride;
        p->capacity = p->mm->capacity;
        for (unsigned lv = 0; lv < IOL_NAME_CACHE_LEVELS; lv++)
            p->names_mask[lv] = (uint32_t)name_cache_entries(lv) - 1;
        p->names_levels = name_cache_levels(p->capacity);
        atomic_store(&p->names_level, 0);
        atomic_store(&p->names_growing, 0);
        atomic_store(&p->grow_lock, 0);
        p->floor = B.floor[i];
        atomic_store(&p->dropped, 0);
        atomic_store(&p->why, 0);
        bytes += idx_bytes(2 * (uint64_t)p->capacity);
        for (unsigned lv = 0; lv < p->names_levels; lv++)
            bytes += name_cache_entries(lv) * sizeof(uint64_t);
        total += p->capacity;
    }
    bytes += idx_bytes(2 * total);
    /* Overflow chunks for records with more than 4 distinct sizes or strides. */
    R.vals.capacity = (uint32_t)(total / 2 + 64);
    bytes += (uint64_t)R.vals.capacity * sizeof(struct iol_vals_chunk);
    /* One mapping for all the tables: a process's first mmap calls cost
     * about 2 us each, and each mapping is one more to tear down at exit. */
    void *mem = iol_sys_mmap(NULL, bytes, PROT_READ | PROT_WRITE,
                             MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (mem == MAP_FAILED)
        return -1;
    unsigned char *at = mem;
    for (size_t i = 0; i < npools; i++)
        idx_place(&pools[i].idx, &at, 2 * (uint64_t)pools[i].capacity);
    idx_place(&R.names, &at, 2 * total);
    R.vals.chunks = (struct iol_vals_chunk *)at;
    at += (uint64_t)R.vals.capacity * sizeof(struct iol_vals_chunk);
    /* The name caches last, each level's pages untouched until it is used.
     * An entry (hash tag in the high 32 bits, slot index + 1 below) is
     * trusted without looking at the name, so each record set (a forked
     * child's, a restart's) starts with empty caches: these pages are new. */
    for (size_t i = 0; i < npools; i++)
        for (unsigned lv = 0; lv < pools[i].names_levels; lv++) {
            pools[i].names_seen[lv] = (_Atomic uint64_t *)at;
            at += name_cache_entries(lv) * sizeof(uint64_t);
        }
    return 0;
}

struct iol_vals_pool *iol_records_vals_pool(void)
{
    return &R.vals;
}

/* ---- growth of reserved file space ---- */

/* Make sure slot idx of p has reserved file space: a growth step of
 * IOL_GROW_SLOTS slots, except in a pool with nothing reserved yet (slots
 * larger than the first space, HEATMAP's 56 KiB), which gets just the slots
 * up to idx: most processes make one such record, many none.
 * @return 0, or -1. */
static int pool_back(struct iol_pool *p, uint32_t idx)
{
    int rc = 0;
    if (idx < atomic_load_explicit(&p->mm->backed, memory_order_acquire))
        return 0;
    if (iol_owner_lock(&p->grow_lock) != 0)
        return -1; /* a signal handler interrupted this thread's own growing */
    uint32_t have = atomic_load_explicit(&p->mm->backed, memory_order_relaxed);
    if (idx >= have) {
        uint32_t want = have ? (idx / IOL_GROW_SLOTS + 1) * IOL_GROW_SLOTS : idx + 1;
        if (want > p->capacity)
            want = p->capacity;
        rc = iol_map_reserve(R.map, p->mm->pool_off + (uint64_t)have * p->stride,
                             (uint64_t)(want - have) * p->stride);
        if (rc == 0)
            atomic_store_explicit(&p->mm->backed, want, memory_order_release);
        else
            iol_diag("cannot reserve space for more records (errno %d)", errno);
    }
    iol_owner_unlock(&p->grow_lock);
    return rc;
}

static int names_back(uint64_t end)
{
    struct iol_map_header *h = R.map->hdr;
    int rc = 0;
    if (end <= atomic_load_explicit(&h->names_backed, memory_order_acquire))
        return 0;
    if (iol_owner_lock(&R.names_grow_lock) != 0)
        return -1;
    uint64_t have = atomic_load_explicit(&h->names_backed, memory_order_relaxed);
    if (end > have) {
        uint64_t want = (end / IOL_GROW_NAMES + 1) * IOL_GROW_NAMES;
        if (want > h->names_size)
            want = h->names_size;
        rc = iol_map_reserve(R.map, h->names_off + have, want - have);
        if (rc == 0)
            atomic_store_explicit(&h->names_backed, want, memory_order_release);
    }
    iol_owner_unlock(&R.names_grow_lock);
    return rc;
}

/* Take the name memory a new name of len bytes (with its NUL) uses, as
 * Darshan counts it: the 8-byte record id, then the name, unpadded; a name
 * that does not fit takes nothing, so a shorter one may still fit. The
 * area's own use (the name padded to 8 bytes, no id) is never more than
 * this, so a name that passes always has room there.
 * @return 0, or -1 if the name memory is full. */
static int names_charge(size_t len)
{
    uint64_t cost = sizeof(uint64_t) + len;
    uint64_t have = atomic_load_explicit(&R.names_charged, memory_order_relaxed);
    do {
        if (have + cost > R.map->hdr->names_size)
            return -1;
    } while (!atomic_compare_exchange_weak_explicit(&R.names_charged, &have, have + cost,
                                                    memory_order_relaxed,
                                                    memory_order_relaxed));
    return 0;
}

/* The name offset of id, storing name if it is new (charged: its name
 * memory was taken already, by iol_record_reserve). *refused is set when
 * this call found the name memory full for a name not refused before.
 * @return offset + 1, 0 if the name area is full, or IOL_IDX_SKIP. */
static uint64_t name_get(uint64_t id, const char *name, int charged, int *refused)
{
    struct iol_map_header *h = R.map->hdr;
    struct iol_idx_entry *e;
    uint64_t v = idx_claim(&R.names, id, &e);

    *refused = 0;
    if (v)
        return v == IOL_IDX_FULL ? 0 : v; /* IOL_IDX_SKIP too, as it is */
    if (!e)
        return 0;
    size_t len = strlen(name) + 1;
    if (!charged && names_charge(len) != 0) {
        *refused = 1;
        idx_publish(e, IOL_IDX_FULL);
        return 0;
    }
    uint64_t off = atomic_fetch_add_explicit(&h->names_used, round_up(len, 8),
                                             memory_order_relaxed);
    if (off + len > h->names_size || names_back(off + len) != 0) {
        idx_publish(e, IOL_IDX_FULL);
        return 0;
    }
    memcpy((char *)h + h->names_off + off, name, len);
    idx_publish(e, off + 1);
    return off + 1;
}

/* ---- records ---- */

static struct iol_slot *slot_at(struct iol_pool *p, uint64_t idx)
{
    return (struct iol_slot *)(p->slots + idx * p->stride);
}

struct iol_slot *iol_record_find(struct iol_pool *p, uint64_t id)
{
    uint64_t v = idx_find(&p->idx, id);
    return v && v < IOL_IDX_SKIP ? slot_at(p, v - 1) : NULL;
}

static void set_partial(struct iol_pool *p)
{
    if (!atomic_load_explicit(&p->mm->partial, memory_order_relaxed))
        atomic_store_explicit(&p->mm->partial, 1, memory_order_relaxed);
}

/* A record of p not kept, for the reason why (enum iol_drop_reason). */
static void drop(struct iol_pool *p, unsigned why)
{
    set_partial(p);
    atomic_fetch_add_explicit(&p->dropped, 1, memory_order_relaxed);
    if (!(atomic_load_explicit(&p->why, memory_order_relaxed) & why))
        atomic_fetch_or_explicit(&p->why, why, memory_order_relaxed);
}

/* Take the module memory of slot idx of p: nothing below the pool's floor,
 * else a record's bytes from the common part. @return 0, or -1 if used up. */
static int modmem_charge(struct iol_pool *p, uint32_t idx)
{
    if (idx < p->floor)
        return 0;
    uint64_t cost = p->mod->record_size;
    uint64_t left = atomic_load_explicit(&B.common_left, memory_order_relaxed);
    do {
        if (left < cost)
            return -1;
    } while (!atomic_compare_exchange_weak_explicit(&B.common_left, &left, left - cost,
                                                    memory_order_relaxed,
                                                    memory_order_relaxed));
    return 0;
}

/* The reason a slot index past the usable ones was refused: the record
 * limit, or the module memory when that is what capped the pool. */
static unsigned full_reason(const struct iol_pool *p)
{
    uint32_t limit = iol_config_max_records(R.cfg, (int)p->mod->id, p->mod->max_records);
    return p->capacity < limit ? IOL_DROP_MODMEM : IOL_DROP_RECORDS;
}

/* Claim (or take the reserved slot res, index + 1) and fill a new slot for
 * id. @return the index value to publish. */
static uint64_t create_slot(struct iol_pool *p, uint64_t id, const char *name, uint64_t name_v,
                            uint32_t res)
{
    uint32_t idx = res ? res - 1 : atomic_fetch_add_explicit(&p->mm->count, 1,
                                                              memory_order_relaxed);
    if (idx >= p->capacity) {
        drop(p, full_reason(p));
        return IOL_IDX_FULL;
    }
    if (!res && modmem_charge(p, idx) != 0) {
        drop(p, IOL_DROP_MODMEM);
        return IOL_IDX_FULL;
    }
    if (pool_back(p, idx) != 0) {
        drop(p, IOL_DROP_SPACE);
        return IOL_IDX_FULL;
    }
    struct iol_slot *s = slot_at(p, idx);
    memset((unsigned char *)s + IOL_MAP_SLOT_HEAD, 0, p->stride - IOL_MAP_SLOT_HEAD);
    struct iol_map_slot_head *head = (struct iol_map_slot_head *)s;
    memset(head->module_hot, 0, sizeof(head->module_hot));
    head->name_off = (uint32_t)(name_v - 1); /* < names_size: 32 bits */
    atomic_store_explicit(&head->name_check, 0, memory_order_relaxed);
    struct iolens_record_base *base = iol_slot_rec(s);
    p->mod->init_record(base, iol_slot_state(s, p->mod->record_size), name);
    base->rank = 0;
    /* The id last: recovery treats a slot as live once its id is set. */
    __atomic_store_n(&base->id, id, __ATOMIC_RELEASE);
    return (uint64_t)idx + 1;
}

/* iol_record_get_in, but for errno (see there). */
static struct iol_slot *record_get(struct iol_pool *p, uint64_t id, const char *name,
                                   uint32_t res)
{
    struct iol_idx_entry *e;
    /* The find is only the fast path (idx_claim below finds an id already
     * there too). No record is made while the runtime starts: the standard
     * streams' are made at their first use. */
    uint64_t v = idx_find(&p->idx, id);
    int cancel, refused;

    if (v)
        return v >= IOL_IDX_SKIP ? NULL : slot_at(p, v - 1);
    if (p->capacity == 0 && iol_config_mod_disabled(R.cfg, (int)p->mod->id))
        return NULL; /* MOD_DISABLE: no records, and the log is not partial */
    /* Darshan's order: a full pool marks the log partial even for names
     * that would have been excluded. */
    int full = !res && atomic_load_explicit(&p->mm->count, memory_order_relaxed) >= p->capacity;
    if (full)
        set_partial(p);
    if (iol_config_name_excluded(R.cfg, (int)p->mod->id, p->mod->names_are_paths, name))
        return NULL;
    if (full) {
        /* Noted in the table, so that the name is found (and counted as
         * dropped) once; while the table is at most 3/4 full, which keeps
         * its searches short. */
        uint64_t used = (uint64_t)p->capacity + atomic_load_explicit(&p->dropped,
                                                                       memory_order_relaxed);
        if (used >= idx_entries(&p->idx) / 4 * 3)
            return NULL;
        v = idx_claim(&p->idx, id, &e);
        if (v == 0) {
            idx_publish(e, IOL_IDX_FULL);
            drop(p, full_reason(p));
        }
        return v == 0 || v >= IOL_IDX_SKIP ? NULL : slot_at(p, v - 1);
    }
    /* The clock's check (about 50 us: two CPUIDs, which trap to the
     * hypervisor on a VM, and a sysfs file) at the first record, which a
     * process that does no I/O never makes. */
    iol_clock_allow_tsc();
    pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, &cancel);
    uint64_t name_v = name_get(id, name, res != 0, &refused);
    if (name_v == IOL_IDX_SKIP) {
        v = IOL_IDX_SKIP;
    } else if (!name_v) {
        if (refused)
            drop(p, IOL_DROP_NAMEMEM);
        set_partial(p);
        v = IOL_IDX_FULL;
    } else {
        v = idx_claim(&p->idx, id, &e);
        if (v == 0) {
            v = create_slot(p, id, name, name_v, res);
            idx_publish(e, v);
        } else if (v == IOL_IDX_FULL && !e) {
            set_partial(p); /* the id table itself is full */
        }
    }
    pthread_setcancelstate(cancel, NULL);
    return v >= IOL_IDX_SKIP ? NULL : slot_at(p, v - 1);
}

/* ---- the name cache ---- */

/* The slot at idx if it is the one cached for a name whose hash has the
 * low 32 bits check (the entry held the high 32). A cache entry is put
 * (release) only once its slot is live and its name check set, and read
 * with acquire: the slot's check and record are then visible, with no look
 * at its id's line or at its name. Two names are taken for one only if all
 * 64 bits of their hashes agree, as Darshan's records are one if their
 * 64-bit ids do. @return it, or NULL. */
static inline __attribute__((always_inline)) struct iol_slot *
cached_slot(struct iol_pool *p, uint32_t idx, uint32_t check)
{
    uint32_t count = atomic_load_explicit(&p->mm->count, memory_order_relaxed);
    if (idx >= count || idx >= p->capacity)
        return NULL;
    struct iol_slot *s = slot_at(p, idx);
    struct iol_map_slot_head *head = (struct iol_map_slot_head *)s;
    if (atomic_load_explicit(&head->name_check, memory_order_relaxed) != check)
        return NULL;
    return s;
}

/* The name cache's level in use for pool p, and its mask. */
static inline _Atomic uint64_t *cache_level(struct iol_pool *p, uint32_t *mask)
{
    unsigned lv = atomic_load_explicit(&p->names_level, memory_order_acquire);
    *mask = p->names_mask[lv];
    return p->names_seen[lv];
}

/* A name whose hash has the high 32 bits key is looked for in one set of
 * IOL_NAME_CACHE_WAYS entries (one cache line) picked by key's low bits, from
 * entry key within it on, up to the first empty one: entries are filled in
 * that order and never emptied, only overwritten when the set is full. An
 * entry holds key (its high 32 bits) and the slot index + 1, so that its
 * place in a larger level can be found again from the entry alone. */
static inline _Atomic uint64_t *cache_way(_Atomic uint64_t *cache, uint32_t mask, uint32_t key,
                                          unsigned i)
{
    uint32_t at = key & mask;
    return &cache[(at & ~(IOL_NAME_CACHE_WAYS - 1)) | ((at + i) & (IOL_NAME_CACHE_WAYS - 1))];
}

/* The cached slot of the name whose hash is key (high 32 bits) and check
 * (low 32) in the ways of its set after the first. @return it, or NULL. */
static struct iol_slot *cache_find_rest(struct iol_pool *p, uint32_t key, uint32_t check)
{
    uint32_t mask;
    _Atomic uint64_t *cache = cache_level(p, &mask);
    for (unsigned i = 1; i < IOL_NAME_CACHE_WAYS; i++) {
        uint64_t e = atomic_load_explicit(cache_way(cache, mask, key, i), memory_order_acquire);
        if (e == 0)
            return NULL;
        if ((uint32_t)(e >> 32) == key) {
            struct iol_slot *s = cached_slot(p, (uint32_t)e - 1, check);
            if (s)
                return s;
        }
    }
    return NULL;
}

/* The first way of a name's set held the entry e of its key: its slot, if
 * it is the name's, else what the other ways hold. */
static inline __attribute__((always_inline)) struct iol_slot *
cache_check(struct iol_pool *p, uint64_t e, uint32_t check)
{
    struct iol_slot *s = cached_slot(p, (uint32_t)e - 1, check);
    return s ? s : cache_find_rest(p, (uint32_t)(e >> 32), check);
}

/* The cached slot of the name of hash h in a cache level: nearly always in
 * the first way of its set, looked at here; the rest out of line.
 * @return it, or NULL. */
static inline struct iol_slot *cache_find(struct iol_pool *p, _Atomic uint64_t *cache,
                                          uint32_t mask, uint64_t h)
{
    uint32_t key = (uint32_t)(h >> 32), check = (uint32_t)h;
    uint64_t e = atomic_load_explicit(&cache[key & mask], memory_order_acquire);
    if ((uint32_t)(e >> 32) == key && (uint32_t)e != 0)
        return cache_check(p, e, check);
    return e ? cache_find_rest(p, key, check) : NULL;
}

/* Put the entry v (key | slot index + 1) in a cache level: in the first
 * empty entry of its set, else over its first entry. */
static void cache_put(_Atomic uint64_t *cache, uint32_t mask, uint64_t v)
{
    uint32_t key = (uint32_t)(v >> 32);
    for (unsigned i = 0; i < IOL_NAME_CACHE_WAYS; i++) {
        uint64_t e = 0;
        if (atomic_compare_exchange_strong_explicit(cache_way(cache, mask, key, i), &e, v,
                                                    memory_order_release,
                                                    memory_order_relaxed) ||
            e == v)
            return;
    }
    atomic_store_explicit(cache_way(cache, mask, key, 0), v, memory_order_release);
}

/* Move pool p's name cache to its next level once its records fill half
 * the current one, taking the current level's entries along (so that names
 * seen before keep hitting). One thread moves it; entries others put in the
 * old level meanwhile may be left behind, and miss once. */
static void cache_grow(struct iol_pool *p)
{
    unsigned lv = atomic_load_explicit(&p->names_level, memory_order_relaxed);
    uint32_t count = atomic_load_explicit(&p->mm->count, memory_order_relaxed);
    if (lv + 1 >= p->names_levels || 2 * (uint64_t)count <= name_cache_entries(lv) ||
        atomic_exchange_explicit(&p->names_growing, 1, memory_order_acquire))
        return;
    if (atomic_load_explicit(&p->names_level, memory_order_relaxed) == lv) {
        _Atomic uint64_t *from = p->names_seen[lv], *to = p->names_seen[lv + 1];
        uint32_t mask = (uint32_t)name_cache_entries(lv + 1) - 1;
        for (uint64_t i = 0; i < name_cache_entries(lv); i++) {
            uint64_t v = atomic_load_explicit(&from[i], memory_order_acquire);
            if (v)
                cache_put(to, mask, v);
        }
        atomic_store_explicit(&p->names_level, lv + 1, memory_order_release);
    }
    atomic_store_explicit(&p->names_growing, 0, memory_order_release);
}

struct iol_slot *iol_record_seen(struct iol_pool *p, const char *name, size_t len)
{
    uint32_t mask;
    _Atomic uint64_t *cache = cache_level(p, &mask);
    return cache_find(p, cache, mask, iol_name_cache_hash(name, len));
}

struct iol_slot *iol_record_of_name(struct iol_pool *p, const char *name, size_t len)
{
    uint32_t mask;
    uint64_t h = iol_name_cache_hash(name, len);
    _Atomic uint64_t *cache = cache_level(p, &mask);
    struct iol_slot *s = cache_find(p, cache, mask, h);

    if (s)
        return s;
    s = iol_record_get(p, iol_hash64(name, len, 0), name);
    if (s) {
        uint64_t idx = (uint64_t)((unsigned char *)s - p->slots) / p->stride;
        /* Before the entry's release: a reader of the entry sees the check.
         * Another name with the record's id (a record-id collision) takes
         * the check over; the record's own name then misses the cache and
         * finds the same slot by its id. */
        atomic_store_explicit(&((struct iol_map_slot_head *)s)->name_check, (uint32_t)h,
                              memory_order_relaxed);
        cache_grow(p);
        cache = cache_level(p, &mask);
        cache_put(cache, mask, (h & 0xffffffff00000000ull) | (idx + 1));
    }
    return s;
}

struct iol_slot *iol_record_get_in(struct iol_pool *p, uint64_t id, const char *name,
                                   uint32_t res)
{
    int err = errno; /* making a record can take system calls (file space, sysfs) */
    struct iol_slot *s = record_get(p, id, name, res);
    errno = err;
    return s;
}

struct iol_slot *iol_record_get(struct iol_pool *p, uint64_t id, const char *name)
{
    return iol_record_get_in(p, id, name, 0);
}

uint32_t iol_record_reserve(struct iol_pool *p, const char *name)
{
    if (p->capacity == 0 && iol_config_mod_disabled(R.cfg, (int)p->mod->id))
        return 0;
    /* record_get's order: a full pool, then the name memory, then the slot */
    if (atomic_load_explicit(&p->mm->count, memory_order_relaxed) >= p->capacity) {
        drop(p, full_reason(p));
        return 0;
    }
    if (names_charge(strlen(name) + 1) != 0) {
        drop(p, IOL_DROP_NAMEMEM);
        return 0;
    }
    uint32_t idx = atomic_fetch_add_explicit(&p->mm->count, 1, memory_order_relaxed);
    if (idx >= p->capacity) {
        drop(p, full_reason(p));
        return 0;
    }
    if (modmem_charge(p, idx) != 0) {
        drop(p, IOL_DROP_MODMEM);
        return 0;
    }
    return idx + 1;
}

int iol_records_any(const struct iol_pool *pools, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        const struct iol_pool *p = &pools[i];
        uint32_t count = atomic_load_explicit(&p->mm->count, memory_order_relaxed);
        for (uint32_t j = 0; j < count && j < p->capacity; j++) {
            const struct iolens_record_base *base = iol_slot_rec(slot_at((struct iol_pool *)p, j));
            if (__atomic_load_n(&base->id, __ATOMIC_ACQUIRE))
                return 1;
        }
    }
    return 0;
}

const char *iol_record_name(struct iol_slot *s)
{
    const struct iol_map_slot_head *head = (const struct iol_map_slot_head *)s;
    struct iol_map_header *h = R.map->hdr;
    return (const char *)h + h->names_off + head->name_off;
}

/* ---- what was dropped ---- */

/* n bytes in MiB, rounded up. */
static size_t mib_up(uint64_t n)
{
    return (size_t)((n + (1u << 20) - 1) >> 20);
}

void iol_records_warn_dropped(const struct iol_pool *pools, size_t npools)
{
    const struct iol_config *c = R.cfg;
    for (size_t i = 0; i < npools; i++) {
        const struct iol_pool *p = &pools[i];
        unsigned why = atomic_load_explicit(&p->why, memory_order_relaxed);
        if (!why)
            continue;
        uint32_t count = atomic_load_explicit(&p->mm->count, memory_order_relaxed);
        uint32_t kept = count < p->capacity ? count : p->capacity;
        uint32_t dropped = atomic_load_explicit(&p->dropped, memory_order_relaxed);
        const char *mod = p->mod->name;
        if (why & IOL_DROP_SPACE) {
            iol_diag_always("%s: %u records kept, at least %u dropped: no space left for the "
                            "record file in %s (set IOLENS_MMAP_DIR)",
                            mod, kept, dropped, c->mmap_dir);
        } else if (why & IOL_DROP_MODMEM) {
            uint64_t need = c->mod_mem + (uint64_t)dropped * p->mod->record_size;
            iol_diag_always("%s: %u records kept, at least %u dropped: raise IOLENS_MODMEM "
                            "(now %zu MiB) to %zu MiB or more",
                            mod, kept, dropped, mib_up(c->mod_mem), mib_up(need));
        } else if (why & IOL_DROP_RECORDS) {
            iol_diag_always("%s: %u records kept, at least %u dropped: raise "
                            "IOLENS_MAX_RECORDS (now %u) to %u or more",
                            mod, kept, dropped, p->capacity, p->capacity + dropped);
        } else {
            uint64_t used = atomic_load_explicit(&R.names_charged, memory_order_relaxed);
            uint64_t need = kept ? used + used / kept * dropped : 2 * (uint64_t)c->name_mem;
            iol_diag_always("%s: %u records kept, at least %u dropped: raise IOLENS_NAMEMEM "
                            "(now %zu MiB) to %zu MiB or more",
                            mod, kept, dropped, mib_up(c->name_mem), mib_up(need));
        }
    }
}
