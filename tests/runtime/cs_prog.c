/* A program with known call sites, for rt_callsites.sh: built with -g
 * -finstrument-functions. Each I/O call is on a line marked SITE-<name>, so
 * that the test finds its line number in this file.
 *
 *   cs_prog DIR        sites: write_small 10 x 100 bytes, write_big 3 x 4096,
 *                      read_back 5 x 64 (pread), log_lines 4 fputs of 6 bytes
 *                      and 2 fwrite of 1000; main calls each once, opens,
 *                      seeks, syncs and closes the file and the stream,
 *                      stats and renames the stream's file, then puts 13
 *                      bytes
 *   cs_prog DIR mpi    the same, plus MPI_Init/Finalize (built with mpicc) and
 *                      an MPI-IO file opened, written (100 bytes a rank),
 *                      synced and closed by all ranks */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#ifdef CS_MPI
#include <mpi.h>
#endif

static char buf[4096];

void write_small(int fd)
{
    for (int i = 0; i < 10; i++)
        if (write(fd, buf, 100) != 100) /* SITE-small */
            return;
}

void write_big(int fd)
{
    for (int i = 0; i < 3; i++)
        if (write(fd, buf, 4096) != 4096) /* SITE-big */
            return;
}

void read_back(int fd)
{
    for (int i = 0; i < 5; i++)
        if (pread(fd, buf, 64, 64 * i) != 64) /* SITE-read */
            return;
}

void log_lines(FILE *f)
{
    for (int i = 0; i < 4; i++)
        fputs("event\n", f); /* SITE-fputs */
    for (int i = 0; i < 2; i++)
        fwrite(buf, 1, 1000, f); /* SITE-fwrite */
}

int main(int argc, char **argv)
{
    char path[4096];
    if (argc < 2)
        return 2;
#ifdef CS_MPI
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    snprintf(path, sizeof(path), "%s/data.%d", argv[1], rank);
#else
    snprintf(path, sizeof(path), "%s/data", argv[1]);
#endif
    int fd = open(path, O_CREAT | O_RDWR | O_TRUNC, 0644); /* SITE-open */
    if (fd < 0)
        return 1;
    write_small(fd);
    write_big(fd);
    read_back(fd);
    if (lseek(fd, 0, SEEK_END) < 0) /* SITE-lseek */
        return 1;
    fsync(fd); /* SITE-fsync */
    close(fd); /* SITE-close */
    size_t len = strlen(path);
    snprintf(path + len, sizeof(path) - len, ".txt");
    FILE *f = fopen(path, "w"); /* SITE-fopen */
    if (!f)
        return 1;
    log_lines(f);
    fflush(f); /* SITE-fflush */
    fseek(f, 0, SEEK_SET); /* SITE-fseek */
    fclose(f); /* SITE-fclose */
    struct stat st;
    if (stat(path, &st) != 0) /* SITE-stat */
        return 1;
    char moved[4096 + 4];
    snprintf(moved, sizeof(moved), "%s.old", path);
    if (rename(path, moved) != 0) /* SITE-rename */
        return 1;
#ifdef CS_MPI
    snprintf(path, sizeof(path), "%s/shared", argv[1]);
    MPI_File fh;
    if (MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR, /* SITE-mpiopen */
                      MPI_INFO_NULL, &fh) != MPI_SUCCESS)
        return 1;
    MPI_File_write_at(fh, rank * 100, buf, 100, MPI_BYTE, MPI_STATUS_IGNORE); /* SITE-mpiwrite */
    MPI_File_sync(fh);   /* SITE-mpisync */
    MPI_File_close(&fh); /* SITE-mpiclose */
    MPI_Finalize();
#endif
    puts("cs_prog done"); /* SITE-puts */
    return 0;
}
