/* Darshan's file name for a log, shared by the runtime (each process's log),
 * the log library (a record file's recovered log) and iolens run (a job's
 * log), so that every log iolens leaves is named by one rule. */
#ifndef IOLENS_COMMON_LOGNAME_H
#define IOLENS_COMMON_LOGNAME_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* What a log's name is made of. */
struct iol_log_name_parts {
    const char *user;   /* iol_log_user's */
    const char *exe;    /* the program's name (a path: its last component) */
    int64_t jobid;
    int64_t pid;
    int64_t start_sec;  /* the start (CLOCK_REALTIME seconds), in local time */
    uint64_t seed;      /* hashed with the host name: any value that varies (now, in us) */
    int64_t n;          /* seconds the log took to write, plus one */
};

/* Write <user>_<exe>_id<jobid>-<pid>_<month>-<day>-<seconds since midnight>-
 * <hash>_<n>.darshan into buf (len bytes, NUL-terminated when it fits); '/'
 * and ' ' of exe become '-'. @return the length, or a value >= len if it did
 * not fit. */
size_t iol_log_file_name(char *buf, size_t len, const struct iol_log_name_parts *p);

/* The user part of a log name for files of uid: $LOGNAME (when it holds no
 * '/') if uid is this process's effective uid, else the number, into buf
 * (len bytes). */
void iol_log_user(char *buf, size_t len, uid_t uid);

#endif
