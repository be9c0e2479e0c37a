/* Reaching libc's own functions past our wrappers.
 *
 * Every wrapped symbol appears once, in the binding table of the file that
 * wraps it: {symbol name, our wrapper, where libc's definition is stored}.
 * iol_real_resolve() fills those pointers with dlsym(RTLD_NEXT) once at
 * start-up, and the same tables list the wrapped symbols (for the export
 * check, and for the --wrap list of static linking).
 *
 * libiolens-static.a (IOLENS_STATIC_RUNTIME; src/static/mkarchive.sh) is
 * built from the same sources: each wrapper X is renamed __wrap_X in the
 * object, programs are linked with --wrap=X, and the pointers come from
 * iol_static_reals, the linker's __real_X (dlsym cannot find them in a
 * static program).
 *
 * The runtime's own calls never enter a wrapper, by construction.
 * libiolens.so exports its wrappers under libc's names and is linked with
 * -Bsymbolic-functions, so inside it a call to open(), mmap(), stat(),
 * signal(), ... is a direct call to the wrapper (from libiolens-mpi.so, to
 * the preloaded wrapper), which would record the runtime's own I/O whenever
 * recording is on. So:
 * - runtime code calls iol_sys_*() (below) for every function that is also
 *   wrapped: open, read, write and close reach libc's definition once it is
 *   known and the system call before that; mmap and stat are system calls;
 *   signal actions are set with signals.c's real_sigaction;
 * - the log library's copy in the runtime (IOLENS_RUNTIME_IO) does its file
 *   I/O through src/format/sysio.h, as system calls, and has no printers;
 * - a wrapper never calls another exported wrapper: execl and execv share a
 *   static body.
 * tests/runtime/check_self_calls.sh (CTest runtime_self_calls) disassembles
 * both libraries and fails on any call to an exported wrapper from a
 * function other than that wrapper, naming the caller: wrapping a function
 * the runtime also calls needs an iol_sys_* here first. */
#ifndef IOL_RT_REAL_H
#define IOL_RT_REAL_H

#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>

/* Marks a definition that interposes on libc (exported from libiolens.so). */
#define IOL_EXPORT __attribute__((visibility("default")))

/* One wrapped symbol. */
struct iol_binding {
    const char *name; /* libc symbol, e.g. "write" */
    void *wrapper;    /* our definition of it */
    void **real;      /* receives the next definition (libc's) */
};

/* A binding table and its length, as modules hand them to the core. */
struct iol_binding_table {
    const struct iol_binding *bindings;
    size_t count;
};

#ifdef IOLENS_STATIC_RUNTIME
/* One real definition of libiolens-static.a. */
struct iol_static_real {
    const char *name; /* libc symbol, e.g. "write" */
    void *fn;         /* the linker's __real_write: libc's write */
};

/* The real definitions, {NULL, NULL}-terminated: generated with the archive
 * for the symbols the C library's libc.a defines (a symbol it lacks keeps a
 * NULL pointer, as below). */
extern const struct iol_static_real iol_static_reals[];
#endif

/* Resolve every binding of the table with dlsym(RTLD_NEXT) (in
 * libiolens-static.a, from iol_static_reals). A symbol libc
 * lacks (e.g. statx on an old libc) keeps a NULL pointer; its wrapper then
 * fails with ENOSYS as libc itself would not have linked.
 * @return the number of symbols not found. */
size_t iol_real_resolve(const struct iol_binding_table *t);

/* The runtime's own I/O, never instrumented. Same contract as the libc
 * functions of the same name (errno set on failure). */
int iol_sys_open(const char *path, int flags, mode_t mode);
ssize_t iol_sys_read(int fd, void *buf, size_t len);
ssize_t iol_sys_write(int fd, const void *buf, size_t len);
int iol_sys_close(int fd);

/* mmap(2), made directly (mmap itself is wrapped). */
void *iol_sys_mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off);

/* stat(2), made directly (stat itself is wrapped). */
int iol_sys_stat(const char *path, struct stat *st);

/* Size of the file open as fd, from the kernel directly (fstat itself is
 * wrapped). @return the size, or -1 with errno set. */
int64_t iol_sys_file_size(int fd);

/* Read a whole small file (e.g. under /proc) into buf, NUL-terminated.
 * @return bytes read (truncated to len - 1), or -1 with errno set. */
ssize_t iol_sys_read_file(const char *path, char *buf, size_t len);

/* Write all of buf, retrying short writes and EINTR. @return 0, or -1. */
int iol_sys_write_all(int fd, const void *buf, size_t len);

/* Pointers the runtime's iol_sys_* use; filled by the POSIX binding table. */
extern int (*iol_real_open)(const char *path, int flags, ...);
extern ssize_t (*iol_real_read)(int fd, void *buf, size_t len);
extern ssize_t (*iol_real_write)(int fd, const void *buf, size_t len);
extern int (*iol_real_close)(int fd);

#endif
