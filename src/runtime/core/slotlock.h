/* The per-record spin lock in a slot's head (maplayout.h). Held only for the
 * few dozen instructions of a counter update, never across a system call. */
#ifndef IOL_RT_SLOTLOCK_H
#define IOL_RT_SLOTLOCK_H

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>

#include "maplayout.h"

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

/* Take an owner-tagged spin lock. A thread that already holds it is a signal
 * handler interrupting this thread's own update: it must not wait (it would
 * wait forever), so it is told to skip its update instead.
 * @return 0 when taken, -1 when this thread holds it already. */
static inline int iol_owner_lock(_Atomic uint64_t *l)
{
    uint64_t me = iol_self(), expect = 0;
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

#endif
