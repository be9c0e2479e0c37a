/* iolens collect's parts: the store of messages (collect_store.c), the
 * sources that feed it (collect_file.c, collect_mqtt.c). */
#ifndef IOLENS_CLI_COLLECT_H
#define IOLENS_CLI_COLLECT_H

#include <stddef.h>
#include <stdint.h>

#include "../db/db.h"

struct collect_agg; /* per-batch sums of collect_store.c */

/* The store: one open transaction at a time, committed by collect_commit. */
struct collector {
    struct db *db;
    int in_txn;
    size_t pending;       /* events in the open transaction */
    double txn_start;     /* monotonic seconds when it began */
    struct collect_agg *agg;
    /* counts since the start */
    uint64_t messages, events, duplicates, malformed;
};

/* Store one message (a JSON line of the runtime's events) in the open
 * transaction, starting one if needed; where names it in the one-line log
 * entry of a malformed message ("PATH@OFFSET", "mqtt TOPIC").
 * @return 0 (stored, or malformed: counted and said), or -1 on a database error. */
int collect_message(struct collector *c, const char *msg, size_t len, const char *where);

/* Write the batch's rollups, jobs and processes, then commit.
 * save (may be NULL) adds the sources' positions to the same transaction.
 * @return 0, or -1 on a database error. */
int collect_commit(struct collector *c, int (*save)(void *arg, struct db *db), void *arg);

/* Free the batch's sums. */
void collect_free(struct collector *c);

/* Monotonic seconds. */
double collect_now(void);

/* A file:DIR source: JSON lines in the files of a directory, followed as
 * they grow; where each file was read to is kept in the database. */
struct file_source;

/* @return the source for path (a directory, or one file), or NULL with why. */
struct file_source *file_source_open(const char *path, char *why, size_t whylen);

/* Read what the files gained since the last call (up to a bound), storing
 * each complete line. @return the lines read, or -1 on a database error. */
long file_source_poll(struct file_source *s, struct collector *c);

/* Record the files' positions (a collect_commit save function). */
int file_source_save(void *s, struct db *db);

void file_source_close(struct file_source *s);

/* An mqtt://HOST:PORT/TOPIC source: a persistent session (clean_session
 * false) subscribed at QoS 1, reconnected when the broker goes away. */
struct mqtt_source;

/* Connect (in the background: a broker down at start is retried).
 * @return the source, or NULL with why (a malformed URL). */
struct mqtt_source *mqtt_source_open(const char *url, const char *client_id, char *why,
                                     size_t whylen);

/* Wait up to timeout_ms for messages and store them. @return the messages
 * stored, or -1 on a database error. */
long mqtt_source_poll(struct mqtt_source *s, struct collector *c, int timeout_ms);

/* Has the source been subscribed and quiet for idle seconds? */
int mqtt_source_drained(const struct mqtt_source *s, double idle);

void mqtt_source_close(struct mqtt_source *s);

#endif
