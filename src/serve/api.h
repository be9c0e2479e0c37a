/* iolens serve's JSON answers, read from the database (docs/serve.md). Each
 * writes one JSON object into out and returns 0, API_NOT_FOUND when the job
 * is not in the database, or -1 on a database error (db_error says why). */
#ifndef IOLENS_SERVE_API_H
#define IOLENS_SERVE_API_H

#include "../db/db.h"
#include "json.h"

#define API_NOT_FOUND 1

/* The jobs, the latest first (at most limit): a live job is one of events
 * whose last event is at most live_window seconds older than now. */
int api_jobs(struct db *db, double now, double live_window, int limit, struct jbuf *out);

/* One job and its processes. */
int api_job(struct db *db, const char *job, double now, double live_window, struct jbuf *out);

/* What a series is of: the whole job, each rank, each file. */
enum api_by { API_BY_JOB, API_BY_RANK, API_BY_FILE };

/* A job's per-second series (rollup tables) of what by says, the limit
 * busiest (bytes, then operations) first; when the job spans more than
 * max_points seconds, each point sums the seconds of a wider step. */
int api_series(struct db *db, const char *job, enum api_by by, int limit, int max_points,
               struct jbuf *out);

/* Percentiles (nearest rank) of a job's events' durations per operation. */
int api_latency(struct db *db, const char *job, struct jbuf *out);

/* A job's limit files that took the most I/O time. */
int api_slowest(struct db *db, const char *job, int limit, struct jbuf *out);

/* Write the n columns of a row as the members of a JSON object, named by
 * names (no braces). */
void api_members(struct jbuf *b, const char *const *names, int n, const struct db_val *col);

/* The job's source ("events" or "log") into src (size len).
 * @return 0, API_NOT_FOUND or -1. */
int api_job_source(struct db *db, const char *job, char *src, size_t len);

#endif
