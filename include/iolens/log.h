/* Reading and writing Darshan-format logs (format versions 3.00 to 3.41). */
#ifndef IOLENS_LOG_H
#define IOLENS_LOG_H

#include <stddef.h>
#include <stdint.h>

#include "iolens/module.h"
#include "iolens/api.h"
#include "iolens/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Newest format version this library writes. */
#define IOLENS_LOG_VERSION "3.41"

/* Compression of a log's regions; numbers are the format's. */
typedef enum iolens_compression {
    IOLENS_COMP_ZLIB = 0,
    IOLENS_COMP_BZIP2 = 1,
    IOLENS_COMP_NONE = 2,
    IOLENS_COMP_ZSTD = 3, /* iolens extension: only iolens reads it */
} iolens_compression;

/* Offset and compressed length of one region of a log file. */
struct iolens_region_map {
    uint64_t off;
    uint64_t len;
};

/* One mount table entry: mount point and file-system type. */
struct iolens_mount {
    char *path;
    char *type;
};

/* Job-level data, as recorded by the runtime. */
struct iolens_job {
    int64_t uid;
    int64_t start_time_sec;
    int64_t start_time_nsec;
    int64_t end_time_sec;
    int64_t end_time_nsec;
    int64_t nprocs;
    int64_t jobid;
    char metadata[1024];  /* "key=value\n" lines, NUL-terminated */
};

/* What a log's header and job region say; owned by the log handle. */
struct iolens_log_info {
    char version[9];              /* e.g. "3.41" */
    int version_minor;            /* 0, 10, 20, 21 or 41 (major is 3) */
    int byte_swapped;             /* 1 if the log's byte order differs from this host's */
    iolens_compression compression;
    uint64_t partial_flags;       /* bit i set: module i ran out of memory */
    size_t header_size;           /* bytes of the uncompressed header on disk */
    struct iolens_region_map job_map;
    struct iolens_region_map name_map;
    struct iolens_region_map mod_map[IOLENS_MAX_MODS];  /* indexed by current module ids */
    uint32_t mod_ver[IOLENS_MAX_MODS];
    struct iolens_job job;
    const char *exe;              /* command line */
    const struct iolens_mount *mounts; /* longest mount point first */
    size_t nmounts;
};

typedef struct iolens_log iolens_log;

/* Open the log at path and read its header, job data and mount table.
 * detail (may be NULL) receives a one-line reason on failure.
 * @return IOLENS_OK and *out set, or an error with *out NULL. */
IOLENS_API iolens_status iolens_log_open(const char *path, iolens_log **out,
                              char *detail, size_t detail_len);

/* Close a log handle and free everything it owns; NULL is allowed. */
IOLENS_API void iolens_log_close(iolens_log *log);

/* Header, job data and mount table of an open log.
 * @return a pointer valid until iolens_log_close. */
IOLENS_API const struct iolens_log_info *iolens_log_get_info(const iolens_log *log);

/* The job's run time in seconds, as Darshan's utilities give it: end minus
 * start with their nanoseconds in logs of format 3.41 and later; before,
 * whole seconds with both ends counted (end - start + 1, wrapping as
 * Darshan's 64-bit arithmetic does on a damaged log's values). */
IOLENS_API double iolens_log_run_time(const struct iolens_log_info *info);

/* One-line detail of the last error on this handle ("" if none). */
IOLENS_API const char *iolens_log_error(const iolens_log *log);

/* Read the log's name records (record id -> name) into the handle.
 * Calling it again does nothing.
 * @return IOLENS_OK, or an error (the names read so far stay available). */
IOLENS_API iolens_status iolens_log_load_names(iolens_log *log);

/* Read only the names of the n record ids at ids (any order), adding them to
 * those already read: memory bounded by n, not by the log's name count, for
 * a tool that names a bounded set of records. The region is read again at
 * each call; after iolens_log_load_names it does nothing.
 * @return IOLENS_OK, or an error (the names read so far stay available). */
IOLENS_API iolens_status iolens_log_load_names_of(iolens_log *log, const uint64_t *ids, size_t n);

/* Name of a record id after iolens_log_load_names (or _of, for its ids).
 * @return the name, or NULL if the log has none for id. */
IOLENS_API const char *iolens_log_name(const iolens_log *log, uint64_t id);

/* Number of name records loaded. */
IOLENS_API size_t iolens_log_name_count(const iolens_log *log);

/* Call fn for every loaded name record, in the order the log stores them.
 * @return the first non-zero value fn returns, or 0. */
IOLENS_API int iolens_log_each_name(const iolens_log *log,
                         int (*fn)(uint64_t id, const char *name, void *arg), void *arg);

/* Read the next record of module mod_id, decoded to its newest layout in
 * host byte order. Records are read one at a time from the compressed region;
 * switching modules restarts at the start of the new module's region.
 * *rec points into the handle and stays valid until the next call.
 * @return IOLENS_OK with *rec set, IOLENS_END after the last record,
 *         IOLENS_ERR_UNKNOWN_MODULE if mod_id has no decoder, or an error. */
IOLENS_API iolens_status iolens_log_next_record(iolens_log *log, int mod_id, const void **rec);

/* Size in bytes of a decoded record (fixed modules: record_size; variable
 * ones: the size of the record's current encoding). */
IOLENS_API size_t iolens_record_size(const struct iolens_module_desc *mod, const void *rec);

/* ---- writing ---- */

typedef struct iolens_log_writer iolens_log_writer;

/* Create a new 3.41 log at path (truncating it) with the given compression.
 * @return IOLENS_OK and *out set, or an error. */
IOLENS_API iolens_status iolens_writer_create(const char *path, iolens_compression comp,
                                   iolens_log_writer **out, char *detail, size_t detail_len);

/* Write the job region: job data, command line and mount table. First call.
 * @return IOLENS_OK or an error. */
IOLENS_API iolens_status iolens_writer_put_job(iolens_log_writer *w, const struct iolens_job *job,
                                    const char *exe, const struct iolens_mount *mounts,
                                    size_t nmounts);

/* Add one name record; all names are written after the job, before any module.
 * @return IOLENS_OK or an error. */
IOLENS_API iolens_status iolens_writer_put_name(iolens_log_writer *w, uint64_t id, const char *name);

/* Add one decoded record of module mod_id; modules must come in increasing id order.
 * It is written at the module's newest record version, or the one
 * iolens_writer_set_compat chose.
 * @return IOLENS_OK or an error (IOLENS_ERR_ORDER when out of order). */
IOLENS_API iolens_status iolens_writer_put_record(iolens_log_writer *w, int mod_id, const void *rec);

/* Write the log for the tools of compat: every module's records at
 * iolens_module_compat_version's record version, and none of a module it
 * leaves out (iolens_writer_put_record then takes them and writes nothing).
 * Call before the first record. The default is IOLENS_COMPAT_NEWEST. */
IOLENS_API void iolens_writer_set_compat(iolens_log_writer *w, iolens_log_compat compat);

/* Set the permission bits of the log being written (e.g. 0400: readable only
 * by its owner). The temporary file gets them at once, before any data, and
 * the final file keeps them. Used by the runtime, whose logs must not be
 * readable by others even for a moment.
 * @return IOLENS_OK, IOLENS_ERR_ARGUMENT, or IOLENS_ERR_IO. */
IOLENS_API iolens_status iolens_writer_set_mode(iolens_log_writer *w, unsigned mode);

/* Use at most nthreads threads to compress the regions written from now on
 * (0, the default: as many as the CPUs this process may run on, at most 8;
 * 1: everything on the calling thread). A zlib region of more than 1 MiB
 * uncompressed is then written as one complete stream per MiB, compressed in
 * parallel (the format allows a region to be several streams back to back,
 * as MPI logs are; Darshan's tools read them). Smaller regions, and other
 * compressions, are always one stream written by the calling thread. */
IOLENS_API void iolens_writer_set_threads(iolens_log_writer *w, int nthreads);

/* Mark module mod_id as partial (its runtime ran out of memory). */
IOLENS_API void iolens_writer_set_partial(iolens_log_writer *w, int mod_id);

/* Finish every region, write the header and close the file. Frees w.
 * @return IOLENS_OK, or an error (the file is then incomplete). */
IOLENS_API iolens_status iolens_writer_close(iolens_log_writer *w);

/* Free a writer without finishing the log (the file is left incomplete). */
IOLENS_API void iolens_writer_abort(iolens_log_writer *w);

/* The record id of a name: the same 64-bit hash Darshan uses. */
IOLENS_API uint64_t iolens_record_id(const char *name);

#ifdef __cplusplus
}
#endif
#endif
