/* STDIO module: opening, closing, flushing and positioning streams (fopen,
 * fdopen, freopen, fclose, fflush, fseek, rewind, fsetpos, ftell, fgetpos
 * and their 64-bit and _unlocked forms). Same wrapper shape as posix.c.
 *
 * The C library opens and closes a stream's descriptor internally, past the
 * POSIX wrappers: fclose and freopen therefore tell the POSIX module that
 * the stream's descriptor is gone (else a later descriptor with the same
 * number would be charged to the old file), and a new stream's descriptor
 * drops whatever the POSIX module still knew under that number. */
#include "stdio_mod.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>

#include "posix/fdtab.h"
#include "core/paths.h"
#include "posix/posix.h"

static FILE *(*real_fopen)(const char *, const char *);
static FILE *(*real_fopen64)(const char *, const char *);
static FILE *(*real_fdopen)(int, const char *);
static FILE *(*real_freopen)(const char *, const char *, FILE *);
static FILE *(*real_freopen64)(const char *, const char *, FILE *);
static int (*real_fclose)(FILE *);
static int (*real_fcloseall)(void);
static int (*real_fflush)(FILE *);
static int (*real_fflush_unlocked)(FILE *);
static int (*real_fseek)(FILE *, long, int);
static int (*real_fseeko)(FILE *, off_t, int);
static int (*real_fseeko64)(FILE *, off64_t, int);
static void (*real_rewind)(FILE *);
static int (*real_fsetpos)(FILE *, const fpos_t *);
static int (*real_fsetpos64)(FILE *, const fpos64_t *);
static long (*real_ftell)(FILE *);
static off_t (*real_ftello)(FILE *);
static off64_t (*real_ftello64)(FILE *);
static int (*real_fgetpos)(FILE *, fpos_t *);
static int (*real_fgetpos64)(FILE *, fpos64_t *);

int64_t stdio_tell(FILE *f)
{
    int err = errno;
    off64_t pos = real_ftello64 ? real_ftello64(f) : -1;
    errno = err;
    return pos;
}

/* The descriptor of a real file stream (-1 for a memory stream). */
static int stream_fd(FILE *f)
{
    return f ? iol_stdio_fd_of(f) : -1;
}

/* ---- updates ---- */

/* Where a stream opened with mode starts, and whether it appends: "a" starts
 * at the end of file, "a+" reads from the start and writes at the end. The
 * C library takes r, w or a from the mode's first character only. */
static void mode_position(const char *mode, int fd, int64_t at, int64_t *pos, int *append,
                          int64_t *end)
{
    *append = mode && mode[0] == 'a';
    *pos = at;
    *end = 0;
    if (*append) {
        int err = errno; /* called after the real open: errno is its */
        int64_t size = iol_sys_file_size(fd);
        errno = err;
        *end = size > 0 ? size : 0;
        if (!strchr(mode, '+'))
            *pos = *end;
    }
}

/* fopen, fopen64, freopen with a path. errno stays the real call's: the
 * only system calls here (naming a path, the size of a file opened to append)
 * keep it, and so does making a record. */
static void stdio_note_path_open(FILE *ret, const char *path, const char *mode, double t0,
                                 double t1)
{
    iol_stdio_note_call();
    int64_t pos, end;
    int append;

    if (!ret)
        return;
    int fd = stream_fd(ret);
    iol_fd_close(fd); /* a new descriptor: nothing the POSIX module knew of it holds */
    mode_position(mode, fd, 0, &pos, &append, &end);
    stdio_note_open(ret, stdio_path_record(path), pos, append, end, STDIO_OPEN_PATH, t0, t1);
}

/* fdopen: the stream belongs to the POSIX record of fd and starts where the
 * descriptor is (without a POSIX record, the stream is not recorded). */
static void stdio_note_fdopen(FILE *ret, int fd, const char *mode, double t0, double t1)
{
    iol_stdio_note_call();
    struct iol_ofd *o = NULL;
    int err = errno;
    int64_t pos, end;
    int append;

    if (!ret)
        goto out;
    struct iol_slot *ps = iol_posix_fd(fd, &o);
    mode_position(mode, fd, o ? o->pos : 0, &pos, &append, &end);
    if (o && o->append) {
        append = 1;
        end = o->end;
    }
    stdio_note_open(ret, stdio_record(ps ? iol_record_name(ps) : NULL), pos, append, end,
                    STDIO_OPEN_FD, t0, t1);
out:
    errno = err;
}

/* freopen: the old stream is gone (its descriptor closed inside the C
 * library); a path opens a new record, no path reopens the same file. */
static void stdio_note_reopen(FILE *ret, const char *path, const char *mode,
                              const char *old_name, double t0, double t1)
{
    int err = errno;
    int64_t pos, end;
    int append;

    if (!ret)
        goto out;
    if (path) {
        stdio_note_path_open(ret, path, mode, t0, t1);
        goto out;
    }
    int fd = stream_fd(ret);
    iol_fd_close(fd);
    mode_position(mode, fd, 0, &pos, &append, &end);
    stdio_note_open(ret, stdio_record(old_name), pos, append, end, STDIO_OPEN_UNCOUNTED, t0,
                    t1);
out:
    errno = err;
}

/* ---- wrappers: open ---- */

IOL_EXPORT FILE *fopen(const char *path, const char *mode)
{
    if (!iol_active())
        return real_fopen(path, mode);
    double t0 = iol_now();
    FILE *ret = real_fopen(path, mode);
    double t1 = iol_now();
    stdio_note_path_open(ret, path, mode, t0, t1);
    return ret;
}

IOL_EXPORT FILE *fopen64(const char *path, const char *mode)
{
    if (!iol_active())
        return real_fopen64(path, mode);
    double t0 = iol_now();
    FILE *ret = real_fopen64(path, mode);
    double t1 = iol_now();
    stdio_note_path_open(ret, path, mode, t0, t1);
    return ret;
}

IOL_EXPORT FILE *fdopen(int fd, const char *mode)
{
    if (!iol_active())
        return real_fdopen(fd, mode);
    double t0 = iol_now();
    FILE *ret = real_fdopen(fd, mode);
    double t1 = iol_now();
    stdio_note_fdopen(ret, fd, mode, t0, t1);
    return ret;
}

/* The old stream's entry and descriptor are dropped before the call: the
 * descriptor number may be handed out again as soon as it is closed. */
static const char *forget_stream(FILE *f)
{
    struct stdio_stream *s = iol_stdio_stream(f);
    const char *name = s ? atomic_load(&s->name) : NULL;
    if (s)
        stdio_forget(s);
    iol_fd_close(stream_fd(f));
    return name;
}

IOL_EXPORT FILE *freopen(const char *path, const char *mode, FILE *stream)
{
    if (!iol_active() || !stream)
        return real_freopen(path, mode, stream);
    const char *old = forget_stream(stream);
    double t0 = iol_now();
    FILE *ret = real_freopen(path, mode, stream);
    double t1 = iol_now();
    stdio_note_reopen(ret, path, mode, old, t0, t1);
    return ret;
}

IOL_EXPORT FILE *freopen64(const char *path, const char *mode, FILE *stream)
{
    if (!iol_active() || !stream)
        return real_freopen64(path, mode, stream);
    const char *old = forget_stream(stream);
    double t0 = iol_now();
    FILE *ret = real_freopen64(path, mode, stream);
    double t1 = iol_now();
    stdio_note_reopen(ret, path, mode, old, t0, t1);
    return ret;
}

/* ---- wrappers: close ---- */

IOL_EXPORT int fclose(FILE *f)
{
    struct stdio_stream *s;
    if (!iol_active() || !f)
        return real_fclose(f);
    iol_fd_close(stream_fd(f));
    if (!(s = iol_stdio_stream(f)))
        return real_fclose(f);
    struct iol_slot *slot = stdio_forget(s);
    double t0 = iol_now();
    int ret = real_fclose(f);
    double t1 = iol_now();
    stdio_note_close(slot, t0, t1); /* no system call: errno stays the real call's */
    return ret;
}

/* fcloseall closes every stream: forget them all (nothing is counted, as
 * for the streams the C library closes at exit). */
IOL_EXPORT int fcloseall(void)
{
    if (iol_active()) {
        iol_stdio_note_call();
        uint32_t high = atomic_load(&iol_stdio_tab.high);
        for (uint32_t fd = 0; fd < high; fd++) {
            struct stdio_stream *e = &iol_stdio_tab.e[fd];
            if (atomic_exchange(&e->file, NULL))
                iol_fd_close((int)fd);
        }
    }
    return real_fcloseall();
}

/* ---- wrappers: flush ---- */

IOL_EXPORT int fflush(FILE *f)
{
    struct stdio_stream *s;
    if (!iol_active() || !(s = iol_stdio_stream(f)))
        return real_fflush(f);
    double t0 = iol_now();
    int ret = real_fflush(f);
    double t1 = iol_now();
    int err = errno;
    if (ret == 0)
        stdio_note_flush(s, t0, t1);
    errno = err;
    return ret;
}

IOL_EXPORT int fflush_unlocked(FILE *f)
{
    struct stdio_stream *s;
    if (!iol_active() || !(s = iol_stdio_stream(f)))
        return real_fflush_unlocked(f);
    double t0 = iol_now();
    int ret = real_fflush_unlocked(f);
    double t1 = iol_now();
    int err = errno;
    if (ret == 0)
        stdio_note_flush(s, t0, t1);
    errno = err;
    return ret;
}

/* ---- wrappers: seek ---- */

/* A successful seek: SEEK_SET says where, else the C library does. */
static void stdio_note_fseek(struct stdio_stream *s, FILE *f, int ret, int64_t off, int whence,
                             double t0, double t1)
{
    int err = errno;
    if (ret == 0)
        stdio_note_seek(s, whence == SEEK_SET ? off : stdio_tell(f), t0, t1);
    errno = err;
}

IOL_EXPORT int fseek(FILE *f, long off, int whence)
{
    struct stdio_stream *s;
    if (!iol_active() || !(s = iol_stdio_stream(f)))
        return real_fseek(f, off, whence);
    double t0 = iol_now();
    int ret = real_fseek(f, off, whence);
    double t1 = iol_now();
    stdio_note_fseek(s, f, ret, off, whence, t0, t1);
    return ret;
}

IOL_EXPORT int fseeko(FILE *f, off_t off, int whence)
{
    struct stdio_stream *s;
    if (!iol_active() || !(s = iol_stdio_stream(f)))
        return real_fseeko(f, off, whence);
    double t0 = iol_now();
    int ret = real_fseeko(f, off, whence);
    double t1 = iol_now();
    stdio_note_fseek(s, f, ret, off, whence, t0, t1);
    return ret;
}

IOL_EXPORT int fseeko64(FILE *f, off64_t off, int whence)
{
    struct stdio_stream *s;
    if (!iol_active() || !(s = iol_stdio_stream(f)))
        return real_fseeko64(f, off, whence);
    double t0 = iol_now();
    int ret = real_fseeko64(f, off, whence);
    double t1 = iol_now();
    stdio_note_fseek(s, f, ret, off, whence, t0, t1);
    return ret;
}

IOL_EXPORT void rewind(FILE *f)
{
    struct stdio_stream *s;
    if (!iol_active() || !(s = iol_stdio_stream(f))) {
        real_rewind(f);
        return;
    }
    double t0 = iol_now();
    real_rewind(f);
    double t1 = iol_now();
    int err = errno;
    stdio_note_seek(s, 0, t0, t1);
    errno = err;
}

IOL_EXPORT int fsetpos(FILE *f, const fpos_t *pos)
{
    struct stdio_stream *s;
    if (!iol_active() || !(s = iol_stdio_stream(f)))
        return real_fsetpos(f, pos);
    double t0 = iol_now();
    int ret = real_fsetpos(f, pos);
    double t1 = iol_now();
    stdio_note_fseek(s, f, ret, 0, SEEK_CUR, t0, t1);
    return ret;
}

IOL_EXPORT int fsetpos64(FILE *f, const fpos64_t *pos)
{
    struct stdio_stream *s;
    if (!iol_active() || !(s = iol_stdio_stream(f)))
        return real_fsetpos64(f, pos);
    double t0 = iol_now();
    int ret = real_fsetpos64(f, pos);
    double t1 = iol_now();
    stdio_note_fseek(s, f, ret, 0, SEEK_CUR, t0, t1);
    return ret;
}

/* ---- wrappers: where the stream is (counted nowhere, but they tell the
 * module the stream's real position) ---- */

IOL_EXPORT long ftell(FILE *f)
{
    struct stdio_stream *s;
    if (!iol_active() || !(s = iol_stdio_stream(f)))
        return real_ftell(f);
    long ret = real_ftell(f);
    if (ret >= 0)
        stdio_note_pos(s, ret);
    return ret;
}

IOL_EXPORT off_t ftello(FILE *f)
{
    struct stdio_stream *s;
    if (!iol_active() || !(s = iol_stdio_stream(f)))
        return real_ftello(f);
    off_t ret = real_ftello(f);
    if (ret >= 0)
        stdio_note_pos(s, ret);
    return ret;
}

IOL_EXPORT off64_t ftello64(FILE *f)
{
    struct stdio_stream *s;
    if (!iol_active() || !(s = iol_stdio_stream(f)))
        return real_ftello64(f);
    off64_t ret = real_ftello64(f);
    if (ret >= 0)
        stdio_note_pos(s, ret);
    return ret;
}

IOL_EXPORT int fgetpos(FILE *f, fpos_t *pos)
{
    struct stdio_stream *s;
    if (!iol_active() || !(s = iol_stdio_stream(f)))
        return real_fgetpos(f, pos);
    int ret = real_fgetpos(f, pos);
#ifdef __GLIBC__
    if (ret == 0)
        stdio_note_pos(s, pos->__pos);
#endif
    return ret;
}

IOL_EXPORT int fgetpos64(FILE *f, fpos64_t *pos)
{
    struct stdio_stream *s;
    if (!iol_active() || !(s = iol_stdio_stream(f)))
        return real_fgetpos64(f, pos);
    int ret = real_fgetpos64(f, pos);
#ifdef __GLIBC__
    if (ret == 0)
        stdio_note_pos(s, pos->__pos);
#endif
    return ret;
}

static const struct iol_binding bindings[] = {
    {"fopen", (void *)fopen, (void **)&real_fopen},
    {"fopen64", (void *)fopen64, (void **)&real_fopen64},
    {"fdopen", (void *)fdopen, (void **)&real_fdopen},
    {"freopen", (void *)freopen, (void **)&real_freopen},
    {"freopen64", (void *)freopen64, (void **)&real_freopen64},
    {"fclose", (void *)fclose, (void **)&real_fclose},
    {"fcloseall", (void *)fcloseall, (void **)&real_fcloseall},
    {"fflush", (void *)fflush, (void **)&real_fflush},
    {"fflush_unlocked", (void *)fflush_unlocked, (void **)&real_fflush_unlocked},
    {"fseek", (void *)fseek, (void **)&real_fseek},
    {"fseeko", (void *)fseeko, (void **)&real_fseeko},
    {"fseeko64", (void *)fseeko64, (void **)&real_fseeko64},
    {"rewind", (void *)rewind, (void **)&real_rewind},
    {"fsetpos", (void *)fsetpos, (void **)&real_fsetpos},
    {"fsetpos64", (void *)fsetpos64, (void **)&real_fsetpos64},
    {"ftell", (void *)ftell, (void **)&real_ftell},
    {"ftello", (void *)ftello, (void **)&real_ftello},
    {"ftello64", (void *)ftello64, (void **)&real_ftello64},
    {"fgetpos", (void *)fgetpos, (void **)&real_fgetpos},
    {"fgetpos64", (void *)fgetpos64, (void **)&real_fgetpos64},
};

const struct iol_binding_table iol_stdio_open_bindings = {
    bindings, sizeof(bindings) / sizeof(bindings[0]),
};
