/* State of an open log, shared by the files of the log library. */
#ifndef IOLENS_FORMAT_LOG_INTERNAL_H
#define IOLENS_FORMAT_LOG_INTERNAL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "iolens/log.h"
#include "region.h"

/* Growable byte buffer for one decoded record; never larger than cap. */
struct iolens_recbuf {
    unsigned char *data;
    size_t size;   /* bytes in use */
    size_t alloc;  /* bytes allocated */
    size_t cap;    /* most bytes this buffer may ever hold */
};

/* Make room for n bytes in b. @return IOLENS_OK, IOLENS_ERR_CORRUPT past cap, or NOMEM. */
iolens_status iol_recbuf_reserve(struct iolens_recbuf *b, size_t n);

struct iol_names;

struct iolens_log {
    int fd;
    uint64_t file_size;
    struct iolens_log_info info;
    char *exe_mounts;               /* job region text: exe line, mount lines */
    struct iolens_mount *mounts;
    struct iol_names *names;
    struct iolens_region rg;        /* region being read record by record */
    int rg_module;                  /* module of rg, or -1 */
    iolens_status rg_error;         /* first read error in rg: repeated, never read past */
    union {                         /* the read hook's state for rg */
        unsigned char bytes[IOL_READ_STATE_BYTES];
        double align;
    } rg_state;
    struct iolens_recbuf rec;       /* the record handed to the caller */
    struct iolens_recbuf scratch;   /* raw bytes of an old-version record */
    char err[256];
};

/* Record a one-line error detail on the handle. @return status, for chaining. */
iolens_status iol_fail(struct iolens_log *log, iolens_status status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Decode the next fixed-size record of mod (version ver) from rg into out. */
iolens_status iol_read_fixed(struct iolens_region *rg, const struct iolens_module_desc *mod,
                             uint32_t ver, int swap, struct iolens_recbuf *scratch,
                             struct iolens_recbuf *out);

/* Make the next iolens_log_next_record start at its module's first record. */
void iol_log_rewind(struct iolens_log *log);

/* Parse the job region of log (job data, exe, mounts). */
iolens_status iol_read_job(struct iolens_log *log);

/* Free the name table of a log. */
void iol_names_free(struct iol_names *n);

/* The next region w opens (the names, or a new module's records) will hold
 * at most about bytes of input: lets a large one start on several threads at
 * once (region_write.h). Forgotten once that region opens. */
void iol_writer_expect(iolens_log_writer *w, uint64_t bytes);

/* Write module mod_id's records at record version ver (its descriptor's
 * version or darshan_3_5_version; 0: leave them out, iolens_writer_put_record
 * taking them without writing anything), from its first record on.
 * @return IOLENS_OK, IOLENS_ERR_UNKNOWN_MODULE or IOLENS_ERR_VERSION. */
iolens_status iol_writer_set_version(iolens_log_writer *w, int mod_id, uint32_t ver);

/* Most bytes a single decoded record may occupy: bounds hostile length fields. */
#define IOL_MAX_RECORD_BYTES ((size_t)256 << 20)

#endif
