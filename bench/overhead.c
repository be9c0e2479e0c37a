/* Cost per intercepted call: the workloads that bench/overhead.sh runs with no
 * runtime, with libiolens.so and with a reference libdarshan.so preloaded.
 *
 *   overhead calls [-d DIR] [-s SCALE] [-n N] [-w MS] [TEST...]
 *       each TEST (default: all) runs its call in a loop (after a warm-up)
 *       and prints "TEST NS" (nanoseconds per iteration). The loop is the
 *       function bench_loop, so `valgrind --tool=callgrind --collect-atstart=no
 *       --toggle-collect=bench_loop` counts the instructions of the timed
 *       iterations only. -n N sets the iterations of every test; -w MS
 *       makes the warm-up last at least MS milliseconds (under valgrind,
 *       where reading the clock is slow, the runtime needs about 0.3 s to
 *       pair its clocks and move to the TSC it reads natively).
 *   overhead threads [-d DIR] [-n N] T
 *       T threads each write 64 bytes N times to their own file, all at once;
 *       prints "threads T CALLS_PER_SECOND" (all threads together).
 *   overhead spawn [-n RUNS] [-m] [-p LIB]... -- PROGRAM [ARGS...]
 *       runs PROGRAM RUNS times for each -p LIB (an empty LIB: no preload),
 *       the configurations interleaved, and prints "spawn I MEDIAN_MS MEAN_MS"
 *       for the I-th -p: wall time from spawn to exit, LD_PRELOAD=LIB. With
 *       -m, PROGRAM gets one more argument, a descriptor through which it
 *       sends the CLOCK_MONOTONIC ns at which its main began (as noio does),
 *       and the line adds "START_MS EXIT_MS": medians from spawn to main and
 *       from main to exit.
 *
 * The files live in DIR (default /dev/shm/iolens-bench-PID, removed at the
 * end). Writes go back to the start of their file every few thousand calls,
 * so files stay small; that lseek is part of the measured loop, the same in
 * every configuration.
 *
 * stat100, stat5k and stat50k stat 100, 5,000 and 50,000 distinct files in
 * turn, in a three-level tree (DIR/tree/AA/BB/fNNNNN: 16 x 16 directories),
 * made once with raw system calls (so that no runtime sees them created) and
 * kept in DIR for later runs (removed with DIR when overhead made it). The
 * warm-up stats every name once at least, so the timed loop measures the
 * stat of files the runtime already has records of. statmiss stats 50,000
 * distinct names that do not exist, in the same directories (DIR/tree/AA/BB/
 * gNNNNN): a failing stat, as Python's imports and PATH searches make. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <spawn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

#define REWIND_WRITE 4096 /* writes of 64 B between lseeks back to 0: 256 KiB files */
#define REWIND_READ 1024  /* reads of 64 B in a 64 KiB file */
#define MAX_SPAWN_CFG 8
#define TREE_MAX 50000    /* files in the stat tree */
#define TREE_PATH 40      /* bytes per name after DIR, "/tree/AA/BB/fNNNNN" */

struct ctx {
    int fd;
    FILE *stream;
    const char *path;     /* an existing file, for open, stat and fopen */
    const char *names;    /* the stat tree's names, name_len bytes apart,
                             then as many names missing from it */
    size_t name_len;
    long nnames;          /* of which the test stats the first nnames */
    char buf[4096];
};

typedef void (*op_fn)(struct ctx *c, long i);

static void op_write64(struct ctx *c, long i)
{
    if (write(c->fd, c->buf, 64) != 64)
        abort();
    if ((i & (REWIND_WRITE - 1)) == REWIND_WRITE - 1)
        lseek(c->fd, 0, SEEK_SET);
}

static void op_read64(struct ctx *c, long i)
{
    if (read(c->fd, c->buf, 64) != 64)
        abort();
    if ((i & (REWIND_READ - 1)) == REWIND_READ - 1)
        lseek(c->fd, 0, SEEK_SET);
}

static void op_pwrite4k(struct ctx *c, long i)
{
    if (pwrite(c->fd, c->buf, 4096, (off_t)(i & 255) * 4096) != 4096)
        abort();
}

static void op_openclose(struct ctx *c, long i)
{
    int fd = open(c->path, O_RDONLY);
    if (fd < 0)
        abort();
    close(fd);
}

static void op_stat(struct ctx *c, long i)
{
    struct stat st;
    if (stat(c->path, &st) != 0)
        abort();
}

/* stat the tree's names in turn. */
static void op_stat_tree(struct ctx *c, long i)
{
    struct stat st;
    if (stat(c->names + (size_t)(i % c->nnames) * c->name_len, &st) != 0)
        abort();
}

/* stat names missing from the tree in turn. */
static void op_stat_miss(struct ctx *c, long i)
{
    struct stat st;
    if (stat(c->names + (size_t)(TREE_MAX + i % c->nnames) * c->name_len, &st) == 0 ||
        errno != ENOENT)
        abort();
}

static void op_lseek(struct ctx *c, long i)
{
    if (lseek(c->fd, (off_t)(i & 1023) * 64, SEEK_SET) < 0)
        abort();
}

static void op_fwrite64(struct ctx *c, long i)
{
    if (fwrite(c->buf, 64, 1, c->stream) != 1)
        abort();
    if ((i & (REWIND_WRITE - 1)) == REWIND_WRITE - 1)
        rewind(c->stream);
}

static void op_fopenclose(struct ctx *c, long i)
{
    FILE *f = fopen(c->path, "r");
    if (!f)
        abort();
    fclose(f);
}

enum setup { NEED_NONE, NEED_WRITE_FD, NEED_READ_FD, NEED_STREAM, NEED_TREE };

static const struct test {
    const char *name;
    op_fn op;
    enum setup setup;
    long iters;           /* at scale 1 */
    long names;           /* NEED_TREE: distinct names stat'ed */
} tests[] = {
    {"write64", op_write64, NEED_WRITE_FD, 200000, 0},
    {"read64", op_read64, NEED_READ_FD, 200000, 0},
    {"pwrite4k", op_pwrite4k, NEED_WRITE_FD, 100000, 0},
    {"openclose", op_openclose, NEED_NONE, 50000, 0},
    {"stat", op_stat, NEED_NONE, 100000, 0},
    {"lseek", op_lseek, NEED_READ_FD, 400000, 0},
    {"fwrite64", op_fwrite64, NEED_STREAM, 1000000, 0},
    {"fopenclose", op_fopenclose, NEED_NONE, 50000, 0},
    {"stat100", op_stat_tree, NEED_TREE, 100000, 100},
    {"stat5k", op_stat_tree, NEED_TREE, 100000, 5000},
    {"stat50k", op_stat_tree, NEED_TREE, 100000, TREE_MAX},
    {"statmiss", op_stat_miss, NEED_TREE, 100000, TREE_MAX},
};
#define NTESTS (sizeof(tests) / sizeof(*tests))

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* The timed loop; callgrind counts only what runs inside it. */
__attribute__((noinline, used)) void bench_loop(op_fn op, struct ctx *c, long n)
{
    for (long i = 0; i < n; i++)
        op(c, i);
}

/* The same loop for the warm-up, outside callgrind's toggle. */
__attribute__((noinline, used)) void warm_loop(op_fn op, struct ctx *c, long n)
{
    for (long i = 0; i < n; i++)
        op(c, i);
}

static void die(const char *what, const char *path)
{
    fprintf(stderr, "overhead: %s %s: %s\n", what, path ? path : "", strerror(errno));
    exit(1);
}

static void fill_file(const char *path, size_t bytes)
{
    char block[4096];
    memset(block, 'x', sizeof(block));
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0)
        die("cannot create", path);
    for (size_t done = 0; done < bytes; done += sizeof(block))
        if (write(fd, block, sizeof(block)) != (ssize_t)sizeof(block))
            die("cannot write", path);
    close(fd);
}

/* The name of the tree's file i under dir into out (TREE_PATH bytes after
 * dir); with letter 'g' instead of 'f', the name of a file it does not have. */
static void tree_name(char *out, size_t size, const char *dir, char letter, long i)
{
    snprintf(out, size, "%s/tree/%02lx/%02lx/%c%05ld", dir, i & 15, (i >> 4) & 15, letter, i);
}

/* mkdir (create) or rmdir DIR/tree[/A[/B]] (a, b: -1 for none), with raw
 * system calls. */
static void tree_dir(const char *dir, int a, int b, int create)
{
    char path[4096];
    if (a < 0)
        snprintf(path, sizeof(path), "%s/tree", dir);
    else if (b < 0)
        snprintf(path, sizeof(path), "%s/tree/%02x", dir, a);
    else
        snprintf(path, sizeof(path), "%s/tree/%02x/%02x", dir, a, b);
    if (!create)
        syscall(SYS_unlinkat, AT_FDCWD, path, AT_REMOVEDIR);
    else if (syscall(SYS_mkdirat, AT_FDCWD, path, 0755) != 0 && errno != EEXIST)
        die("cannot create", path);
}

/* The stat tree under dir, made unless a previous run left it complete;
 * names is filled with its TREE_MAX names, len bytes apart, then with
 * TREE_MAX names of files it does not have. */
static void make_tree(const char *dir, char *names, size_t len)
{
    char done[4096];
    snprintf(done, sizeof(done), "%s/tree/complete", dir);
    int have = syscall(SYS_faccessat, AT_FDCWD, done, F_OK) == 0;
    if (!have) {
        tree_dir(dir, -1, -1, 1);
        for (int a = 0; a < 16; a++) {
            tree_dir(dir, a, -1, 1);
            for (int b = 0; b < 16; b++)
                tree_dir(dir, a, b, 1);
        }
    }
    for (long i = 0; i < TREE_MAX; i++) {
        char *name = names + (size_t)i * len;
        tree_name(name, len, dir, 'f', i);
        tree_name(names + (size_t)(TREE_MAX + i) * len, len, dir, 'g', i);
        if (have)
            continue;
        long fd = syscall(SYS_openat, AT_FDCWD, name, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (fd < 0)
            die("cannot create", name);
        syscall(SYS_close, fd);
    }
    if (!have) {
        long fd = syscall(SYS_openat, AT_FDCWD, done, O_WRONLY | O_CREAT, 0644);
        if (fd >= 0)
            syscall(SYS_close, fd);
    }
}

/* Remove the stat tree (raw system calls, as it was made). */
static void remove_tree(const char *dir)
{
    char path[4096];
    for (long i = 0; i < TREE_MAX; i++) {
        tree_name(path, sizeof(path), dir, 'f', i);
        syscall(SYS_unlinkat, AT_FDCWD, path, 0);
    }
    snprintf(path, sizeof(path), "%s/tree/complete", dir);
    syscall(SYS_unlinkat, AT_FDCWD, path, 0);
    for (int a = 0; a < 16; a++) {
        for (int b = 0; b < 16; b++)
            tree_dir(dir, a, b, 0);
        tree_dir(dir, a, -1, 0);
    }
    tree_dir(dir, -1, -1, 0);
}

/* Back to the start of the test's file. */
static void rewind_ctx(struct ctx *c)
{
    if (c->fd >= 0)
        lseek(c->fd, 0, SEEK_SET);
    if (c->stream)
        rewind(c->stream);
}

/* Run one test after a warm-up of n/10 iterations and at least warm_ms
 * milliseconds; @return nanoseconds per iteration. */
static double run_test(const struct test *t, const char *dir, const char *names,
                       size_t name_len, long n, double warm_ms)
{
    char path[4096], data[4096];
    struct ctx c;

    memset(&c, 0, sizeof(c));
    memset(c.buf, 'a', sizeof(c.buf));
    snprintf(path, sizeof(path), "%s/%s.dat", dir, t->name);
    snprintf(data, sizeof(data), "%s/input.dat", dir);
    c.path = data;
    c.fd = -1;
    switch (t->setup) {
    case NEED_WRITE_FD:
        if ((c.fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644)) < 0)
            die("cannot open", path);
        break;
    case NEED_READ_FD:
        if ((c.fd = open(data, O_RDONLY)) < 0)
            die("cannot open", data);
        break;
    case NEED_STREAM:
        if (!(c.stream = fopen(path, "w")))
            die("cannot fopen", path);
        break;
    case NEED_TREE:
        c.names = names;
        c.name_len = name_len;
        c.nnames = t->names;
        warm_loop(t->op, &c, t->names); /* every name once: its record exists */
        break;
    case NEED_NONE:
        break;
    }
    double warm_end = now_ns() + warm_ms * 1e6;
    do {
        warm_loop(t->op, &c, n / 10 + 1);
        rewind_ctx(&c); /* each loop counts its iterations from 0 */
    } while (now_ns() < warm_end);
    double t0 = now_ns();
    bench_loop(t->op, &c, n);
    double t1 = now_ns();
    if (c.fd >= 0)
        close(c.fd);
    if (c.stream)
        fclose(c.stream);
    unlink(path);
    return (t1 - t0) / (double)n;
}

static char *make_dir(const char *given)
{
    static char dir[4096];
    if (given) {
        snprintf(dir, sizeof(dir), "%s", given);
        if (mkdir(dir, 0755) != 0 && errno != EEXIST)
            die("cannot create", dir);
        return dir;
    }
    snprintf(dir, sizeof(dir), "/dev/shm/iolens-bench-%d", (int)getpid());
    if (mkdir(dir, 0755) != 0)
        die("cannot create", dir);
    return dir;
}

static int cmd_calls(int argc, char **argv)
{
    const char *dir_arg = NULL;
    double scale = 1.0;
    long fixed_n = 0;
    double warm_ms = 0;
    int opt;

    while ((opt = getopt(argc, argv, "d:s:n:w:")) != -1) {
        if (opt == 'd')
            dir_arg = optarg;
        else if (opt == 's')
            scale = strtod(optarg, NULL);
        else if (opt == 'n')
            fixed_n = strtol(optarg, NULL, 10);
        else if (opt == 'w')
            warm_ms = strtod(optarg, NULL);
        else
            return 2;
    }
    if (scale <= 0)
        scale = 1.0;
    char *dir = make_dir(dir_arg);
    char data[4096];
    snprintf(data, sizeof(data), "%s/input.dat", dir);
    fill_file(data, 64 * 1024);
    char *names = NULL;
    size_t name_len = strlen(dir) + TREE_PATH;
    for (size_t k = 0; k < NTESTS && !names; k++) {
        int wanted = optind >= argc;
        for (int a = optind; a < argc; a++)
            wanted |= strcmp(argv[a], tests[k].name) == 0;
        if (wanted && tests[k].setup == NEED_TREE) {
            if (!(names = malloc((size_t)2 * TREE_MAX * name_len)))
                die("out of memory", NULL);
            make_tree(dir, names, name_len);
        }
    }
    for (size_t k = 0; k < NTESTS; k++) {
        int wanted = optind >= argc;
        for (int a = optind; a < argc; a++)
            wanted |= strcmp(argv[a], tests[k].name) == 0;
        if (!wanted)
            continue;
        long n = fixed_n > 0 ? fixed_n : (long)((double)tests[k].iters * scale);
        double ns = run_test(&tests[k], dir, names, name_len, n > 0 ? n : 1, warm_ms);
        printf("%s %.1f\n", tests[k].name, ns);
    }
    unlink(data);
    free(names);
    if (!dir_arg) {
        remove_tree(dir);
        rmdir(dir);
    }
    return 0;
}

struct thread_arg {
    pthread_barrier_t *start;
    const char *dir;
    int index;
    long n;
    double t_start, t_end; /* the thread's own loop */
};

static void *writer_thread(void *p)
{
    struct thread_arg *a = p;
    struct ctx c;
    char path[4096];

    memset(c.buf, 'b', 64);
    snprintf(path, sizeof(path), "%s/thread%d.dat", a->dir, a->index);
    if ((c.fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644)) < 0)
        die("cannot open", path);
    warm_loop(op_write64, &c, 1000);
    lseek(c.fd, 0, SEEK_SET);
    pthread_barrier_wait(a->start);
    a->t_start = now_ns();
    bench_loop(op_write64, &c, a->n);
    a->t_end = now_ns();
    close(c.fd);
    unlink(path);
    return NULL;
}

static int cmd_threads(int argc, char **argv)
{
    const char *dir_arg = NULL;
    long n = 500000;
    int opt;

    while ((opt = getopt(argc, argv, "d:n:")) != -1) {
        if (opt == 'd')
            dir_arg = optarg;
        else if (opt == 'n')
            n = strtol(optarg, NULL, 10);
        else
            return 2;
    }
    int nt = optind < argc ? (int)strtol(argv[optind], NULL, 10) : 1;
    if (nt < 1 || nt > 64 || n < 1)
        return 2;
    char *dir = make_dir(dir_arg);
    pthread_t tid[64];
    struct thread_arg args[64];
    pthread_barrier_t start;
    pthread_barrier_init(&start, NULL, (unsigned)nt + 1);
    for (int i = 0; i < nt; i++) {
        args[i] = (struct thread_arg){&start, dir, i, n, 0, 0};
        if (pthread_create(&tid[i], NULL, writer_thread, &args[i]) != 0)
            die("cannot create a thread", NULL);
    }
    pthread_barrier_wait(&start);
    for (int i = 0; i < nt; i++)
        pthread_join(tid[i], NULL);
    /* The span from the first thread's start to the last one's end, as the
     * threads saw it: under SCHED_FIFO the main thread may not run again
     * until the writers are done, so its own clock would miss their run. */
    double t0 = args[0].t_start, t1 = args[0].t_end;
    for (int i = 1; i < nt; i++) {
        t0 = args[i].t_start < t0 ? args[i].t_start : t0;
        t1 = args[i].t_end > t1 ? args[i].t_end : t1;
    }
    printf("threads %d %.0f\n", nt, (double)nt * (double)n / ((t1 - t0) / 1e9));
    if (!dir_arg)
        rmdir(dir);
    return 0;
}

/* environ with LD_PRELOAD replaced by lib (or removed when lib is empty). */
static char **env_with_preload(const char *lib)
{
    size_t n = 0;
    while (environ[n])
        n++;
    char **env = calloc(n + 2, sizeof(*env));
    size_t k = 0;
    if (!env)
        die("out of memory", NULL);
    for (size_t i = 0; i < n; i++)
        if (strncmp(environ[i], "LD_PRELOAD=", 11) != 0)
            env[k++] = environ[i];
    if (lib && *lib) {
        size_t len = strlen(lib) + 12;
        env[k] = malloc(len);
        if (!env[k])
            die("out of memory", NULL);
        snprintf(env[k++], len, "LD_PRELOAD=%s", lib);
    }
    env[k] = NULL;
    return env;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median_of(double *v, int n)
{
    qsort(v, (size_t)n, sizeof(double), cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* The CLOCK_MONOTONIC ns a spawned program sent through fd (-m). */
static double main_mark(int fd, const char *prog)
{
    uint64_t ns;
    if (read(fd, &ns, sizeof(ns)) != (ssize_t)sizeof(ns))
        die("no start mark from", prog);
    return (double)ns;
}

static int cmd_spawn(int argc, char **argv)
{
    const char *libs[MAX_SPAWN_CFG];
    int nlibs = 0, runs = 200, mark = 0, opt;

    while ((opt = getopt(argc, argv, "mn:p:")) != -1) {
        if (opt == 'n')
            runs = (int)strtol(optarg, NULL, 10);
        else if (opt == 'm')
            mark = 1;
        else if (opt == 'p' && nlibs < MAX_SPAWN_CFG)
            libs[nlibs++] = optarg;
        else
            return 2;
    }
    if (optind >= argc || runs < 1)
        return 2;
    if (nlibs == 0)
        libs[nlibs++] = "";
    int pipefd[2] = {-1, -1};
    char fdarg[16];
    char **args = argv + optind;
    if (mark) {
        int n = argc - optind;
        if (pipe(pipefd) != 0 || fcntl(pipefd[0], F_SETFD, FD_CLOEXEC) != 0 ||
            !(args = calloc((size_t)n + 2, sizeof(char *))))
            die("cannot set up the start mark", NULL);
        snprintf(fdarg, sizeof(fdarg), "%d", pipefd[1]);
        memcpy(args, argv + optind, (size_t)n * sizeof(char *));
        args[n] = fdarg;
    }
    char **envs[MAX_SPAWN_CFG];
    double *ms[MAX_SPAWN_CFG], *start[MAX_SPAWN_CFG], *end[MAX_SPAWN_CFG];
    for (int k = 0; k < nlibs; k++) {
        envs[k] = env_with_preload(libs[k]);
        ms[k] = calloc((size_t)runs, sizeof(double));
        start[k] = calloc((size_t)runs, sizeof(double));
        end[k] = calloc((size_t)runs, sizeof(double));
        if (!ms[k] || !start[k] || !end[k])
            die("out of memory", NULL);
    }
    for (int r = 0; r < runs; r++) {
        for (int k = 0; k < nlibs; k++) {
            pid_t pid;
            int status;
            double t0 = now_ns();
            if (posix_spawn(&pid, args[0], NULL, NULL, args, envs[k]) != 0)
                die("cannot run", args[0]);
            if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
                WEXITSTATUS(status) != 0)
                die("child failed:", args[0]);
            double t1 = now_ns();
            ms[k][r] = (t1 - t0) / 1e6;
            if (mark) {
                double tm = main_mark(pipefd[0], args[0]);
                start[k][r] = (tm - t0) / 1e6;
                end[k][r] = (t1 - tm) / 1e6;
            }
        }
    }
    for (int k = 0; k < nlibs; k++) {
        double sum = 0;
        for (int r = 0; r < runs; r++)
            sum += ms[k][r];
        printf("spawn %d %.4f %.4f", k, median_of(ms[k], runs), sum / runs);
        if (mark)
            printf(" %.4f %.4f", median_of(start[k], runs), median_of(end[k], runs));
        printf("\n");
    }
    return 0;
}

int main(int argc, char **argv)
{
    const char *usage = "usage: overhead calls [-d DIR] [-s SCALE] [-n N] [TEST...]\n"
                        "       overhead threads [-d DIR] [-n N] THREADS\n"
                        "       overhead spawn [-n RUNS] [-m] [-p LIB]... -- PROGRAM [ARGS...]\n";
    int rc = 2;
    if (argc >= 2) {
        const char *cmd = argv[1];
        argc--;
        argv++;
        if (strcmp(cmd, "calls") == 0)
            rc = cmd_calls(argc, argv);
        else if (strcmp(cmd, "threads") == 0)
            rc = cmd_threads(argc, argv);
        else if (strcmp(cmd, "spawn") == 0)
            rc = cmd_spawn(argc, argv);
    }
    if (rc == 2)
        fputs(usage, stderr);
    return rc;
}
