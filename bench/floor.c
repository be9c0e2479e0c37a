/* The floor under a wrapped call's cost, for bench/floor.sh: a library to
 * preload whose write, read, pwrite and lseek do only what every recording
 * wrapper must, read the clock before and after the real call (the TSC, as
 * iolens does) and keep the difference (a sum per thread). What iolens adds
 * above this library is the cost of its recording: the fd lookup, turning
 * the readings into seconds, and the counters. */
#include <dlfcn.h>
#include <stdint.h>
#include <sys/types.h>
#include <x86intrin.h>

static ssize_t (*real_write)(int, const void *, size_t);
static ssize_t (*real_read)(int, void *, size_t);
static ssize_t (*real_pwrite)(int, const void *, size_t, off_t);
static off_t (*real_lseek)(int, off_t, int);
static __thread uint64_t ticks; /* kept, as a runtime keeps its times */

__attribute__((constructor)) static void floor_start(void)
{
    real_write = (ssize_t(*)(int, const void *, size_t))dlsym(RTLD_NEXT, "write");
    real_read = (ssize_t(*)(int, void *, size_t))dlsym(RTLD_NEXT, "read");
    real_pwrite = (ssize_t(*)(int, const void *, size_t, off_t))dlsym(RTLD_NEXT, "pwrite");
    real_lseek = (off_t(*)(int, off_t, int))dlsym(RTLD_NEXT, "lseek");
}

__attribute__((visibility("default"))) ssize_t write(int fd, const void *buf, size_t n)
{
    uint64_t t0 = __rdtsc();
    ssize_t ret = real_write(fd, buf, n);
    ticks += __rdtsc() - t0;
    return ret;
}

__attribute__((visibility("default"))) ssize_t read(int fd, void *buf, size_t n)
{
    uint64_t t0 = __rdtsc();
    ssize_t ret = real_read(fd, buf, n);
    ticks += __rdtsc() - t0;
    return ret;
}

__attribute__((visibility("default"))) ssize_t pwrite(int fd, const void *buf, size_t n, off_t at)
{
    uint64_t t0 = __rdtsc();
    ssize_t ret = real_pwrite(fd, buf, n, at);
    ticks += __rdtsc() - t0;
    return ret;
}

__attribute__((visibility("default"))) off_t lseek(int fd, off_t at, int whence)
{
    uint64_t t0 = __rdtsc();
    off_t ret = real_lseek(fd, at, whence);
    ticks += __rdtsc() - t0;
    return ret;
}
