/* Helpers shared by the workload programs in tests/workloads/.
 *
 * Each workload is one small program: `wl_NAME DIR [MODE]`. It creates its
 * files under DIR (an existing, absolute, clean directory), does a fixed,
 * deterministic sequence of I/O calls and exits with status 0 (or dies the
 * way its name says). Nothing here prints unless a call fails; a failing
 * call ends the program with status 99 so that a broken run never passes
 * for a good one.
 *
 * The helpers only check results: every I/O call a workload makes is written
 * out in the workload itself, so that the calls a runtime sees are the calls
 * the source shows. Workloads are built with -O0 -fno-builtin -fno-inline and
 * without _FORTIFY_SOURCE so the compiler neither rewrites printf into puts
 * nor routes read through __read_chk.
 */
#ifndef IOLENS_WL_H
#define IOLENS_WL_H

#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Print "wl: WHAT: strerror(errno)" on stderr with write(2) and exit 99. */
static inline void wl_die(const char *what)
{
    char msg[512];
    int err = errno;
    int n = snprintf(msg, sizeof msg, "wl: %s: %s\n", what, strerror(err));
    if (n > 0) {
        ssize_t w = write(2, msg, (size_t)n < sizeof msg ? (size_t)n : sizeof msg - 1);
        (void)w;
    }
    _exit(99);
}

/* Fail unless COND holds. */
#define WL_CHECK(cond, what) do { if (!(cond)) wl_die(what); } while (0)

/* Fail unless a byte count equals the expected one. */
#define WL_EXPECT_N(got, want, what) \
    do { if ((long long)(got) != (long long)(want)) { errno = EIO; wl_die(what); } } while (0)

/* DIR/NAME into BUF (of size SIZE); fails on overflow. */
static inline void wl_path(char *buf, size_t size, const char *dir, const char *name)
{
    int n = snprintf(buf, size, "%s/%s", dir, name);
    if (n < 0 || (size_t)n >= size) {
        errno = ENAMETOOLONG;
        wl_die(name);
    }
}

/* Fill BUF with N bytes of a fixed pattern that depends on SEED. */
static inline void wl_fill(void *buf, size_t n, unsigned seed)
{
    unsigned char *p = buf;
    for (size_t i = 0; i < n; i++)
        p[i] = (unsigned char)('a' + (i * 7 + seed) % 26);
}

/* Deterministic 64-bit LCG (Knuth MMIX constants); returns the next state. */
static inline uint64_t wl_rand(uint64_t *state)
{
    *state = *state * 6364136223846793005ULL + 1442695040888963407ULL;
    return *state >> 17;
}

/* Standard entry check: argv[1] is the directory. */
static inline const char *wl_dir(int argc, char **argv)
{
    if (argc < 2 || argv[1][0] != '/') {
        static const char usage[] = "usage: wl_NAME /absolute/dir [mode]\n";
        ssize_t w = write(2, usage, sizeof usage - 1);
        (void)w;
        _exit(2);
    }
    return argv[1];
}

/* True when argv[2] equals MODE. */
static inline int wl_mode(int argc, char **argv, const char *mode)
{
    return argc > 2 && strcmp(argv[2], mode) == 0;
}

#endif
