/* Live I/O events (IOLENS_EVENTS): what the modules and the core see.
 *
 * A note function that counts an open, read, write, close or flush tests its
 * module's bit of iol_events_mask (one load and a branch when events are
 * off) and, when set, claims a slot of a bounded ring (iol_events_claim: no
 * lock waited for, no allocation, no system call), fills the struct
 * iol_event there under the record's lock and commits it. A background thread formats
 * the rings' events as JSON messages and sends them to the sink (sink.h).
 * The rest of this header is the core's: start, end (drain), fork. */
#ifndef IOL_RT_EVENTS_H
#define IOL_RT_EVENTS_H

#include <stdint.h>

#include "core/core.h"

/* The modules that send events: bits of iol_events_mask (IOL_EV_HDF5 for
 * H5F and H5D). An event's module is one of them, or IOL_EV_H5D (never in
 * the mask) for H5D's events. */
enum {
    IOL_EV_POSIX = 1u << 0,
    IOL_EV_STDIO = 1u << 1,
    IOL_EV_MPIIO = 1u << 2,
    IOL_EV_HDF5 = 1u << 3,
    IOL_EV_H5D = 1u << 4,
};

/* Operations, the connector's "op" strings (iol_event_op_name). */
enum iol_event_op { IOL_EV_OPEN, IOL_EV_READ, IOL_EV_WRITE, IOL_EV_CLOSE, IOL_EV_FLUSH };

/* One event, as a note function fills it (the counters after the call): one
 * ring slot of two cache lines, so that no line holds two events (the
 * events thread reading one never shares a line the writer is filling).
 * H5D's events have no offset or max_byte (they send -1): their selection
 * fields take those words' place. */
struct iol_event {
    uint64_t record_id;
    const char *name;  /* the record's name (in the record file, stable) */
    int64_t len;       /* -1 where it does not apply (open, close, flush) */
    int64_t cnt;       /* the record's count of this operation */
    int64_t switches;  /* read/write switches, -1 where none */
    int64_t flushes;   /* flushes, -1 where none */
    double start, end; /* iol_now() seconds before and after the call */
    double total;      /* the record's cumulative time of this kind */
    uint64_t thread;   /* set by iol_events_commit */
    uint8_t module;    /* IOL_EV_* bit */
    uint8_t op;        /* enum iol_event_op */
    int16_t ndims;     /* H5D: the dataspace's rank (HDF5's are at most 32) */
    union {
        struct {             /* every module but H5D */
            int64_t off;      /* -1 where it does not apply (open, close, flush) */
            int64_t max_byte; /* -1 where the module has none */
        };
        struct { /* H5D: the record's selection counts and points after the
                  * call, and the dataset's path in its file (inside name) */
            int64_t pt_sel, irreg_hslab, reg_hslab, npoints;
            const char *data_set;
        };
    };
};
_Static_assert(sizeof(struct iol_event) == 128, "an event is two cache lines");

/* Bits of the modules whose events are on; 0 when events are off. */
extern unsigned iol_events_mask __attribute__((visibility("hidden")));

/* A slot claimed in a ring, from iol_events_claim to iol_events_commit. */
struct iol_event_claim {
    unsigned ring;
    uint64_t head, thread;
};

/* The slot of the calling thread's next event, to fill in place (every
 * field but thread) and hand over with iol_events_commit; the ring is held
 * until then. Starts the events thread at the first event. Never blocks.
 * @return it, or NULL when the event is dropped (full or held ring;
 * counted): nothing to commit then. */
struct iol_event *iol_events_claim(struct iol_event_claim *c);

/* The event claimed in c is complete: the events thread may take it. */
void iol_events_commit(const struct iol_event_claim *c);

/* Claim an event (iol_events_claim) of operation op on the record of slot s
 * in module (an IOL_EV_* bit), from t0 to t1, total the record's time of
 * this kind so far, and fill what every module's event has: the record's id
 * and name, module, op and the times. The caller fills the rest, then
 * commits. Inline: the modules' event functions stay one call deep, as when
 * each filled these fields itself. @return the event, or NULL when it is
 * dropped. */
static inline struct iol_event *iol_events_begin(struct iol_event_claim *c, struct iol_slot *s,
                                                 int module, int op, double t0, double t1,
                                                 double total)
{
    struct iol_event *e = iol_events_claim(c);
    if (!e)
        return NULL;
    const struct iol_map_slot_head *h = (const struct iol_map_slot_head *)s;
    const struct iol_map_header *m = iol_rt.map.hdr;
    e->record_id = ((const struct iolens_record_base *)iol_slot_rec(s))->id;
    e->name = (const char *)m + m->names_off + h->name_off;
    e->module = (uint8_t)module;
    e->op = (uint8_t)op;
    e->start = t0;
    e->end = t1;
    e->total = total;
    return e;
}

/* Read the settings (at start, in iol_core_start): sets iol_events_mask when
 * a sink is configured and understood. Reserves the rings' memory. */
void iol_events_configure(void);

/* The process is ending (exit, _exit, exec, MPI_Finalize, a fatal signal):
 * wait at most EVENTS_DRAIN seconds for the queued events to reach the sink,
 * then note the count of dropped events in the record file's metadata.
 * Async-signal-safe. Events are off afterwards until iol_events_restart. */
void iol_events_end(void);

/* In a forked child: empty rings, no thread, no sink (the child's own
 * thread and file start at its first event). */
void iol_events_fork_child(void);

/* After a failed exec: events on again as configured. */
void iol_events_restart(void);

/* The process's MPI rank, known at MPI_Init: every message formatted from
 * now on carries it (before, the launcher's rank variable, else 0). */
void iol_events_set_rank(int rank);

/* The job's id, rank 0's, known at MPI_Init: every message formatted from
 * now on carries it (before, this process's own, as in its record set). */
void iol_events_set_job(int64_t id);

#endif
