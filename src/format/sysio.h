/* The log library's file I/O: every call the library makes on a file goes
 * through these, never through libc's names directly.
 *
 * The standalone library (libiolens-log, and its static twin) calls libc.
 * The runtime's copy (iolens-log-rt, compiled with IOLENS_RUNTIME_IO) lives
 * inside libiolens.so and libiolens-mpi.so, where libc's names are the
 * runtime's own wrappers (libiolens.so exports open, pwrite, close, rename,
 * ... and -Bsymbolic-functions binds its internal calls to them; from
 * libiolens-mpi.so they reach the preloaded wrappers); there these make the
 * system calls themselves, which needs no lookup and works before the
 * runtime has resolved anything, in both libraries. Each is one system call
 * in libc too. tests/runtime/check_self_calls.sh fails if a call to a
 * wrapper creeps back in.
 *
 * Same contracts as libc's functions of the same names (errno set on
 * failure); open's descriptor is close-on-exec only if flags ask for it. */
#ifndef IOL_FORMAT_SYSIO_H
#define IOL_FORMAT_SYSIO_H

#include <sys/stat.h>
#include <sys/types.h>

/* open(2). */
int iol_io_open(const char *path, int flags, mode_t mode);
/* close(2). */
int iol_io_close(int fd);
/* pread(2). */
ssize_t iol_io_pread(int fd, void *buf, size_t len, off_t off);
/* pwrite(2). */
ssize_t iol_io_pwrite(int fd, const void *buf, size_t len, off_t off);
/* rename(2). */
int iol_io_rename(const char *from, const char *to);
/* unlink(2). */
int iol_io_unlink(const char *path);
/* fstat(2). */
int iol_io_fstat(int fd, struct stat *st);

#endif
