/* What iolens_joblog_write and iolens_joblog_merge share (joblog.c). */
#ifndef IOLENS_FORMAT_JOBLOG_INTERNAL_H
#define IOLENS_FORMAT_JOBLOG_INTERNAL_H

#include "iolens/joblog.h"

/* iol_joblog_put_record's rank that leaves each record's own. */
#define IOL_JOBLOG_KEEP_RANK INT64_MIN

/* A record buffer kept from one record to the next (free buf when done). */
struct iol_joblog_buf {
    unsigned char *buf;
    size_t cap;
};

/* Read log's records from their first, whatever was read before. */
void iol_joblog_rewind(iolens_log *log);

/* Put a copy of rec (module mod_id) to w, its rank set to rank (unless
 * IOL_JOBLOG_KEEP_RANK), a HEATMAP record extended with empty bins to span
 * seconds (0: as it is). @return IOLENS_OK or an error. */
iolens_status iol_joblog_put_record(iolens_log_writer *w, int mod_id, const void *rec,
                                    int64_t rank, double span, struct iol_joblog_buf *b);

/* Every log's names, each id once, to w. @return IOLENS_OK or an error. */
iolens_status iol_joblog_names(iolens_log_writer *w, const struct iolens_joblog *c);

/* The record version every log holding module m has it at, or 0 when they
 * differ (or none holds it). */
uint32_t iol_joblog_common_version(const struct iolens_joblog *c, int m);

/* st, with its detail: log's own message for a read (log may be NULL). */
iolens_status iol_joblog_failed(iolens_status st, const iolens_log *log, char *detail,
                                size_t len);

#endif
