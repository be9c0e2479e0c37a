/* CALLSITES module (record version 1, an iolens addition, module id 62):
 * which lines of a program do its I/O, and how long its functions run
 * (docs/log-format.md, "CALLSITES"). One fixed-size record per call site,
 * per timed function and per mapped object that holds one of their
 * addresses, and one record of the module's totals; CALLSITES_KIND says
 * which. The tables below are the single definition of its counters:
 * X(NAME, kind, merge rule, meaning). Addresses are the process's own
 * (ASLR): an address minus the load address of the object holding it is
 * what a debugger resolves (iolens callsites). */
#ifndef IOLENS_MODULES_CALLSITES_H
#define IOLENS_MODULES_CALLSITES_H

#include "iolens/module.h"

#define IOLENS_CALLSITES_VERSION 1

/* Frames a call site keeps at most (CALLSITES_DEPTH). */
#define IOLENS_CALLSITES_MAX_FRAMES 8

/* What a record describes (CALLSITES_KIND). */
enum iolens_callsites_kind {
    IOLENS_CALLSITES_SITE = 1,     /* I/O calls of one module and operation from one stack */
    IOLENS_CALLSITES_FUNCTION = 2, /* one function of a -finstrument-functions program */
    IOLENS_CALLSITES_OBJECT = 3,   /* one mapped object (record name: its path) */
    IOLENS_CALLSITES_TOTALS = 4,   /* what did not fit, and the depth in force */
};

/* The operation of a site (CALLSITES_OP): names from iolens_callsites_op_name. */
enum iolens_callsites_op {
    IOLENS_CALLSITES_READ = 0,
    IOLENS_CALLSITES_WRITE = 1,
    IOLENS_CALLSITES_OPEN = 2,
    IOLENS_CALLSITES_CLOSE = 3,
    IOLENS_CALLSITES_FLUSH = 4,
    IOLENS_CALLSITES_SEEK = 5,
    IOLENS_CALLSITES_META = 6, /* stat, rename, set_view: other calls timed as metadata */
    IOLENS_CALLSITES_NOPS
};

#define IOLENS_CALLSITES_COUNTERS(X) \
    X(CALLSITES_KIND, I64, FIRST, "1 call site, 2 function, 3 mapped object, 4 totals") \
    X(CALLSITES_MODULE, I64, FIRST, "site: module id of the calls (1 POSIX, 2 MPI-IO, 4 H5D, " \
      "6 PNETCDF_VAR, 9 STDIO)") \
    X(CALLSITES_OP, I64, FIRST, "site: 0 read, 1 write, 2 open, 3 close, 4 flush, 5 seek, 6 meta") \
    X(CALLSITES_CALLS, I64, SUM, "site: calls; function: entries; totals: I/O calls no " \
      "site could hold (table full)") \
    X(CALLSITES_BYTES, I64, SUM, "site: bytes read or written; totals: bytes of the calls " \
      "no site could hold") \
    X(CALLSITES_DEPTH, I64, FIRST, "site: frames in FRAME_0..; object: bytes of its build " \
      "id in FRAME_1..; totals: CALLSITES_DEPTH in force") \
    X(CALLSITES_FRAME_0, U64, FIRST, "site: return address of the I/O call; function: its " \
      "address; object: load address (bias); totals: function entries not timed") \
    X(CALLSITES_FRAME_1, U64, FIRST, "site: return address of the caller (and so on); " \
      "object: GNU build id, bytes in memory order; totals: I/O calls whose stack was " \
      "taken with backtrace() (a frame the fast walk does not follow)") \
    X(CALLSITES_FRAME_2, U64, FIRST, "site: next caller; object: build id") \
    X(CALLSITES_FRAME_3, U64, FIRST, "site: next caller; object: build id") \
    X(CALLSITES_FRAME_4, U64, FIRST, "site: next caller; object: build id") \
    X(CALLSITES_FRAME_5, U64, FIRST, "site: next caller") \
    X(CALLSITES_FRAME_6, U64, FIRST, "site: next caller") \
    X(CALLSITES_FRAME_7, U64, FIRST, "site: next caller")

#define IOLENS_CALLSITES_FCOUNTERS(X) \
    X(CALLSITES_F_TIME, F64, SUM, "site: seconds in its calls; function: own time (its " \
      "calls into timed functions left out); totals: time of the calls no site held") \
    X(CALLSITES_F_INCL_TIME, F64, SUM, "function: seconds from entry to exit, callees " \
      "included (a recursive function's nested calls count again)")

#define IOLENS_X_ENUM(name, kind, merge, desc) name,
enum iolens_callsites_counter { IOLENS_CALLSITES_COUNTERS(IOLENS_X_ENUM) CALLSITES_NUM_INDICES };
enum iolens_callsites_fcounter {
    IOLENS_CALLSITES_FCOUNTERS(IOLENS_X_ENUM) CALLSITES_F_NUM_INDICES
};
#undef IOLENS_X_ENUM

_Static_assert(CALLSITES_FRAME_7 - CALLSITES_FRAME_0 + 1 == IOLENS_CALLSITES_MAX_FRAMES,
               "a frame counter per frame");

/* One CALLSITES record. */
struct iolens_callsites_record {
    struct iolens_record_base base;
    int64_t counters[CALLSITES_NUM_INDICES];
    double fcounters[CALLSITES_F_NUM_INDICES];
};

/* The name of operation op ("read", "write", ...), or "?" for another value. */
static inline const char *iolens_callsites_op_name(int64_t op)
{
    static const char *const names[IOLENS_CALLSITES_NOPS] = {"read",  "write", "open", "close",
                                                             "flush", "seek",  "meta"};
    return op >= 0 && op < IOLENS_CALLSITES_NOPS ? names[op] : "?";
}

/* The CALLSITES module: fixed-size records, printed from the tables. */
extern IOLENS_API const struct iolens_module_desc iolens_callsites_module;

#endif
