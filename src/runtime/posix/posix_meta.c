/* POSIX module, metadata calls: the stat family (every entry point libc
 * has, including the __xstat forms of glibc < 2.33 and statx), fsync and
 * fdatasync, mmap, dup, dup2, dup3 and fcntl(F_DUPFD), fileno, rename and
 * the mkstemp family. Same wrapper shape as posix.c. */
#include "posix.h"

#include "callsites/callsites.h"
#include "events/events.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/hash.h"
#include "core/counting.h"
#include "core/paths.h"

/* Declared here: the __xstat forms left glibc's headers in 2.33. (rename and
 * fileno come from stdio.h, which iolens/module.h includes for its FILE type;
 * the runtime itself never does stdio.) */
int __xstat(int ver, const char *path, struct stat *buf);
int __xstat64(int ver, const char *path, struct stat64 *buf);
int __lxstat(int ver, const char *path, struct stat *buf);
int __lxstat64(int ver, const char *path, struct stat64 *buf);
int __fxstat(int ver, int fd, struct stat *buf);
int __fxstat64(int ver, int fd, struct stat64 *buf);
int __fxstatat(int ver, int dirfd, const char *path, struct stat *buf, int flags);
int __fxstatat64(int ver, int dirfd, const char *path, struct stat64 *buf, int flags);
int mkstemp64(char *tmpl);
int mkostemp64(char *tmpl, int flags);
int mkstemps64(char *tmpl, int suffixlen);
int mkostemps64(char *tmpl, int suffixlen, int flags);

const char *(*iol_posix_stream_name)(FILE *stream);

static int (*real_stat)(const char *, struct stat *);
static int (*real_stat64)(const char *, struct stat64 *);
static int (*real_lstat)(const char *, struct stat *);
static int (*real_lstat64)(const char *, struct stat64 *);
static int (*real_fstat)(int, struct stat *);
static int (*real_fstat64)(int, struct stat64 *);
static int (*real_fstatat)(int, const char *, struct stat *, int);
static int (*real_fstatat64)(int, const char *, struct stat64 *, int);
static int (*real_statx)(int, const char *, int, unsigned int, struct statx *);
static int (*real_xstat)(int, const char *, struct stat *);
static int (*real_xstat64)(int, const char *, struct stat64 *);
static int (*real_lxstat)(int, const char *, struct stat *);
static int (*real_lxstat64)(int, const char *, struct stat64 *);
static int (*real_fxstat)(int, int, struct stat *);
static int (*real_fxstat64)(int, int, struct stat64 *);
static int (*real_fxstatat)(int, int, const char *, struct stat *, int);
static int (*real_fxstatat64)(int, int, const char *, struct stat64 *, int);
static int (*real_fsync)(int);
static int (*real_fdatasync)(int);
static void *(*real_mmap)(void *, size_t, int, int, int, off_t);
static void *(*real_mmap64)(void *, size_t, int, int, int, off64_t);
static int (*real_dup)(int);
static int (*real_dup2)(int, int);
static int (*real_dup3)(int, int, int);
static int (*real_fcntl)(int, int, ...);
static int (*real_fcntl64)(int, int, ...);
static int (*real_fileno)(FILE *);
static int (*real_rename)(const char *, const char *);
static int (*real_renameat)(int, const char *, int, const char *);
static int (*real_renameat2)(int, const char *, int, const char *, unsigned int);
static int (*real_mkstemp)(char *);
static int (*real_mkstemp64)(char *);
static int (*real_mkostemp)(char *, int);
static int (*real_mkostemp64)(char *, int);
static int (*real_mkstemps)(char *, int);
static int (*real_mkstemps64)(char *, int);
static int (*real_mkostemps)(char *, int, int);
static int (*real_mkostemps64)(char *, int, int);

static int missing(void)
{
    errno = ENOSYS;
    return -1;
}

/* ---- updates ---- */

/* A stat-family call on a path: counted when it succeeded on a regular file.
 * errno stays the real call's (naming the path and making a record keep it). */
static void posix_note_path_stat(int ret, mode_t mode, int dirfd, const char *path, double t0,
                                 double t1)
{
    if (ret == 0 && S_ISREG(mode))
        iol_posix_note_stat(iol_posix_path_record(dirfd, path), t0, t1);
}

/* The same on a descriptor: counted when we track it. */
static void posix_note_fd_stat(int ret, mode_t mode, int fd, double t0, double t1)
{
    struct iol_ofd *o;
    if (ret == 0 && S_ISREG(mode))
        iol_posix_note_stat(iol_posix_fd(fd, &o), t0, t1);
}

/* fstatat and friends: an empty path with AT_EMPTY_PATH means the descriptor. */
static void posix_note_at_stat(int ret, mode_t mode, int dirfd, const char *path, int flags,
                               double t0, double t1)
{
    if ((flags & AT_EMPTY_PATH) && path && !path[0])
        posix_note_fd_stat(ret, mode, dirfd, t0, t1);
    else
        posix_note_path_stat(ret, mode, dirfd, path, t0, t1);
}

static void posix_note_sync(int ret, int fd, int counter, double t0, double t1)
{
    struct iol_ofd *o;
    struct iol_slot *s = ret == 0 ? iol_posix_fd(fd, &o) : NULL;
    if (s)
        iol_callsites_call(IOLENS_MOD_POSIX, IOLENS_CALLSITES_FLUSH, t0, t1);
    if (!s || iol_slot_lock(s) != 0)
        return;
    struct posix_hot *h = iol_slot_hot(s);
    struct iolens_posix_record *r = iol_slot_rec(s);
    r->counters[counter]++;
    /* Darshan counts syncs as write time. */
    double *timer = &r->fcounters[POSIX_F_WRITE_TIME];
    *timer += (t0 > h->last_write_end) ? t1 - t0 : t1 - h->last_write_end;
    if (t1 > h->last_write_end)
        h->last_write_end = t1;
    if (iol_events_mask & IOL_EV_POSIX)
        iol_posix_event_flush(s, t0, t1);
    iol_slot_unlock(s);
}

static void posix_note_mmap(void *ret, int fd)
{
    struct iol_ofd *o;
    struct iol_slot *s = ret != MAP_FAILED ? iol_posix_fd(fd, &o) : NULL;
    if (!s || iol_slot_lock(s) != 0)
        return;
    ((struct iolens_posix_record *)iol_slot_rec(s))->counters[POSIX_MMAPS]++;
    iol_slot_unlock(s);
}

static void posix_note_dup(int ret, int oldfd, double t0, double t1)
{
    int err = errno;
    if (ret >= 0)
        iol_posix_note_refopen(iol_fd_dup(oldfd, ret), POSIX_REF_DUP, t0, t1);
    errno = err;
}

static void posix_note_rename(int ret, int olddir, const char *oldpath, int newdir,
                              const char *newpath, double t0, double t1)
{
    char oldname[IOL_PATH_MAX], newname[IOL_PATH_MAX];
    struct iol_pool *pool = iol_posix_pool();
    int err = errno;
    int ol, nl;

    if (ret != 0 || !pool || (ol = iol_posix_path_name(olddir, oldpath, oldname)) < 0)
        goto out;
    /* A call site of any rename of a file the module would record: the line
     * did I/O even when the file was opened only through another module. */
    if (__builtin_expect(iol_callsites_on, 0) &&
        !iol_config_name_excluded(&iol_rt.cfg, IOLENS_MOD_POSIX, 1, oldname))
        iol_callsites_note(IOLENS_MOD_POSIX, IOLENS_CALLSITES_META, 0, t0, t1,
                           __builtin_return_address(0));
    uint64_t old_id = iol_hash64(oldname, (size_t)ol, 0);
    struct iol_slot *from = iol_record_find(pool, old_id);
    if (!from || iol_slot_lock(from) != 0)
        goto out; /* as Darshan: only renames of files it knows */
    struct posix_hot *h = iol_slot_hot(from);
    struct iolens_posix_record *r = iol_slot_rec(from);
    r->counters[POSIX_RENAME_SOURCES]++;
    iol_add_time(&r->fcounters[POSIX_F_META_TIME], t0, t1, &h->last_meta_end);
    iol_slot_unlock(from);
    if ((nl = iol_posix_path_name(newdir, newpath, newname)) < 0)
        goto out;
    struct iol_slot *to = iol_record_of_name(pool, newname, (size_t)nl);
    if (to && iol_slot_lock(to) == 0) {
        r = iol_slot_rec(to);
        r->counters[POSIX_RENAME_TARGETS]++;
        if (r->counters[POSIX_RENAMED_FROM] == 0)
            r->counters[POSIX_RENAMED_FROM] = (int64_t)old_id;
        iol_slot_unlock(to);
    }
out:
    errno = err;
}

static void posix_note_fileno(int ret, FILE *stream, double t0, double t1)
{
    const char *(*lookup)(FILE *) = iol_posix_stream_name;
    const char *name = (ret >= 0 && lookup) ? lookup(stream) : NULL;
    struct iol_pool *pool = iol_posix_pool();
    int err = errno;
    if (!name || !pool)
        goto out;
    struct iol_slot *s = iol_record_of_name(pool, name, strlen(name));
    struct iol_ofd *o = NULL;
    if (s && iol_posix_fd(ret, &o) != s && (o = iol_fd_open(ret, s)))
        iol_posix_fd_sync(o, ret); /* the stream has moved the descriptor's offset */
    iol_posix_note_refopen(o, POSIX_REF_FILENO, t0, t1);
out:
    errno = err;
}

static void posix_note_mkstemp(int ret, char *tmpl, int flags, double t0, double t1)
{
    int err = errno;
    if (ret >= 0)
        iol_posix_note_open(ret, iol_posix_path_record(AT_FDCWD, tmpl), flags, 0, t0, t1);
    errno = err;
}

/* ---- wrappers: stat family ---- */

IOL_EXPORT int stat(const char *path, struct stat *buf)
{
    if (!iol_active())
        return real_stat(path, buf);
    double t0 = iol_now();
    int ret = real_stat(path, buf);
    double t1 = iol_now();
    posix_note_path_stat(ret, ret == 0 ? buf->st_mode : 0, AT_FDCWD, path, t0, t1);
    return ret;
}

IOL_EXPORT int stat64(const char *path, struct stat64 *buf)
{
    if (!iol_active())
        return real_stat64(path, buf);
    double t0 = iol_now();
    int ret = real_stat64(path, buf);
    double t1 = iol_now();
    posix_note_path_stat(ret, ret == 0 ? buf->st_mode : 0, AT_FDCWD, path, t0, t1);
    return ret;
}

IOL_EXPORT int lstat(const char *path, struct stat *buf)
{
    if (!iol_active())
        return real_lstat(path, buf);
    double t0 = iol_now();
    int ret = real_lstat(path, buf);
    double t1 = iol_now();
    posix_note_path_stat(ret, ret == 0 ? buf->st_mode : 0, AT_FDCWD, path, t0, t1);
    return ret;
}

IOL_EXPORT int lstat64(const char *path, struct stat64 *buf)
{
    if (!iol_active())
        return real_lstat64(path, buf);
    double t0 = iol_now();
    int ret = real_lstat64(path, buf);
    double t1 = iol_now();
    posix_note_path_stat(ret, ret == 0 ? buf->st_mode : 0, AT_FDCWD, path, t0, t1);
    return ret;
}

IOL_EXPORT int fstat(int fd, struct stat *buf)
{
    if (!iol_active() || !iol_fd_get(fd))
        return real_fstat(fd, buf);
    double t0 = iol_now();
    int ret = real_fstat(fd, buf);
    double t1 = iol_now();
    posix_note_fd_stat(ret, ret == 0 ? buf->st_mode : 0, fd, t0, t1);
    return ret;
}

IOL_EXPORT int fstat64(int fd, struct stat64 *buf)
{
    if (!iol_active() || !iol_fd_get(fd))
        return real_fstat64(fd, buf);
    double t0 = iol_now();
    int ret = real_fstat64(fd, buf);
    double t1 = iol_now();
    posix_note_fd_stat(ret, ret == 0 ? buf->st_mode : 0, fd, t0, t1);
    return ret;
}

IOL_EXPORT int fstatat(int dirfd, const char *path, struct stat *buf, int flags)
{
    if (!iol_active())
        return real_fstatat(dirfd, path, buf, flags);
    double t0 = iol_now();
    int ret = real_fstatat(dirfd, path, buf, flags);
    double t1 = iol_now();
    posix_note_at_stat(ret, ret == 0 ? buf->st_mode : 0, dirfd, path, flags, t0, t1);
    return ret;
}

IOL_EXPORT int fstatat64(int dirfd, const char *path, struct stat64 *buf, int flags)
{
    if (!iol_active())
        return real_fstatat64(dirfd, path, buf, flags);
    double t0 = iol_now();
    int ret = real_fstatat64(dirfd, path, buf, flags);
    double t1 = iol_now();
    posix_note_at_stat(ret, ret == 0 ? buf->st_mode : 0, dirfd, path, flags, t0, t1);
    return ret;
}

IOL_EXPORT int statx(int dirfd, const char *path, int flags, unsigned int mask,
                     struct statx *buf)
{
    if (!real_statx)
        return missing();
    if (!iol_active())
        return real_statx(dirfd, path, flags, mask, buf);
    double t0 = iol_now();
    int ret = real_statx(dirfd, path, flags, mask, buf);
    double t1 = iol_now();
    mode_t mode = (ret == 0 && (buf->stx_mask & STATX_TYPE)) ? buf->stx_mode : 0;
    posix_note_at_stat(ret, mode, dirfd, path, flags, t0, t1);
    return ret;
}

IOL_EXPORT int __xstat(int ver, const char *path, struct stat *buf)
{
    if (!real_xstat)
        return missing();
    if (!iol_active())
        return real_xstat(ver, path, buf);
    double t0 = iol_now();
    int ret = real_xstat(ver, path, buf);
    double t1 = iol_now();
    posix_note_path_stat(ret, ret == 0 ? buf->st_mode : 0, AT_FDCWD, path, t0, t1);
    return ret;
}

IOL_EXPORT int __xstat64(int ver, const char *path, struct stat64 *buf)
{
    if (!real_xstat64)
        return missing();
    if (!iol_active())
        return real_xstat64(ver, path, buf);
    double t0 = iol_now();
    int ret = real_xstat64(ver, path, buf);
    double t1 = iol_now();
    posix_note_path_stat(ret, ret == 0 ? buf->st_mode : 0, AT_FDCWD, path, t0, t1);
    return ret;
}

IOL_EXPORT int __lxstat(int ver, const char *path, struct stat *buf)
{
    if (!real_lxstat)
        return missing();
    if (!iol_active())
        return real_lxstat(ver, path, buf);
    double t0 = iol_now();
    int ret = real_lxstat(ver, path, buf);
    double t1 = iol_now();
    posix_note_path_stat(ret, ret == 0 ? buf->st_mode : 0, AT_FDCWD, path, t0, t1);
    return ret;
}

IOL_EXPORT int __lxstat64(int ver, const char *path, struct stat64 *buf)
{
    if (!real_lxstat64)
        return missing();
    if (!iol_active())
        return real_lxstat64(ver, path, buf);
    double t0 = iol_now();
    int ret = real_lxstat64(ver, path, buf);
    double t1 = iol_now();
    posix_note_path_stat(ret, ret == 0 ? buf->st_mode : 0, AT_FDCWD, path, t0, t1);
    return ret;
}

IOL_EXPORT int __fxstat(int ver, int fd, struct stat *buf)
{
    if (!real_fxstat)
        return missing();
    if (!iol_active() || !iol_fd_get(fd))
        return real_fxstat(ver, fd, buf);
    double t0 = iol_now();
    int ret = real_fxstat(ver, fd, buf);
    double t1 = iol_now();
    posix_note_fd_stat(ret, ret == 0 ? buf->st_mode : 0, fd, t0, t1);
    return ret;
}

IOL_EXPORT int __fxstat64(int ver, int fd, struct stat64 *buf)
{
    if (!real_fxstat64)
        return missing();
    if (!iol_active() || !iol_fd_get(fd))
        return real_fxstat64(ver, fd, buf);
    double t0 = iol_now();
    int ret = real_fxstat64(ver, fd, buf);
    double t1 = iol_now();
    posix_note_fd_stat(ret, ret == 0 ? buf->st_mode : 0, fd, t0, t1);
    return ret;
}

IOL_EXPORT int __fxstatat(int ver, int dirfd, const char *path, struct stat *buf, int flags)
{
    if (!real_fxstatat)
        return missing();
    if (!iol_active())
        return real_fxstatat(ver, dirfd, path, buf, flags);
    double t0 = iol_now();
    int ret = real_fxstatat(ver, dirfd, path, buf, flags);
    double t1 = iol_now();
    posix_note_at_stat(ret, ret == 0 ? buf->st_mode : 0, dirfd, path, flags, t0, t1);
    return ret;
}

IOL_EXPORT int __fxstatat64(int ver, int dirfd, const char *path, struct stat64 *buf,
                            int flags)
{
    if (!real_fxstatat64)
        return missing();
    if (!iol_active())
        return real_fxstatat64(ver, dirfd, path, buf, flags);
    double t0 = iol_now();
    int ret = real_fxstatat64(ver, dirfd, path, buf, flags);
    double t1 = iol_now();
    posix_note_at_stat(ret, ret == 0 ? buf->st_mode : 0, dirfd, path, flags, t0, t1);
    return ret;
}

/* ---- wrappers: sync, mmap ---- */

IOL_EXPORT int fsync(int fd)
{
    if (!iol_active() || !iol_fd_get(fd))
        return real_fsync(fd);
    double t0 = iol_now();
    int ret = real_fsync(fd);
    double t1 = iol_now();
    int err = errno;
    posix_note_sync(ret, fd, POSIX_FSYNCS, t0, t1);
    errno = err;
    return ret;
}

IOL_EXPORT int fdatasync(int fd)
{
    if (!iol_active() || !iol_fd_get(fd))
        return real_fdatasync(fd);
    double t0 = iol_now();
    int ret = real_fdatasync(fd);
    double t1 = iol_now();
    int err = errno;
    posix_note_sync(ret, fd, POSIX_FDSYNCS, t0, t1);
    errno = err;
    return ret;
}

/* mmap is counted, not timed (the cost is in the page faults that follow). */
IOL_EXPORT void *mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
    if (!iol_active() || (flags & MAP_ANONYMOUS) || !iol_fd_get(fd))
        return real_mmap(addr, len, prot, flags, fd, off);
    void *ret = real_mmap(addr, len, prot, flags, fd, off);
    int err = errno;
    posix_note_mmap(ret, fd);
    errno = err;
    return ret;
}

IOL_EXPORT void *mmap64(void *addr, size_t len, int prot, int flags, int fd, off64_t off)
{
    if (!iol_active() || (flags & MAP_ANONYMOUS) || !iol_fd_get(fd))
        return real_mmap64(addr, len, prot, flags, fd, off);
    void *ret = real_mmap64(addr, len, prot, flags, fd, off);
    int err = errno;
    posix_note_mmap(ret, fd);
    errno = err;
    return ret;
}

/* ---- wrappers: dup, fcntl, fileno ---- */

IOL_EXPORT int dup(int oldfd)
{
    if (!iol_active())
        return real_dup(oldfd);
    double t0 = iol_now();
    int ret = real_dup(oldfd);
    double t1 = iol_now();
    posix_note_dup(ret, oldfd, t0, t1);
    return ret;
}

IOL_EXPORT int dup2(int oldfd, int newfd)
{
    if (!iol_active())
        return real_dup2(oldfd, newfd);
    double t0 = iol_now();
    int ret = real_dup2(oldfd, newfd);
    double t1 = iol_now();
    posix_note_dup(ret, oldfd, t0, t1);
    return ret;
}

IOL_EXPORT int dup3(int oldfd, int newfd, int flags)
{
    if (!iol_active())
        return real_dup3(oldfd, newfd, flags);
    double t0 = iol_now();
    int ret = real_dup3(oldfd, newfd, flags);
    double t1 = iol_now();
    posix_note_dup(ret, oldfd, t0, t1);
    return ret;
}

/* The third argument is passed on as libc itself reads it (a pointer-sized
 * value); only F_DUPFD and F_DUPFD_CLOEXEC are counted, as dups. */
IOL_EXPORT int fcntl(int fd, int cmd, ...)
{
    va_list ap;
    va_start(ap, cmd);
    void *arg = va_arg(ap, void *);
    va_end(ap);
    if (!iol_active() || (cmd != F_DUPFD && cmd != F_DUPFD_CLOEXEC))
        return real_fcntl(fd, cmd, arg);
    double t0 = iol_now();
    int ret = real_fcntl(fd, cmd, arg);
    double t1 = iol_now();
    posix_note_dup(ret, fd, t0, t1);
    return ret;
}

IOL_EXPORT int fcntl64(int fd, int cmd, ...)
{
    va_list ap;
    va_start(ap, cmd);
    void *arg = va_arg(ap, void *);
    va_end(ap);
    if (!real_fcntl64)
        return missing();
    if (!iol_active() || (cmd != F_DUPFD && cmd != F_DUPFD_CLOEXEC))
        return real_fcntl64(fd, cmd, arg);
    double t0 = iol_now();
    int ret = real_fcntl64(fd, cmd, arg);
    double t1 = iol_now();
    posix_note_dup(ret, fd, t0, t1);
    return ret;
}

IOL_EXPORT int fileno(FILE *stream)
{
    if (!iol_active() || !iol_posix_stream_name)
        return real_fileno(stream);
    double t0 = iol_now();
    int ret = real_fileno(stream);
    double t1 = iol_now();
    posix_note_fileno(ret, stream, t0, t1);
    return ret;
}

/* ---- wrappers: rename ---- */

IOL_EXPORT int rename(const char *oldpath, const char *newpath)
{
    if (!iol_active())
        return real_rename(oldpath, newpath);
    double t0 = iol_now();
    int ret = real_rename(oldpath, newpath);
    double t1 = iol_now();
    posix_note_rename(ret, AT_FDCWD, oldpath, AT_FDCWD, newpath, t0, t1);
    return ret;
}

IOL_EXPORT int renameat(int olddir, const char *oldpath, int newdir, const char *newpath)
{
    if (!iol_active())
        return real_renameat(olddir, oldpath, newdir, newpath);
    double t0 = iol_now();
    int ret = real_renameat(olddir, oldpath, newdir, newpath);
    double t1 = iol_now();
    posix_note_rename(ret, olddir, oldpath, newdir, newpath, t0, t1);
    return ret;
}

IOL_EXPORT int renameat2(int olddir, const char *oldpath, int newdir, const char *newpath,
                         unsigned int flags)
{
    if (!real_renameat2)
        return missing();
    if (!iol_active())
        return real_renameat2(olddir, oldpath, newdir, newpath, flags);
    double t0 = iol_now();
    int ret = real_renameat2(olddir, oldpath, newdir, newpath, flags);
    double t1 = iol_now();
    posix_note_rename(ret, olddir, oldpath, newdir, newpath, t0, t1);
    return ret;
}

/* ---- wrappers: mkstemp family (an open of the name they chose) ---- */

IOL_EXPORT int mkstemp(char *tmpl)
{
    if (!iol_active())
        return real_mkstemp(tmpl);
    double t0 = iol_now();
    int ret = real_mkstemp(tmpl);
    double t1 = iol_now();
    posix_note_mkstemp(ret, tmpl, 0, t0, t1);
    return ret;
}

IOL_EXPORT int mkstemp64(char *tmpl)
{
    if (!iol_active())
        return real_mkstemp64(tmpl);
    double t0 = iol_now();
    int ret = real_mkstemp64(tmpl);
    double t1 = iol_now();
    posix_note_mkstemp(ret, tmpl, 0, t0, t1);
    return ret;
}

IOL_EXPORT int mkostemp(char *tmpl, int flags)
{
    if (!iol_active())
        return real_mkostemp(tmpl, flags);
    double t0 = iol_now();
    int ret = real_mkostemp(tmpl, flags);
    double t1 = iol_now();
    posix_note_mkstemp(ret, tmpl, flags, t0, t1);
    return ret;
}

IOL_EXPORT int mkostemp64(char *tmpl, int flags)
{
    if (!iol_active())
        return real_mkostemp64(tmpl, flags);
    double t0 = iol_now();
    int ret = real_mkostemp64(tmpl, flags);
    double t1 = iol_now();
    posix_note_mkstemp(ret, tmpl, flags, t0, t1);
    return ret;
}

IOL_EXPORT int mkstemps(char *tmpl, int suffixlen)
{
    if (!iol_active())
        return real_mkstemps(tmpl, suffixlen);
    double t0 = iol_now();
    int ret = real_mkstemps(tmpl, suffixlen);
    double t1 = iol_now();
    posix_note_mkstemp(ret, tmpl, 0, t0, t1);
    return ret;
}

IOL_EXPORT int mkstemps64(char *tmpl, int suffixlen)
{
    if (!iol_active())
        return real_mkstemps64(tmpl, suffixlen);
    double t0 = iol_now();
    int ret = real_mkstemps64(tmpl, suffixlen);
    double t1 = iol_now();
    posix_note_mkstemp(ret, tmpl, 0, t0, t1);
    return ret;
}

IOL_EXPORT int mkostemps(char *tmpl, int suffixlen, int flags)
{
    if (!iol_active())
        return real_mkostemps(tmpl, suffixlen, flags);
    double t0 = iol_now();
    int ret = real_mkostemps(tmpl, suffixlen, flags);
    double t1 = iol_now();
    posix_note_mkstemp(ret, tmpl, flags, t0, t1);
    return ret;
}

IOL_EXPORT int mkostemps64(char *tmpl, int suffixlen, int flags)
{
    if (!iol_active())
        return real_mkostemps64(tmpl, suffixlen, flags);
    double t0 = iol_now();
    int ret = real_mkostemps64(tmpl, suffixlen, flags);
    double t1 = iol_now();
    posix_note_mkstemp(ret, tmpl, flags, t0, t1);
    return ret;
}

/* ---- bindings ---- */

static const struct iol_binding bindings[] = {
    {"stat", (void *)stat, (void **)&real_stat},
    {"stat64", (void *)stat64, (void **)&real_stat64},
    {"lstat", (void *)lstat, (void **)&real_lstat},
    {"lstat64", (void *)lstat64, (void **)&real_lstat64},
    {"fstat", (void *)fstat, (void **)&real_fstat},
    {"fstat64", (void *)fstat64, (void **)&real_fstat64},
    {"fstatat", (void *)fstatat, (void **)&real_fstatat},
    {"fstatat64", (void *)fstatat64, (void **)&real_fstatat64},
    {"statx", (void *)statx, (void **)&real_statx},
    {"__xstat", (void *)__xstat, (void **)&real_xstat},
    {"__xstat64", (void *)__xstat64, (void **)&real_xstat64},
    {"__lxstat", (void *)__lxstat, (void **)&real_lxstat},
    {"__lxstat64", (void *)__lxstat64, (void **)&real_lxstat64},
    {"__fxstat", (void *)__fxstat, (void **)&real_fxstat},
    {"__fxstat64", (void *)__fxstat64, (void **)&real_fxstat64},
    {"__fxstatat", (void *)__fxstatat, (void **)&real_fxstatat},
    {"__fxstatat64", (void *)__fxstatat64, (void **)&real_fxstatat64},
    {"fsync", (void *)fsync, (void **)&real_fsync},
    {"fdatasync", (void *)fdatasync, (void **)&real_fdatasync},
    {"mmap", (void *)mmap, (void **)&real_mmap},
    {"mmap64", (void *)mmap64, (void **)&real_mmap64},
    {"dup", (void *)dup, (void **)&real_dup},
    {"dup2", (void *)dup2, (void **)&real_dup2},
    {"dup3", (void *)dup3, (void **)&real_dup3},
    {"fcntl", (void *)fcntl, (void **)&real_fcntl},
    {"fcntl64", (void *)fcntl64, (void **)&real_fcntl64},
    {"fileno", (void *)fileno, (void **)&real_fileno},
    {"rename", (void *)rename, (void **)&real_rename},
    {"renameat", (void *)renameat, (void **)&real_renameat},
    {"renameat2", (void *)renameat2, (void **)&real_renameat2},
    {"mkstemp", (void *)mkstemp, (void **)&real_mkstemp},
    {"mkstemp64", (void *)mkstemp64, (void **)&real_mkstemp64},
    {"mkostemp", (void *)mkostemp, (void **)&real_mkostemp},
    {"mkostemp64", (void *)mkostemp64, (void **)&real_mkostemp64},
    {"mkstemps", (void *)mkstemps, (void **)&real_mkstemps},
    {"mkstemps64", (void *)mkstemps64, (void **)&real_mkstemps64},
    {"mkostemps", (void *)mkostemps, (void **)&real_mkostemps},
    {"mkostemps64", (void *)mkostemps64, (void **)&real_mkostemps64},
};

const struct iol_binding_table iol_posix_meta_bindings = {
    bindings, sizeof(bindings) / sizeof(bindings[0]),
};
