/* The CALLSITES module (IOLENS_CALLSITES=1): I/O calls counted per call site
 * (the return address of the wrapped call and the callers above it), module
 * and operation; the function times of programs built with
 * -finstrument-functions (functions.c); and, at the end, the mapped objects
 * that hold those addresses (objects.c), so that iolens callsites can
 * resolve them. Off by default; the read and write notes of POSIX, STDIO and
 * MPI-IO reach iol_callsites_note through their rw_extra flag byte (no
 * instruction added when it is off), every other timed call of the modules
 * (opens, closes, flushes, seeks, stats, ...) through iol_callsites_call. Hot
 * path: a fixed table reserved at start, entries claimed by CAS, counters by
 * relaxed atomic adds; no lock, no allocation. */
#ifndef IOL_RT_CALLSITES_H
#define IOL_RT_CALLSITES_H

#include <stdint.h>
#include <time.h>

#include "core/core.h"
#include "iolens/modules/callsites.h"

extern const struct iol_module iol_callsites_module;

/* 1 while the module records (set at start when enabled): the test of the
 * notes that have no rw_extra byte. Hidden: one compare with its address in
 * the instruction. */
extern unsigned char iol_callsites_on __attribute__((visibility("hidden")));

/* One I/O call of module mod (an iolens_module_id), operation op (enum
 * iolens_callsites_op), that moved bytes (0 for none) from t0 to t1
 * (iol_now() seconds): counted at the call site of the calling thread's
 * stack. ra is __builtin_return_address(0) where the note is called: in a
 * wrapper (the note inlined into it), the program's call site, which is
 * then the whole site at CALLSITES_DEPTH 1; elsewhere an address inside the
 * runtime, ignored. Out of line and cold: it walks the stack. */
__attribute__((noinline, cold)) void iol_callsites_note(int mod, int op, int64_t bytes,
                                                        double t0, double t1, const void *ra);

/* A call of module mod that moved no bytes (an open, close, flush, seek,
 * stat...), from t0 to t1: counted at its call site when the module records.
 * One byte test when off. Called from a module's note (not a wrapper): the
 * stack walk finds the program's frame. */
static inline __attribute__((always_inline)) void iol_callsites_call(int mod, int op, double t0,
                                                                     double t1)
{
    if (__builtin_expect(iol_callsites_on, 0))
        iol_callsites_note(mod, op, 0, t0, t1, NULL);
}

/* ---- between the module's files ---- */

/* A frame to walk from: its return address, the stack pointer after the
 * return (the callee's CFA) and RBP as the caller had it. */
struct iol_cs_frame {
    uint64_t pc, sp, bp;
};

/* Reserve unwind.c's table of frame rules (the first start). */
void iol_cs_unwind_start(void);

/* Walks the stack from frame from, skipping the frames in [own_lo, own_hi)
 * (libiolens.so's text) up to the first outside it, and stores up to max
 * return addresses from there in frames. @return how many, or -1: a frame
 * the walk does not follow (the caller then takes backtrace()). */
int iol_cs_unwind(const struct iol_cs_frame *from, uint64_t own_lo, uint64_t own_hi,
                  uint64_t *frames, unsigned max);

/* One function of functions.c's table. */
struct iol_cs_function {
    _Atomic uint64_t addr;   /* 0: free */
    _Atomic int64_t calls;
    _Atomic int64_t own;     /* clock units (iol_cs_clock) */
    _Atomic int64_t incl;
};

/* Function timing: set up the tables (at the first start), clear them (a
 * later start: fork child, failed exec) and switch the hooks on. */
void iol_cs_functions_start(uint32_t capacity);

/* Stop timing (at the end; the clock's rate for the times is fixed then). */
void iol_cs_functions_stop(void);

/* The functions timed, how many slots the table has, and the calls not
 * timed (no slot, no stack, or too deep). */
void iol_cs_functions_table(struct iol_cs_function **table, uint32_t *slots, int64_t *lost);

/* The clock of the function hooks: the TSC where there is one (a few ns),
 * else CLOCK_MONOTONIC in ns; turned into seconds at the end. */
static inline int64_t iol_cs_clock(void)
{
#if defined(__x86_64__)
    return (int64_t)iol_clock_tsc();
#else
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
#endif
}

/* 1 once a -finstrument-functions hook was entered since start: until then
 * the notes have no function time to correct (iol_cs_functions_exclude). */
extern unsigned char iol_cs_functions_entered __attribute__((visibility("hidden")));

/* Leave n units of the calling thread's time out of the own time of the
 * function it is in: the call-site note's unwinding, which would otherwise
 * count as the function's computation and dilute its I/O intensity. */
void iol_cs_functions_exclude(int64_t n);

/* Seconds of n units of the functions' clock, as measured since start. */
double iol_cs_clock_seconds(int64_t n);

/* functions.c's binding table (the -finstrument-functions hooks). */
extern const struct iol_binding_table *const iol_cs_function_tables[];

/* Calls fn(addr, arg) for each address the module recorded (frames and
 * functions): objects.c keeps the objects that hold one. */
void iol_cs_each_address(void (*fn)(uint64_t addr, void *arg), void *arg);

/* Makes a record of each mapped object holding an address the module
 * recorded, in pool p (dl_iterate_phdr, at the end). */
void iol_cs_objects_write(struct iol_pool *p, uint64_t pid);

/* The record of (kind, key words) in p, named name, filled with its kind,
 * or NULL when the pool is full. */
struct iolens_callsites_record *iol_cs_record(struct iol_pool *p, uint64_t pid, int kind,
                                              const uint64_t *key, size_t nkey,
                                              const char *name);

#endif
