/* More records than a module may keep (1024 per module: Darshan's default,
 * IOLENS_MAX_RECORDS=1024 for iolens, see env/record_limit), in a known
 * order, to show which records are kept and when a module is marked partial.
 * Two processes, two logs.
 *
 * Parent, POSIX: files p0000..p1099 created in turn, each written with
 * i % 50 + 1 bytes; mixed in, before the pool is full: writes to /dev/null
 * (an excluded prefix: no record), failed opens of missing files (no
 * record), and stat of three files s0000..s0002 that nothing ever opens (made
 * with mknod; a stat of a regular file creates a record, so they take three
 * places). The pool is full after p1020; p1021..p1099 are dropped. Then
 * p0007 and p1020 are read again and p0010 and s0001 stat'ed again (kept
 * records go on counting), p1021 read and p1050 stat'ed (no record).
 * Parent, STDIO: files q0000..q1024 created with fopen/fputs/fclose; the
 * three standard streams' records are made at start, so q0000..q1020 are
 * kept. Then q0004 is read again (counts), q1022 (dropped), and a line is
 * written to stdout (its record exists from the start).
 *
 * Child (forked after the parent's work; its records start empty), POSIX:
 * c0000..c1023 (exactly the limit: not partial yet), a failed open of a
 * missing file (no record: still not partial), c0000 read again, then an
 * open of /dev/null: the name is excluded, but the pool is full, and that
 * marks POSIX partial. STDIO: r0000..r1020 (with the standard streams,
 * exactly the limit), a failed fopen, r0000 read again, a line to stdout:
 * STDIO is not partial.
 *
 * Built with -DWL_ORACLE, stat calls glibc's old __xstat entry point, which
 * Darshan 3.5 intercepts (deviations.md, D2). */
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>

#include "wl.h"

#ifdef WL_ORACLE
extern int __xstat(int, const char *, struct stat *);
__asm__(".symver __xstat,__xstat@GLIBC_2.2.5");
#define WL_STAT(p, s) __xstat(1, p, s)
#else
#define WL_STAT(p, s) stat(p, s)
#endif

#define POSIX_FILES 1100
#define STDIO_FILES 1025
#define LIMIT 1024

static _Alignas(4096) unsigned char buf[4096];

/* DIR/PREFIX%04d into path. */
static void numbered(char *path, size_t size, const char *dir, const char *prefix, int i)
{
    char name[32];
    snprintf(name, sizeof name, "%s%04d", prefix, i);
    wl_path(path, size, dir, name);
}

/* Create DIR/PREFIX%04d with open and write i % 50 + 1 bytes. */
static void posix_file(const char *dir, const char *prefix, int i)
{
    char path[4096];
    numbered(path, sizeof path, dir, prefix, i);
    int fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0600);
    WL_CHECK(fd >= 0, "open for write");
    WL_EXPECT_N(write(fd, buf, (size_t)(i % 50 + 1)), i % 50 + 1, "write");
    WL_CHECK(close(fd) == 0, "close");
}

/* Open DIR/PREFIX%04d again and read it (i % 50 + 1 bytes). */
static void posix_reread(const char *dir, const char *prefix, int i)
{
    char path[4096];
    numbered(path, sizeof path, dir, prefix, i);
    int fd = open(path, O_RDONLY);
    WL_CHECK(fd >= 0, "open for read");
    WL_EXPECT_N(read(fd, buf, sizeof buf), i % 50 + 1, "read");
    WL_CHECK(close(fd) == 0, "close");
}

/* An open that fails (ENOENT): never a record. */
static void posix_missing(const char *dir, int i)
{
    char path[4096];
    numbered(path, sizeof path, dir, "missing", i);
    WL_CHECK(open(path, O_RDONLY) < 0 && errno == ENOENT, "open of a missing file");
}

/* Write to /dev/null: an excluded prefix. */
static void posix_excluded(void)
{
    int fd = open("/dev/null", O_WRONLY);
    WL_CHECK(fd >= 0, "open /dev/null");
    WL_EXPECT_N(write(fd, buf, 10), 10, "write /dev/null");
    WL_CHECK(close(fd) == 0, "close /dev/null");
}

static void posix_stat(const char *dir, const char *prefix, int i)
{
    char path[4096];
    struct stat st;
    numbered(path, sizeof path, dir, prefix, i);
    WL_CHECK(WL_STAT(path, &st) == 0 && S_ISREG(st.st_mode), "stat");
}

/* Create DIR/PREFIX%04d with fopen and fputs of i % 50 + 1 bytes. */
static void stdio_file(const char *dir, const char *prefix, int i)
{
    char path[4096];
    numbered(path, sizeof path, dir, prefix, i);
    FILE *f = fopen(path, "w");
    WL_CHECK(f != NULL, "fopen for write");
    WL_CHECK(fputs((const char *)buf + 4000 - (i % 50 + 1), f) >= 0, "fputs");
    WL_CHECK(fclose(f) == 0, "fclose");
}

/* fopen DIR/PREFIX%04d again and read its line with fgets. */
static void stdio_reread(const char *dir, const char *prefix, int i)
{
    char path[4096], line[128];
    numbered(path, sizeof path, dir, prefix, i);
    FILE *f = fopen(path, "r");
    WL_CHECK(f != NULL, "fopen for read");
    WL_CHECK(fgets(line, sizeof line, f) != NULL, "fgets");
    WL_EXPECT_N(strlen(line), i % 50 + 1, "fgets length");
    WL_CHECK(fclose(f) == 0, "fclose");
}

static void stdio_missing(const char *dir)
{
    char path[4096];
    wl_path(path, sizeof path, dir, "missing.txt");
    WL_CHECK(fopen(path, "r") == NULL && errno == ENOENT, "fopen of a missing file");
}

static void parent(const char *dir)
{
    char path[4096];

    for (int k = 0; k < 3; k++) {
        numbered(path, sizeof path, dir, "s", k);
        WL_CHECK(mknod(path, S_IFREG | 0600, 0) == 0, "mknod");
    }
    for (int i = 0; i < POSIX_FILES; i++) {
        if (i % 100 == 50)
            posix_excluded();
        if (i % 250 == 125)
            posix_missing(dir, i);
        if (i == 300 || i == 600 || i == 900)
            posix_stat(dir, "s", i / 300 - 1);
        posix_file(dir, "p", i);
    }
    posix_reread(dir, "p", 7);
    posix_reread(dir, "p", 1020);
    posix_reread(dir, "p", 1021);
    posix_stat(dir, "p", 10);
    posix_stat(dir, "s", 1);
    posix_stat(dir, "p", 1050);

    for (int i = 0; i < STDIO_FILES; i++)
        stdio_file(dir, "q", i);
    stdio_reread(dir, "q", 4);
    stdio_reread(dir, "q", 1022);
}

static void child(const char *dir)
{
    for (int i = 0; i < LIMIT; i++)
        posix_file(dir, "c", i);
    posix_missing(dir, 0);
    posix_reread(dir, "c", 0);
    posix_excluded();

    for (int i = 0; i < LIMIT - 3; i++)
        stdio_file(dir, "r", i);
    stdio_missing(dir);
    stdio_reread(dir, "r", 0);
    WL_CHECK(fputs("child done\n", stdout) >= 0, "fputs stdout");
    WL_CHECK(fflush(stdout) == 0, "fflush stdout");
}

int main(int argc, char **argv)
{
    const char *dir = wl_dir(argc, argv);
    int status;

    wl_fill(buf, sizeof buf, 9);
    buf[4000] = 0; /* the lines stdio_file writes end there */
    parent(dir);
    pid_t pid = fork();
    WL_CHECK(pid >= 0, "fork");
    if (pid == 0) {
        child(dir);
        exit(0);
    }
    WL_CHECK(waitpid(pid, &status, 0) == pid, "waitpid");
    WL_CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0, "child status");
    WL_CHECK(fputs("parent done\n", stdout) >= 0, "fputs stdout");
    WL_CHECK(fflush(stdout) == 0, "fflush stdout");
    return 0;
}
