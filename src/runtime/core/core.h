/* The runtime core: start and end, job data, and the module registry.
 *
 * A module is one const struct iol_module (its record size, private state
 * size, binding table and hooks) plus one line in the table of core.c; the
 * core gives it a pool of records in the shared record file, resolves its
 * bindings, and writes its records into the log. See README.md. */
#ifndef IOL_RT_CORE_H
#define IOL_RT_CORE_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>

#include "iolens/module.h"
#include "clock.h"
#include "config.h"
#include "mapfile.h"
#include "mounts.h"
#include "real.h"
#include "records.h"

/* What a runtime module gives the core. */
struct iol_module {
    iolens_module_id id;        /* the log's module id */
    const char *name;           /* for diagnostics */
    uint32_t version;           /* record version written to the log */
    size_t record_size;         /* bytes of one log record (fixed) */
    size_t state_size;          /* bytes of private per-record state, zeroed at creation */
    uint32_t max_records;       /* fixed pool size, or 0 for MAX_RECORDS (config.h) */
    int names_are_paths;        /* 1: record names are file paths (exclusions apply) */
    const struct iol_binding_table *const *bindings; /* NULL-terminated list */
    /* 1: not resolved at start; each wrapper looks its next definition up at
     * its first call. For symbols most programs lack (MPI): a failed dlsym
     * is the dearest kind, and start-up would pay for it on every one. */
    int bindings_at_first_use;

    /* Fill a new record (id and rank are set by the core afterwards). The
     * record and state are zeroed. Called once per record, not concurrently
     * for the same record. */
    void (*init_record)(struct iolens_record_base *rec, void *state, const char *name);

    /* The module's pool is ready (at start-up, after fork in the child, and
     * after a failed exec). May be NULL. */
    void (*start)(struct iol_pool *pool);

    /* In a forked child, after start: carry over what the child inherited
     * (descriptors, streams) into fresh records. parent is the parent's
     * record file, still mapped. May be NULL. */
    void (*fork_child)(struct iol_pool *pool, const struct iol_map_header *parent);

    /* Last chance to update records before they are written (the runtime is
     * already off). May be NULL. */
    void (*finish)(struct iol_pool *pool);

    /* For a module whose records the record file holds only in part (a trace
     * module, DXT: its segments are in the module's own memory): copy the
     * whole record of slot s, decoded, into buf (cap bytes), for the log.
     * Called with the slot's lock held, while the log is written.
     * @return its bytes (more than cap: nothing copied), or 0 to leave it
     *         out. NULL for the others. */
    size_t (*full_record)(struct iol_slot *s, void *buf, size_t cap);
};

/* Lifecycle of the runtime in this process. */
enum iol_state {
    IOL_UNINIT = 0, /* nothing done yet */
    IOL_STARTING,   /* one thread is starting it */
    IOL_ON,         /* recording */
    IOL_OFF,        /* disabled, failed to start, or ended */
    IOL_PAUSED,     /* started, not recording for now (inside the real MPI_Init) */
};

/* How the runtime ends (for diagnostics and the log's metadata). */
enum iol_end_reason {
    IOL_END_EXIT,    /* exit, return from main, _exit */
    IOL_END_EXEC,    /* exec* replaces the image */
    IOL_END_SIGNAL,  /* a fatal signal */
};

/* Everything the runtime knows about this process. One instance: iol_rt. */
struct iol_runtime {
    struct iol_config cfg;
    struct iol_mounts mounts;
    struct iol_mapping map;
    struct iol_pool pools[IOL_MAP_MAX_MODS];
    size_t npools;
    pid_t pid;                     /* the process the records belong to */
    pid_t fork_parent;             /* parent's pid in a forked child, else 0 */
    int64_t jobid;
    struct timespec start_real;    /* CLOCK_REALTIME at start */
    char start_cwd[IOL_PATH_MAX];  /* default log directory */
    char run_dir[IOL_PATH_MAX];    /* under iolens run: record file and log, else "" */
    char last_log[IOL_PATH_MAX];   /* the log the last record set wrote, else "" */
    int continued;                 /* this image has a log already, written before an
                                    * exec that failed: an empty set writes none */
};

extern struct iol_runtime iol_rt;
extern _Atomic int iol_state;

/* Start the runtime unless it has been started (constructor, or the first
 * wrapped call). Safe to call from any thread, any number of times. */
void iol_core_start(void);

/* Set (on != 0) or clear bit in the flag byte *flags, which a hot path tests
 * without a lock; several modules may each own a bit of one byte. */
static inline void iol_flag_set(unsigned char *flags, unsigned bit, int on)
{
    if (on)
        __atomic_fetch_or(flags, (unsigned char)bit, __ATOMIC_RELAXED);
    else
        __atomic_fetch_and(flags, (unsigned char)~bit, __ATOMIC_RELAXED);
}

/* The slow path of iol_active(). */
int iol_core_active_slow(void);

/* Is the runtime recording? Starts it on first use. One relaxed load when on. */
static inline int iol_active(void)
{
    if (atomic_load_explicit(&iol_state, memory_order_acquire) == IOL_ON)
        return 1;
    return iol_core_active_slow();
}

/* End the runtime and write the log, once per process image: the first
 * caller wins, later calls return at once. Not for signal handlers. */
void iol_core_end(enum iol_end_reason why);

/* End from a fatal signal handler: the log is written by a short-lived child
 * process (the heap of a crashing process may be locked), waited for at most
 * a few seconds. Async-signal-safe in the parent. */
void iol_core_end_from_signal(int sig);

/* Stop recording for a while (the real MPI_Init: Darshan records none of its
 * I/O). @return 1 if recording was paused, 0 if it was not on. */
int iol_core_pause(void);

/* Record again after iol_core_pause returned 1. */
void iol_core_resume(void);

/* This MPI rank is excluded (RANK_EXCLUDE), learned inside MPI_Init while
 * recording is paused: stop recording for good and drop what was recorded
 * since start (the record file is removed; its header stays mapped for the
 * job data the rank still gives the job log). No log of this process
 * follows, at exit or after exec; forked children record nothing either.
 * @return 1 if recording was paused and is now off, else 0. */
int iol_core_exclude(void);

/* End the runtime for a log written elsewhere (the MPI job log): turn it off
 * and let the modules finish, but write no log of this process.
 * @return 1 if this caller ended it, 0 if it was not recording. */
int iol_core_end_for_job(void);

/* Whether the modules are finishing for the MPI job log (their finish hook
 * is running under iol_core_end_for_job). */
int iol_core_ending_for_job(void);

/* After iol_core_end_for_job: written != 0 removes the record file (its data
 * is in a log), else it stays for iolens recover. */
void iol_core_retire(int written);

/* The whole record of slot (module m's) for the log writer, from the
 * module's full_record hook (iol_maplog_trace_fn). @return its bytes, or 0. */
size_t iol_core_full_record(const struct iol_map_module *m, unsigned char *slot, void *buf,
                            size_t cap);

/* In the child after fork: forget the parent's records and start a fresh set
 * in a new record file. */
void iol_core_fork_child(void);

/* After a failed exec: start again with a fresh record set. The set before
 * the attempt wrote its log if it held records; was_empty: it held none and
 * wrote none, so the new set keeps its start time, the image's. */
void iol_core_restart(int was_empty);

/* Whether the current record set holds any record, of any module. */
int iol_core_holds_records(void);

/* Is the caller the process the runtime records? (Not a vfork child sharing
 * our memory.) */
int iol_core_own_process(void);

/* Every binding table of the runtime (core and modules), for resolution and
 * for listing the wrapped symbols. @return the number of tables. */
size_t iol_core_binding_tables(const struct iol_binding_table **out, size_t max);

#endif
