/* The PostgreSQL backend (libpq): postgresql://... connection URIs. */
#include <inttypes.h>
#include <libpq-fe.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db.h"

/* Statements queued before the pipeline is synchronised: few enough that
 * their results fit the socket buffers (libpq's blocking sends could
 * otherwise wait on a server waiting for us to read). */
#define PIPELINE_MAX 256

struct pg_impl {
    PGconn *conn;
    int nparams[DB_NSTMT];
    int queued; /* statements sent in pipeline mode, results not read */
};

static struct pg_impl *impl(struct db *db)
{
    return db->impl;
}

/* The server's notices ("relation already exists, skipping") are not errors. */
static void quiet(void *arg, const char *msg)
{
}

static int pg_exec(struct db *db, const char *sql);

static int pg_connect(struct db *db, const char *url)
{
    struct pg_impl *p = calloc(1, sizeof(*p));
    if (!p)
        return db_fail(db, "out of memory");
    db->impl = p;
    p->conn = PQconnectdb(url);
    if (!p->conn)
        return db_fail(db, "postgresql: out of memory");
    if (PQstatus(p->conn) != CONNECTION_OK)
        return db_fail(db, "postgresql: %s", PQerrorMessage(p->conn));
    PQsetNoticeProcessor(p->conn, quiet, NULL);
    if (db->reader)
        return pg_exec(db, "SET default_transaction_read_only = on");
    return 0;
}

/* Fail with the message of a result, which is then freed. */
static int fail_result(struct db *db, PGresult *r)
{
    db_fail(db, "postgresql: %s",
            r ? PQresultErrorMessage(r) : PQerrorMessage(impl(db)->conn));
    PQclear(r);
    return -1;
}

/* Read the results of the queued statements and leave pipeline mode.
 * @return 0, or -1 with the first error. */
static int drain(struct db *db)
{
    struct pg_impl *p = impl(db);
    int rc = 0;
    if (!p->queued)
        return 0;
    if (!PQpipelineSync(p->conn))
        rc = db_fail(db, "postgresql: %s", PQerrorMessage(p->conn));
    for (;;) {
        PGresult *r = PQgetResult(p->conn);
        if (!r && PQstatus(p->conn) == CONNECTION_OK)
            continue; /* the end of one statement's results */
        if (!r) {
            rc = db_fail(db, "postgresql: %s", PQerrorMessage(p->conn));
            break;
        }
        ExecStatusType st = PQresultStatus(r);
        if (st == PGRES_PIPELINE_SYNC) {
            PQclear(r);
            break;
        }
        if (st != PGRES_COMMAND_OK && st != PGRES_TUPLES_OK && rc == 0)
            rc = db_fail(db, "postgresql: %s", st == PGRES_PIPELINE_ABORTED
                             ? "pipeline aborted" : PQresultErrorMessage(r));
        PQclear(r);
    }
    p->queued = 0;
    PQexitPipelineMode(p->conn);
    return rc;
}

static int pg_exec(struct db *db, const char *sql)
{
    if (drain(db) < 0)
        return -1;
    PGresult *r = PQexec(impl(db)->conn, sql);
    if (!r || PQresultStatus(r) != PGRES_COMMAND_OK)
        return fail_result(db, r);
    PQclear(r);
    return 0;
}

/* sql with its '?' as $1, $2, ... (no statement has a '?' in a literal).
 * @return the text to free, or NULL when out of memory. */
static char *dollar_params(const char *sql)
{
    char *text = malloc(strlen(sql) * 4 + 1);
    if (!text)
        return NULL;
    char *o = text;
    int n = 0;
    for (const char *s = sql; *s; s++) {
        if (*s == '?')
            o += snprintf(o, 8, "$%d", ++n);
        else
            *o++ = *s;
    }
    *o = '\0';
    return text;
}

static int pg_prepare(struct db *db, int id, const char *sql, int nparams)
{
    char *text = dollar_params(sql), name[16];
    if (!text)
        return db_fail(db, "out of memory");
    snprintf(name, sizeof(name), "s%d", id);
    PGresult *r = PQprepare(impl(db)->conn, name, text, nparams, NULL);
    free(text);
    if (!r || PQresultStatus(r) != PGRES_COMMAND_OK)
        return fail_result(db, r);
    PQclear(r);
    impl(db)->nparams[id] = nparams;
    return 0;
}

enum { MAXP = 32, NUMLEN = 32 };

/* The n values as libpq's text parameters, numbers written into num. */
static void format_params(const struct db_val *v, int n, char num[][NUMLEN], const char **vals)
{
    for (int i = 0; i < n; i++) {
        switch (v[i].kind) {
        case DB_INT:
            snprintf(num[i], NUMLEN, "%" PRId64, v[i].i);
            vals[i] = num[i];
            break;
        case DB_REAL:
            snprintf(num[i], NUMLEN, "%.17g", v[i].d);
            vals[i] = num[i];
            break;
        case DB_TEXT:
            vals[i] = v[i].s;
            break;
        default:
            vals[i] = NULL;
        }
    }
}

/* The n values of statement id as libpq's text parameters. */
static int text_params(struct db *db, int id, const struct db_val *v, int n,
                       char num[][NUMLEN], const char **vals)
{
    if (n > MAXP || n != impl(db)->nparams[id])
        return db_fail(db, "statement %d: %d parameters given", id, n);
    format_params(v, n, num, vals);
    return 0;
}

static int pg_run(struct db *db, int id, const struct db_val *v, int n, int64_t *changes,
                  int64_t *first, int *found)
{
    char num[MAXP][NUMLEN], name[16];
    const char *vals[MAXP];
    if (drain(db) < 0 || text_params(db, id, v, n, num, vals) < 0)
        return -1;
    snprintf(name, sizeof(name), "s%d", id);
    PGresult *r = PQexecPrepared(impl(db)->conn, name, n, vals, NULL, NULL, 0);
    ExecStatusType st = r ? PQresultStatus(r) : PGRES_FATAL_ERROR;
    if (st != PGRES_COMMAND_OK && st != PGRES_TUPLES_OK)
        return fail_result(db, r);
    if (changes)
        *changes = strtoll(PQcmdTuples(r), NULL, 10);
    if (first && st == PGRES_TUPLES_OK && PQntuples(r) > 0) {
        *first = strtoll(PQgetvalue(r, 0, 0), NULL, 10);
        *found = 1;
    }
    PQclear(r);
    return 0;
}

static int pg_queue(struct db *db, int id, const struct db_val *v, int n)
{
    struct pg_impl *p = impl(db);
    char num[MAXP][NUMLEN], name[16];
    const char *vals[MAXP];
    if (text_params(db, id, v, n, num, vals) < 0)
        return -1;
    if (!p->queued && !PQenterPipelineMode(p->conn))
        return db_fail(db, "postgresql: %s", PQerrorMessage(p->conn));
    snprintf(name, sizeof(name), "s%d", id);
    if (!PQsendQueryPrepared(p->conn, name, n, vals, NULL, NULL, 0)) {
        db_fail(db, "postgresql: %s", PQerrorMessage(p->conn));
        p->queued++;
        drain(db);
        return -1;
    }
    return ++p->queued >= PIPELINE_MAX ? drain(db) : 0;
}

/* A column's value as its type says (PostgreSQL's type oids). */
static struct db_val pg_value(PGresult *r, int row, int i)
{
    if (PQgetisnull(r, row, i))
        return DB_NUL;
    const char *s = PQgetvalue(r, row, i);
    switch (PQftype(r, i)) {
    case 20: case 21: case 23: /* int8, int2, int4 */
        return DB_I(strtoll(s, NULL, 10));
    case 700: case 701: case 1700: /* float4, float8, numeric */
        return DB_R(strtod(s, NULL));
    default:
        return DB_S(s);
    }
}

static int pg_select(struct db *db, const char *sql, const struct db_val *v, int n,
                     int (*row)(void *arg, int ncol, const struct db_val *col), void *arg)
{
    char num[MAXP][NUMLEN];
    const char *vals[MAXP];
    struct db_val col[MAXP];
    if (n > MAXP)
        return db_fail(db, "%d parameters given", n);
    if (drain(db) < 0)
        return -1;
    format_params(v, n, num, vals);
    char *text = dollar_params(sql);
    if (!text)
        return db_fail(db, "out of memory");
    PGresult *r = PQexecParams(impl(db)->conn, text, n, NULL, vals, NULL, NULL, 0);
    free(text);
    if (!r || PQresultStatus(r) != PGRES_TUPLES_OK)
        return fail_result(db, r);
    int ncol = PQnfields(r) < MAXP ? PQnfields(r) : MAXP;
    for (int k = 0; k < PQntuples(r); k++) {
        for (int i = 0; i < ncol; i++)
            col[i] = pg_value(r, k, i);
        if (row(arg, ncol, col))
            break;
    }
    PQclear(r);
    return 0;
}

static void pg_close(struct db *db)
{
    struct pg_impl *p = impl(db);
    if (!p)
        return;
    PQfinish(p->conn);
    free(p);
    db->impl = NULL;
}

const struct db_backend db_pg_backend = {
    .name = "postgresql",
    .connect = pg_connect,
    .exec = pg_exec,
    .prepare = pg_prepare,
    .run = pg_run,
    .queue = pg_queue,
    .close = pg_close,
    .select = pg_select,
};
