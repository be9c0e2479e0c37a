/* The log library's file I/O (sysio.h): system calls in the runtime's copy,
 * libc in the standalone library. */
#include "sysio.h"

#include <fcntl.h>
#include <unistd.h>
#ifdef IOLENS_RUNTIME_IO
#include <sys/syscall.h>
#else
#include <stdio.h> /* rename */
#endif

#ifdef IOLENS_RUNTIME_IO

int iol_io_open(const char *path, int flags, mode_t mode)
{
    return (int)syscall(SYS_openat, AT_FDCWD, path, flags, mode);
}

int iol_io_close(int fd)
{
    return (int)syscall(SYS_close, fd);
}

ssize_t iol_io_pread(int fd, void *buf, size_t len, off_t off)
{
    return syscall(SYS_pread64, fd, buf, len, off);
}

ssize_t iol_io_pwrite(int fd, const void *buf, size_t len, off_t off)
{
    return syscall(SYS_pwrite64, fd, buf, len, off);
}

int iol_io_rename(const char *from, const char *to)
{
    return (int)syscall(SYS_renameat, AT_FDCWD, from, AT_FDCWD, to);
}

int iol_io_unlink(const char *path)
{
    return (int)syscall(SYS_unlinkat, AT_FDCWD, path, 0);
}

int iol_io_fstat(int fd, struct stat *st)
{
#ifdef SYS_fstat
    return (int)syscall(SYS_fstat, fd, st);
#else
    return (int)syscall(SYS_newfstatat, fd, "", st, AT_EMPTY_PATH);
#endif
}

#else

int iol_io_open(const char *path, int flags, mode_t mode)
{
    return open(path, flags, mode);
}

int iol_io_close(int fd)
{
    return close(fd);
}

ssize_t iol_io_pread(int fd, void *buf, size_t len, off_t off)
{
    return pread(fd, buf, len, off);
}

ssize_t iol_io_pwrite(int fd, const void *buf, size_t len, off_t off)
{
    return pwrite(fd, buf, len, off);
}

int iol_io_rename(const char *from, const char *to)
{
    return rename(from, to);
}

int iol_io_unlink(const char *path)
{
    return unlink(path);
}

int iol_io_fstat(int fd, struct stat *st)
{
    return fstat(fd, st);
}

#endif
