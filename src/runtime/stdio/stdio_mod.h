/* The STDIO module: Darshan's STDIO v2 record per file opened as a stream,
 * plus "<STDIN>", "<STDOUT>" and "<STDERR>". stdio.c holds the stream table
 * and the counter updates; stdio_open.c the open, close and positioning
 * wrappers; stdio_rw.c the block, character and line wrappers; stdio_fmt.c
 * the printf and scanf families. The counters mean what
 * darshan-runtime/lib/darshan-stdio.c makes them mean; deliberate
 * differences are listed in docs/runtime.md.
 *
 * (Named stdio_mod.h so that it can never be taken for <stdio.h>.) */
#ifndef IOL_RT_STDIO_MOD_H
#define IOL_RT_STDIO_MOD_H

/* First, before <stdio.h>: the module defines getchar, putc_unlocked,
 * vprintf and the others glibc's header also defines inline when
 * optimizing; with those in front, clang refuses the module's exported
 * definitions (gcc takes them). */
#include <features.h>
#undef __USE_EXTERN_INLINES

#include <stdatomic.h>
#include <stdint.h>

#include "core/core.h"
#include "iolens/modules/stdio.h"

extern const struct iol_module iol_stdio_module;

/* What a read or write note does beyond the counters, one bit each: 0 unless
 * DXT_STDIO, STDIO events or CALLSITES are on (one test on the path, as posix.h's
 * iol_posix_rw_extra). */
enum { IOL_STDIO_RW_DXT = 1, IOL_STDIO_RW_EVENTS = 2, IOL_STDIO_RW_CALLSITES = 4 };
extern unsigned char iol_stdio_rw_extra __attribute__((visibility("hidden")));


/* The binding tables of stdio_open.c, stdio_rw.c and stdio_fmt.c. */
extern const struct iol_binding_table iol_stdio_open_bindings;
extern const struct iol_binding_table iol_stdio_rw_bindings;
extern const struct iol_binding_table iol_stdio_fmt_bindings;

/* A stream the module tracks. Streams are found through their descriptor:
 * the table has one entry per descriptor number, and an entry belongs to
 * the stream whose FILE pointer it holds (a lookup compares it), so a stream
 * the module never saw opening is never mistaken for a tracked one. */
struct stdio_stream {
    _Alignas(64) _Atomic(FILE *) file; /* the stream; NULL: entry free (one cache
                                        * line per entry: pos changes per call) */
    _Atomic(struct iol_slot *) slot; /* its record; NULL until first use after a
                                      * fork or a restart (see pending_id) */
    _Atomic(const char *) name;      /* the record's name (it may point into
                                      * the record file of the parent process) */
    _Atomic uint64_t pending_id;     /* record to create at first use, or 0 */
    _Atomic uint64_t maker;          /* owner lock of the thread creating it */
    _Atomic uint64_t unlisted_id;    /* a standard stream's record id, kept out
                                      * of the log until it reads or writes */
    int64_t pos;                     /* where the next read (or write) happens;
                                      * changed under the record's lock */
    int64_t end;                     /* append streams: where writes land */
    int append;                      /* writes go to the end of file */
    int is_std;                      /* stdin, stdout or stderr as such */
    uint32_t std_res;                /* is_std: its kept slot (iol_record_reserve) */
    FILE *std_waiting;               /* is_std: the stream, until published */
};

struct stdio_table {
    struct stdio_stream *e;
    uint32_t size;                   /* descriptor numbers covered */
    _Atomic uint32_t high;           /* 1 + highest number ever used */
};

extern struct stdio_table iol_stdio_tab;

/* The descriptor of a stream as the C library keeps it (no call, no errno):
 * any value is safe, the entry's FILE pointer decides. */
static inline int iol_stdio_fd_of(FILE *f)
{
#ifdef __GLIBC__
    return f->_fileno;
#else
    return -1;
#endif
}

/* The entry of a tracked stream. @return it, or NULL if f is not tracked. */
static inline struct stdio_stream *iol_stdio_lookup(FILE *f)
{
    if (!f)
        return NULL;
    unsigned fd = (unsigned)iol_stdio_fd_of(f);
    if (fd >= iol_stdio_tab.size)
        return NULL;
    struct stdio_stream *s = &iol_stdio_tab.e[fd];
    return atomic_load_explicit(&s->file, memory_order_acquire) == f ? s : NULL;
}

/* The program's first STDIO call (any wrapper, any stream): the standard
 * streams take their places in the pool and their entries are published
 * now. Until then they wait unpublished, so that fileno() of a standard
 * stream names no record, as in Darshan, whose STDIO module starts, and
 * knows the standard streams, at its first call: a program that only asks
 * isatty(fileno(stdout)) has no <STDOUT>. A lookup that misses before it is
 * how a standard stream's first call gets here, so the calls on tracked
 * streams pay nothing for this. */
void iol_stdio_first_call(void);

extern _Atomic int iol_stdio_called; /* 1 after iol_stdio_first_call */

static inline void iol_stdio_note_call(void)
{
    if (!atomic_load_explicit(&iol_stdio_called, memory_order_relaxed))
        iol_stdio_first_call();
}

/* What a wrapper's call on f finds (iol_stdio_lookup, noting the call). */
static inline struct stdio_stream *iol_stdio_stream(FILE *f)
{
    struct stdio_stream *s = iol_stdio_lookup(f);
    if (__builtin_expect(!s, 0) && !atomic_load_explicit(&iol_stdio_called, memory_order_relaxed)) {
        iol_stdio_first_call();
        s = iol_stdio_lookup(f);
    }
    return s;
}

/* ---- updates (stdio.c); every t0/t1 pair is iol_now() around the call ---- */

/* How an open is counted. */
enum stdio_open_kind {
    STDIO_OPEN_UNCOUNTED, /* freopen without a path: same file, nothing counted */
    STDIO_OPEN_PATH,      /* fopen, freopen: STDIO_OPENS */
    STDIO_OPEN_FD,        /* fdopen: STDIO_OPENS and STDIO_FDOPENS */
};

/* The STDIO record named name, created if new. @return the slot, or NULL
 * (name NULL, or the record not kept). */
struct iol_slot *stdio_record(const char *name);

/* The STDIO record of a path as given to fopen. @return as stdio_record. */
struct iol_slot *stdio_path_record(const char *path);

/* A stream f was opened on the record slot (NULL: not recorded; any stale
 * entry of f's descriptor is dropped). pos is where it starts, append
 * whether its writes go to the end (end: the end of file then). */
void stdio_note_open(FILE *f, struct iol_slot *slot, int64_t pos, int append, int64_t end,
                     enum stdio_open_kind kind, double t0, double t1);

/* s is about to be closed: its entry is freed. @return its record (NULL if
 * none), for stdio_note_close after the real call. */
struct iol_slot *stdio_forget(struct stdio_stream *s);

/* The stream of record slot was closed. */
void stdio_note_close(struct iol_slot *slot, double t0, double t1);

/* bytes (> 0 to count) were read or written at the stream's position.
 * errno is left alone (see iol_record_get): the wrappers do not save it. */
void stdio_note_read(struct stdio_stream *s, int64_t bytes, double t0, double t1);
void stdio_note_write(struct stdio_stream *s, int64_t bytes, double t0, double t1);

/* A scanf-family call returned ret; the stream was at p0 before and p1
 * after (-1: unknown, e.g. a pipe). The bytes it consumed are a read; when
 * they cannot be known, a call that converted something counts as a read of
 * 0 bytes (as Darshan counts it). */
void stdio_note_scan(struct stdio_stream *s, int ret, int64_t p0, int64_t p1, double t0,
                     double t1);

/* A successful fflush. */
void stdio_note_flush(struct stdio_stream *s, double t0, double t1);

/* A successful seek (fseek, fseeko, fsetpos, rewind) to pos. */
void stdio_note_seek(struct stdio_stream *s, int64_t pos, double t0, double t1);

/* The stream's position is known to be pos (ftell, fgetpos): nothing is
 * counted. ungetc: the position moves back one byte. */
void stdio_note_pos(struct stdio_stream *s, int64_t pos);
void stdio_note_unget(struct stdio_stream *s);

/* The stream's position, from the C library (ftello without our wrapper).
 * @return it, or -1 (errno unchanged). */
int64_t stdio_tell(FILE *f);

#endif
