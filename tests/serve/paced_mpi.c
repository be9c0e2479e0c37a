/* The MPI twin of paced_writer.c, for iolens serve's test of an MPI job:
 * ROUNDS rounds, PAUSE_MS apart, in which rank R writes (R + 1) * 4 KiB with
 * MPI_File_write_at to its own block of the shared DIR/shared.dat, writes
 * 1 KiB with pwrite to DIR/rank.R and reads 512 bytes of its block back with
 * MPI_File_read_at; then rank 0 writes to a file whose name needs escaping in
 * HTML and JSON. Each rank's bytes differ, so that the page's series by rank
 * tell them apart.
 *
 *   mpirun -np N paced_mpi DIR ROUNDS PAUSE_MS */
#include <fcntl.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define BLOCK 4096

static int open_in(const char *dir, const char *name)
{
    char p[4096];
    snprintf(p, sizeof(p), "%s/%s", dir, name);
    int fd = open(p, O_CREAT | O_RDWR | O_TRUNC, 0644);
    if (fd < 0) {
        perror(p);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    return fd;
}

static void check_mpi(int rc, const char *what)
{
    if (rc != MPI_SUCCESS) {
        fprintf(stderr, "paced_mpi: %s failed (%d)\n", what, rc);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    if (argc != 4) {
        fprintf(stderr, "usage: paced_mpi DIR ROUNDS PAUSE_MS\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    int rank, nprocs;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    int rounds = (int)strtol(argv[2], NULL, 10);
    long pause_ms = strtol(argv[3], NULL, 10);
    int len = (rank + 1) * BLOCK;
    char *buf = malloc((size_t)len);
    if (!buf)
        MPI_Abort(MPI_COMM_WORLD, 1);
    memset(buf, 'x', (size_t)len);

    char path[4096], own[64];
    snprintf(path, sizeof(path), "%s/shared.dat", argv[1]);
    snprintf(own, sizeof(own), "rank.%d", rank);
    MPI_File fh;
    check_mpi(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR,
                            MPI_INFO_NULL, &fh), "MPI_File_open");
    int fd = open_in(argv[1], own);
    /* rank R's block of round I: after the blocks of ranks 0..R-1 of every round */
    MPI_Offset stride = (MPI_Offset)BLOCK * nprocs * (nprocs + 1) / 2;
    MPI_Offset before = (MPI_Offset)BLOCK * rank * (rank + 1) / 2;
    for (int i = 0; i < rounds; i++) {
        MPI_Offset off = i * stride + before;
        check_mpi(MPI_File_write_at(fh, off, buf, len, MPI_BYTE, MPI_STATUS_IGNORE),
                  "MPI_File_write_at");
        if (pwrite(fd, buf, 1024, (off_t)i * 1024) != 1024) {
            perror("pwrite");
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
        check_mpi(MPI_File_read_at(fh, off, buf, 512, MPI_BYTE, MPI_STATUS_IGNORE),
                  "MPI_File_read_at");
        if (i + 1 < rounds)
            nanosleep(&(struct timespec){pause_ms / 1000, (pause_ms % 1000) * 1000000L}, NULL);
    }
    check_mpi(MPI_File_close(&fh), "MPI_File_close");
    close(fd);
    if (rank == 0) {
        int e = open_in(argv[1], "esc <b>\"q'&.dat");
        if (write(e, buf, 10) != 10) {
            perror("write");
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
        close(e);
    }
    free(buf);
    MPI_Finalize();
    return 0;
}
