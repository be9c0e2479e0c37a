/* Cost per intercepted MPI-IO call, on one rank (a singleton MPI process or
 * one rank of mpirun): the MPI-IO counterpart of overhead.c's `calls`.
 *
 *   overhead_mpi [-d DIR] [-n N] [-w MS] [TEST...]
 *       TEST: write_at (MPI_File_write_at of 64 B, offsets cycling over
 *       64 KiB) or write (MPI_File_write of 64 B at the individual file
 *       pointer, back to 0 every 1,024 calls); default both. Each runs N
 *       times (default 100,000) after a warm-up of N/10 calls lasting at
 *       least MS milliseconds, and prints "TEST NS" (nanoseconds per call).
 *       The timed loop is bench_loop, so `valgrind --tool=callgrind
 *       --collect-atstart=no --toggle-collect=bench_loop` counts only its
 *       instructions.
 *
 * The file is DIR/overhead_mpi.RANK.dat (DIR default /dev/shm), removed at
 * the end. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define REWIND 1024

struct ctx {
    MPI_File fh;
    char buf[64];
};

typedef void (*op_fn)(struct ctx *c, long i);

static void op_write_at(struct ctx *c, long i)
{
    MPI_Status st;
    if (MPI_File_write_at(c->fh, (MPI_Offset)(i & (REWIND - 1)) * 64, c->buf, 64, MPI_BYTE,
                          &st) != MPI_SUCCESS)
        abort();
}

static void op_write(struct ctx *c, long i)
{
    MPI_Status st;
    if (MPI_File_write(c->fh, c->buf, 64, MPI_BYTE, &st) != MPI_SUCCESS)
        abort();
    if ((i & (REWIND - 1)) == REWIND - 1)
        MPI_File_seek(c->fh, 0, MPI_SEEK_SET);
}

static const struct test {
    const char *name;
    op_fn op;
} tests[] = {
    {"write_at", op_write_at},
    {"write", op_write},
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

int main(int argc, char **argv)
{
    const char *dir = "/dev/shm";
    long n = 100000;
    double warm_ms = 0;
    int opt, rank;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    while ((opt = getopt(argc, argv, "d:n:w:")) != -1) {
        if (opt == 'd')
            dir = optarg;
        else if (opt == 'n')
            n = strtol(optarg, NULL, 10);
        else if (opt == 'w')
            warm_ms = strtod(optarg, NULL);
        else
            MPI_Abort(MPI_COMM_WORLD, 2);
    }
    if (n < 1)
        n = 1;
    char path[4096];
    snprintf(path, sizeof(path), "%s/overhead_mpi.%d.dat", dir, rank);
    for (size_t k = 0; k < NTESTS; k++) {
        int wanted = optind >= argc;
        for (int a = optind; a < argc; a++)
            wanted |= strcmp(argv[a], tests[k].name) == 0;
        if (!wanted)
            continue;
        struct ctx c;
        memset(c.buf, 'm', sizeof(c.buf));
        if (MPI_File_open(MPI_COMM_SELF, path, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL,
                          &c.fh) != MPI_SUCCESS) {
            fprintf(stderr, "overhead_mpi: cannot open %s\n", path);
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
        double warm_end = now_ns() + warm_ms * 1e6;
        do {
            warm_loop(tests[k].op, &c, n / 10 + 1);
            MPI_File_seek(c.fh, 0, MPI_SEEK_SET); /* each loop counts from 0 */
        } while (now_ns() < warm_end);
        double t0 = now_ns();
        bench_loop(tests[k].op, &c, n);
        double t1 = now_ns();
        MPI_File_close(&c.fh);
        printf("%s %.1f\n", tests[k].name, (t1 - t0) / (double)n);
    }
    MPI_File_delete(path, MPI_INFO_NULL);
    MPI_Finalize();
    return 0;
}
