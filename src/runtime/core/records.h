/* Record pools: per-module, bounded, allocated at start-up inside the shared
 * record file, found by record id through lock-free open-addressing tables.
 * A module's record is a slot: a head (lock, name), the log record, then the
 * module's private state. When a pool is full, new records are dropped and the
 * module's partial flag is set; records that exist keep counting. */
#ifndef IOL_RT_RECORDS_H
#define IOL_RT_RECORDS_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "common/recfile.h"
#include "topvals.h"

struct iol_module;
struct iol_mapping;
struct iol_map_range;
struct iol_config;

/* An id table: 64-bit key (never 0) -> 64-bit value, by open addressing over
 * levels of growing size, each touched only once the ones below fill up
 * (records.c). */
#define IOL_IDX_MAX_LEVELS 12
struct iol_idx {
    struct iol_idx_entry {
        _Atomic uint64_t key;
        _Atomic uint64_t val; /* 0: free; IOL_IDX_CLAIMED | claimant while it publishes */
    } *level[IOL_IDX_MAX_LEVELS];
    uint64_t mask[IOL_IDX_MAX_LEVELS]; /* each level's entries - 1 (a power of two) */
    unsigned nlevels;
};

#define IOL_NAME_CACHE 4096u       /* entries of a pool's first name cache level */
#define IOL_NAME_CACHE_LEVELS 16   /* 4,096 to 128 Mi entries */

/* One module's records. */
struct iol_pool {
    const struct iol_module *mod;
    struct iol_map_module *mm;  /* the pool's entry in the file header */
    unsigned char *slots;       /* slot 0 */
    size_t stride;
    uint32_t capacity;
    struct iol_idx idx;         /* record id -> slot index + 1 */
    /* The name cache (see iol_record_of_name): levels of IOL_NAME_CACHE,
     * then twice as many entries each; the one in use grows with the pool's
     * records, so that a cache of a few names stays small and one of many
     * keeps hitting. */
    _Atomic uint64_t *names_seen[IOL_NAME_CACHE_LEVELS];
    uint32_t names_mask[IOL_NAME_CACHE_LEVELS]; /* each level's entries - 1 */
    _Atomic unsigned names_level; /* the level in use */
    _Atomic int names_growing;    /* one thread moves it to the next level */
    unsigned names_levels;        /* levels placed */
    _Atomic uint64_t grow_lock; /* held while reserving more file space */
    uint32_t floor;             /* slots that take no share of IOLENS_MODMEM's common part */
    _Atomic uint32_t dropped;   /* distinct records not kept (a lower bound) */
    _Atomic uint32_t why;       /* enum iol_drop_reason bits: which limits were hit */
};

/* Why records were dropped (bits of iol_pool.why). */
enum iol_drop_reason {
    IOL_DROP_RECORDS = 1 << 0, /* MAX_RECORDS */
    IOL_DROP_MODMEM = 1 << 1,  /* MODMEM */
    IOL_DROP_NAMEMEM = 1 << 2, /* NAMEMEM */
    IOL_DROP_SPACE = 1 << 3,   /* no file space for the record file */
};

/* A record slot (opaque): see common/recfile.h for its head. */
struct iol_slot;

/* The log record of a slot. */
static inline void *iol_slot_rec(struct iol_slot *s)
{
    return (unsigned char *)s + IOL_MAP_SLOT_HEAD;
}

/* Bytes of a slot's hot state, on the cache line of its lock. */
#define IOL_SLOT_HOT_BYTES (IOL_MAP_SLOT_HEAD - 16)

/* The hot state of a slot: a module's state read and written by every update
 * (IOL_SLOT_HOT_BYTES, zero when the slot is made). */
static inline void *iol_slot_hot(struct iol_slot *s)
{
    return ((struct iol_map_slot_head *)s)->module_hot;
}

/* The module state of a slot whose records are rec_size bytes. */
static inline void *iol_slot_state(struct iol_slot *s, size_t rec_size)
{
    return (unsigned char *)s + IOL_SLOT_STATE_OFF(rec_size);
}

/* Take a record's spin lock, held only for a counter update.
 * @return 0, or -1 if this thread holds it already (a signal handler's I/O
 *         interrupted an update of the same record: skip this one). */
static inline int iol_slot_lock(struct iol_slot *s)
{
    return iol_head_lock((struct iol_map_slot_head *)s);
}

/* Release a record's spin lock. */
static inline void iol_slot_unlock(struct iol_slot *s)
{
    iol_head_unlock((struct iol_map_slot_head *)s);
}

/* Try the lock for a bounded time (used when writing the log, where a lock
 * held by a thread that died must not hang the writer).
 * @return 1 if taken, 0 if not (the caller reads without it). */
static inline int iol_slot_lock_bounded(struct iol_slot *s)
{
    return iol_head_lock_bounded((struct iol_map_slot_head *)s);
}

/* Bytes of the record file for the given pools, name area and trace area
 * (DXT_MEM bytes when a module with full_record records), and the offsets of
 * each part, written into the header (pool_off, stride, ..., trace_off).
 * @return the file size. */
size_t iol_records_layout(struct iol_map_header *h, const struct iol_module *const *mods,
                          size_t nmods, const struct iol_config *cfg);

/* The file space to reserve when the record file is made, for the header h
 * that iol_records_layout filled: the header itself and the first page of
 * each pool whose slots fit in one, of the name area, and the first chunks of
 * the trace area, which h then counts as reserved (backed). A pool with larger slots (HEATMAP's, 56 KiB each) gets
 * none here: its first record reserves its own slot, so a process without I/O
 * allocates none of it.
 * r must hold IOL_RECORDS_FIRST_RANGES ranges. @return the ranges filled. */
#define IOL_RECORDS_FIRST_RANGES (IOL_MAP_MAX_MODS + 3)
size_t iol_records_first_space(struct iol_map_header *h, struct iol_map_range *r);

/* Set up the pools and tables over the mapping m whose header
 * iol_records_layout filled. Tables live in anonymous memory.
 * @return 0, or -1 (no memory). */
int iol_records_init(struct iol_pool *pools, size_t npools, struct iol_mapping *m,
                     const struct iol_config *cfg);

/* The record of id in pool p, created if new: its name is stored and the
 * module's init_record hook fills it. name must be the name id was hashed
 * from. errno is left as it was, so that a wrapper's note after the real
 * call needs no errno save of its own. @return the slot, or NULL if the
 * record is not kept (excluded name, pool or name memory full: then the
 * partial flag is set). */
struct iol_slot *iol_record_get(struct iol_pool *p, uint64_t id, const char *name);

/* For each pool that dropped records, one line on stderr: what was kept,
 * what was not, and which setting to raise to what. */
void iol_records_warn_dropped(const struct iol_pool *pools, size_t npools);

/* Keep the next slot of pool p for a record named name made later with
 * iol_record_get_in: it takes its place, counts against the limit and takes
 * its name memory now, as the standard streams' records do in Darshan, but
 * touches nothing (no name stored, no table entry: about 8 us of page faults
 * a record) until it is made. A kept slot never made stays out of the log.
 * @return the slot's index + 1, or 0 if the pool or the name memory is full
 * (the partial flag is then set) or the module is disabled. */
uint32_t iol_record_reserve(struct iol_pool *p, const char *name);

/* iol_record_get, making a new record in the slot res kept by
 * iol_record_reserve for the same name (0: a new slot of its own). */
struct iol_slot *iol_record_get_in(struct iol_pool *p, uint64_t id, const char *name,
                                   uint32_t res);

/* The record named name (len bytes) in pool p, created if new: what
 * iol_record_get gives for the name's id. A name found before is found again
 * through a direct-mapped cache keyed by a cheaper hash than the record id's
 * (the id hash is most of the cost of finding the record of an open file),
 * whose 64 bits, split between the entry and the slot head, are checked
 * instead of the name. @return the slot, or NULL. */
struct iol_slot *iol_record_of_name(struct iol_pool *p, const char *name, size_t len);

/* The record named name (len bytes) in pool p if the name cache holds it:
 * no id hash, no creation. @return the slot, or NULL (which says nothing of
 * whether the record exists). */
struct iol_slot *iol_record_seen(struct iol_pool *p, const char *name, size_t len);

/* The record of id in pool p if it exists. @return the slot, or NULL. */
struct iol_slot *iol_record_find(struct iol_pool *p, uint64_t id);

/* The name of a record (points into the record file). */
const char *iol_record_name(struct iol_slot *s);

/* Whether any of the n pools holds a live record (a slot kept by
 * iol_record_reserve but never made does not count). */
int iol_records_any(const struct iol_pool *pools, size_t n);

/* The shared pool of overflow chunks for common-value counting. */
struct iol_vals_pool *iol_records_vals_pool(void);

#endif
