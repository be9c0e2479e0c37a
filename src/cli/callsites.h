/* The call sites of a log (the CALLSITES module), resolved to function, file
 * and line with elfutils' libdw: what `iolens callsites` prints and what
 * insights and report show of them (docs/callsites.md). */
#ifndef IOLENS_CLI_CALLSITES_H
#define IOLENS_CLI_CALLSITES_H

#include <stdint.h>
#include <stdio.h>

#include "iolens/log.h"
#include "iolens/modules/callsites.h"

/* One resolved frame: where an address is in the program's sources. */
struct cs_frame {
    char *function; /* NULL when unresolved */
    char *file;     /* NULL when the object has no line table for it */
    int line;
    char *object;   /* path of the object holding it */
    uint64_t offset; /* the address less the object's load address */
};

/* A call site as printed: the sites of every rank that resolve to the same
 * lines (every frame), module and operation, added up. */
struct cs_site {
    struct cs_frame *frames;
    int nframes;
    int module, op;
    int64_t calls, bytes;
    double time;
};

/* A function's times, added up over ranks. */
struct cs_function {
    char *function;
    int64_t calls;
    double own, inclusive;
};

struct cs_result {
    struct cs_site *sites; /* by I/O time, largest first */
    size_t nsites;
    struct cs_function *functions; /* by own time, largest first */
    size_t nfunctions;
    int64_t lost_calls, lost_entries; /* what the tables could not hold */
    int64_t slow_walks;               /* calls whose stack backtrace() took */
    int partial;                      /* the log marks the module partial */
};

/* Read log's CALLSITES records and resolve their addresses. Objects are
 * found by the path the log names when their build id matches, else in
 * /usr/lib/debug/.build-id/; a frame resolved in neither keeps its object
 * and offset only.
 * @return IOLENS_OK (r filled; free with cs_result_free), IOLENS_END when
 *         the log has no call sites, or an error of the log. */
iolens_status cs_load(iolens_log *log, struct cs_result *r);

void cs_result_free(struct cs_result *r);

/* When the log at path has call sites, a short section on out: the n lines
 * with the most I/O time (read with a handle of its own: a handle reads each
 * module's records once). Nothing when it has none or they cannot be read. */
void cs_print_top(FILE *out, const char *path, size_t n);

/* "function file:line" of a frame, or "object+0xoffset", into buf. */
const char *cs_frame_text(const struct cs_frame *f, char *buf, size_t len);

#endif
