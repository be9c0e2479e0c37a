/* MPI_Finalize under a runtime, after every rank touched K files; run by
 * bench/shutdown-mpi.sh (in the spirit of the Darshan 3.0 paper's shutdown
 * benchmark).
 *
 *   shutdown_mpi PATTERN K DIR
 *       PATTERN shared: K files, each opened by every rank (K shared records);
 *       PATTERN fpp: K files per rank, each opened by its rank only.
 *       Each rank writes 16 bytes at its own offset of each file (open,
 *       pwrite, close), waits for the others (MPI_Barrier), times
 *       MPI_Finalize, and writes that time in ms into DIR/finalize.RANK (the
 *       script takes the largest: no rank can talk to another after it). */
#include <errno.h>
#include <fcntl.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

static void die(const char *what, const char *path)
{
    fprintf(stderr, "shutdown_mpi: %s %s: %s\n", what, path, strerror(errno));
    MPI_Abort(MPI_COMM_WORLD, 1);
}

/* Write 16 bytes at this rank's offset of path. */
static void touch(const char *path, int rank)
{
    static const char data[16] = "0123456789abcdef";
    int fd = open(path, O_WRONLY | O_CREAT, 0644);
    if (fd < 0)
        die("cannot open", path);
    if (pwrite(fd, data, sizeof(data), (off_t)rank * (off_t)sizeof(data)) != (ssize_t)sizeof(data))
        die("cannot write", path);
    if (close(fd) != 0)
        die("cannot close", path);
}

int main(int argc, char **argv)
{
    int rank, nprocs;
    char path[4096];

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    if (argc != 4 || (strcmp(argv[1], "shared") && strcmp(argv[1], "fpp"))) {
        if (rank == 0)
            fprintf(stderr, "usage: shutdown_mpi shared|fpp K DIR\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    int shared = !strcmp(argv[1], "shared");
    long k = strtol(argv[2], NULL, 10);
    const char *dir = argv[3];
    for (long i = 0; i < k; i++) {
        if (shared)
            snprintf(path, sizeof(path), "%s/s%06ld", dir, i);
        else
            snprintf(path, sizeof(path), "%s/r%04d.%06ld", dir, rank, i);
        touch(path, rank);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = now_ms();
    MPI_Finalize();
    double ms = now_ms() - t0;

    snprintf(path, sizeof(path), "%s/finalize.%d", dir, rank);
    FILE *f = fopen(path, "w");
    if (!f || fprintf(f, "%.3f\n", ms) < 0 || fclose(f) != 0)
        return 1;
    return 0;
}
