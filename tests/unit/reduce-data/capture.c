/* Capture the inputs and results of the reference runtime's shared-record
 * reductions, to make the test data beside this file (see README.md).
 * Preloaded before libdarshan.so, it interposes PMPI_Reduce, which the
 * reference calls from its shutdown for the records of each module and for
 * the two variances. Not built by CMake: it needs MPI and serves only to
 * remake the data. Build: mpicc -shared -fPIC -o capture.so capture.c -ldl */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

typedef int (*reduce_fn)(const void *, void *, int, MPI_Datatype, MPI_Op, int, MPI_Comm);

/* Append one buffer to RED_CAPTURE/red.<world rank>: a text line naming the
 * call, then the bytes. Raw system calls, so that nothing done here passes
 * through the reference's wrappers of open, write and fopen. */
static void dump(int seq, const char *what, int esize, int count, const void *buf)
{
    const char *dir = getenv("RED_CAPTURE");
    int wrank = 0, fd;
    char path[4096], line[128];

    if (!dir)
        return;
    PMPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    snprintf(path, sizeof(path), "%s/red.%d", dir, wrank);
    fd = (int)syscall(SYS_openat, AT_FDCWD, path, O_WRONLY | O_CREAT | O_APPEND, 0644);
    if (fd < 0)
        return;
    int n = snprintf(line, sizeof(line), "%d %s %d %d\n", seq, what, esize, count);
    if (syscall(SYS_write, fd, line, (size_t)n) != n ||
        syscall(SYS_write, fd, buf, (size_t)esize * (size_t)count) != (long)esize * count)
        (void)syscall(SYS_write, 2, "capture: short write\n", 21);
    syscall(SYS_close, fd);
}

int PMPI_Reduce(const void *sbuf, void *rbuf, int count, MPI_Datatype dt, MPI_Op op, int root,
                MPI_Comm comm)
{
    static reduce_fn real;
    static int seq;
    int esize = 0, rank = 0, ret;

    if (!real)
        real = (reduce_fn)dlsym(RTLD_NEXT, "PMPI_Reduce");
    PMPI_Type_size(dt, &esize);
    PMPI_Comm_rank(comm, &rank);
    seq++;
    /* The send buffer before the call: the reference's operator writes into
     * its first operand, which may be this buffer. */
    if (count > 0 && sbuf != MPI_IN_PLACE)
        dump(seq, "send", esize, count, sbuf);
    ret = real(sbuf, rbuf, count, dt, op, root, comm);
    if (count > 0 && rank == root)
        dump(seq, "recv", esize, count, rbuf);
    return ret;
}
