/* Live events: the rings the application's threads fill, and the events
 * thread that empties them into the sink.
 *
 * Rings. libiolens.so has no thread-local storage (it must stay loadable
 * with dlopen), so a thread finds "its" ring by a hash of its thread pointer
 * (iol_self) in a fixed table of IOL_EV_RINGS rings. A ring has one writer
 * at a time: the thread that claims it with one compare-and-swap of its
 * owner word (0 -> iol_self) and clears it after the event is in. The claim
 * is never waited for: a thread that finds its home ring held (another
 * thread of the same hash in the middle of its own event, or this very
 * thread interrupted there by a signal handler) tries the next ring, then
 * gives up and counts the event dropped. So per-thread order holds in its
 * home ring, which is all a thread uses unless two threads of one hash
 * write at the same instant. The owner word is the only shared store, in
 * the ring's own cache line; no counter is shared by all threads.
 *
 * A ring is a single-producer single-consumer queue of IOL_EV_RING_CAP
 * events: the writer stores the event, then head (release); the events
 * thread reads up to head and then stores tail (release). The writer reads
 * tail only when its last reading says the ring is full. Full: the event
 * is dropped and counted in the ring. Memory: one anonymous mapping reserved
 * at start when events are on (pages touched only by rings in use). The
 * events thread faults a ring's pages in ahead of its writer
 * (MADV_POPULATE_WRITE, IOL_EV_AHEAD events past its head), so that the
 * application's thread seldom takes the page fault of a fresh page.
 *
 * The events thread starts at the first event (and again in a forked
 * child, at its first), with every signal blocked. It batches each ring's
 * consecutive events of one record, operation and thread into one message
 * (at most IOL_EV_BATCH), sends a buffer of messages per pass, and waits
 * 1 ms in the sink's idle function (which serves a connection meanwhile)
 * when it finds every ring empty. An event counts as sent once the sink has
 * it for good (written; acknowledged by the broker). */
#include "events.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "common/recfile.h"
#include "posix/posix.h"
#include "stdio/stdio_mod.h"
#ifdef IOLENS_WITH_MPI
#include "mpiio/mpi_io.h"
#endif
#include "core/clock.h"
#include "core/core.h"
#include "core/diag.h"
#include "core/fmt.h"
#include "core/real.h"
#include "json.h"
#include "sink.h"

#define IOL_EV_RINGS 32u
/* Events per ring, a power of two: a burst of 131,072 events of one thread
 * (16 MiB, touched only as far as a burst goes) waits for the events thread
 * without loss; beyond it, events are dropped until the thread catches up. */
#define IOL_EV_RING_CAP 131072u
#define IOL_EV_BATCH 64u       /* events per message at most */
#define IOL_EV_AHEAD 16384u    /* events' pages faulted in ahead of a writer */
#define IOL_EV_BUF (1u << 20)  /* bytes of messages per send at most */

struct ev_ring {
    _Atomic uint64_t owner; /* iol_self of the writer, 0 when free */
    _Atomic uint64_t head;  /* events written */
    _Atomic uint64_t dropped;
    uint64_t tail_seen;     /* tail as its writer last read it (writer only) */
    char pad1[64 - 32];
    _Atomic uint64_t tail; /* events taken by the events thread */
    uint64_t populated;    /* events whose pages were faulted in (events thread) */
    char pad2[64 - 16];
};

unsigned iol_events_mask;

/* Every change of iol_events_mask goes through here: the read/write paths
 * of POSIX, STDIO and MPI-IO test their module's bit in iol_posix_rw_extra,
 * iol_stdio_rw_extra and iol_mpiio_rw_extra instead. */
static void set_mask(unsigned m)
{
    iol_events_mask = m;
    iol_flag_set(&iol_posix_rw_extra, IOL_POSIX_RW_EVENTS, (m & IOL_EV_POSIX) != 0);
    iol_flag_set(&iol_stdio_rw_extra, IOL_STDIO_RW_EVENTS, (m & IOL_EV_STDIO) != 0);
#ifdef IOLENS_WITH_MPI
    iol_flag_set(&iol_mpiio_rw_extra, IOL_MPIIO_RW_EVENTS, (m & IOL_EV_MPIIO) != 0);
#endif
}

static struct ev_ring rings[IOL_EV_RINGS];
static struct iol_event *ring_mem; /* IOL_EV_RINGS * IOL_EV_RING_CAP events */
static unsigned configured_mask;   /* what iol_events_mask is when on */
static const struct iol_sink_ops *sink_ops;
static const char *sink_target;

/* The events thread: 0 none, 1 starting or running, 2 finished. */
static _Atomic int thread_state;
static _Atomic int closing;     /* the process ends: drain and stop */
static _Atomic uint64_t worker; /* the thread's iol_self, to not wait for itself */
static _Atomic uint64_t sent;   /* events the sink delivered for good */
static _Atomic uint64_t unringed; /* events dropped: no ring free */
static struct iol_sink sink = {.fd = -1};
static int sink_up;                 /* the sink's open succeeded */
static _Atomic int64_t rank;        /* what messages carry as "rank" */
static _Atomic int64_t job_id;      /* and as "job_id" */
static struct iol_event_proc proc;
static char host[256];
static char exe[256]; /* the command line's first word, as the connector sends */
static char buf[IOL_EV_BUF];

static inline struct iol_event *ring_event(unsigned r, uint64_t i)
{
    return &ring_mem[(size_t)r * IOL_EV_RING_CAP + (i & (IOL_EV_RING_CAP - 1))];
}

static int populate_works = 1; /* 0 once the kernel refused MADV_POPULATE_WRITE */

/* Fault in the pages of ring r up to IOL_EV_AHEAD events past its head h
 * when its writer came within half of that, on the events thread. The
 * pages keep what they hold (a writer may be filling one of them). */
static void populate_ahead(unsigned r, uint64_t h)
{
    struct ev_ring *q = &rings[r];
    uint64_t want = h + IOL_EV_AHEAD < IOL_EV_RING_CAP ? h + IOL_EV_AHEAD : IOL_EV_RING_CAP;
    if (!populate_works || q->populated >= want ||
        (want < IOL_EV_RING_CAP && q->populated > h + IOL_EV_AHEAD / 2))
        return;
    size_t page = 4096;
    uintptr_t first = (uintptr_t)&ring_mem[(size_t)r * IOL_EV_RING_CAP + q->populated];
    uintptr_t last = (uintptr_t)&ring_mem[(size_t)r * IOL_EV_RING_CAP + want];
    first &= ~(uintptr_t)(page - 1);
    if (madvise((void *)first, last - first, MADV_POPULATE_WRITE) != 0)
        populate_works = 0;
    q->populated = want;
}

static void *events_thread(void *arg);

/* Start the events thread, once (the caller's signal mask is restored). */
static void start_thread(void)
{
    int expect = 0;
    if (!atomic_compare_exchange_strong(&thread_state, &expect, 1))
        return;
    sigset_t all, old;
    pthread_t t;
    pthread_attr_t a;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    pthread_attr_init(&a);
    pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED);
    if (pthread_create(&t, &a, events_thread, NULL) != 0) {
        iol_diag("events: cannot start the events thread; events off");
        set_mask(0);
        atomic_store(&thread_state, 2);
    }
    pthread_attr_destroy(&a);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
}

struct iol_event *iol_events_claim(struct iol_event_claim *c)
{
    if (__builtin_expect(atomic_load_explicit(&thread_state, memory_order_relaxed) == 0, 0)) {
        int saved = errno;
        start_thread();
        errno = saved;
    }
    uint64_t me = iol_self();
    unsigned home = (unsigned)(((me >> 12) * 0x9e3779b97f4a7c15ull) >> 59) % IOL_EV_RINGS;
    for (unsigned k = 0; k < 2; k++) {
        unsigned r = (home + k) % IOL_EV_RINGS;
        struct ev_ring *q = &rings[r];
        uint64_t free_owner = 0;
        if (atomic_load_explicit(&q->owner, memory_order_relaxed) != 0 ||
            !atomic_compare_exchange_strong_explicit(&q->owner, &free_owner, me,
                                                     memory_order_acquire, memory_order_relaxed))
            continue;
        uint64_t h = atomic_load_explicit(&q->head, memory_order_relaxed);
        /* tail is read only when the ring looks full, so that the writer
         * does not take the events thread's line at every event. */
        if (h - q->tail_seen >= IOL_EV_RING_CAP)
            q->tail_seen = atomic_load_explicit(&q->tail, memory_order_acquire);
        if (h - q->tail_seen < IOL_EV_RING_CAP) {
            c->ring = r;
            c->head = h;
            c->thread = me;
            return ring_event(r, h);
        }
        atomic_store_explicit(&q->dropped,
                              atomic_load_explicit(&q->dropped, memory_order_relaxed) + 1,
                              memory_order_relaxed);
        atomic_store_explicit(&q->owner, 0, memory_order_release);
        return NULL;
    }
    atomic_fetch_add_explicit(&unringed, 1, memory_order_relaxed);
    return NULL;
}

void iol_events_commit(const struct iol_event_claim *c)
{
    struct ev_ring *q = &rings[c->ring];
    struct iol_event *e = ring_event(c->ring, c->head);
    e->thread = c->thread;
    atomic_store_explicit(&q->head, c->head + 1, memory_order_release);
    atomic_store_explicit(&q->owner, 0, memory_order_release);
    /* The next slot's two lines come into this core's cache during the call
     * that follows: fresh ring memory costs a miss a line otherwise. (After
     * a ring's last slot, e + 1 is another ring's or past the mapping: a
     * prefetch is only a hint, it never faults.) */
    __builtin_prefetch(e + 1, 1, 3);
    __builtin_prefetch((const char *)(e + 1) + 64, 1, 3);
}

/* ---- the events thread ---- */

/* Events in each message of buf (at most IOL_EV_BATCH each). */
static unsigned char buf_events[IOL_EV_BUF / 256];

static void send_buf(size_t used, size_t msgs)
{
    if (used && sink_up) {
        sink_ops->send(&sink, buf, used, msgs, buf_events);
        atomic_store(&sent, sink.delivered);
    }
}

/* One pass over the rings: everything queued goes to the sink.
 * @return the number of events taken. */
static uint64_t drain_pass(void)
{
    size_t used = 0, msgs = 0;
    uint64_t taken = 0;
    proc.rank = atomic_load_explicit(&rank, memory_order_relaxed);
    proc.job_id = atomic_load_explicit(&job_id, memory_order_relaxed);
    for (unsigned r = 0; r < IOL_EV_RINGS; r++) {
        struct ev_ring *q = &rings[r];
        uint64_t t = atomic_load_explicit(&q->tail, memory_order_relaxed);
        uint64_t h = atomic_load_explicit(&q->head, memory_order_acquire);
        while (t < h) {
            struct iol_event batch[IOL_EV_BATCH];
            size_t n = 0;
            /* The writer goes on meanwhile, faster than events are formatted. */
            populate_ahead(r, atomic_load_explicit(&q->head, memory_order_relaxed));
            batch[n++] = *ring_event(r, t);
            while (n < IOL_EV_BATCH && t + n < h &&
                   iol_event_same_batch(&batch[0], ring_event(r, t + n)))
                batch[n] = *ring_event(r, t + n), n++;
            if (msgs == sizeof(buf_events) ||
                iol_event_json(buf, sizeof(buf), &used, &proc, batch, n) != 0) {
                send_buf(used, msgs);
                used = msgs = 0;
                if (iol_event_json(buf, sizeof(buf), &used, &proc, batch, n) != 0) {
                    used = 0; /* cannot happen (a batch fits): counted as dropped */
                    t += n;
                    taken += n;
                    continue;
                }
            }
            buf_events[msgs++] = (unsigned char)n;
            t += n;
            taken += n;
            atomic_store_explicit(&q->tail, t, memory_order_release);
        }
        atomic_store_explicit(&q->tail, t, memory_order_release);
    }
    send_buf(used, msgs);
    return taken;
}

/* Events dropped before reaching the sink: at a full ring, or with no ring free. */
static uint64_t unqueued_count(void)
{
    uint64_t n = atomic_load(&unringed);
    for (unsigned r = 0; r < IOL_EV_RINGS; r++)
        n += atomic_load_explicit(&rings[r].dropped, memory_order_relaxed);
    return n;
}

/* Events dropped so far: those never queued, and those queued but not (yet)
 * delivered for good by the sink. */
static uint64_t dropped_count(void)
{
    uint64_t n = unqueued_count();
    for (unsigned r = 0; r < IOL_EV_RINGS; r++)
        n += atomic_load_explicit(&rings[r].head, memory_order_acquire);
    return n - atomic_load(&sent);
}

static void *events_thread(void *arg)
{
    (void)arg;
    atomic_store(&worker, iol_self());
    sink_up = sink_ops->open(&sink, sink_target) == 0;
    if (!sink_up)
        iol_diag("events: cannot open the sink %s%s; events are dropped", sink_ops->scheme,
                 sink_target);
    for (;;) {
        int last = atomic_load(&closing);
        if (drain_pass() != 0)
            continue;
        if (last)
            break;
        if (sink_up && sink_ops->idle) {
            sink_ops->idle(&sink, 1);
            atomic_store(&sent, sink.delivered);
        } else {
            struct timespec ms = {0, 1000000};
            nanosleep(&ms, NULL);
        }
    }
    if (sink_up) {
        /* The events that never reached the sink: the ones still waiting for
         * its acknowledgement may yet be delivered, so only the log's count,
         * taken at the end of the wait, includes those that were not. */
        uint64_t dropped = unqueued_count();
        size_t used = 0;
        if (dropped &&
            iol_event_json_dropped(buf, sizeof(buf), &used, &proc, dropped, iol_now()) == 0) {
            buf_events[0] = 0;
            sink_ops->send(&sink, buf, used, 1, buf_events);
        }
        sink_ops->close(&sink, iol_rt.cfg.events_drain);
        atomic_store(&sent, sink.delivered);
    }
    sink_up = 0;
    atomic_store(&thread_state, 2);
    return NULL;
}

/* ---- start, end, fork ---- */

static unsigned wanted_modules(const struct iol_config *c)
{
    unsigned m = 0;
    if (c->ldms_enable_all)
        return IOL_EV_POSIX | IOL_EV_STDIO | IOL_EV_MPIIO | IOL_EV_HDF5;
    m |= c->ldms_enable_posix ? IOL_EV_POSIX : 0;
    m |= c->ldms_enable_stdio ? IOL_EV_STDIO : 0;
    m |= c->ldms_enable_mpiio ? IOL_EV_MPIIO : 0;
    m |= c->ldms_enable_hdf5 ? IOL_EV_HDF5 : 0;
    uint64_t e = c->events_mods;
    m |= e & (1ull << IOLENS_MOD_POSIX) ? IOL_EV_POSIX : 0;
    m |= e & (1ull << IOLENS_MOD_STDIO) ? IOL_EV_STDIO : 0;
    m |= e & (1ull << IOLENS_MOD_MPIIO) ? IOL_EV_MPIIO : 0;
    m |= e & ((1ull << IOLENS_MOD_H5F) | (1ull << IOLENS_MOD_H5D)) ? IOL_EV_HDF5 : 0;
    return m ? m : IOL_EV_POSIX | IOL_EV_STDIO | IOL_EV_MPIIO | IOL_EV_HDF5;
}

static void reset_rings(void)
{
    memset(rings, 0, sizeof(rings));
    sink.delivered = 0;
    atomic_store(&sent, 0);
    atomic_store(&unringed, 0);
    atomic_store(&closing, 0);
    atomic_store(&worker, 0);
    atomic_store(&thread_state, 0);
}

/* The rank the launcher gives the process before MPI_Init (Open MPI, PMI,
 * PMIx, Slurm), else 0. */
static int64_t launcher_rank(void)
{
    static const char *const vars[] = {"OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK",
                                       "SLURM_PROCID"};
    for (size_t i = 0; i < sizeof(vars) / sizeof(*vars); i++) {
        const char *v = getenv(vars[i]);
        char *end;
        long r = v && *v ? strtol(v, &end, 10) : -1;
        if (v && *v && !*end && r >= 0)
            return r;
    }
    return 0;
}

void iol_events_set_rank(int r)
{
    atomic_store(&rank, r);
}

void iol_events_set_job(int64_t id)
{
    atomic_store(&job_id, id);
}

/* Darshan's LDMS connector settings as the sink they name:
 * ldms://HOST:PORT/STREAM with Darshan's defaults. */
static const char *darshan_ldms_sink(const struct iol_config *c)
{
    static char spec[1024];
    iol_fmt(spec, sizeof(spec), "ldms://%s:%s/%s", c->ldms_host[0] ? c->ldms_host : "localhost",
            c->ldms_port[0] ? c->ldms_port : "412",
            c->ldms_stream[0] ? c->ldms_stream : "darshanConnector");
    return spec;
}

void iol_events_configure(void)
{
    const struct iol_config *c = &iol_rt.cfg;
    const char *spec = c->events[0] ? c->events : c->ldms_enable ? darshan_ldms_sink(c) : NULL;
    if (!spec)
        return;
    sink_ops = iol_sink_find(spec, &sink_target);
    if (!sink_ops) {
        iol_diag("events: no sink for \"%s\" (known: %s); events off", spec, IOL_SINKS_KNOWN);
        return;
    }
    size_t bytes = (size_t)IOL_EV_RINGS * IOL_EV_RING_CAP * sizeof(struct iol_event);
    void *p = iol_sys_mmap(NULL, bytes, PROT_READ | PROT_WRITE,
                           MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) {
        iol_diag("events: no memory for the rings; events off");
        return;
    }
    ring_mem = p;
    if (gethostname(host, sizeof(host)) != 0)
        host[0] = '\0';
    host[sizeof(host) - 1] = '\0';
    proc.host = host;
    atomic_store(&rank, launcher_rank());
    configured_mask = wanted_modules(c);
    iol_events_restart();
    iol_diag("events: to %s, modules 0x%x", spec, configured_mask);
}

/* What every message repeats, from this record set's header. */
static void refresh_proc(void)
{
    const struct iol_map_header *h = iol_rt.map.hdr;
    proc.uid = h->uid;
    atomic_store(&job_id, h->jobid);
    size_t n = 0;
    while (n + 1 < sizeof(exe) && h->exe[n] && h->exe[n] != ' ')
        exe[n] = h->exe[n], n++;
    exe[n] = '\0';
    proc.exe = exe;
    proc.epoch_sec = iol_rt.start_real.tv_sec;
    proc.epoch_nsec = iol_rt.start_real.tv_nsec;
}

void iol_events_restart(void)
{
    if (!configured_mask)
        return;
    refresh_proc();
    if (atomic_load(&thread_state) == 2 || !iol_events_mask)
        reset_rings();
    set_mask(configured_mask);
}

/* Append "iolens_events_dropped=N" to the record file's metadata. */
static void note_dropped(uint64_t n)
{
    char *meta = iol_rt.map.hdr->metadata;
    size_t len = sizeof(iol_rt.map.hdr->metadata);
    size_t used = strnlen(meta, len);
    if (used + 1 < len)
        iol_fmt(meta + used, len - used, "iolens_events_dropped=%llu\n", (unsigned long long)n);
}

void iol_events_end(void)
{
    if (!iol_events_mask)
        return;
    set_mask(0);
    atomic_store(&closing, 1);
    if (atomic_load(&thread_state) == 1 && atomic_load(&worker) != iol_self()) {
        double limit = iol_rt.cfg.events_drain * 1000;
        for (double waited = 0; atomic_load(&thread_state) != 2 && waited < limit; waited++) {
            struct timespec ms = {0, 1000000};
            nanosleep(&ms, NULL);
        }
    }
    /* Queued and never sent (a sink slower than the bound) count as dropped. */
    uint64_t dropped = dropped_count();
    note_dropped(dropped);
    if (dropped)
        iol_diag("events: %llu dropped", (unsigned long long)dropped);
}

void iol_events_fork_child(void)
{
    if (!configured_mask)
        return;
    if (sink_ops && sink_up)
        sink_ops->forget(&sink);
    sink_up = 0;
    reset_rings();
    refresh_proc();
    set_mask(configured_mask);
}
