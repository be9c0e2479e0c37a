/* The database iolens ingest and iolens collect store into: one interface
 * over SQLite (db_sqlite.c) and PostgreSQL (db_pg.c), the schema and the
 * statements both use (schema.c). docs/database.md describes the schema. */
#ifndef IOLENS_DB_H
#define IOLENS_DB_H

#include <stddef.h>
#include <stdint.h>

/* The statements of the schema, prepared once per connection. */
enum db_stmt {
    DB_JOB_FROM_LOG,      /* a finished log's job; ignored when its key is there */
    DB_RECORD,            /* one file record of a log with its main counters */
    DB_FILE,              /* a file's name in a job (first name kept) */
    DB_JOB_FROM_EVENTS,   /* a live job, first and last event time widened */
    DB_PROCESS,           /* a process of a live job, its counts added */
    DB_EVENT,             /* one event; ignored when already stored */
    DB_ROLLUP_JOB,        /* per-second totals of a job, added to */
    DB_ROLLUP_RANK,       /* the same per rank */
    DB_ROLLUP_FILE,       /* the same per file */
    DB_OFFSET_GET,        /* where collect stopped reading a file source */
    DB_OFFSET_SET,        /* ... and its update */
    DB_NSTMT
};

/* A statement's parameter or a query's result column. */
enum db_kind { DB_NULL, DB_INT, DB_REAL, DB_TEXT };
struct db_val {
    enum db_kind kind;
    int64_t i;
    double d;
    const char *s;
};

#define DB_I(v) ((struct db_val){.kind = DB_INT, .i = (v)})
#define DB_R(v) ((struct db_val){.kind = DB_REAL, .d = (v)})
#define DB_NUL ((struct db_val){.kind = DB_NULL})

/* A text parameter; NULL for s stores NULL. */
static inline struct db_val DB_S(const char *s)
{
    return (struct db_val){.kind = s ? DB_TEXT : DB_NULL, .s = s};
}

struct db;

/* What a backend provides; db.c dispatches to it. Each returns 0 or -1 with
 * the reason in db_error. */
struct db_backend {
    const char *name;
    int (*connect)(struct db *db, const char *target);
    int (*exec)(struct db *db, const char *sql);
    int (*prepare)(struct db *db, int id, const char *sql, int nparams);
    /* Run statement id; *changes gets the rows it changed, and a query's first
     * row's first column goes to *first (if not NULL; *found says whether there
     * was a row). */
    int (*run)(struct db *db, int id, const struct db_val *v, int n, int64_t *changes,
               int64_t *first, int *found);
    /* Send statement id without waiting for its result (NULL: run it);
     * an error shows at the latest at the next run, exec or commit. */
    int (*queue)(struct db *db, int id, const struct db_val *v, int n);
    void (*close)(struct db *db);
    /* Run a read-only query sql ('?' parameters), calling row for each row
     * with its columns (DB_INT, DB_REAL, DB_TEXT or DB_NULL) until it
     * returns non-zero. */
    int (*select)(struct db *db, const char *sql, const struct db_val *v, int n,
                  int (*row)(void *arg, int ncol, const struct db_val *col), void *arg);
};

/* A connection; backends keep their state behind impl. */
struct db {
    const struct db_backend *be;
    void *impl;
    char err[512];
    int in_txn;
    int reader; /* opened by db_open_reader: nothing may be written */
};

/* Open the database of url (sqlite:PATH, a bare PATH, or postgresql://...),
 * create the schema if missing and prepare the statements.
 * @return the connection, or NULL with a one-line reason in err. */
struct db *db_open(const char *url, char *err, size_t errlen);

/* Open the database of url for reading only (iolens serve): it must exist
 * and hold the schema; nothing is created, no statement prepared, and the
 * connection refuses to write (SQLite query_only, PostgreSQL read-only
 * transactions). @return the connection, or NULL with a one-line reason in err. */
struct db *db_open_reader(const char *url, char *err, size_t errlen);

/* Run the read-only query sql with its n '?' parameters and call row(arg,
 * ncol, col) for each row, col valid during the call only; a non-zero
 * return stops the query. @return 0, or -1 (db_error says why). */
int db_select(struct db *db, const char *sql, const struct db_val *v, int n,
              int (*row)(void *arg, int ncol, const struct db_val *col), void *arg);

/* Close a connection (rolling back an open transaction); NULL is allowed. */
void db_close(struct db *db);

/* Start, commit or roll back a transaction. @return 0, or -1 (db_error says why). */
int db_begin(struct db *db);
int db_commit(struct db *db);
int db_rollback(struct db *db);

/* Run statement id with its n parameters. @return the rows changed (0 when
 * ignored as already stored), or -1 (db_error says why). */
int64_t db_run(struct db *db, enum db_stmt id, const struct db_val *v, int n);

/* Run statement id when its result is not needed (PostgreSQL: in a
 * pipeline, many per round trip). @return 0, or -1 (db_error says why; an
 * error of a queued statement may show only at the next call). */
int db_queue(struct db *db, enum db_stmt id, const struct db_val *v, int n);

/* Run query id; *out gets its first row's first column (an integer).
 * @return 1 with a row, 0 without one, or -1 (db_error says why). */
int db_query_int(struct db *db, enum db_stmt id, const struct db_val *v, int n, int64_t *out);

/* The last error's one-line reason. */
const char *db_error(const struct db *db);

/* Set the last error (backends use it). @return -1. */
int db_fail(struct db *db, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The schema's statements, one per line group, in the order they are run;
 * what `iolens ingest --schema` prints and docs/database.md shows. */
extern const char *const db_schema_ddl[];

/* The text of each statement, '?' marking its parameters. */
extern const char *const db_stmt_sql[DB_NSTMT];

/* The backends. */
extern const struct db_backend db_sqlite_backend;
extern const struct db_backend db_pg_backend;

#endif
