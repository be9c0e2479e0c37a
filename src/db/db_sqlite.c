/* The SQLite backend (libsqlite3): sqlite:PATH, the file created if missing. */
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

#include "db.h"

struct sqlite_impl {
    sqlite3 *h;
    sqlite3_stmt *stmt[DB_NSTMT];
};

static struct sqlite_impl *impl(struct db *db)
{
    return db->impl;
}

static int sq_connect(struct db *db, const char *path)
{
    struct sqlite_impl *s = calloc(1, sizeof(*s));
    if (!s)
        return db_fail(db, "out of memory");
    db->impl = s;
    /* a reader finds the file or fails: it creates nothing */
    int flags = SQLITE_OPEN_READWRITE | (db->reader ? 0 : SQLITE_OPEN_CREATE);
    if (sqlite3_open_v2(path, &s->h, flags, NULL) != SQLITE_OK)
        return db_fail(db, "%s: %s", path, s->h ? sqlite3_errmsg(s->h) : "cannot open");
    /* Another writer (an ingest beside a collect) waits instead of failing;
     * WAL lets readers (queries, a dashboard) go on while it writes. */
    sqlite3_busy_timeout(s->h, 60000);
    if (db->reader)
        return db->be->exec(db, "PRAGMA query_only=ON");
    return db->be->exec(db, "PRAGMA journal_mode=WAL");
}

static int sq_exec(struct db *db, const char *sql)
{
    char *msg = NULL;
    /* IMMEDIATE: take the write lock at once, so that waiting for another
     * writer happens here (busy timeout) and not as a failed statement. */
    if (!strcmp(sql, "BEGIN"))
        sql = "BEGIN IMMEDIATE";
    if (sqlite3_exec(impl(db)->h, sql, NULL, NULL, &msg) != SQLITE_OK) {
        db_fail(db, "sqlite: %s", msg ? msg : sqlite3_errmsg(impl(db)->h));
        sqlite3_free(msg);
        return -1;
    }
    return 0;
}

static int sq_prepare(struct db *db, int id, const char *sql, int nparams)
{
    struct sqlite_impl *s = impl(db);
    if (sqlite3_prepare_v3(s->h, sql, -1, SQLITE_PREPARE_PERSISTENT, &s->stmt[id], NULL) !=
        SQLITE_OK)
        return db_fail(db, "sqlite: %s", sqlite3_errmsg(s->h));
    return 0;
}

static int bind(sqlite3_stmt *st, int i, const struct db_val *v)
{
    switch (v->kind) {
    case DB_INT:
        return sqlite3_bind_int64(st, i, v->i);
    case DB_REAL:
        return sqlite3_bind_double(st, i, v->d);
    case DB_TEXT:
        return sqlite3_bind_text(st, i, v->s, -1, SQLITE_TRANSIENT);
    default:
        return sqlite3_bind_null(st, i);
    }
}

static int sq_run(struct db *db, int id, const struct db_val *v, int n, int64_t *changes,
                  int64_t *first, int *found)
{
    struct sqlite_impl *s = impl(db);
    sqlite3_stmt *st = s->stmt[id];
    int rc = SQLITE_OK;
    sqlite3_reset(st);
    for (int i = 0; i < n && rc == SQLITE_OK; i++)
        rc = bind(st, i + 1, &v[i]);
    if (rc != SQLITE_OK)
        return db_fail(db, "sqlite: %s", sqlite3_errmsg(s->h));
    rc = sqlite3_step(st);
    if (rc == SQLITE_ROW && first) {
        *first = sqlite3_column_int64(st, 0);
        *found = 1;
    } else if (rc != SQLITE_DONE) {
        db_fail(db, "sqlite: %s", sqlite3_errmsg(s->h));
        sqlite3_reset(st);
        return -1;
    }
    if (changes)
        *changes = sqlite3_changes(s->h);
    sqlite3_reset(st);
    return 0;
}

static int sq_select(struct db *db, const char *sql, const struct db_val *v, int n,
                     int (*row)(void *arg, int ncol, const struct db_val *col), void *arg)
{
    struct sqlite_impl *s = impl(db);
    sqlite3_stmt *st;
    enum { MAXCOL = 32 };
    struct db_val col[MAXCOL];
    if (sqlite3_prepare_v2(s->h, sql, -1, &st, NULL) != SQLITE_OK)
        return db_fail(db, "sqlite: %s", sqlite3_errmsg(s->h));
    int rc = SQLITE_OK, ncol = sqlite3_column_count(st);
    if (ncol > MAXCOL)
        ncol = MAXCOL;
    for (int i = 0; i < n && rc == SQLITE_OK; i++)
        rc = bind(st, i + 1, &v[i]);
    while (rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        for (int i = 0; i < ncol; i++) {
            switch (sqlite3_column_type(st, i)) {
            case SQLITE_INTEGER:
                col[i] = DB_I(sqlite3_column_int64(st, i));
                break;
            case SQLITE_FLOAT:
                col[i] = DB_R(sqlite3_column_double(st, i));
                break;
            case SQLITE_NULL:
                col[i] = DB_NUL;
                break;
            default:
                col[i] = DB_S((const char *)sqlite3_column_text(st, i));
            }
        }
        rc = row(arg, ncol, col) ? SQLITE_DONE : SQLITE_OK;
    }
    if (rc != SQLITE_DONE)
        db_fail(db, "sqlite: %s", sqlite3_errmsg(s->h));
    sqlite3_finalize(st);
    return rc == SQLITE_DONE ? 0 : -1;
}

static void sq_close(struct db *db)
{
    struct sqlite_impl *s = impl(db);
    if (!s)
        return;
    for (int i = 0; i < DB_NSTMT; i++)
        sqlite3_finalize(s->stmt[i]);
    sqlite3_close(s->h);
    free(s);
    db->impl = NULL;
}

const struct db_backend db_sqlite_backend = {
    .name = "sqlite",
    .connect = sq_connect,
    .exec = sq_exec,
    .prepare = sq_prepare,
    .run = sq_run,
    .close = sq_close,
    .select = sq_select,
};
