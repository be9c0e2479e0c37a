/* The data of an iolens report page: one JSON object built from a log's
 * summary and findings (docs/report.md lists its members). The page's
 * script (report.js) reads it and draws every section. */
#ifndef IOLENS_REPORT_DATA_H
#define IOLENS_REPORT_DATA_H

#include <stdio.h>

#include "iolens/analysis.h"
#include "iolens/log.h"

struct cs_result;

/* Call sites the page lists at most (those with the most I/O time). */
#define REPORT_MAX_SITES 20

/* Files of the page's table at most (the heaviest of the summary's). */
#define REPORT_MAX_FILES 4096

/* Lanes the timeline draws one by one at most: the busiest (sum of their
 * segments' durations); the others share one row. */
#define REPORT_MAX_LANES 40

/* What the page is made from. */
struct report_input {
    const char *log_name;               /* the log's file name, as shown */
    iolens_log *log;                    /* open; names read as needed */
    const struct iolens_summary *s;
    const struct iolens_finding *findings;
    size_t nfindings;
    const struct iolens_dxt_timeline *dxt; /* NULL: not built */
    const struct cs_result *callsites;     /* NULL: the log has none */
};

/* Write the page's JSON object to out. @return 0, or -1 (no memory). */
int report_write_data(FILE *out, const struct report_input *in);

/* ---- what report_data.c and report_files.c share ---- */

/* Write "KEY": (after a comma unless first). */
void report_key(FILE *out, const char *key, int first);

/* Write "KEY": NUMBER, with a leading comma. */
void report_num(FILE *out, const char *key, double v);

/* Write "KEY": "TEXT", with a leading comma. */
void report_str(FILE *out, const char *key, const char *text);

/* Write "KEY": [n numbers], with a leading comma. */
void report_i64s(FILE *out, const char *key, const int64_t *v, size_t n);

/* The per-file table, file counts by kind, data by mount point and the
 * heatmaps, HEATMAP records' then DXT traces' (report_files.c), each as
 * members of the object being written. */
void report_write_files(FILE *out, const struct report_input *in);
void report_write_heatmaps(FILE *out, const struct report_input *in);

/* The DXT timeline (report_dxt.c) as the member "dxt" (null without
 * traces). @return 0, or -1 (no memory) before anything is written. */
int report_write_dxt(FILE *out, const struct report_input *in);

#endif
