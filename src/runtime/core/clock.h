/* The runtime's clock: seconds since the runtime started, read twice by every
 * wrapped call.
 *
 * clock_gettime costs about 25 ns even through the vDSO (it orders the TSC
 * read with a fence and retries on a sequence count); two of them were most
 * of the time a wrapper added. Where the CPU has an invariant TSC and the
 * kernel itself keeps time with it, iol_now() reads the TSC directly (about
 * 10 ns) and scales it with a rate measured against CLOCK_MONOTONIC. The
 * rate is measured again at 1 ms, 8 ms, 64 ms, ... after start, over the
 * whole time since start, and each new calibration restarts from
 * CLOCK_MONOTONIC's value: the error is at most about a microsecond at any
 * time of the run. Until the first calibration, or without a usable TSC,
 * iol_now() uses CLOCK_MONOTONIC. */
#ifndef IOL_RT_CLOCK_H
#define IOL_RT_CLOCK_H

#include <stdatomic.h>
#include <stdint.h>

#if defined(__x86_64__)
#include <x86intrin.h>
#endif

/* One calibration, immutable once published. */
struct iol_clock_cal {
    uint64_t tsc_base;   /* the TSC at the calibration */
    double ticks_base;   /* iol_now() ticks (2^-22 s) at tsc_base */
    double ticks_per_tsc;
    double next_at;      /* calibrate again when ticks reach this */
};

/* The current calibration, or NULL: use CLOCK_MONOTONIC. */
extern _Atomic(const struct iol_clock_cal *) iol_clock_cal;

/* Start the time base: now is time 0 (at start, and in a forked child). */
void iol_clock_start(void);

/* The TSC may be used, if this machine's kernel keeps time with it (checked
 * once, at the first record: processes without I/O never pay for it). */
void iol_clock_allow_tsc(void);

/* The slow paths of iol_now(), in 2^-22 s ticks. */
double iol_clock_mono_ticks(void);
void iol_clock_recalibrate(void);

static inline uint64_t iol_clock_tsc(void)
{
#if defined(__x86_64__)
    return __rdtsc();
#else
    return 0;
#endif
}

/* Seconds since the runtime started, in whole ticks of 2^-22 s (238 ns).
 * That is the resolution of Darshan's timestamps (differences of
 * epoch-second doubles, whose last bit is 2^-22 s until 2038), and a whole
 * number of ticks leaves a double's low mantissa bits zero: a
 * nanosecond-exact double is ~7 bytes of noise to zlib, and the log's
 * records would compress to twice Darshan's size (bench/shutdown.sh). */
static inline double iol_now(void)
{
    const struct iol_clock_cal *c = atomic_load_explicit(&iol_clock_cal, memory_order_acquire);
    double ticks;
    if (c) {
        ticks = c->ticks_base + (double)(int64_t)(iol_clock_tsc() - c->tsc_base) * c->ticks_per_tsc;
        if (ticks >= c->next_at)
            iol_clock_recalibrate();
    } else {
        ticks = iol_clock_mono_ticks();
    }
    return (double)(int64_t)ticks * 0x1p-22;
}

/* A clock reading whose conversion to iol_now() seconds is left for later
 * (iol_stamp_sec): a wrapper reads the clock before and after the real call
 * and converts both readings after it, where the two conversions run side
 * by side instead of each one's latency (about 30 cycles of converting and
 * scaling) delaying the call. The same seconds as iol_now() at the reading. */
struct iol_stamp {
    const struct iol_clock_cal *cal; /* the calibration read with it, or */
    uint64_t raw;                    /* iol_clock_mono_cal: raw holds whole */
};                                   /* CLOCK_MONOTONIC ticks, read already */

/* The calibration of a CLOCK_MONOTONIC reading: ticks as they are. */
extern const struct iol_clock_cal iol_clock_mono_cal;

static inline struct iol_stamp iol_stamp_now(void)
{
    struct iol_stamp s;
    s.cal = atomic_load_explicit(&iol_clock_cal, memory_order_acquire);
    if (s.cal) {
        s.raw = iol_clock_tsc();
    } else {
        s.cal = &iol_clock_mono_cal;
        s.raw = (uint64_t)(int64_t)iol_clock_mono_ticks();
    }
    return s;
}

/* The seconds since start of a reading (whole ticks of 2^-22 s). */
static inline double iol_stamp_sec(struct iol_stamp s)
{
    double ticks = s.cal->ticks_base + (double)(int64_t)(s.raw - s.cal->tsc_base) * s.cal->ticks_per_tsc;
    if (ticks >= s.cal->next_at)
        iol_clock_recalibrate();
    return (double)(int64_t)ticks * 0x1p-22;
}

#endif
