/* The POSIX module: Darshan's POSIX v4 record per file. posix.c holds the
 * open/close/read/write wrappers and the counter updates; posix_meta.c the
 * metadata wrappers (stat family, dup, fcntl, fileno, mmap, sync, rename,
 * mkstemp); posix_aio.c asynchronous I/O. The counters mean what
 * darshan-runtime/lib/darshan-posix.c makes them mean; deliberate
 * differences are listed in docs/runtime.md. */
#ifndef IOL_RT_POSIX_H
#define IOL_RT_POSIX_H

#include <stdint.h>
#include <sys/types.h>

#include "core/core.h"
#include "fdtab.h"
#include "iolens/modules/posix.h"
#include "core/topvals.h"

extern const struct iol_module iol_posix_module;

/* The binding tables of posix_open.c, posix_meta.c and posix_aio.c. */
extern const struct iol_binding_table iol_posix_open_bindings;
extern const struct iol_binding_table iol_posix_meta_bindings;
extern const struct iol_binding_table iol_posix_aio_bindings;

/* Per-record state that is not part of the log record. The part every
 * update reads or writes is in the slot's head, beside its lock
 * (iol_slot_hot). */
struct posix_hot {
    int64_t last_byte_read;     /* last byte of the previous read, 0 after open/close */
    int64_t last_byte_written;
    double last_meta_end;       /* ends of the last timed operations, so that */
    double last_read_end;       /* overlapping calls (threads) are not counted */
    double last_write_end;      /* twice in the cumulative times */
    int last_io_type;           /* POSIX_IO_READ, POSIX_IO_WRITE or 0 */
};
_Static_assert(sizeof(struct posix_hot) <= IOL_SLOT_HOT_BYTES, "POSIX hot state fits the head");

/* The rest, after the record. */
struct posix_state {
    struct iol_vals access;     /* distinct access sizes */
    struct iol_vals stride;     /* distinct strides */
    void *dxt;                  /* the file's DXT_POSIX record (dxt/dxt.h), NULL until
                                 * its first traced access */
    int64_t closes;             /* closes so far: the count of close events, as Darshan's
                                 * connector sends it (the log has no such counter) */
};

enum { POSIX_IO_READ = 1, POSIX_IO_WRITE = 2 };

/* Counters a reference-open (dup, fileno) increments besides POSIX_OPENS. */
enum posix_ref_kind { POSIX_REF_DUP = POSIX_DUPS, POSIX_REF_FILENO = POSIX_FILENOS };

/* The record name of path (relative to dirfd, or to the current directory
 * with AT_FDCWD) into name (IOL_PATH_MAX bytes). @return its length, or -1. */
int iol_posix_path_name(int dirfd, const char *path, char *name);

/* Where the STDIO module tells fileno() which record a stream belongs to:
 * the stream's record name, or NULL. NULL until a STDIO module sets it. */
extern const char *(*iol_posix_stream_name)(FILE *stream);

/* The record in pool (POSIX, STDIO or MPI-IO) named by path (relative to
 * dirfd, or to the current directory with AT_FDCWD), created if new. An
 * absolute path equal to a record's name is found without cleaning it.
 * @return the slot, or NULL if pool is NULL or the record is not kept. */
struct iol_slot *iol_path_record(struct iol_pool *pool, int dirfd, const char *path);

/* The record named by path (relative to dirfd, or to the current directory
 * with AT_FDCWD), created if new. @return the slot, or NULL if not kept. */
struct iol_slot *iol_posix_path_record(int dirfd, const char *path);

/* A successful open of the record s returned fd (flags: the open flags;
 * mode: the permission bits given, or 0). Counts an open, resets the access
 * pattern, maps fd (with O_APPEND, writes are then placed at end of file,
 * which is looked up once here). */
void iol_posix_note_open(int fd, struct iol_slot *s, int flags, int mode, double t0,
                         double t1);

/* newfd is another descriptor of oldfd's file (dup) or of a stream's file
 * (fileno): counts an open and the kind, maps newfd. */
void iol_posix_note_refopen(struct iol_ofd *o, enum posix_ref_kind kind, double t0, double t1);

/* A stat-family call on the record s succeeded on a regular file. */
void iol_posix_note_stat(struct iol_slot *s, double t0, double t1);

/* A read (is_write 0) or write of n >= 0 bytes at offset >= 0 of the record
 * s, from t0 to t1, that moves no descriptor's offset (POSIX aio). */
void iol_posix_note_rw_at(struct iol_slot *s, int is_write, int64_t offset, int64_t n,
                          int aligned, double t0, double t1);

/* Is buf aligned to the configured memory alignment? */
int iol_posix_mem_aligned(const void *buf);

/* The record of the description o: for a descriptor inherited through fork
 * and not used yet, it is created now. @return it, or NULL (not kept). */
struct iol_slot *iol_posix_ofd_slot(struct iol_ofd *o);

/* The record of the description o: one load, except the first time for a
 * descriptor inherited through fork. @return it, or NULL (not kept). */
static inline struct iol_slot *iol_posix_ofd_record(struct iol_ofd *o)
{
    struct iol_slot *s = atomic_load_explicit(&o->slot, memory_order_acquire);
    return s ? s : iol_posix_ofd_slot(o);
}

/* The description of fd and its record. @return the record, or NULL if fd is
 * not tracked (then *o may still be set). */
static inline struct iol_slot *iol_posix_fd(int fd, struct iol_ofd **o)
{
    *o = iol_fd_get(fd);
    return *o ? iol_posix_ofd_record(*o) : NULL;
}

/* o is a new description of fd, which the C library has used already (a
 * stream's descriptor that fileno hands out): take its offset and O_APPEND
 * from the kernel (two system calls, once per stream). */
void iol_posix_fd_sync(struct iol_ofd *o, int fd);

/* The POSIX pool (for the metadata wrappers): set by the module's start. */
extern struct iol_pool *iol_posix_pool_of_module;

static inline struct iol_pool *iol_posix_pool(void)
{
    return iol_posix_pool_of_module;
}

/* The flush event of record s (fsync, fdatasync), under its lock. */
void iol_posix_event_flush(struct iol_slot *s, double t0, double t1);

/* What a read or write note does beyond the counters, one bit each: 0 unless
 * DXT_POSIX, POSIX events or CALLSITES are on, so that the read/write path pays one
 * test whatever else there is. Hidden: the test is one compare with the
 * variable's address in the instruction. The DXT and events modules set
 * their bits with iol_flag_set as they are switched on and off. */
enum { IOL_POSIX_RW_DXT = 1, IOL_POSIX_RW_EVENTS = 2, IOL_POSIX_RW_CALLSITES = 4 };
extern unsigned char iol_posix_rw_extra __attribute__((visibility("hidden")));


#endif
