/* Resolution of the binding tables, and the runtime's own uninstrumented I/O. */
#include "real.h"

#ifndef IOLENS_STATIC_RUNTIME
#include <dlfcn.h>
#endif
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

int (*iol_real_open)(const char *path, int flags, ...);
ssize_t (*iol_real_read)(int fd, void *buf, size_t len);
ssize_t (*iol_real_write)(int fd, const void *buf, size_t len);
int (*iol_real_close)(int fd);

#ifdef IOLENS_STATIC_RUNTIME
/* libiolens-static.a: the real definition of a symbol is the linker's
 * __real_ name, listed in iol_static_reals (generated in the order of the
 * binding tables, so the search usually hits at its first step). */
static void *static_real(const char *name)
{
    static size_t next;
    size_t n = 0;
    while (iol_static_reals[n].name)
        n++;
    for (size_t k = 0; k < n; k++) {
        size_t i = (next + k) % n;
        if (strcmp(iol_static_reals[i].name, name) == 0) {
            next = i + 1;
            return iol_static_reals[i].fn;
        }
    }
    return NULL;
}
#endif

size_t iol_real_resolve(const struct iol_binding_table *t)
{
    size_t missing = 0;
    for (size_t i = 0; i < t->count; i++) {
        const struct iol_binding *b = &t->bindings[i];
#ifdef IOLENS_STATIC_RUNTIME
        void *p = static_real(b->name);
#else
        void *p = dlsym(RTLD_NEXT, b->name);
#endif
        if (!p || p == b->wrapper) {
            missing++;
            p = NULL;
        }
        __atomic_store_n(b->real, p, __ATOMIC_RELEASE);
    }
    return missing;
}

int iol_sys_open(const char *path, int flags, mode_t mode)
{
    int (*fn)(const char *, int, ...) = __atomic_load_n(&iol_real_open, __ATOMIC_ACQUIRE);
    if (fn)
        return fn(path, flags | O_CLOEXEC, mode);
    return (int)syscall(SYS_openat, AT_FDCWD, path, flags | O_CLOEXEC, mode);
}

ssize_t iol_sys_read(int fd, void *buf, size_t len)
{
    ssize_t (*fn)(int, void *, size_t) = __atomic_load_n(&iol_real_read, __ATOMIC_ACQUIRE);
    if (fn)
        return fn(fd, buf, len);
    return syscall(SYS_read, fd, buf, len);
}

ssize_t iol_sys_write(int fd, const void *buf, size_t len)
{
    ssize_t (*fn)(int, const void *, size_t) =
        __atomic_load_n(&iol_real_write, __ATOMIC_ACQUIRE);
    if (fn)
        return fn(fd, buf, len);
    return syscall(SYS_write, fd, buf, len);
}

int iol_sys_close(int fd)
{
    int (*fn)(int) = __atomic_load_n(&iol_real_close, __ATOMIC_ACQUIRE);
    if (fn)
        return fn(fd);
    return (int)syscall(SYS_close, fd);
}

void *iol_sys_mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
    return (void *)syscall(SYS_mmap, addr, len, prot, flags, fd, off);
}

int iol_sys_stat(const char *path, struct stat *st)
{
    return (int)syscall(SYS_newfstatat, AT_FDCWD, path, st, 0);
}

int64_t iol_sys_file_size(int fd)
{
    struct stat st;
#ifdef SYS_fstat
    long rc = syscall(SYS_fstat, fd, &st);
#else
    long rc = syscall(SYS_newfstatat, fd, "", &st, AT_EMPTY_PATH);
#endif
    return rc == 0 ? (int64_t)st.st_size : -1;
}

ssize_t iol_sys_read_file(const char *path, char *buf, size_t len)
{
    size_t got = 0;
    int fd = iol_sys_open(path, O_RDONLY, 0);

    if (fd < 0 || len == 0)
        return -1;
    while (got + 1 < len) {
        ssize_t n = iol_sys_read(fd, buf + got, len - 1 - got);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        got += (size_t)n;
    }
    buf[got] = '\0';
    iol_sys_close(fd);
    return (ssize_t)got;
}

int iol_sys_write_all(int fd, const void *buf, size_t len)
{
    const char *p = buf;
    while (len > 0) {
        ssize_t n = iol_sys_write(fd, p, len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return -1;
        p += n;
        len -= (size_t)n;
    }
    return 0;
}
