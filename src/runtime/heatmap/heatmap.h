/* The HEATMAP module: bytes read and written per time bin, one record per
 * interface ("heatmap:POSIX", "heatmap:STDIO", "heatmap:MPIIO"), as Darshan
 * 3.5 records by default (200 bins of 0.1 s, each bin twice as wide whenever
 * the run outgrows them). The POSIX, STDIO and MPI-IO modules call
 * iol_heatmap_update once per read or write that moved bytes. */
#ifndef IOL_RT_HEATMAP_H
#define IOL_RT_HEATMAP_H

#include <stdatomic.h>
#include <stdint.h>

#include "core/core.h"
#include "heatmap_layout.h"

extern const struct iol_module iol_heatmap_module;

/* The interfaces that feed a heatmap (one record each). */
enum iol_heatmap_iface {
    IOL_HEATMAP_POSIX,
    IOL_HEATMAP_STDIO,
    IOL_HEATMAP_MPIIO,
    IOL_HEATMAP_NIFACES,
};

#define IOL_HEATMAP_MAX_DOUBLINGS 62   /* 0.1 s * 2^62: far beyond any run */

/* What the update's fast path reads for one interface. */
struct iol_heatmap_hot {
    _Atomic(int64_t *) bins;          /* the record's first shard of bins; NULL
                                       * before its first bytes and once it is cut */
    _Atomic uint32_t doublings;       /* its bin width is 0.1 s * 2^doublings: a copy
                                       * of the state's, which shares a cache line
                                       * with shard 0's first bins (written by CPU 0
                                       * in the first 0.6 s): read there by every
                                       * update, that line moved between the CPUs
                                       * at every write (2 threads: 61% of the
                                       * uninstrumented throughput, not 86%) */
};
extern struct iol_heatmap_hot iol_heatmap_hot[IOL_HEATMAP_NIFACES];
/* For each number of doublings: 1 / bin width, and the time the bins reach. */
extern double iol_heatmap_inv[IOL_HEATMAP_MAX_DOUBLINGS + 1];
extern double iol_heatmap_reach[IOL_HEATMAP_MAX_DOUBLINGS + 1];

/* Offset from the thread pointer to the number of the CPU the thread runs
 * on, kept by the kernel in glibc's rseq area; 0 when there is none. */
extern ptrdiff_t iol_heatmap_rseq_cpu;

/* The shard of the bins the calling thread adds to: its CPU's. */
static inline unsigned iol_heatmap_shard(void)
{
#ifdef IOL_HAVE_THREAD_POINTER
    ptrdiff_t off = iol_heatmap_rseq_cpu;
    if (off) {
        int32_t cpu = *(volatile int32_t *)(iol_thread_pointer() + off);
        if (cpu >= 0)
            return (unsigned)cpu % IOL_HEATMAP_SHARDS;
    }
#endif
    return 0;
}

/* The slow path of iol_heatmap_update: the record's first bytes, a call
 * that spans bins or ends past them, nothing to count, or a cut record. */
void iol_heatmap_update_slow(enum iol_heatmap_iface iface, int is_write, int64_t bytes,
                             double t0, double t1);

/* bytes were read (is_write 0) or written (1) through iface by a call that
 * ran from t0 to t1 (iol_now() seconds). Spread over the bins the call
 * spans, in proportion to the time spent in each; the shares always add up
 * to bytes. No lock on this path: bins are updated with atomic adds (plain
 * ones while the process has one thread, in its first shard). Nothing
 * is recorded for bytes <= 0. Inline: nearly every call starts and ends in
 * one bin, and costs a few loads and one atomic add. */
static inline void iol_heatmap_update(enum iol_heatmap_iface iface, int is_write, int64_t bytes,
                                      double t0, double t1)
{
    int64_t *bins = atomic_load_explicit(&iol_heatmap_hot[iface].bins, memory_order_acquire);
    if (bins && bytes > 0 && t0 >= 0) {
        uint32_t k = atomic_load_explicit(&iol_heatmap_hot[iface].doublings, memory_order_acquire);
        if (t1 < iol_heatmap_reach[k]) {
            int64_t bin = (int64_t)(t1 * iol_heatmap_inv[k]);
            if (bin < IOL_HEATMAP_BINS && (int64_t)(t0 * iol_heatmap_inv[k]) == bin) {
                int64_t *at = &bins[bin + (is_write ? 0 : IOL_HEATMAP_BINS)];
#if defined(__x86_64__)
                if (IOL_SINGLE_THREADED()) { /* one add instruction: signal-safe */
                    __asm__("addq %1, %0" : "+m"(*at) : "r"(bytes));
                    return;
                }
#endif
                __atomic_fetch_add(at + iol_heatmap_shard() * 2 * IOL_HEATMAP_BINS, bytes,
                                   __ATOMIC_RELAXED);
                return;
            }
        }
    }
    iol_heatmap_update_slow(iface, is_write, bytes, t0, t1);
}

#endif
