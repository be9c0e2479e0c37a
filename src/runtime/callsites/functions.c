/* Function timing for the CALLSITES module: the hooks a program built with
 * -finstrument-functions calls at each function's entry and exit.
 *
 * glibc defines both hooks (empty), so such a program links and runs
 * without the runtime; preloaded, libiolens.so's definitions come first in
 * the lookup order and are the ones its calls reach (they are in a binding
 * table like every wrapper, resolving glibc's as the next definition).
 *
 * Per thread, a shadow stack of fixed depth: the function, its entry time
 * and the time of the timed functions it called, so that at its exit its own
 * time (inclusive time less its callees') is known. The runtime has no
 * thread-local storage (it must stay loadable with dlopen), so a thread
 * finds its stack in a fixed table by its thread pointer, claimed by CAS at
 * its first entry. Per function: calls, own and inclusive time by relaxed
 * atomic adds, in a fixed table claimed by CAS. No lock, no allocation;
 * what does not fit (table full, stack deeper than FN_DEPTH, more threads
 * than THREADS) is counted as entries not timed. */
#include "callsites.h"

#include <string.h>
#include <sys/mman.h>
#include <time.h>

#define THREADS 256    /* threads with a shadow stack */
#define FN_DEPTH 128   /* frames of a shadow stack */
#define PROBES 32

struct frame {
    uint64_t fn;
    int64_t enter;
    int64_t callees; /* time in timed functions it called */
};

struct stack {
    _Atomic uint64_t owner; /* the thread's pointer; 0: free */
    uint32_t depth;         /* may exceed FN_DEPTH: those frames are not timed */
    _Atomic uint32_t busy;  /* in a hook: a signal handler's functions are not timed */
    struct frame f[FN_DEPTH];
};

static struct {
    struct iol_cs_function *fns;
    uint32_t slots; /* a power of two, twice the capacity */
    uint32_t capacity;
    _Atomic uint32_t used;
    struct stack *stacks;
    _Atomic int64_t lost;
    int64_t clock0;
    struct timespec mono0;
} fn;

/* 1 while the hooks time functions. */
static unsigned char timing;

unsigned char iol_cs_functions_entered;

static void (*real_enter)(void *, void *);
static void (*real_exit)(void *, void *);

static double seconds_per_unit;

double iol_cs_clock_seconds(int64_t n)
{
    return (double)n * seconds_per_unit;
}

static uint64_t mix(uint64_t x)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    return x ^ (x >> 33);
}

/* The calling thread's stack, claimed at its first use. @return it, or NULL. */
static struct stack *my_stack(void)
{
    uint64_t me = iol_self();
    uint64_t h = mix(me);
    for (unsigned i = 0; i < PROBES; i++) {
        struct stack *s = &fn.stacks[(h + i) & (THREADS - 1)];
        uint64_t o = atomic_load_explicit(&s->owner, memory_order_relaxed);
        if (o == me)
            return s;
        if (o == 0) {
            uint64_t expect = 0;
            if (atomic_compare_exchange_strong_explicit(&s->owner, &expect, me,
                                                        memory_order_relaxed,
                                                        memory_order_relaxed))
                return s;
        }
    }
    return NULL;
}

/* Add one call of function a. */
static void fn_add(uint64_t a, int64_t own, int64_t incl)
{
    uint64_t h = mix(a);
    for (unsigned i = 0; i < PROBES; i++) {
        struct iol_cs_function *f = &fn.fns[(h + i) & (fn.slots - 1)];
        uint64_t v = atomic_load_explicit(&f->addr, memory_order_acquire);
        if (v == 0) {
            if (atomic_fetch_add_explicit(&fn.used, 1, memory_order_relaxed) >= fn.capacity)
                break;
            uint64_t expect = 0;
            if (atomic_compare_exchange_strong_explicit(&f->addr, &expect, a,
                                                        memory_order_acq_rel,
                                                        memory_order_acquire))
                v = a;
            else {
                atomic_fetch_sub_explicit(&fn.used, 1, memory_order_relaxed);
                v = expect;
            }
        }
        if (v == a) {
            atomic_fetch_add_explicit(&f->calls, 1, memory_order_relaxed);
            atomic_fetch_add_explicit(&f->own, own, memory_order_relaxed);
            atomic_fetch_add_explicit(&f->incl, incl, memory_order_relaxed);
            return;
        }
    }
    atomic_fetch_add_explicit(&fn.lost, 1, memory_order_relaxed);
}

IOL_EXPORT __attribute__((no_instrument_function)) void __cyg_profile_func_enter(void *this_fn,
                                                                                 void *call_site)
{
    (void)call_site;
    if (!__atomic_load_n(&timing, __ATOMIC_RELAXED))
        return;
    if (!__atomic_load_n(&iol_cs_functions_entered, __ATOMIC_RELAXED))
        __atomic_store_n(&iol_cs_functions_entered, 1, __ATOMIC_RELAXED);
    struct stack *s = my_stack();
    if (!s || atomic_exchange_explicit(&s->busy, 1, memory_order_acquire)) {
        atomic_fetch_add_explicit(&fn.lost, 1, memory_order_relaxed);
        return;
    }
    if (s->depth < FN_DEPTH) {
        struct frame *f = &s->f[s->depth];
        f->fn = (uint64_t)(uintptr_t)this_fn;
        f->callees = 0;
        f->enter = iol_cs_clock();
    } else {
        atomic_fetch_add_explicit(&fn.lost, 1, memory_order_relaxed);
    }
    s->depth++;
    atomic_store_explicit(&s->busy, 0, memory_order_release);
}

IOL_EXPORT __attribute__((no_instrument_function)) void __cyg_profile_func_exit(void *this_fn,
                                                                                void *call_site)
{
    (void)call_site;
    int64_t now = iol_cs_clock();
    if (!__atomic_load_n(&timing, __ATOMIC_RELAXED))
        return;
    struct stack *s = my_stack();
    if (!s || atomic_exchange_explicit(&s->busy, 1, memory_order_acquire))
        return;
    uint64_t a = (uint64_t)(uintptr_t)this_fn;
    /* Frames left without their exit (longjmp, an exception) are closed
     * here, down to this function's; an exit whose entry is not on the
     * stack (timing began inside it) is ignored. */
    uint32_t d = s->depth < FN_DEPTH ? s->depth : FN_DEPTH;
    uint32_t at = d;
    while (at > 0 && s->f[at - 1].fn != a)
        at--;
    if (s->depth > FN_DEPTH) {
        s->depth--;
    } else if (at > 0) {
        while (s->depth >= at) {
            struct frame *f = &s->f[--s->depth];
            int64_t incl = now - f->enter;
            fn_add(f->fn, incl - f->callees, incl);
            if (s->depth > 0)
                s->f[s->depth - 1].callees += incl;
        }
    }
    atomic_store_explicit(&s->busy, 0, memory_order_release);
}

void iol_cs_functions_exclude(int64_t n)
{
    if (!__atomic_load_n(&timing, __ATOMIC_RELAXED))
        return;
    struct stack *s = my_stack();
    if (!s || atomic_exchange_explicit(&s->busy, 1, memory_order_acquire))
        return;
    if (s->depth > 0 && s->depth <= FN_DEPTH)
        s->f[s->depth - 1].callees += n;
    atomic_store_explicit(&s->busy, 0, memory_order_release);
}

static const struct iol_binding bindings[] = {
    {"__cyg_profile_func_enter", (void *)__cyg_profile_func_enter, (void **)&real_enter},
    {"__cyg_profile_func_exit", (void *)__cyg_profile_func_exit, (void **)&real_exit},
};
static const struct iol_binding_table fn_bindings = {
    bindings, sizeof(bindings) / sizeof(bindings[0]),
};
const struct iol_binding_table *const iol_cs_function_tables[] = {&fn_bindings, NULL};

void iol_cs_functions_start(uint32_t capacity)
{
    uint32_t slots = 1;
    while (slots < 2 * capacity)
        slots <<= 1;
    size_t fn_bytes = (size_t)slots * sizeof(struct iol_cs_function);
    size_t st_bytes = (size_t)THREADS * sizeof(struct stack);
    if (!fn.fns) {
        void *m = iol_sys_mmap(NULL, fn_bytes + st_bytes, PROT_READ | PROT_WRITE,
                               MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (m == MAP_FAILED)
            return;
        fn.fns = m;
        fn.stacks = (struct stack *)((char *)m + fn_bytes);
        fn.slots = slots;
    } else {
        madvise(fn.fns, (size_t)fn.slots * sizeof(*fn.fns) + st_bytes, MADV_DONTNEED);
    }
    fn.capacity = capacity < fn.slots ? capacity : fn.slots;
    atomic_store(&fn.used, 0);
    atomic_store(&fn.lost, 0);
    clock_gettime(CLOCK_MONOTONIC, &fn.mono0);
    fn.clock0 = iol_cs_clock();
    __atomic_store_n(&iol_cs_functions_entered, 0, __ATOMIC_RELAXED);
    __atomic_store_n(&timing, 1, __ATOMIC_RELEASE);
}

void iol_cs_functions_stop(void)
{
    if (__atomic_exchange_n(&timing, 0, __ATOMIC_ACQ_REL)) {
        struct timespec mono1;
        clock_gettime(CLOCK_MONOTONIC, &mono1);
        int64_t units = iol_cs_clock() - fn.clock0;
        double secs = (double)(mono1.tv_sec - fn.mono0.tv_sec) +
                      (double)(mono1.tv_nsec - fn.mono0.tv_nsec) * 1e-9;
        seconds_per_unit = units > 0 ? secs / (double)units : 0;
    }
}

void iol_cs_functions_table(struct iol_cs_function **table, uint32_t *slots, int64_t *lost)
{
    *table = fn.fns;
    *slots = fn.fns ? fn.slots : 0;
    *lost = atomic_load_explicit(&fn.lost, memory_order_relaxed);
}
