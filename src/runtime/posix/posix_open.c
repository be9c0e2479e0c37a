/* POSIX module: the open family (open, open64, openat, creat and their
 * fortified and 64-bit forms) and how a path becomes a record name. */
#include "posix.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <string.h>
#include <unistd.h>

#include "core/fmt.h"
#include "core/paths.h"

static int (*real_open64)(const char *, int, ...);
static int (*real_open_2)(const char *, int);
static int (*real_open64_2)(const char *, int);
static int (*real_openat)(int, const char *, int, ...);
static int (*real_openat64)(int, const char *, int, ...);
static int (*real_openat_2)(int, const char *, int);
static int (*real_openat64_2)(int, const char *, int);
static int (*real_creat)(const char *, mode_t);
static int (*real_creat64)(const char *, mode_t);

/* ---- naming ---- */

/* The directory a dirfd-relative path starts from: the name of dirfd's
 * record when we track it, else what /proc says. @return 0, or -1. */
static int dirfd_path(int dirfd, char *out)
{
    struct iol_ofd *o;
    struct iol_slot *s = iol_posix_fd(dirfd, &o);
    char link[64];
    if (s) {
        const char *name = iol_record_name(s);
        size_t n = strnlen(name, IOL_PATH_MAX);
        if (n >= IOL_PATH_MAX)
            return -1;
        memcpy(out, name, n + 1);
        return 0;
    }
    iol_fmt(link, sizeof(link), "/proc/self/fd/%d", dirfd);
    ssize_t n = readlink(link, out, IOL_PATH_MAX - 1);
    if (n <= 0 || out[0] != '/')
        return -1;
    out[n] = '\0';
    return 0;
}

int iol_posix_path_name(int dirfd, const char *path, char *name)
{
    char dir[IOL_PATH_MAX];
    const char *base = NULL;
    int err = errno; /* readlink and getcwd may set it: the wrappers' notes keep it */
    int len = -1;

    if (path && (path[0] == '/' || dirfd == AT_FDCWD || dirfd_path(dirfd, dir) == 0)) {
        if (path[0] != '/' && dirfd != AT_FDCWD)
            base = dir;
        len = iol_path_clean(path, base, name);
    }
    errno = err;
    return len;
}

/* The record of an absolute path that is a record's name already, from the
 * name cache of pool: a path equal to a record's name is clean, so it needs
 * no cleaning (most opens, stats and fopens name a file seen before).
 * @return the slot, or NULL (then build the name and look it up). */
static struct iol_slot *path_seen(struct iol_pool *pool, const char *path)
{
    if (!path || path[0] != '/')
        return NULL;
    size_t len = strnlen(path, IOL_PATH_MAX);
    return len < IOL_PATH_MAX ? iol_record_seen(pool, path, len) : NULL;
}

struct iol_slot *iol_path_record(struct iol_pool *pool, int dirfd, const char *path)
{
    char name[IOL_PATH_MAX];
    struct iol_slot *s = pool ? path_seen(pool, path) : NULL;
    if (s || !pool)
        return s;
    int len = iol_posix_path_name(dirfd, path, name);
    return len >= 0 ? iol_record_of_name(pool, name, (size_t)len) : NULL;
}

struct iol_slot *iol_posix_path_record(int dirfd, const char *path)
{
    return iol_path_record(iol_posix_pool(), dirfd, path);
}

/* ---- wrappers: open ---- */

static int open_mode(int flags, va_list ap)
{
    if ((flags & O_CREAT) || (flags & O_TMPFILE) == O_TMPFILE)
        return va_arg(ap, int);
    return 0;
}

/* The common tail of every open wrapper. errno stays the real call's: the
 * only system calls on this path (naming a path relative to a directory,
 * the size of a file opened O_APPEND) keep it, and so does making a record. */
static void posix_note_path_open(int fd, int dirfd, const char *path, int flags, int mode,
                                 double t0, double t1)
{
    if (fd >= 0)
        iol_posix_note_open(fd, iol_posix_path_record(dirfd, path), flags, mode, t0, t1);
}

IOL_EXPORT int open(const char *path, int flags, ...)
{
    va_list ap;
    va_start(ap, flags);
    int mode = open_mode(flags, ap);
    va_end(ap);
    if (!iol_active())
        return iol_real_open(path, flags, mode);
    struct iol_stamp s0 = iol_stamp_now();
    int ret = iol_real_open(path, flags, mode);
    struct iol_stamp s1 = iol_stamp_now();
    double t0 = iol_stamp_sec(s0), t1 = iol_stamp_sec(s1);
    posix_note_path_open(ret, AT_FDCWD, path, flags, mode, t0, t1);
    return ret;
}

IOL_EXPORT int open64(const char *path, int flags, ...)
{
    va_list ap;
    va_start(ap, flags);
    int mode = open_mode(flags, ap);
    va_end(ap);
    if (!iol_active())
        return real_open64(path, flags, mode);
    struct iol_stamp s0 = iol_stamp_now();
    int ret = real_open64(path, flags, mode);
    struct iol_stamp s1 = iol_stamp_now();
    double t0 = iol_stamp_sec(s0), t1 = iol_stamp_sec(s1);
    posix_note_path_open(ret, AT_FDCWD, path, flags, mode, t0, t1);
    return ret;
}

IOL_EXPORT int __open_2(const char *path, int flags)
{
    if (!iol_active())
        return real_open_2(path, flags);
    struct iol_stamp s0 = iol_stamp_now();
    int ret = real_open_2(path, flags);
    struct iol_stamp s1 = iol_stamp_now();
    double t0 = iol_stamp_sec(s0), t1 = iol_stamp_sec(s1);
    posix_note_path_open(ret, AT_FDCWD, path, flags, 0, t0, t1);
    return ret;
}

IOL_EXPORT int __open64_2(const char *path, int flags)
{
    if (!iol_active())
        return real_open64_2(path, flags);
    struct iol_stamp s0 = iol_stamp_now();
    int ret = real_open64_2(path, flags);
    struct iol_stamp s1 = iol_stamp_now();
    double t0 = iol_stamp_sec(s0), t1 = iol_stamp_sec(s1);
    posix_note_path_open(ret, AT_FDCWD, path, flags, 0, t0, t1);
    return ret;
}

IOL_EXPORT int openat(int dirfd, const char *path, int flags, ...)
{
    va_list ap;
    va_start(ap, flags);
    int mode = open_mode(flags, ap);
    va_end(ap);
    if (!iol_active())
        return real_openat(dirfd, path, flags, mode);
    struct iol_stamp s0 = iol_stamp_now();
    int ret = real_openat(dirfd, path, flags, mode);
    struct iol_stamp s1 = iol_stamp_now();
    double t0 = iol_stamp_sec(s0), t1 = iol_stamp_sec(s1);
    posix_note_path_open(ret, dirfd, path, flags, mode, t0, t1);
    return ret;
}

IOL_EXPORT int openat64(int dirfd, const char *path, int flags, ...)
{
    va_list ap;
    va_start(ap, flags);
    int mode = open_mode(flags, ap);
    va_end(ap);
    if (!iol_active())
        return real_openat64(dirfd, path, flags, mode);
    struct iol_stamp s0 = iol_stamp_now();
    int ret = real_openat64(dirfd, path, flags, mode);
    struct iol_stamp s1 = iol_stamp_now();
    double t0 = iol_stamp_sec(s0), t1 = iol_stamp_sec(s1);
    posix_note_path_open(ret, dirfd, path, flags, mode, t0, t1);
    return ret;
}

IOL_EXPORT int __openat_2(int dirfd, const char *path, int flags)
{
    if (!iol_active())
        return real_openat_2(dirfd, path, flags);
    struct iol_stamp s0 = iol_stamp_now();
    int ret = real_openat_2(dirfd, path, flags);
    struct iol_stamp s1 = iol_stamp_now();
    double t0 = iol_stamp_sec(s0), t1 = iol_stamp_sec(s1);
    posix_note_path_open(ret, dirfd, path, flags, 0, t0, t1);
    return ret;
}

IOL_EXPORT int __openat64_2(int dirfd, const char *path, int flags)
{
    if (!iol_active())
        return real_openat64_2(dirfd, path, flags);
    struct iol_stamp s0 = iol_stamp_now();
    int ret = real_openat64_2(dirfd, path, flags);
    struct iol_stamp s1 = iol_stamp_now();
    double t0 = iol_stamp_sec(s0), t1 = iol_stamp_sec(s1);
    posix_note_path_open(ret, dirfd, path, flags, 0, t0, t1);
    return ret;
}

IOL_EXPORT int creat(const char *path, mode_t mode)
{
    if (!iol_active())
        return real_creat(path, mode);
    struct iol_stamp s0 = iol_stamp_now();
    int ret = real_creat(path, mode);
    struct iol_stamp s1 = iol_stamp_now();
    double t0 = iol_stamp_sec(s0), t1 = iol_stamp_sec(s1);
    posix_note_path_open(ret, AT_FDCWD, path, O_CREAT | O_WRONLY | O_TRUNC, (int)mode, t0, t1);
    return ret;
}

IOL_EXPORT int creat64(const char *path, mode_t mode)
{
    if (!iol_active())
        return real_creat64(path, mode);
    struct iol_stamp s0 = iol_stamp_now();
    int ret = real_creat64(path, mode);
    struct iol_stamp s1 = iol_stamp_now();
    double t0 = iol_stamp_sec(s0), t1 = iol_stamp_sec(s1);
    posix_note_path_open(ret, AT_FDCWD, path, O_CREAT | O_WRONLY | O_TRUNC, (int)mode, t0, t1);
    return ret;
}


static const struct iol_binding bindings[] = {
    {"open", (void *)open, (void **)&iol_real_open},
    {"open64", (void *)open64, (void **)&real_open64},
    {"__open_2", (void *)__open_2, (void **)&real_open_2},
    {"__open64_2", (void *)__open64_2, (void **)&real_open64_2},
    {"openat", (void *)openat, (void **)&real_openat},
    {"openat64", (void *)openat64, (void **)&real_openat64},
    {"__openat_2", (void *)__openat_2, (void **)&real_openat_2},
    {"__openat64_2", (void *)__openat64_2, (void **)&real_openat64_2},
    {"creat", (void *)creat, (void **)&real_creat},
    {"creat64", (void *)creat64, (void **)&real_creat64},
};

const struct iol_binding_table iol_posix_open_bindings = {
    bindings, sizeof(bindings) / sizeof(bindings[0]),
};
