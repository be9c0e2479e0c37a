/* The backend-independent half of the database layer: choosing the backend
 * from the URL, the schema, transactions. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db.h"

int db_fail(struct db *db, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(db->err, sizeof(db->err), fmt, ap);
    va_end(ap);
    /* one line: the servers' messages may span several */
    for (char *p = db->err; *p; p++)
        if (*p == '\n' || *p == '\r')
            *p = ' ';
    size_t n = strlen(db->err);
    while (n && db->err[n - 1] == ' ')
        db->err[--n] = '\0';
    return -1;
}

const char *db_error(const struct db *db)
{
    return db->err;
}

/* Count the '?' parameters of a statement. */
static int count_params(const char *sql)
{
    int n = 0;
    for (; *sql; sql++)
        n += *sql == '?';
    return n;
}

/* Create what is missing of the schema and prepare the statements. */
static int setup(struct db *db)
{
    if (db_begin(db) < 0)
        return -1;
    for (int i = 0; db_schema_ddl[i]; i++)
        if (db->be->exec(db, db_schema_ddl[i]) < 0) {
            char why[sizeof(db->err)];
            memcpy(why, db->err, sizeof(why));
            db_rollback(db);
            memcpy(db->err, why, sizeof(why));
            return -1;
        }
    if (db_commit(db) < 0)
        return -1;
    for (int i = 0; i < DB_NSTMT; i++)
        if (db->be->prepare(db, i, db_stmt_sql[i], count_params(db_stmt_sql[i])) < 0)
            return -1;
    return 0;
}

/* A connection to url, its backend chosen and connected; reader: for
 * reading only. @return it, or NULL with the reason in err. */
static struct db *connect_url(const char *url, int reader, char *err, size_t errlen)
{
    struct db *db = calloc(1, sizeof(*db));
    if (!db) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    db->reader = reader;
    const char *target = url;
    if (!strncmp(url, "postgresql://", 13) || !strncmp(url, "postgres://", 11)) {
        db->be = &db_pg_backend;
    } else {
        db->be = &db_sqlite_backend;
        if (!strncmp(url, "sqlite:", 7))
            target = url + 7;
        else if (strstr(url, "://")) {
            snprintf(err, errlen, "unknown database URL (sqlite:PATH or postgresql://...)");
            free(db);
            return NULL;
        }
    }
    if (!*target) {
        snprintf(err, errlen, "no database path");
        free(db);
        return NULL;
    }
    if (db->be->connect(db, target) < 0) {
        snprintf(err, errlen, "%s", db->err);
        db_close(db);
        return NULL;
    }
    return db;
}

struct db *db_open(const char *url, char *err, size_t errlen)
{
    struct db *db = connect_url(url, 0, err, errlen);
    if (db && setup(db) < 0) {
        snprintf(err, errlen, "%s", db->err);
        db_close(db);
        return NULL;
    }
    return db;
}

/* A row that is not looked at. */
static int ignore_row(void *arg, int ncol, const struct db_val *col)
{
    return 0;
}

struct db *db_open_reader(const char *url, char *err, size_t errlen)
{
    struct db *db = connect_url(url, 1, err, errlen);
    /* a database without the schema (or not a database) is said now */
    if (db && db_select(db, "SELECT job_key FROM jobs LIMIT 1", NULL, 0, ignore_row, NULL) < 0) {
        snprintf(err, errlen, "%s", db->err);
        db_close(db);
        return NULL;
    }
    return db;
}

int db_select(struct db *db, const char *sql, const struct db_val *v, int n,
              int (*row)(void *arg, int ncol, const struct db_val *col), void *arg)
{
    return db->be->select(db, sql, v, n, row, arg);
}

void db_close(struct db *db)
{
    if (!db)
        return;
    if (db->in_txn)
        db_rollback(db);
    if (db->be)
        db->be->close(db);
    free(db);
}

int db_begin(struct db *db)
{
    if (db->be->exec(db, "BEGIN") < 0)
        return -1;
    db->in_txn = 1;
    return 0;
}

int db_commit(struct db *db)
{
    db->in_txn = 0;
    return db->be->exec(db, "COMMIT");
}

int db_rollback(struct db *db)
{
    db->in_txn = 0;
    return db->be->exec(db, "ROLLBACK");
}

int64_t db_run(struct db *db, enum db_stmt id, const struct db_val *v, int n)
{
    int64_t changes = 0;
    if (db->be->run(db, id, v, n, &changes, NULL, NULL) < 0)
        return -1;
    return changes;
}

int db_queue(struct db *db, enum db_stmt id, const struct db_val *v, int n)
{
    if (db->be->queue)
        return db->be->queue(db, id, v, n);
    return db_run(db, id, v, n) < 0 ? -1 : 0;
}

int db_query_int(struct db *db, enum db_stmt id, const struct db_val *v, int n, int64_t *out)
{
    int found = 0;
    if (db->be->run(db, id, v, n, NULL, out, &found) < 0)
        return -1;
    return found;
}
