/* Events as JSON messages in the LDMS Darshan connector's shape, which
 * LDMS's darshan_stream_store accepts. */
#ifndef IOL_RT_EVENTS_JSON_H
#define IOL_RT_EVENTS_JSON_H

#include <stddef.h>
#include <stdint.h>

#include "events.h"

/* What every message of this process repeats. */
struct iol_event_proc {
    int64_t uid, job_id, rank;
    const char *exe, *host;
    int64_t epoch_sec, epoch_nsec; /* CLOCK_REALTIME at iol_now() == 0 */
};

/* Append one message holding the n events ev[0..n) (same record, module, op
 * and thread: the batching key) to buf at *used (capacity cap), ended by
 * '\n'. @return 0, or -1 (nothing appended) when it does not fit. */
int iol_event_json(char *buf, size_t cap, size_t *used, const struct iol_event_proc *p,
                   const struct iol_event *ev, size_t n);

/* The final message: count events dropped (module "IOLENS", op "dropped").
 * @return as iol_event_json. */
int iol_event_json_dropped(char *buf, size_t cap, size_t *used,
                           const struct iol_event_proc *p, uint64_t count, double now);

/* Can events a and b share one message? */
int iol_event_same_batch(const struct iol_event *a, const struct iol_event *b);

#endif
