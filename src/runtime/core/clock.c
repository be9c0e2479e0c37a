/* The runtime's clock (see clock.h for why it reads the TSC). */
#include "clock.h"

#include <errno.h>
#include <string.h>
#include <time.h>

#if defined(__x86_64__)
#include <cpuid.h>
#endif

#include "diag.h"
#include "real.h"

#define TICKS_PER_SEC 0x1p22
#define FIRST_CAL_TICKS (TICKS_PER_SEC / 1000) /* 1 ms */
#define CAL_GROWTH 8.0                          /* next calibration at 8x the time */
#define MAX_CALS 40                             /* 1 ms * 8^39: never reached */
/* A calibration read may take 1/8192 of the TSC ticks since start: the pair
 * is then off by at most 61 ppm of the time measured. An absolute bound
 * would fail every time where reading the clock is slow (under valgrind, or
 * on a host that traps the call) and leave the slow clock in use. */
#define READ_SHARE 8192

_Atomic(const struct iol_clock_cal *) iol_clock_cal;
const struct iol_clock_cal iol_clock_mono_cal = {0, 0.0, 1.0, 1e300};

static struct timespec mono0;
static uint64_t tsc0;        /* the TSC at mono0, within tsc0_window / 2 */
static uint64_t tsc0_window;
static _Atomic int tsc_allowed;  /* 0 unknown, 1 yes, -1 no */
static _Atomic int calibrating;
/* No calibration yet: the next attempt, in ticks since start. A failed one
 * doubles it, so a clock that cannot be paired is not retried at every call. */
static _Atomic uint64_t first_try_at;
/* Published calibrations are never changed or reused: a reader may still
 * hold an old one while a new one is made. */
static struct iol_clock_cal cals[MAX_CALS];
static unsigned ncals;

static double mono_ticks_since_start(const struct timespec *t)
{
    return ((double)(t->tv_sec - mono0.tv_sec) * 1e9 + (double)(t->tv_nsec - mono0.tv_nsec)) *
           (TICKS_PER_SEC / 1e9);
}

void iol_clock_start(void)
{
    atomic_store_explicit(&iol_clock_cal, NULL, memory_order_release);
    ncals = 0;
    atomic_store_explicit(&first_try_at, (uint64_t)FIRST_CAL_TICKS, memory_order_relaxed);
    /* Bracketed like a calibration read: an interrupt between the two reads
     * would otherwise put every rate derived from this pair off, by up to
     * the interrupt's length. */
    uint64_t a = iol_clock_tsc();
    clock_gettime(CLOCK_MONOTONIC, &mono0);
    uint64_t b = iol_clock_tsc();
    tsc0 = a + (b >= a ? (b - a) / 2 : 0);
    tsc0_window = b >= a ? b - a : 0;
}

/* Does the CPU say its TSC runs at a constant rate in every state? */
static int cpu_tsc_invariant(void)
{
#if defined(__x86_64__)
    unsigned a, b, c, d;
    if (!__get_cpuid(0x80000000, &a, &b, &c, &d) || a < 0x80000007)
        return 0;
    __get_cpuid(0x80000007, &a, &b, &c, &d);
    return (d >> 8) & 1;
#else
    return 0;
#endif
}

void iol_clock_allow_tsc(void)
{
    if (atomic_load_explicit(&tsc_allowed, memory_order_relaxed) != 0)
        return;
    /* The kernel keeps time with the TSC only when it found the TSCs of
     * all CPUs in step and stable; otherwise it picks another clock source. */
    char src[32] = "";
    int ok = cpu_tsc_invariant() &&
             iol_sys_read_file("/sys/devices/system/clocksource/clocksource0/current_clocksource",
                               src, sizeof(src)) > 0 &&
             strncmp(src, "tsc\n", 4) == 0;
    atomic_store_explicit(&tsc_allowed, ok ? 1 : -1, memory_order_relaxed);
}

double iol_clock_mono_ticks(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    double ticks = mono_ticks_since_start(&t);
    if (ticks >= (double)atomic_load_explicit(&first_try_at, memory_order_relaxed) &&
        atomic_load_explicit(&tsc_allowed, memory_order_relaxed) == 1)
        iol_clock_recalibrate();
    return ticks;
}

/* Read CLOCK_MONOTONIC and the TSC at (nearly) the same moment; mono is
 * filled either way. Together with the start pair's, the read may take
 * 1/READ_SHARE of the time since start. @return 0, or -1 if every attempt
 * took too long. */
static int read_pair(struct timespec *mono, uint64_t *tsc)
{
    for (int i = 0; i < 3; i++) {
        uint64_t a = iol_clock_tsc();
        clock_gettime(CLOCK_MONOTONIC, mono);
        uint64_t b = iol_clock_tsc();
        if (b >= a && a > tsc0 && b - a + tsc0_window <= (a - tsc0) / READ_SHARE) {
            *tsc = a + (b - a) / 2;
            return 0;
        }
    }
    return -1;
}

/* Is a TSC rate (ticks per TSC tick) one to trust, after the previous one? */
static int rate_plausible(double rate, const struct iol_clock_cal *prev)
{
    double hz = TICKS_PER_SEC / rate;
    if (!(hz > 1e8 && hz < 1e11)) /* 100 MHz to 100 GHz */
        return 0;
    /* A rate that moved by more than 0.1% is not a steady clock. */
    return !prev || (rate < prev->ticks_per_tsc * 1.001 && rate > prev->ticks_per_tsc * 0.999);
}

void iol_clock_recalibrate(void)
{
    if (atomic_exchange_explicit(&calibrating, 1, memory_order_acquire))
        return; /* another thread is at it */
    int err = errno; /* called between a wrapped call and its note */
    struct timespec mono;
    uint64_t tsc;
    const struct iol_clock_cal *cur = atomic_load_explicit(&iol_clock_cal, memory_order_relaxed);
    if (ncals < MAX_CALS && atomic_load_explicit(&tsc_allowed, memory_order_relaxed) == 1) {
        struct iol_clock_cal *c = &cals[ncals];
        if (read_pair(&mono, &tsc) == 0 && tsc > tsc0) {
            c->tsc_base = tsc;
            c->ticks_base = mono_ticks_since_start(&mono);
            c->ticks_per_tsc = c->ticks_base / (double)(tsc - tsc0);
            c->next_at = c->ticks_base * CAL_GROWTH;
            if (!rate_plausible(c->ticks_per_tsc, cur)) {
                iol_diag("clock: TSC rate not steady; CLOCK_MONOTONIC from now on");
                atomic_store_explicit(&tsc_allowed, -1, memory_order_relaxed);
                c = NULL;
            }
        } else if (cur) { /* interrupted: keep the rate, try again later */
            *c = *cur;
            c->next_at = cur->next_at * 2;
        } else { /* not paired yet: try again at twice the time */
            atomic_store_explicit(&first_try_at, (uint64_t)(mono_ticks_since_start(&mono) * 2),
                                  memory_order_relaxed);
            c = NULL;
        }
        if (c && ncals == 0)
            iol_diag("clock: TSC at %lld kHz, from %lld us after start",
                     (long long)(0x1p22 / c->ticks_per_tsc / 1e3),
                     (long long)(c->ticks_base * (1e6 / TICKS_PER_SEC)));
        if (c && ++ncals == MAX_CALS)
            c->next_at = 1e300;
        atomic_store_explicit(&iol_clock_cal, c, memory_order_release);
    }
    atomic_store_explicit(&calibrating, 0, memory_order_release);
    errno = err;
}
