/* What iolens diff's files share (diff.c, diff_fields.c, diff_job.c). */
#ifndef IOLENS_CLI_DIFF_H
#define IOLENS_CLI_DIFF_H

#include <stddef.h>
#include <stdint.h>

#include "iolens/log.h"

/* The output: text lines, or the items of the JSON array. */
struct diff_out {
    int json, ndiff;
};

/* One field of a record as diff compares it: name, value as printed, and
 * whether --ignore-timers leaves it out. */
struct diff_field {
    char name[64];
    char value[80];
    int timer;
};

struct diff_fields {
    struct diff_field *v;
    size_t n;
};

/* One record of a log: its id, rank and a copy of it. */
struct diff_rec {
    uint64_t id;
    int64_t rank;
    void *rec;
};

struct diff_recs {
    struct diff_rec *v;
    size_t n;
};

/* The fields of rec, a record of d, into out (diff_fields_free).
 * @return 0, or -1 without memory. */
int diff_fields(const struct iolens_module_desc *d, const void *rec, struct diff_fields *out);

void diff_fields_free(struct diff_fields *f);

/* Every record of module m of log, copied, sorted by id then rank.
 * @return 0, or -1 (a read error in iolens_log_error, or no memory). */
int diff_read(iolens_log *log, int m, struct diff_recs *out);

void diff_recs_free(struct diff_recs *r);

/* Order of two records: by id, then rank. */
int diff_rec_cmp(const struct diff_rec *a, const struct diff_rec *b);

/* Print a job line: field, A's and B's values. */
void diff_job_line(struct diff_out *o, const char *field, const char *a, const char *b);

/* Print the job data of a and b that differ. */
void diff_job(struct diff_out *o, iolens_log *a, iolens_log *b, int ignore_timers);

#endif
