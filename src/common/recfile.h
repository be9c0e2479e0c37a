/* The record file: the memory-mapped file in which the runtime keeps every
 * record of a process from its start (see src/runtime/README.md, "The record
 * file"). This header is the only definition of its layout, shared by the
 * runtime (which writes it) and the log library (which turns it into a log,
 * at the end of a process, for `iolens recover` and for any verb reading a
 * record file): the layout, the per-record lock in each slot's head, and the
 * HEATMAP module's per-CPU bins beside its records. A process that dies
 * without writing its log (SIGKILL, the OOM killer, a node that lost power
 * while the file system survived) leaves the file behind.
 * All numbers are in the byte order of the host that wrote the file. */
#ifndef IOL_COMMON_RECFILE_H
#define IOL_COMMON_RECFILE_H

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "iolens/modules/dxt.h"

#define IOL_MAP_MAGIC "IOLNSMAP"  /* 8 bytes, no NUL */
#define IOL_MAP_VERSION 4         /* 2: the trace area; 3: its segments as differences;
                                   * 4: 32-bit name offsets and the name check */
#define IOL_MAP_NAMES_MAX UINT32_MAX /* most bytes of the name area (32-bit offsets) */
#define IOL_MAP_MAX_MODS 16       /* module pools in one file */
#define IOL_MAP_SLOT_HEAD 64      /* bytes before the record in a slot */
#define IOL_MAP_EXE_BYTES 3072    /* command line, NUL-terminated */
#define IOL_MAP_MOUNT_BYTES 4096  /* "type\tpath\n" lines, NUL-terminated */
#define IOL_MAP_META_BYTES 1024   /* "key=value\n" lines, NUL-terminated */

/* States of a record file. */
enum iol_map_state {
    IOL_MAP_RUNNING = 1, /* the process is (or was, if it died) recording */
    IOL_MAP_WRITTEN = 2, /* the log was written; the file is about to be removed */
};

/* One module's pool of record slots. */
struct iol_map_module {
    uint32_t mod_id;          /* log module id (IOLENS_MOD_*); 0: unused entry */
    uint32_t rec_version;     /* record version of the module's records */
    uint64_t pool_off;        /* offset of slot 0 from the start of the file */
    uint64_t stride;          /* bytes per slot, a multiple of 64 */
    uint64_t rec_size;        /* bytes of the log record at IOL_MAP_SLOT_HEAD */
    uint32_t capacity;        /* slots in the pool */
    _Atomic uint32_t count;   /* slots handed out so far (may exceed capacity
                               * by the number of racing threads; clamp) */
    _Atomic uint32_t backed;  /* slots with file space reserved */
    _Atomic uint32_t partial; /* 1: the pool ran out, records were dropped */
};

/* The head of every slot. A slot is live once the record's id (its first
 * 8 bytes) is non-zero; the runtime stores the id last. */
struct iol_map_slot_head {
    _Atomic uint64_t lock;    /* per-record spin lock: 0 free, else the owner thread */
    uint32_t name_off;        /* offset of the record's name in the name area */
    /* Runtime only: 32 bits of the name's cache hash that its cache entry
     * does not hold, so that a cache hit is told from another name in the
     * same place without reading the name (0 until the name is cached). */
    _Atomic uint32_t name_check;
    /* The module's hottest private state (runtime only; zero when made): on
     * the lock's cache line, so that an update touches one line less. */
    unsigned char module_hot[IOL_MAP_SLOT_HEAD - 16];
};

/* The file header, at offset 0. */
struct iol_map_header {
    char magic[8];            /* IOL_MAP_MAGIC */
    uint32_t version;         /* IOL_MAP_VERSION */
    uint32_t header_size;     /* sizeof(struct iol_map_header) */
    uint64_t map_size;        /* bytes of the file */
    _Atomic uint32_t state;   /* enum iol_map_state */
    uint32_t nmods;           /* entries used in mods[] */
    int64_t pid;
    int64_t uid;
    int64_t jobid;
    int64_t nprocs;
    int64_t start_sec;        /* CLOCK_REALTIME at start-up */
    int64_t start_nsec;
    int64_t end_sec;          /* 0 until the runtime ends */
    int64_t end_nsec;
    uint64_t names_off;       /* offset of the name area from the start of the file */
    uint64_t names_size;      /* bytes of the name area */
    _Atomic uint64_t names_used;   /* bytes handed out (may exceed names_size; clamp) */
    _Atomic uint64_t names_backed; /* bytes with file space reserved */
    char metadata[IOL_MAP_META_BYTES];
    char exe[IOL_MAP_EXE_BYTES];
    char mounts[IOL_MAP_MOUNT_BYTES];
    struct iol_map_module mods[IOL_MAP_MAX_MODS];
    uint64_t trace_off;            /* offset of the trace area (below); 0: none */
    uint32_t trace_chunks;         /* chunks in the trace area */
    _Atomic uint32_t trace_used;   /* chunks handed out (may exceed trace_chunks; clamp) */
    _Atomic uint32_t trace_backed; /* chunks with file space reserved */
    uint32_t log_compat;           /* enum iolens_log_compat: the tools its log is
                                    * written for (LOG_COMPAT; 0: the newest) */
};

_Static_assert(sizeof(struct iol_map_slot_head) == IOL_MAP_SLOT_HEAD, "slot head size");


/* Bytes from a slot's start to the module state, for a record of rec_size. */
#define IOL_SLOT_STATE_OFF(rec_size) (IOL_MAP_SLOT_HEAD + (((rec_size) + 7) & ~(size_t)7))

/* ---- the per-record lock (held only for the few dozen instructions of a
 * counter update, never across a system call) ---- */

/* Back off while waiting: pause, and yield the CPU now and then so that a
 * preempted holder gets to run. */
static inline void iol_cpu_relax(unsigned i)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
    if ((i & 63) == 63)
        sched_yield();
}

#if defined(__x86_64__) && defined(__GLIBC__)
#define IOL_HAVE_THREAD_POINTER 1
/* The thread pointer (glibc's thread descriptor, what pthread_self returns). */
static inline char *iol_thread_pointer(void)
{
    char *tp;
    __asm__("mov %%fs:0, %0" : "=r"(tp));
    return tp;
}
#endif

/* This thread's identity as a lock owner (never 0). Read directly where
 * possible: it saves a call into libc on every locked update. */
static inline uint64_t iol_self(void)
{
#ifdef IOL_HAVE_THREAD_POINTER
    return (uint64_t)iol_thread_pointer();
#else
    return (uint64_t)pthread_self();
#endif
}

/* Whether the process has one thread: glibc's own flag (2.32+), by which its
 * stdio skips its locks too. While it holds, no other thread can appear
 * during an update (only this one could create it, and it is in the
 * runtime), so a lock and a shared add need no atomic read-modify-write:
 * only a signal handler on this thread can come between, and it cannot
 * split one instruction. */
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 32))
#include <sys/single_threaded.h>
#define IOL_SINGLE_THREADED() (__libc_single_threaded != 0)
#else
#define IOL_SINGLE_THREADED() 0
#endif

/* Take an owner-tagged spin lock. A thread that already holds it is a signal
 * handler interrupting this thread's own update: it must not wait (it would
 * wait forever), so it is told to skip its update instead.
 * @return 0 when taken, -1 when this thread holds it already. */
static inline int iol_owner_lock(_Atomic uint64_t *l)
{
    uint64_t me = iol_self(), expect = 0;
    /* One thread: a handler interrupting between the load and the store
     * finds the lock free and releases it before this thread goes on. */
    if (IOL_SINGLE_THREADED() && atomic_load_explicit(l, memory_order_relaxed) == 0) {
        atomic_store_explicit(l, me, memory_order_relaxed);
        atomic_signal_fence(memory_order_seq_cst);
        return 0;
    }
    for (unsigned i = 0; !atomic_compare_exchange_weak_explicit(l, &expect, me,
                                                                 memory_order_acquire,
                                                                 memory_order_relaxed);
         i++) {
        if (expect == me)
            return -1;
        expect = 0;
        iol_cpu_relax(i);
    }
    return 0;
}

/* Release an owner-tagged lock. */
static inline void iol_owner_unlock(_Atomic uint64_t *l)
{
    atomic_store_explicit(l, 0, memory_order_release);
}

/* Take the lock of the slot whose head is h. @return as iol_owner_lock. */
static inline int iol_head_lock(struct iol_map_slot_head *h)
{
    return iol_owner_lock(&h->lock);
}

/* Release it. */
static inline void iol_head_unlock(struct iol_map_slot_head *h)
{
    iol_owner_unlock(&h->lock);
}

/* Take it within a bounded wait (a record file of a dead process may hold
 * it forever). @return 1 if taken, 0 if not. */
static inline int iol_head_lock_bounded(struct iol_map_slot_head *h)
{
    uint64_t me = iol_self();
    for (unsigned i = 0; i < (1u << 16); i++) {
        uint64_t expect = 0;
        if (atomic_compare_exchange_weak_explicit(&h->lock, &expect, me, memory_order_acquire,
                                                  memory_order_relaxed))
            return 1;
        iol_cpu_relax(i);
    }
    return 0;
}


/* ---- the trace area: the DXT modules' segments ----
 * Chunks of 1 KiB, handed out in turn (trace_used) to the lists of all trace
 * records. Each trace record (a slot of a DXT module) starts its state with
 * struct iol_trace_lists: the first chunk of its writes and of its reads;
 * each chunk names the next of its list.
 *
 * A chunk holds its list's segments as 64-bit words, of which the first
 * `used` are in the trace: the runtime stores a segment's words, then `used`
 * (release), so a reader never sees half a segment, even in the file of a
 * process killed while storing one. Most segments take one word, the
 * difference from the segment before (what moving 40 bytes of fresh memory
 * per call cost was most of a traced call's time); the rest take five:
 *   - bit 63 clear: a short segment. Bits 0-18: zigzag(offset - the end of
 *     the list's previous segment, its offset + length); 19-38: length;
 *     39-52: start - the previous segment's end time (a segment that starts
 *     before it, made by another thread, takes the long form); 53-62:
 *     duration. Times are in ticks of 2^-22 s, the runtime clock's unit.
 *   - bit 63 set: a tag in bits 0-7, then its words:
 *     IOL_TRACE_TAG_THREAD, 1 word: the thread id of this and the list's
 *       following segments (each list starts with one);
 *     IOL_TRACE_TAG_LONG, 4 words: a segment's offset, length, start tick
 *       and end tick.
 * A segment's words (with a thread tag before it) never span two chunks.
 * Before a list's first segment the previous end, offset and time, is 0. */
#define IOL_TRACE_CHUNK_WORDS 127 /* words per chunk: 1 KiB with its head */
#define IOL_TRACE_TAGGED (UINT64_C(1) << 63)
#define IOL_TRACE_TAG_THREAD 1
#define IOL_TRACE_TAG_LONG 2
#define IOL_TRACE_SEG_MAX_WORDS 7 /* a thread tag and a long segment */

/* Field widths of a short segment, low bits first. */
#define IOL_TRACE_OFF_BITS 19
#define IOL_TRACE_LEN_BITS 20
#define IOL_TRACE_GAP_BITS 14
#define IOL_TRACE_DUR_BITS 10
_Static_assert(IOL_TRACE_OFF_BITS + IOL_TRACE_LEN_BITS + IOL_TRACE_GAP_BITS + IOL_TRACE_DUR_BITS == 63,
               "a short segment fills the 63 bits below the tag bit");

struct iol_trace_chunk {
    _Atomic uint32_t next; /* index + 1 of the list's next chunk, 0: none yet */
    _Atomic uint32_t used; /* words holding whole segments */
    uint64_t word[IOL_TRACE_CHUNK_WORDS];
};

_Static_assert(sizeof(struct iol_trace_chunk) == 1024, "trace chunk size");

/* Zigzag: signed differences as small unsigned numbers (0, -1, 1, -2, ...). */
static inline uint64_t iol_trace_zigzag(int64_t v)
{
    return ((uint64_t)v << 1) ^ (uint64_t)(v >> 63);
}

static inline int64_t iol_trace_unzigzag(uint64_t u)
{
    return (int64_t)(u >> 1) ^ -(int64_t)(u & 1);
}

/* The head of a trace record's state. */
struct iol_trace_lists {
    _Atomic uint32_t first[2]; /* writes, reads: index + 1 of the list's first chunk, 0: none */
};

/* ---- HEATMAP: bins per CPU group beside the record ----
 * The log record's bins stay zero until the end; the bins proper are kept in
 * one copy (shard) per group of CPUs, so that threads on different CPUs add
 * to different cache lines (with a single array every thread's update of the
 * current bin moved one line between cores, and two threads writing to their
 * own files kept 83% of their uninstrumented throughput instead of 97%). The
 * shards are added into the log record when the log is written. */
#define IOL_HEATMAP_BINS 200         /* bins per array (Darshan's default) */
#define IOL_HEATMAP_SHARDS 16        /* copies of the bins; CPU n uses n % 16 */

/* Per-record state beside the HEATMAP log record. */
struct iol_heatmap_state {
    _Atomic uint32_t doublings; /* bin width is 0.1 s * 2^doublings */
    _Atomic int frozen;         /* 1 once the record has been cut for the log */
    /* Bytes written (first IOL_HEATMAP_BINS) and read, per shard. */
    int64_t shards[IOL_HEATMAP_SHARDS][2 * IOL_HEATMAP_BINS];
};

/* Add every shard's bytes into bins (2 * IOL_HEATMAP_BINS values: written,
 * then read, as the log record holds them). */
static inline void iol_heatmap_fold(int64_t *bins, const struct iol_heatmap_state *st)
{
    for (int s = 0; s < IOL_HEATMAP_SHARDS; s++)
        for (int i = 0; i < 2 * IOL_HEATMAP_BINS; i++)
            bins[i] += __atomic_load_n(&st->shards[s][i], __ATOMIC_RELAXED);
}

#endif
