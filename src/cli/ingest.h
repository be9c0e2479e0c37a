/* iolens ingest's halves: reading one finished log (ingest_log.c, on the
 * worker threads) and storing it (on the one writer). */
#ifndef IOLENS_CLI_INGEST_H
#define IOLENS_CLI_INGEST_H

#include <stdint.h>

#include "../db/db.h"
#include "iolens/log.h"

/* The main counters of one file record (-1 / NaN: the module has none). */
struct ingest_record {
    int module;
    int64_t rank;
    uint64_t id;
    int64_t opens, reads, writes, bytes_read, bytes_written, max_byte_read, max_byte_written;
    double read_time, write_time, meta_time;
};

/* One log as read: its identity, the open handle (job, names, mounts) and
 * its file records; or why it could not be read. */
struct ingest_log {
    const char *path;
    char key[48];         /* "log:" and 32 hex digits of the file's content hash */
    iolens_log *log;      /* NULL when unreadable */
    char why[320];        /* one line, when unreadable */
    char partial[256];    /* comma-separated names of the partial modules */
    struct ingest_record *recs;
    size_t nrecs;
};

/* Read the log at l->path into l (l->path set, the rest zero).
 * @return 0, or -1 with l->why set. */
int ingest_read(struct ingest_log *l);

/* Free what ingest_read kept (the handle, the records). */
void ingest_free(struct ingest_log *l);

/* Store a read log in the open transaction of db.
 * @return the records stored, 0 when the log was already stored
 * (*already set), or -1 on a database error. */
int64_t ingest_store(struct db *db, const struct ingest_log *l, int *already);

#endif
