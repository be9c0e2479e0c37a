/* The CALLSITES module: the call-site table and its records (callsites.h).
 *
 * The stack is taken by unwind.c's walk over the .eh_frame tables (frame
 * pointers are left out by -O2, so a frame-pointer walk would miss
 * callers), each frame's rule computed once and cached; at
 * CALLSITES_DEPTH 1 a wrapper's own return address is the site and nothing
 * is walked. A frame the walk does not follow (a signal frame, code
 * without tables) sends the note to glibc's backtrace(), the same
 * unwinding done by libgcc, called once at start so that its one-time
 * set-up (loading libgcc_s, which allocates) is off the hot path. The
 * frames inside libiolens.so (this note, the module's note, the wrapper)
 * are skipped by address: the first frame outside it is the return address
 * of the wrapped call, however the wrapper was inlined. */
#include "callsites.h"

#include <dlfcn.h>
#include <errno.h>
#include <execinfo.h>
#include <link.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "common/hash.h"
#include "core/diag.h"
#include "core/fmt.h"
#include "core/real.h"
#include "iolens/runtime.h"
#include "posix/posix.h"
#include "stdio/stdio_mod.h"
#ifdef IOLENS_WITH_MPI
#include "mpiio/mpi_io.h"
#endif

/* Frames backtrace() is asked for beyond the depth: the runtime's own, and
 * an interceptor of backtrace() (a sanitizer's) before them. */
#define OWN_FRAMES 10
#define PROBES 32 /* entries tried before a site counts as not fitting */

unsigned char iol_callsites_on;

/* One call site. hash is 0 while the entry is free, BUSY while the thread
 * that claimed it writes the key, then the key's hash (never 0 or BUSY). */
struct site {
    _Atomic uint64_t hash;
    uint32_t mod;
    uint16_t op;
    uint16_t nframes;
    uint64_t frames[IOLENS_CALLSITES_MAX_FRAMES];
    _Atomic int64_t calls, bytes, time; /* time in 2^-22 s ticks, as iol_now() */
};
#define BUSY 1u

static struct {
    struct site *sites;     /* 2 * capacity entries, rounded up to a power of two */
    uint64_t mask;
    uint32_t capacity;      /* CALLSITES_MAX */
    _Atomic uint32_t used;
    uint32_t depth;         /* CALLSITES_DEPTH */
    uintptr_t own_lo, own_hi; /* libiolens.so's text */
    int own_is_program;       /* the runtime is linked into the program (static) */
    struct iol_pool *pool;
    _Atomic int64_t lost_calls, lost_bytes, lost_time;
    _Atomic int64_t slow_walks; /* notes that took backtrace() */
    int64_t start_units;        /* the functions' clock and iol_now() at start: */
    double start_sec;           /* what converts one to the other */
} cs;

/* ---- where the runtime's own code lies ---- */

static int own_text(struct dl_phdr_info *info, size_t size, void *arg)
{
    (void)size;
    uintptr_t me = (uintptr_t)arg;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        uintptr_t lo = info->dlpi_addr + ph->p_vaddr, hi = lo + ph->p_memsz;
        if (ph->p_type == PT_LOAD && (ph->p_flags & PF_X) && me >= lo && me < hi) {
            cs.own_lo = lo;
            cs.own_hi = hi;
            cs.own_is_program = !info->dlpi_name || !info->dlpi_name[0];
            return 1;
        }
    }
    return 0;
}

/* ---- the table ---- */

static uint64_t site_hash(int mod, int op, const uint64_t *frames, unsigned n)
{
    uint64_t h = ((uint64_t)(unsigned)mod << 32 | (unsigned)op << 8 | n) * 0x9e3779b97f4a7c15ull;
    for (unsigned i = 0; i < n; i++) {
        h ^= frames[i];
        h *= 0xbf58476d1ce4e5b9ull;
        h ^= h >> 31;
    }
    return h > BUSY ? h : h + 2;
}

static int site_is(const struct site *s, int mod, int op, const uint64_t *frames, unsigned n)
{
    return s->mod == (uint32_t)mod && s->op == (uint16_t)op && s->nframes == n &&
           memcmp(s->frames, frames, n * sizeof(*frames)) == 0;
}

/* The entry of the key, claimed if new. @return it, or NULL: the table is
 * full, or an entry stays busy (a signal handler interrupted its own
 * thread's claim: it must not wait). */
static struct site *site_find(int mod, int op, const uint64_t *frames, unsigned n)
{
    uint64_t h = site_hash(mod, op, frames, n);
    for (uint64_t i = 0; i < PROBES; i++) {
        struct site *s = &cs.sites[(h + i) & cs.mask];
        uint64_t v = atomic_load_explicit(&s->hash, memory_order_acquire);
        if (v == 0) {
            if (atomic_fetch_add_explicit(&cs.used, 1, memory_order_relaxed) >= cs.capacity)
                return NULL;
            uint64_t expect = 0;
            if (atomic_compare_exchange_strong_explicit(&s->hash, &expect, BUSY,
                                                        memory_order_acquire,
                                                        memory_order_relaxed)) {
                s->mod = (uint32_t)mod;
                s->op = (uint16_t)op;
                s->nframes = (uint16_t)n;
                memcpy(s->frames, frames, n * sizeof(*frames));
                atomic_store_explicit(&s->hash, h, memory_order_release);
                return s;
            }
            atomic_fetch_sub_explicit(&cs.used, 1, memory_order_relaxed);
            v = expect;
        }
        for (unsigned spin = 0; v == BUSY && spin < 64; spin++) {
            iol_cpu_relax(spin);
            v = atomic_load_explicit(&s->hash, memory_order_acquire);
        }
        if (v == BUSY)
            return NULL;
        if (v == h && site_is(s, mod, op, frames, n))
            return s;
    }
    return NULL;
}

static inline int own_frame(const void *pc)
{
    return (uintptr_t)pc >= cs.own_lo && (uintptr_t)pc < cs.own_hi;
}

/* The frames by backtrace(): the walk's fallback. */
static unsigned frames_by_backtrace(uint64_t *frames)
{
    void *raw[IOLENS_CALLSITES_MAX_FRAMES + OWN_FRAMES];
    int got = backtrace(raw, (int)cs.depth + OWN_FRAMES);
    unsigned n = 0;
    int i = 0;
    /* Frames before the runtime's own (a sanitizer's backtrace interceptor),
     * then the runtime's: the next one is the wrapped call's return address. */
    while (i < got && !own_frame(raw[i]))
        i++;
    while (i < got && own_frame(raw[i]))
        i++;
    for (; i < got && n < cs.depth; i++)
        frames[n++] = (uint64_t)(uintptr_t)raw[i];
    return n;
}

/* The functions' clock units from t (iol_now() seconds) to now, at the rate
 * the two clocks have kept to each other since start (the TSC's rate is not
 * known to iol_now() before its first calibration). */
static int64_t units_since(double t)
{
    int64_t units = iol_cs_clock() - cs.start_units;
    double now = iol_now(), lag = now - t, elapsed = now - cs.start_sec;
    if (!(lag > 0) || !(elapsed > 0) || units <= 0)
        return 0;
    return (int64_t)(lag * (double)units / elapsed);
}

void iol_callsites_note(int mod, int op, int64_t bytes, double t0, double t1, const void *ra)
{
    int timed = __atomic_load_n(&iol_cs_functions_entered, __ATOMIC_RELAXED);
    int64_t c0 = timed ? iol_cs_clock() : 0;
    /* The runtime's own work since the call ended (its record, a first
     * call's set-up) is no more the function's computation than this walk. */
    int64_t after_call = timed ? units_since(t1) : 0;
    uint64_t frames[IOLENS_CALLSITES_MAX_FRAMES];
    unsigned n;
    if (cs.depth == 1 && ra && !own_frame(ra)) {
        frames[0] = (uint64_t)(uintptr_t)ra;
        n = 1;
    } else {
        /* this function keeps a frame pointer (the builtin asks for one):
         * the caller's RBP, then the return address, then the caller's stack */
        uint64_t *fp = __builtin_frame_address(0);
        struct iol_cs_frame from = {fp[1], (uint64_t)(uintptr_t)(fp + 2), fp[0]};
        int got = iol_cs_unwind(&from, cs.own_lo, cs.own_hi, frames, cs.depth);
        if (got >= 0) {
            n = (unsigned)got;
        } else {
            int err = errno; /* the notes keep the wrapped call's */
            n = frames_by_backtrace(frames);
            errno = err;
            atomic_fetch_add_explicit(&cs.slow_walks, 1, memory_order_relaxed);
        }
    }
    int64_t ticks = (int64_t)((t1 - t0) * 0x1p22);
    if (bytes < 0)
        bytes = 0;
    struct site *s = n ? site_find(mod, op, frames, n) : NULL;
    if (!s) {
        atomic_fetch_add_explicit(&cs.lost_calls, 1, memory_order_relaxed);
        atomic_fetch_add_explicit(&cs.lost_bytes, bytes, memory_order_relaxed);
        atomic_fetch_add_explicit(&cs.lost_time, ticks, memory_order_relaxed);
        if (cs.pool && !atomic_load_explicit(&cs.pool->mm->partial, memory_order_relaxed))
            atomic_store_explicit(&cs.pool->mm->partial, 1, memory_order_relaxed);
    } else {
        atomic_fetch_add_explicit(&s->calls, 1, memory_order_relaxed);
        atomic_fetch_add_explicit(&s->bytes, bytes, memory_order_relaxed);
        atomic_fetch_add_explicit(&s->time, ticks, memory_order_relaxed);
    }
    if (timed)
        iol_cs_functions_exclude(iol_cs_clock() - c0 + after_call);
}

void iol_cs_each_address(void (*fn)(uint64_t addr, void *arg), void *arg)
{
    for (uint64_t i = 0; cs.sites && i <= cs.mask; i++) {
        struct site *s = &cs.sites[i];
        if (atomic_load_explicit(&s->hash, memory_order_acquire) > BUSY)
            for (unsigned k = 0; k < s->nframes; k++)
                fn(s->frames[k], arg);
    }
    struct iol_cs_function *f;
    uint32_t slots;
    int64_t lost;
    iol_cs_functions_table(&f, &slots, &lost);
    for (uint32_t i = 0; f && i < slots; i++) {
        uint64_t a = atomic_load_explicit(&f[i].addr, memory_order_relaxed);
        if (a)
            fn(a, arg);
    }
}

/* ---- records ---- */

struct iolens_callsites_record *iol_cs_record(struct iol_pool *p, uint64_t pid, int kind,
                                              const uint64_t *key, size_t nkey,
                                              const char *name)
{
    uint64_t words[2 + IOLENS_CALLSITES_MAX_FRAMES + 2];
    size_t n = 0;
    /* The pid keeps records of different processes (ranks) apart: their
     * addresses mean different things. */
    words[n++] = pid;
    words[n++] = (uint64_t)kind;
    for (size_t i = 0; i < nkey && n < sizeof(words) / sizeof(*words); i++)
        words[n++] = key[i];
    uint64_t id = iol_hash64(words, n * sizeof(*words), 0);
    struct iol_slot *s = iol_record_get(p, id ? id : 1, name);
    if (!s)
        return NULL;
    struct iolens_callsites_record *r = iol_slot_rec(s);
    r->counters[CALLSITES_KIND] = kind;
    return r;
}

static void write_sites(struct iol_pool *p, uint64_t pid)
{
    for (uint64_t i = 0; i <= cs.mask; i++) {
        struct site *s = &cs.sites[i];
        if (atomic_load_explicit(&s->hash, memory_order_acquire) <= BUSY)
            continue;
        uint64_t key[IOLENS_CALLSITES_MAX_FRAMES + 2] = {s->mod, s->op};
        memcpy(key + 2, s->frames, s->nframes * sizeof(*s->frames));
        char name[64];
        iol_fmt(name, sizeof(name), "%s:%s", iolens_module_name((int)s->mod),
                iolens_callsites_op_name(s->op));
        struct iolens_callsites_record *r =
            iol_cs_record(p, pid, IOLENS_CALLSITES_SITE, key, 2 + s->nframes, name);
        if (!r)
            return;
        r->counters[CALLSITES_MODULE] = s->mod;
        r->counters[CALLSITES_OP] = s->op;
        r->counters[CALLSITES_CALLS] = atomic_load_explicit(&s->calls, memory_order_relaxed);
        r->counters[CALLSITES_BYTES] = atomic_load_explicit(&s->bytes, memory_order_relaxed);
        r->counters[CALLSITES_DEPTH] = s->nframes;
        for (unsigned k = 0; k < s->nframes; k++)
            r->counters[CALLSITES_FRAME_0 + k] = (int64_t)s->frames[k];
        r->fcounters[CALLSITES_F_TIME] =
            (double)atomic_load_explicit(&s->time, memory_order_relaxed) * 0x1p-22;
    }
}

static void write_functions(struct iol_pool *p, uint64_t pid, int64_t *lost)
{
    struct iol_cs_function *f;
    uint32_t slots;
    iol_cs_functions_stop();
    iol_cs_functions_table(&f, &slots, lost);
    for (uint32_t i = 0; f && i < slots; i++) {
        uint64_t a = atomic_load_explicit(&f[i].addr, memory_order_relaxed);
        if (!a)
            continue;
        struct iolens_callsites_record *r =
            iol_cs_record(p, pid, IOLENS_CALLSITES_FUNCTION, &a, 1, "function");
        if (!r)
            return;
        r->counters[CALLSITES_CALLS] = atomic_load_explicit(&f[i].calls, memory_order_relaxed);
        r->counters[CALLSITES_FRAME_0] = (int64_t)a;
        r->fcounters[CALLSITES_F_TIME] =
            iol_cs_clock_seconds(atomic_load_explicit(&f[i].own, memory_order_relaxed));
        r->fcounters[CALLSITES_F_INCL_TIME] =
            iol_cs_clock_seconds(atomic_load_explicit(&f[i].incl, memory_order_relaxed));
    }
}

/* Switch the call-site notes of the read/write paths on or off. */
static void rw_notes(int on)
{
    iol_flag_set(&iol_posix_rw_extra, IOL_POSIX_RW_CALLSITES, on);
    iol_flag_set(&iol_stdio_rw_extra, IOL_STDIO_RW_CALLSITES, on);
#ifdef IOLENS_WITH_MPI
    iol_flag_set(&iol_mpiio_rw_extra, IOL_MPIIO_RW_CALLSITES, on);
#endif
}

static void callsites_finish(struct iol_pool *p)
{
    if (!iol_callsites_on)
        return;
    iol_callsites_on = 0;
    rw_notes(0);
    uint64_t pid = (uint64_t)getpid();
    int64_t fn_lost = 0;
    write_sites(p, pid);
    write_functions(p, pid, &fn_lost);
    iol_cs_objects_write(p, pid);
    struct iolens_callsites_record *r =
        iol_cs_record(p, pid, IOLENS_CALLSITES_TOTALS, NULL, 0, "callsites");
    if (r) {
        r->counters[CALLSITES_CALLS] = atomic_load_explicit(&cs.lost_calls, memory_order_relaxed);
        r->counters[CALLSITES_BYTES] = atomic_load_explicit(&cs.lost_bytes, memory_order_relaxed);
        r->counters[CALLSITES_DEPTH] = cs.depth;
        r->counters[CALLSITES_FRAME_0] = fn_lost;
        r->counters[CALLSITES_FRAME_1] = atomic_load_explicit(&cs.slow_walks, memory_order_relaxed);
        r->fcounters[CALLSITES_F_TIME] =
            (double)atomic_load_explicit(&cs.lost_time, memory_order_relaxed) * 0x1p-22;
    }
    if (cs.lost_calls || fn_lost)
        iol_diag_always("CALLSITES: %lld I/O calls at no site and %lld function entries not "
                        "timed (tables full: raise CALLSITES_MAX)",
                        (long long)cs.lost_calls, (long long)fn_lost);
}

/* Reserve the table (first start) or clear it (fork child, failed exec). */
static int table_start(const struct iol_config *c)
{
    uint64_t entries = 1;
    while (entries < 2 * (uint64_t)c->callsites_max)
        entries <<= 1;
    size_t bytes = entries * sizeof(struct site);
    if (!cs.sites) {
        void *m = iol_sys_mmap(NULL, bytes, PROT_READ | PROT_WRITE,
                               MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (m == MAP_FAILED)
            return -1;
        cs.sites = m;
        cs.mask = entries - 1;
    } else {
        madvise(cs.sites, (cs.mask + 1) * sizeof(struct site), MADV_DONTNEED); /* zeroes */
    }
    cs.capacity = c->callsites_max;
    cs.depth = c->callsites_depth < IOLENS_CALLSITES_MAX_FRAMES ? c->callsites_depth
                                                                : IOLENS_CALLSITES_MAX_FRAMES;
    atomic_store(&cs.used, 0);
    atomic_store(&cs.lost_calls, 0);
    atomic_store(&cs.lost_bytes, 0);
    atomic_store(&cs.lost_time, 0);
    atomic_store(&cs.slow_walks, 0);
    return 0;
}

static void callsites_start(struct iol_pool *pool)
{
    const struct iol_config *c = &iol_rt.cfg;
    cs.pool = pool;
    if (iol_config_mod_disabled(c, IOLENS_MOD_CALLSITES) || table_start(c) != 0) {
        iol_callsites_on = 0;
        return;
    }
    if (!cs.own_hi) {
        void *prime[2];
        backtrace(prime, 2); /* loads the unwinder now, not in the first note */
        dl_iterate_phdr(own_text, (void *)(uintptr_t)&own_text);
        iol_cs_unwind_start();
        if (cs.own_is_program)
            iol_diag_always("CALLSITES: the runtime is linked into the program "
                            "(libiolens-static.a), whose frames it cannot tell from its "
                            "own; call sites need libiolens.so (LD_PRELOAD): none recorded");
    }
    if (cs.own_is_program) {
        iol_callsites_on = 0;
        return;
    }
    iol_cs_functions_start(c->callsites_max);
    cs.start_units = iol_cs_clock();
    cs.start_sec = iol_now();
    iol_callsites_on = 1;
    rw_notes(1);
}

static void callsites_init_record(struct iolens_record_base *rec, void *state, const char *name)
{
    (void)rec;
    (void)state;
    (void)name;
}

const struct iol_module iol_callsites_module = {
    .id = IOLENS_MOD_CALLSITES,
    .name = "CALLSITES",
    .version = IOLENS_CALLSITES_VERSION,
    .record_size = sizeof(struct iolens_callsites_record),
    .state_size = 0,
    .max_records = 0,
    .names_are_paths = 0,
    .bindings = iol_cs_function_tables,
    .init_record = callsites_init_record,
    .start = callsites_start,
    .finish = callsites_finish,
};
