/* The program the runtime tests run under LD_PRELOAD=libiolens.so.
 *
 *   rt_prog MODE DIR
 *
 * basic    10 writes of 100 bytes, lseek to 0, 10 reads of 100 bytes (DIR/basic.dat)
 * threads  4 threads: each, all starting at once, 500 fputs of a line to
 *          stdout, then 20000 writes of 64 bytes to its own file, then 20000
 *          pwrites of 64 bytes to one shared descriptor (DIR/shared.dat)
 * errno    failing calls; checks that return values and errno are those of
 *          libc (exit status 1 and a message on any difference)
 * segv     basic, then a SIGSEGV (the process must die of it)
 * kill     basic, then SIGKILL to itself
 * fork     basic in the parent, which also opens DIR/forked.dat; the child
 *          writes 50 bytes through the inherited descriptor and 70 to
 *          DIR/child.dat, then 4 threads, all starting at once, each write 8
 *          bytes 500 times through the inherited, unused descriptor of
 *          forked.dat, then _exit(0)
 * exec     basic, then exec of "rt_prog basic2 DIR" (DIR/basic2.dat)
 * execpath basic, then three execs that fail (no such file, as a shell's
 *          search of PATH makes them), then the exec of exec mode
 * execpath_empty  the same without basic: no I/O before the execs (no log
 *          but the new image's)
 * sigchain basic; then handlers of its own, set after the runtime started:
 *          SIGTERM (sigaction, raised twice, returns), SIGINT (SA_RESETHAND,
 *          raised once), SIGSEGV (signal(); it restores the default and
 *          returns); each checked through what sigaction/signal report; then
 *          signal()'s relatives on SIGBUS, SIGINT and SIGABRT (bsd_signal,
 *          sigset with SIG_HOLD, ssignal, sysv_signal, __sysv_signal), each
 *          checked through what they and sigaction report, with the kernel's
 *          action still the runtime's handler; then a real fault (the process
 *          must die of SIGSEGV, with its log)
 * files    for the configuration tests (rt_config.sh): 100 bytes written to
 *          each of DIR/f0.dat..f4.dat and 10 to DIR/skip0.tmp..skip2.tmp with
 *          write(), 10 bytes to DIR/s0.txt..s2.txt with fwrite(), and, when
 *          RT_EXTRA names a file, 10 bytes to it with write(); each file is
 *          read back and checked (the program must work whatever is recorded)
 * namekeys two pairs of files whose names share a name-cache tag, each name
 *          written and statted a known number of times, interleaved
 * chdir    one byte to DIR/first.dat, then chdir to DIR/elsewhere (made) and
 *          CHDIR_FILES new files there, one byte each, by relative names
 *          (rt_test.sh gives this mode relative IOLENS_LOGPATH and
 *          IOLENS_MMAP_DIR: they must keep naming the start's places)
 * live     basic, then waits for the end of its standard input (rt_test.sh
 *          tries `iolens recover` on its record file meanwhile)
 * fdrace   FDRACE_THREADS threads, started at once, each opening
 *          DIR/race/f<i> for i in 0..FDRACE_FILES-1 (odd threads from the
 *          end), one pwrite of a byte and a close each: descriptor numbers are
 *          closed and reopened by other threads all the time
 * sigrecords  SIGRECORDS_FILES new files DIR/r<i>, each opened, written one
 *          byte and closed, while a 20 us interval timer's SIGALRM handler
 *          stats the file being made and writes a byte to DIR/sig.dat: its
 *          I/O lands inside the runtime's making of records (the file's, the
 *          heatmap's), which it must not wait for. Prints the signals handled.
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <gnu/lib-names.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/name_hash.h"

#define NTHREADS 4
#define NOPS 20000
#define NLINES 500

static const char *dir;
static int shared_fd;

static void die(const char *what)
{
    fprintf(stderr, "rt_prog: %s: %s\n", what, strerror(errno));
    exit(2);
}

static void path_of(char *buf, size_t len, const char *name)
{
    if ((size_t)snprintf(buf, len, "%s/%s", dir, name) >= len)
        die("path too long");
}

/* 10 writes of 100 bytes, back to 0, 10 reads of 100 bytes. */
static int basic(const char *name, int keep_open)
{
    char path[4096], buf[100];
    memset(buf, 'b', sizeof buf);
    path_of(path, sizeof path, name);
    int fd = open(path, O_CREAT | O_TRUNC | O_RDWR, 0644);
    if (fd < 0)
        die("open");
    for (int i = 0; i < 10; i++)
        if (write(fd, buf, sizeof buf) != (ssize_t)sizeof buf)
            die("write");
    if (lseek(fd, 0, SEEK_SET) != 0)
        die("lseek");
    for (int i = 0; i < 10; i++)
        if (read(fd, buf, sizeof buf) != (ssize_t)sizeof buf)
            die("read");
    if (!keep_open && close(fd) != 0)
        die("close");
    return fd;
}

/* Write len bytes of c to path (with stdio if use_stdio), read them back. */
static void write_check(const char *path, size_t len, int use_stdio)
{
    char buf[128], back[128];
    memset(buf, 'c', len);
    if (use_stdio) {
        FILE *f = fopen(path, "w+");
        if (!f || fwrite(buf, 1, len, f) != len || fseek(f, 0, SEEK_SET) != 0 ||
            fread(back, 1, len, f) != len || fclose(f) != 0)
            die(path);
    } else {
        int fd = open(path, O_CREAT | O_TRUNC | O_RDWR, 0644);
        if (fd < 0 || write(fd, buf, len) != (ssize_t)len || pread(fd, back, len, 0) != (ssize_t)len ||
            close(fd) != 0)
            die(path);
    }
    if (memcmp(buf, back, len) != 0) {
        fprintf(stderr, "rt_prog: %s: read back differs\n", path);
        exit(2);
    }
}

static int files(void)
{
    char path[4096], name[64];
    for (int i = 0; i < 5; i++) {
        snprintf(name, sizeof name, "f%d.dat", i);
        path_of(path, sizeof path, name);
        write_check(path, 100, 0);
    }
    for (int i = 0; i < 3; i++) {
        snprintf(name, sizeof name, "skip%d.tmp", i);
        path_of(path, sizeof path, name);
        write_check(path, 10, 0);
        snprintf(name, sizeof name, "s%d.txt", i);
        path_of(path, sizeof path, name);
        write_check(path, 10, 1);
    }
    const char *extra = getenv("RT_EXTRA");
    if (extra && *extra)
        write_check(extra, 10, 0);
    printf("files done\n");
    return 0;
}

/* More files than 1 MiB of module memory holds POSIX records of, then a few
 * through STDIO: with IOLENS_MODMEM=1 every module must still keep records
 * (rt_noloss.sh). */
static int many(void)
{
    char path[4096], name[64];
    for (int i = 0; i < 3000; i++) {
        snprintf(name, sizeof name, "m%04d.dat", i);
        path_of(path, sizeof path, name);
        write_check(path, 10, 0);
    }
    for (int i = 0; i < 3; i++) {
        snprintf(name, sizeof name, "s%d.txt", i);
        path_of(path, sizeof path, name);
        write_check(path, 10, 1);
    }
    printf("many done\n");
    return 0;
}

/* Names whose name-cache entries share a set and their 32-bit tag (the
 * cache hash's high half) but not its low half: found among k0000000.dat,
 * k0000001.dat, ... by sorting their hashes (2^18 names give about 8 such
 * pairs). Each name of a pair must keep its own record: a writes once and
 * is statted 3 times, b writes twice and is statted 5 times (rt_check). */
struct keyed {
    uint64_t h;
    uint32_t i;
};

static int by_hash(const void *pa, const void *pb)
{
    const struct keyed *a = pa, *b = pb;
    return a->h < b->h ? -1 : a->h > b->h;
}

static void keyed_name(char *path, size_t len, uint32_t i)
{
    char name[32];
    snprintf(name, sizeof name, "k%07u.dat", (unsigned)i);
    path_of(path, len, name);
}

static void write_stat(const char *path, int writes, int stats)
{
    struct stat st;
    int fd = open(path, O_CREAT | O_TRUNC | O_WRONLY, 0644);
    if (fd < 0)
        die(path);
    for (int i = 0; i < writes; i++)
        if (write(fd, "k", 1) != 1)
            die("write");
    if (close(fd) != 0)
        die("close");
    for (int i = 0; i < stats; i++)
        if (stat(path, &st) != 0)
            die("stat");
}

static int namekeys(void)
{
    enum { N = 1 << 18, PAIRS = 2 };
    struct keyed *k = malloc(N * sizeof *k);
    char a[4096], b[4096];
    int found = 0;
    if (!k)
        die("malloc");
    for (uint32_t i = 0; i < N; i++) {
        keyed_name(a, sizeof a, i);
        k[i].h = iol_name_cache_hash(a, strlen(a));
        k[i].i = i;
    }
    qsort(k, N, sizeof *k, by_hash);
    for (uint32_t i = 0; i + 1 < N && found < PAIRS; i++) {
        if (k[i].h >> 32 != k[i + 1].h >> 32 || k[i].h == k[i + 1].h)
            continue;
        keyed_name(a, sizeof a, k[i].i);
        keyed_name(b, sizeof b, k[i + 1].i);
        /* interleaved, so that each name's lookups pass the other's entry */
        write_stat(a, 1, 1);
        write_stat(b, 2, 2);
        write_stat(a, 0, 2);
        write_stat(b, 0, 3);
        found++;
    }
    free(k);
    if (found < PAIRS) {
        fprintf(stderr, "rt_prog: %d names sharing a cache tag, wanted %d pairs\n", found, PAIRS);
        return 2;
    }
    printf("namekeys done\n");
    return 0;
}

/* Three exec attempts that fail, then "rt_prog basic2 DIR". */
static int failing_execs(const char *argv0)
{
    char path[64];
    for (int i = 0; i < 3; i++) {
        snprintf(path, sizeof path, "/nonexistent-%d/rt_prog", i);
        execl(path, argv0, "basic2", dir, (char *)NULL);
        if (errno != ENOENT)
            die("exec of a missing file");
    }
    execl("/proc/self/exe", argv0, "basic2", dir, (char *)NULL);
    die("execl");
    return 2;
}

static pthread_barrier_t start_line;

static void *thread_main(void *arg)
{
    long id = (long)arg;
    char path[4096], name[64], buf[64];
    memset(buf, 't', sizeof buf);
    pthread_barrier_wait(&start_line);
    for (int i = 0; i < NLINES; i++)
        if (fputs("line\n", stdout) == EOF)
            die("fputs");
    snprintf(name, sizeof name, "thread%ld.dat", id);
    path_of(path, sizeof path, name);
    int fd = open(path, O_CREAT | O_TRUNC | O_WRONLY, 0644);
    if (fd < 0)
        die("open");
    for (int i = 0; i < NOPS; i++)
        if (write(fd, buf, sizeof buf) != (ssize_t)sizeof buf)
            die("write");
    close(fd);
    for (int i = 0; i < NOPS; i++) {
        off_t at = ((off_t)id * NOPS + i) * (off_t)sizeof buf;
        if (pwrite(shared_fd, buf, sizeof buf, at) != (ssize_t)sizeof buf)
            die("pwrite");
    }
    return NULL;
}

static int threads(void)
{
    char path[4096];
    pthread_t t[NTHREADS];
    path_of(path, sizeof path, "shared.dat");
    shared_fd = open(path, O_CREAT | O_TRUNC | O_WRONLY, 0644);
    if (shared_fd < 0)
        die("open");
    pthread_barrier_init(&start_line, NULL, NTHREADS);
    for (long i = 0; i < NTHREADS; i++)
        if (pthread_create(&t[i], NULL, thread_main, (void *)i) != 0)
            die("pthread_create");
    for (int i = 0; i < NTHREADS; i++)
        pthread_join(t[i], NULL);
    return close(shared_fd) == 0 ? 0 : 2;
}

static int failures;

static void expect(const char *what, long ret, long want_ret, int want_errno)
{
    int err = errno;
    if (ret != want_ret || (want_ret == -1 && err != want_errno)) {
        fprintf(stderr, "rt_prog: %s returned %ld errno %d (%s), expected %ld errno %d\n", what,
                ret, err, strerror(err), want_ret, want_errno);
        failures++;
    }
}

/* A successful call returned ret (want: want_ret) and left errno at 4242. */
static void kept(const char *what, long ret, long want_ret)
{
    int err = errno;
    if (ret != want_ret || err != 4242) {
        fprintf(stderr, "rt_prog: %s returned %ld and left errno %d, expected %ld and 4242\n",
                what, ret, err, want_ret);
        failures++;
    }
}

/* Each call fails in a way that is the same on every Linux system. */
static int errno_checks(void)
{
    const char *volatile null_path = NULL; /* hidden from the nonnull checks */
    char buf[16], path[4096];
    struct stat st;
    struct iovec iov = {buf, sizeof buf};

    path_of(path, sizeof path, "no/such/file");
    errno = 0; expect("read(-1)", read(-1, buf, 1), -1, EBADF);
    errno = 0; expect("write(9999)", write(9999, buf, 1), -1, EBADF);
    errno = 0; expect("pread(-5)", pread(-5, buf, 1, 0), -1, EBADF);
    errno = 0; expect("pwrite(-5)", pwrite(-5, buf, 1, 0), -1, EBADF);
    errno = 0; expect("readv(-1)", readv(-1, &iov, 1), -1, EBADF);
    errno = 0; expect("writev(-1)", writev(-1, &iov, 1), -1, EBADF);
    errno = 0; expect("lseek(-1)", lseek(-1, 0, SEEK_SET), -1, EBADF);
    errno = 0; expect("close(-1)", close(-1), -1, EBADF);
    errno = 0; expect("close(12345)", close(12345), -1, EBADF);
    errno = 0; expect("fsync(-1)", fsync(-1), -1, EBADF);
    errno = 0; expect("fstat(-1)", fstat(-1, &st), -1, EBADF);
    errno = 0; expect("dup(-1)", dup(-1), -1, EBADF);
    errno = 0; expect("dup2(-1, 5)", dup2(-1, 5), -1, EBADF);
    errno = 0; expect("open(NULL)", open(null_path, O_RDONLY), -1, EFAULT);
    errno = 0; expect("open(ENOENT)", open(path, O_RDONLY), -1, ENOENT);
    errno = 0; expect("openat(ENOENT)", openat(AT_FDCWD, path, O_RDONLY), -1, ENOENT);
    errno = 0; expect("creat(ENOENT)", creat(path, 0644), -1, ENOENT);
    errno = 0; expect("stat(ENOENT)", stat(path, &st), -1, ENOENT);
    errno = 0; expect("stat(NULL)", stat(null_path, &st), -1, EFAULT);
    errno = 0; expect("lstat(ENOENT)", lstat(path, &st), -1, ENOENT);
    errno = 0; expect("rename(ENOENT)", rename(path, path), -1, ENOENT);
    errno = 0; expect("unlink(ENOENT)", unlink(path), -1, ENOENT);

    /* A successful call must not change errno either, the process's first
     * data calls included (their notes make the HEATMAP records: file space,
     * system calls). */
    path_of(path, sizeof path, "errno.dat");
    int fd = open(path, O_CREAT | O_TRUNC | O_RDWR, 0644);
    errno = 4242; kept("write", write(fd, buf, 4), 4);
    errno = 4242; kept("pwrite", pwrite(fd, buf, 4, 8), 4);
    errno = 4242; kept("lseek", lseek(fd, 0, SEEK_SET), 0);
    errno = 4242; kept("read", read(fd, buf, 4), 4);
    close(fd);
    FILE *f = fopen(path, "r+");
    if (!f)
        die("fopen");
    errno = 4242; kept("fwrite", (long)fwrite(buf, 1, 4, f), 4);
    errno = 4242; kept("fputc", fputc('x', f), 'x');
    errno = 4242; kept("fread", (long)fread(buf, 1, 1, f), 1);
    fclose(f);
    /* An over-long path. */
    char *longpath = malloc(70000);
    if (!longpath)
        die("malloc");
    memset(longpath, 'a', 69999);
    longpath[69999] = '\0';
    errno = 0; expect("open(long)", open(longpath, O_RDONLY), -1, ENAMETOOLONG);
    errno = 0; expect("stat(long)", stat(longpath, &st), -1, ENAMETOOLONG);
    free(longpath);
    return failures ? 1 : 0;
}

static int forked_fd;

static void *forked_writer(void *arg)
{
    (void)arg;
    pthread_barrier_wait(&start_line);
    for (int i = 0; i < NLINES; i++)
        if (write(forked_fd, "8 bytes\n", 8) != 8)
            _exit(5);
    return NULL;
}

/* The record of an inherited descriptor is made at its first use: threads
 * that all use it at once must each be counted. */
static void forked_threads(void)
{
    pthread_t t[NTHREADS];
    pthread_barrier_init(&start_line, NULL, NTHREADS);
    for (int i = 0; i < NTHREADS; i++)
        if (pthread_create(&t[i], NULL, forked_writer, NULL) != 0)
            _exit(5);
    for (int i = 0; i < NTHREADS; i++)
        pthread_join(t[i], NULL);
}

static int do_fork(void)
{
    char fpath[4096];
    int fd = basic("basic.dat", 1);
    path_of(fpath, sizeof fpath, "forked.dat");
    if ((forked_fd = open(fpath, O_CREAT | O_TRUNC | O_WRONLY, 0644)) < 0)
        die("open");
    pid_t pid = fork();
    if (pid < 0)
        die("fork");
    if (pid == 0) {
        /* child.dat takes the first record of the child's fresh set, where
         * the parent had basic.dat: reopening basic.dat by name must not
         * land on it. */
        char buf[70], path[4096];
        memset(buf, 'c', sizeof buf);
        path_of(path, sizeof path, "child.dat");
        int cfd = open(path, O_CREAT | O_TRUNC | O_WRONLY, 0644);
        if (cfd < 0 || write(cfd, buf, 70) != 70 || close(cfd) != 0)
            _exit(3);
        path_of(path, sizeof path, "basic.dat");
        if ((cfd = open(path, O_RDONLY)) < 0 || close(cfd) != 0)
            _exit(3);
        errno = 4242; /* the inherited descriptor's record is made in this note */
        if (write(fd, buf, 50) != 50)
            _exit(3);
        if (errno != 4242)
            _exit(4);
        forked_threads();
        _exit(0);
    }
    int status;
    if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
        return 3;
    return close(fd) == 0 && close(forked_fd) == 0 ? 0 : 2;
}

static volatile sig_atomic_t term_count, int_count, segv_count;

static void on_term(int sig, siginfo_t *info, void *ctx)
{
    (void)info;
    (void)ctx;
    if (sig == SIGTERM)
        term_count++;
}

static void on_int(int sig)
{
    if (sig == SIGINT)
        int_count++;
}

static void on_segv(int sig)
{
    segv_count++;
    signal(sig, SIG_DFL); /* the fault recurs on return, with the default action */
}

static volatile sig_atomic_t bus_count, bus2_count, abrt_count, abrt_blocked;

static void on_bus(int sig)
{
    if (sig == SIGBUS)
        bus_count++;
}

static void on_bus2(int sig)
{
    if (sig == SIGBUS)
        bus2_count++;
}

static void on_abrt(int sig)
{
    sigset_t cur;
    if (sig == SIGABRT)
        abrt_count++;
    /* sysv_signal's SA_NODEFER: the signal is not blocked in its handler. */
    if (sigprocmask(SIG_BLOCK, NULL, &cur) == 0 && sigismember(&cur, SIGABRT))
        abrt_blocked = 1;
}

/* Declared by <signal.h> only for X/Open before 2008; glibc still exports it. */
sighandler_t bsd_signal(int sig, sighandler_t handler);

/* The program's action for sig, as sigaction reports it. */
static sighandler_t program_handler(int sig)
{
    struct sigaction old;
    return sigaction(sig, NULL, &old) == 0 ? old.sa_handler : SIG_ERR;
}

/* Is the kernel's action for sig neither the default nor the program's
 * handler, that is, still the runtime's? Read with libc's own sigaction,
 * which the runtime's wrapper does not interpose on. */
static int kernel_has_runtime(int sig, sighandler_t prog)
{
    static int (*libc_sigaction)(int, const struct sigaction *, struct sigaction *);
    struct sigaction k;
    if (!libc_sigaction) {
        void *libc = dlopen(LIBC_SO, RTLD_LAZY | RTLD_NOLOAD);
        if (!libc || !(*(void **)&libc_sigaction = dlsym(libc, "sigaction")))
            return 0;
    }
    if (libc_sigaction(sig, NULL, &k) != 0)
        return 0;
    return k.sa_handler != SIG_DFL && k.sa_handler != SIG_IGN && k.sa_handler != prog;
}

/* The signal() family on handled signals. @return 0, or 10 to 16 for the
 * first check that failed. */
static int signal_family(void)
{
    if (bsd_signal(SIGBUS, on_bus) != SIG_DFL)
        return 10;
    raise(SIGBUS);
    if (bus_count != 1 || program_handler(SIGBUS) != on_bus || !kernel_has_runtime(SIGBUS, on_bus))
        return 11;
    /* sigset is obsolete (so <signal.h> warns), but programs still call it. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
    sighandler_t held = sigset(SIGBUS, SIG_HOLD);
    raise(SIGBUS);
    if (held != on_bus || bus_count != 1)
        return 12;
    /* Unblocking delivers the held SIGBUS, to the new handler. */
    if (sigset(SIGBUS, on_bus2) != SIG_HOLD || bus2_count != 1 || bus_count != 1 ||
        program_handler(SIGBUS) != on_bus2 || !kernel_has_runtime(SIGBUS, on_bus2))
        return 13;
#pragma GCC diagnostic pop
    if (ssignal(SIGBUS, SIG_DFL) != on_bus2 || program_handler(SIGBUS) != SIG_DFL ||
        !kernel_has_runtime(SIGBUS, SIG_DFL))
        return 14;
    /* System V semantics: the action is back to the default after one delivery. */
    if (sysv_signal(SIGINT, on_int) != SIG_DFL)
        return 15;
    raise(SIGINT);
    if (int_count != 2 || program_handler(SIGINT) != SIG_DFL || !kernel_has_runtime(SIGINT, on_int))
        return 15;
    if (__sysv_signal(SIGABRT, on_abrt) != SIG_DFL)
        return 16;
    raise(SIGABRT);
    if (abrt_count != 1 || abrt_blocked || program_handler(SIGABRT) != SIG_DFL)
        return 16;
    return 0;
}

/* Exit status 4 to 16: a handler of the program was not run or not reported. */
static int sigchain(void)
{
    struct sigaction act, old;
    basic("basic.dat", 0);
    memset(&act, 0, sizeof act);
    act.sa_sigaction = on_term;
    act.sa_flags = SA_SIGINFO;
    sigemptyset(&act.sa_mask);
    if (sigaction(SIGTERM, &act, &old) != 0 || old.sa_handler != SIG_DFL)
        return 4;
    raise(SIGTERM);
    raise(SIGTERM);
    if (term_count != 2)
        return 5;
    if (sigaction(SIGTERM, NULL, &old) != 0 || !(old.sa_flags & SA_SIGINFO) ||
        old.sa_sigaction != on_term)
        return 6;
    memset(&act, 0, sizeof act);
    act.sa_handler = on_int;
    act.sa_flags = SA_RESETHAND;
    sigemptyset(&act.sa_mask);
    if (sigaction(SIGINT, &act, NULL) != 0)
        return 7;
    raise(SIGINT);
    if (int_count != 1 || sigaction(SIGINT, NULL, &old) != 0 || old.sa_handler != SIG_DFL)
        return 8;
    if (signal(SIGSEGV, on_segv) != SIG_DFL || signal(SIGSEGV, on_segv) != on_segv)
        return 9;
    int rc = signal_family();
    if (rc != 0)
        return rc;
    volatile char *page = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (page == MAP_FAILED)
        die("mmap");
    page[0] = 1;
    return 2;
}

/* 1,000,000 distinct file names, far more than the default record limit:
 * 1,000 files reached through 1,000 symbolic links to their directory (the
 * runtime, like Darshan, names records by the path given, so every name is a
 * record of its own; creating a million files would take a minute). The
 * runtime must keep counting the records it has and drop the others
 * (rt_check million). */
static int million(void)
{
    char path[4096], name[64];
    path_of(path, sizeof path, "t");
    if (mkdir(path, 0755) != 0)
        die("mkdir t");
    for (int i = 0; i < 1000; i++) {
        snprintf(name, sizeof name, "t/f%03d", i);
        path_of(path, sizeof path, name);
        int fd = open(path, O_WRONLY | O_CREAT, 0644);
        if (fd < 0 || close(fd) != 0)
            die(path);
        snprintf(name, sizeof name, "l%03d", i);
        path_of(path, sizeof path, name);
        if (symlink("t", path) != 0)
            die(path);
    }
    for (int i = 0; i < 1000000; i++) {
        snprintf(name, sizeof name, "l%03d/f%03d", i / 1000, i % 1000);
        path_of(path, sizeof path, name);
        int fd = open(path, O_RDONLY);
        if (fd < 0 || close(fd) != 0)
            die(path);
    }
    return 0;
}

#define FDRACE_THREADS 4
#define FDRACE_FILES 20000

static pthread_barrier_t fdrace_start;

static void *fdrace_thread(void *arg)
{
    long id = (long)arg;
    char name[64], path[4096];
    pthread_barrier_wait(&fdrace_start);
    for (int i = 0; i < FDRACE_FILES; i++) {
        snprintf(name, sizeof name, "race/f%d", id & 1 ? FDRACE_FILES - 1 - i : i);
        path_of(path, sizeof path, name);
        int fd = open(path, O_WRONLY | O_CREAT, 0644);
        if (fd < 0 || pwrite(fd, "r", 1, id) != 1 || close(fd) != 0)
            die(path);
    }
    return NULL;
}

static int fdrace(void)
{
    char path[4096];
    pthread_t t[FDRACE_THREADS];
    path_of(path, sizeof path, "race");
    if (mkdir(path, 0755) != 0)
        die("mkdir race");
    pthread_barrier_init(&fdrace_start, NULL, FDRACE_THREADS);
    for (long i = 0; i < FDRACE_THREADS; i++)
        if (pthread_create(&t[i], NULL, fdrace_thread, (void *)i) != 0)
            die("pthread_create");
    for (int i = 0; i < FDRACE_THREADS; i++)
        pthread_join(t[i], NULL);
    return 0;
}

#define CHDIR_FILES 3000

static int chdir_files(void)
{
    char path[4096];
    path_of(path, sizeof path, "first.dat");
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0 || write(fd, "f", 1) != 1 || close(fd) != 0)
        die("first.dat");
    path_of(path, sizeof path, "elsewhere");
    if (mkdir(path, 0755) != 0 || chdir(path) != 0)
        die("elsewhere");
    for (int i = 0; i < CHDIR_FILES; i++) {
        char name[32];
        snprintf(name, sizeof name, "c%d", i);
        fd = open(name, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (fd < 0 || write(fd, "c", 1) != 1 || close(fd) != 0)
            die(name);
    }
    return 0;
}

#define SIGRECORDS_FILES 10000

static char sig_paths[2][4096]; /* the file being made, in turn */
static volatile sig_atomic_t sig_current = -1, sig_handled;
static int sig_fd = -1;

static void sigrecords_handler(int signo)
{
    (void)signo;
    int saved = errno, cur = sig_current;
    struct stat st;
    if (cur >= 0)
        stat(sig_paths[cur], &st);
    if (write(sig_fd, "s", 1) != 1)
        _exit(3);
    sig_handled++;
    errno = saved;
}

static int sigrecords(void)
{
    char path[4096];
    path_of(path, sizeof path, "sig.dat");
    if ((sig_fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644)) < 0)
        die("open sig.dat");
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = sigrecords_handler;
    sa.sa_flags = SA_RESTART;
    if (sigaction(SIGALRM, &sa, NULL) != 0)
        die("sigaction");
    struct itimerval every = {{0, 20}, {0, 20}}, off = {{0, 0}, {0, 0}};
    if (setitimer(ITIMER_REAL, &every, NULL) != 0)
        die("setitimer");
    for (int i = 0; i < SIGRECORDS_FILES; i++) {
        char name[32];
        snprintf(name, sizeof name, "r%d", i);
        path_of(sig_paths[i & 1], sizeof sig_paths[0], name);
        sig_current = i & 1;
        int fd = open(sig_paths[i & 1], O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (fd < 0 || write(fd, "m", 1) != 1 || close(fd) != 0)
            die(sig_paths[i & 1]);
    }
    if (setitimer(ITIMER_REAL, &off, NULL) != 0)
        die("setitimer");
    sig_current = -1;
    close(sig_fd);
    printf("signals handled: %d\n", (int)sig_handled);
    return 0;
}

/* Writes spread over 300 ms (so that the runtime's clock is calibrated
 * several times), and the time from the start of the first write to the end
 * of the last, in ns, written to clock.txt for rt_check. */
static int clock_span(void)
{
    static const int gaps_ms[] = {2, 10, 60, 230};
    char path[4096];
    struct timespec a, b;
    path_of(path, sizeof path, "clock.dat");
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0)
        die("open clock.dat");
    clock_gettime(CLOCK_MONOTONIC, &a);
    if (write(fd, "x", 1) != 1)
        die("write clock.dat");
    for (size_t i = 0; i < sizeof gaps_ms / sizeof gaps_ms[0]; i++) {
        struct timespec gap = {0, gaps_ms[i] * 1000000L};
        nanosleep(&gap, NULL);
        if (write(fd, "x", 1) != 1)
            die("write clock.dat");
    }
    clock_gettime(CLOCK_MONOTONIC, &b);
    close(fd);
    long long ns = (b.tv_sec - a.tv_sec) * 1000000000LL + (b.tv_nsec - a.tv_nsec);
    char text[64];
    int n = snprintf(text, sizeof text, "%lld\n", ns);
    path_of(path, sizeof path, "clock.txt");
    FILE *f = fopen(path, "w");
    if (!f || fwrite(text, 1, (size_t)n, f) != (size_t)n || fclose(f) != 0)
        die("clock.txt");
    return 0;
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: rt_prog MODE DIR\n");
        return 2;
    }
    const char *mode = argv[1];
    dir = argv[2];
    if (!strcmp(mode, "basic"))
        return basic("basic.dat", 0) >= 0 ? 0 : 2;
    if (!strcmp(mode, "basic2"))
        return basic("basic2.dat", 0) >= 0 ? 0 : 2;
    if (!strcmp(mode, "threads"))
        return threads();
    if (!strcmp(mode, "errno"))
        return errno_checks();
    if (!strcmp(mode, "fork"))
        return do_fork();
    if (!strcmp(mode, "segv")) {
        /* A real fault (a store to a read-only page), not a raise(). */
        basic("basic.dat", 0);
        volatile char *page = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (page == MAP_FAILED)
            die("mmap");
        page[0] = 1;
        return 2;
    }
    if (!strcmp(mode, "sigchain"))
        return sigchain();
    if (!strcmp(mode, "files"))
        return files();
    if (!strcmp(mode, "many"))
        return many();
    if (!strcmp(mode, "clock"))
        return clock_span();
    if (!strcmp(mode, "million"))
        return million();
    if (!strcmp(mode, "live")) {
        char c;
        if (basic("basic.dat", 0) < 0)
            return 2;
        while (read(0, &c, 1) > 0)
            ;
        return 0;
    }
    if (!strcmp(mode, "fdrace"))
        return fdrace();
    if (!strcmp(mode, "chdir"))
        return chdir_files();
    if (!strcmp(mode, "sigrecords"))
        return sigrecords();
    if (!strcmp(mode, "namekeys"))
        return namekeys();
    if (!strcmp(mode, "kill")) {
        basic("basic.dat", 1);
        kill(getpid(), SIGKILL);
        return 2;
    }
    if (!strcmp(mode, "execpath")) {
        basic("basic.dat", 0);
        return failing_execs(argv[0]);
    }
    if (!strcmp(mode, "execpath_empty"))
        return failing_execs(argv[0]);
    if (!strcmp(mode, "exec")) {
        basic("basic.dat", 0);
        execl("/proc/self/exe", argv[0], "basic2", dir, (char *)NULL);
        die("execl");
    }
    fprintf(stderr, "rt_prog: unknown mode %s\n", mode);
    return 2;
}
