/* The I/O calls iolens predict recognises: POSIX, STDIO, MPI-IO, HDF5 and
 * PnetCDF, with where each keeps its size, offset and path. One table; the
 * walk asks it by name. */
#include <string.h>

#include "internal.h"

#define NONE -1

/* name, interface, operation, size, count, datatype, offset, path, flags */
static const struct pr_iofunc iofuncs[] = {
    /* POSIX */
    {"open", PR_POSIX, OP_OPEN, NONE, NONE, NONE, NONE, 0, 0},
    {"open64", PR_POSIX, OP_OPEN, NONE, NONE, NONE, NONE, 0, 0},
    {"openat", PR_POSIX, OP_OPEN, NONE, NONE, NONE, NONE, 1, 0},
    {"creat", PR_POSIX, OP_OPEN, NONE, NONE, NONE, NONE, 0, 0},
    {"close", PR_POSIX, OP_CLOSE, NONE, NONE, NONE, NONE, NONE, 0},
    {"read", PR_POSIX, OP_READ, 2, NONE, NONE, NONE, NONE, 0},
    {"write", PR_POSIX, OP_WRITE, 2, NONE, NONE, NONE, NONE, 0},
    {"pread", PR_POSIX, OP_READ, 2, NONE, NONE, 3, NONE, 0},
    {"pread64", PR_POSIX, OP_READ, 2, NONE, NONE, 3, NONE, 0},
    {"pwrite", PR_POSIX, OP_WRITE, 2, NONE, NONE, 3, NONE, 0},
    {"pwrite64", PR_POSIX, OP_WRITE, 2, NONE, NONE, 3, NONE, 0},
    {"readv", PR_POSIX, OP_READ, NONE, NONE, NONE, NONE, NONE, 0},
    {"writev", PR_POSIX, OP_WRITE, NONE, NONE, NONE, NONE, NONE, 0},
    {"preadv", PR_POSIX, OP_READ, NONE, NONE, NONE, 3, NONE, 0},
    {"pwritev", PR_POSIX, OP_WRITE, NONE, NONE, NONE, 3, NONE, 0},
    {"lseek", PR_POSIX, OP_SEEK, NONE, NONE, NONE, 1, NONE, 0},
    {"lseek64", PR_POSIX, OP_SEEK, NONE, NONE, NONE, 1, NONE, 0},
    {"fsync", PR_POSIX, OP_FLUSH, NONE, NONE, NONE, NONE, NONE, 0},
    {"fdatasync", PR_POSIX, OP_FLUSH, NONE, NONE, NONE, NONE, NONE, 0},
    {"sync", PR_POSIX, OP_FLUSH, NONE, NONE, NONE, NONE, NONE, 0},
    {"stat", PR_POSIX, OP_META, NONE, NONE, NONE, NONE, NONE, 0},
    {"lstat", PR_POSIX, OP_META, NONE, NONE, NONE, NONE, NONE, 0},
    {"fstat", PR_POSIX, OP_META, NONE, NONE, NONE, NONE, NONE, 0},
    {"ftruncate", PR_POSIX, OP_META, NONE, NONE, NONE, NONE, NONE, 0},
    {"unlink", PR_POSIX, OP_META, NONE, NONE, NONE, NONE, NONE, 0},
    {"rename", PR_POSIX, OP_META, NONE, NONE, NONE, NONE, NONE, 0},
    {"aio_read", PR_POSIX, OP_READ, NONE, NONE, NONE, NONE, NONE, IO_ASYNC},
    {"aio_write", PR_POSIX, OP_WRITE, NONE, NONE, NONE, NONE, NONE, IO_ASYNC},
    /* STDIO */
    {"fopen", PR_STDIO, OP_OPEN, NONE, NONE, NONE, NONE, 0, 0},
    {"fopen64", PR_STDIO, OP_OPEN, NONE, NONE, NONE, NONE, 0, 0},
    {"freopen", PR_STDIO, OP_OPEN, NONE, NONE, NONE, NONE, 0, 0},
    {"fdopen", PR_STDIO, OP_OPEN, NONE, NONE, NONE, NONE, NONE, 0},
    {"fclose", PR_STDIO, OP_CLOSE, NONE, NONE, NONE, NONE, NONE, 0},
    {"fread", PR_STDIO, OP_READ, 1, 2, NONE, NONE, NONE, 0},
    {"fwrite", PR_STDIO, OP_WRITE, 1, 2, NONE, NONE, NONE, 0},
    {"fread_unlocked", PR_STDIO, OP_READ, 1, 2, NONE, NONE, NONE, 0},
    {"fwrite_unlocked", PR_STDIO, OP_WRITE, 1, 2, NONE, NONE, NONE, 0},
    {"fgets", PR_STDIO, OP_READ, NONE, NONE, NONE, NONE, NONE, IO_TEXT},
    {"getline", PR_STDIO, OP_READ, NONE, NONE, NONE, NONE, NONE, IO_TEXT},
    {"fscanf", PR_STDIO, OP_READ, NONE, NONE, NONE, NONE, NONE, IO_TEXT},
    {"scanf", PR_STDIO, OP_READ, NONE, NONE, NONE, NONE, NONE, IO_TEXT},
    {"fgetc", PR_STDIO, OP_READ, NONE, NONE, NONE, NONE, NONE, IO_TEXT | IO_ONEBYTE},
    {"getc", PR_STDIO, OP_READ, NONE, NONE, NONE, NONE, NONE, IO_TEXT | IO_ONEBYTE},
    {"getchar", PR_STDIO, OP_READ, NONE, NONE, NONE, NONE, NONE, IO_TEXT | IO_ONEBYTE},
    {"fputc", PR_STDIO, OP_WRITE, NONE, NONE, NONE, NONE, NONE, IO_TEXT | IO_ONEBYTE},
    {"putc", PR_STDIO, OP_WRITE, NONE, NONE, NONE, NONE, NONE, IO_TEXT | IO_ONEBYTE},
    {"putchar", PR_STDIO, OP_WRITE, NONE, NONE, NONE, NONE, NONE, IO_TEXT | IO_ONEBYTE},
    {"fputs", PR_STDIO, OP_WRITE, 0, NONE, NONE, NONE, NONE, IO_TEXT | IO_LITSIZE},
    {"puts", PR_STDIO, OP_WRITE, 0, NONE, NONE, NONE, NONE, IO_TEXT | IO_LITSIZE},
    {"fprintf", PR_STDIO, OP_WRITE, 1, NONE, NONE, NONE, NONE, IO_TEXT | IO_LITSIZE},
    {"printf", PR_STDIO, OP_WRITE, 0, NONE, NONE, NONE, NONE, IO_TEXT | IO_LITSIZE},
    {"dprintf", PR_POSIX, OP_WRITE, 1, NONE, NONE, NONE, NONE, IO_TEXT | IO_LITSIZE},
    {"vfprintf", PR_STDIO, OP_WRITE, NONE, NONE, NONE, NONE, NONE, IO_TEXT},
    {"vprintf", PR_STDIO, OP_WRITE, NONE, NONE, NONE, NONE, NONE, IO_TEXT},
    {"fseek", PR_STDIO, OP_SEEK, NONE, NONE, NONE, 1, NONE, 0},
    {"fseeko", PR_STDIO, OP_SEEK, NONE, NONE, NONE, 1, NONE, 0},
    {"rewind", PR_STDIO, OP_SEEK, NONE, NONE, NONE, NONE, NONE, 0},
    {"ftell", PR_STDIO, OP_META, NONE, NONE, NONE, NONE, NONE, 0},
    {"fflush", PR_STDIO, OP_FLUSH, NONE, NONE, NONE, NONE, NONE, 0},
    /* MPI-IO: (fh, [offset,] buf, count, datatype, status|request) */
    {"MPI_File_open", PR_MPIIO, OP_OPEN, NONE, NONE, NONE, NONE, 1, 0},
    {"MPI_File_close", PR_MPIIO, OP_CLOSE, NONE, NONE, NONE, NONE, NONE, 0},
    {"MPI_File_sync", PR_MPIIO, OP_FLUSH, NONE, NONE, NONE, NONE, NONE, 0},
    {"MPI_File_read", PR_MPIIO, OP_READ, 2, NONE, 3, NONE, NONE, 0},
    {"MPI_File_write", PR_MPIIO, OP_WRITE, 2, NONE, 3, NONE, NONE, 0},
    {"MPI_File_read_all", PR_MPIIO, OP_READ, 2, NONE, 3, NONE, NONE, IO_COLLECTIVE},
    {"MPI_File_write_all", PR_MPIIO, OP_WRITE, 2, NONE, 3, NONE, NONE, IO_COLLECTIVE},
    {"MPI_File_read_at", PR_MPIIO, OP_READ, 3, NONE, 4, 1, NONE, 0},
    {"MPI_File_write_at", PR_MPIIO, OP_WRITE, 3, NONE, 4, 1, NONE, 0},
    {"MPI_File_read_at_all", PR_MPIIO, OP_READ, 3, NONE, 4, 1, NONE, IO_COLLECTIVE},
    {"MPI_File_write_at_all", PR_MPIIO, OP_WRITE, 3, NONE, 4, 1, NONE, IO_COLLECTIVE},
    {"MPI_File_iread", PR_MPIIO, OP_READ, 2, NONE, 3, NONE, NONE, IO_ASYNC},
    {"MPI_File_iwrite", PR_MPIIO, OP_WRITE, 2, NONE, 3, NONE, NONE, IO_ASYNC},
    {"MPI_File_iread_all", PR_MPIIO, OP_READ, 2, NONE, 3, NONE, NONE, IO_ASYNC | IO_COLLECTIVE},
    {"MPI_File_iwrite_all", PR_MPIIO, OP_WRITE, 2, NONE, 3, NONE, NONE, IO_ASYNC | IO_COLLECTIVE},
    {"MPI_File_iread_at", PR_MPIIO, OP_READ, 3, NONE, 4, 1, NONE, IO_ASYNC},
    {"MPI_File_iwrite_at", PR_MPIIO, OP_WRITE, 3, NONE, 4, 1, NONE, IO_ASYNC},
    {"MPI_File_read_shared", PR_MPIIO, OP_READ, 2, NONE, 3, NONE, NONE, 0},
    {"MPI_File_write_shared", PR_MPIIO, OP_WRITE, 2, NONE, 3, NONE, NONE, 0},
    {"MPI_File_read_ordered", PR_MPIIO, OP_READ, 2, NONE, 3, NONE, NONE, IO_COLLECTIVE},
    {"MPI_File_write_ordered", PR_MPIIO, OP_WRITE, 2, NONE, 3, NONE, NONE, IO_COLLECTIVE},
    {"MPI_File_seek", PR_MPIIO, OP_SEEK, NONE, NONE, NONE, 1, NONE, 0},
    {"MPI_File_set_view", PR_MPIIO, OP_META, NONE, NONE, NONE, NONE, NONE, IO_COLLECTIVE},
    {"MPI_File_set_size", PR_MPIIO, OP_META, NONE, NONE, NONE, NONE, NONE, IO_COLLECTIVE},
    /* HDF5: sizes come from dataspaces, not from the call */
    {"H5Fcreate", PR_HDF5, OP_OPEN, NONE, NONE, NONE, NONE, 0, 0},
    {"H5Fopen", PR_HDF5, OP_OPEN, NONE, NONE, NONE, NONE, 0, 0},
    {"H5Fclose", PR_HDF5, OP_CLOSE, NONE, NONE, NONE, NONE, NONE, 0},
    {"H5Fflush", PR_HDF5, OP_FLUSH, NONE, NONE, NONE, NONE, NONE, 0},
    {"H5Dcreate", PR_HDF5, OP_META, NONE, NONE, NONE, NONE, NONE, 0},
    {"H5Dcreate2", PR_HDF5, OP_META, NONE, NONE, NONE, NONE, NONE, 0},
    {"H5Dopen", PR_HDF5, OP_META, NONE, NONE, NONE, NONE, NONE, 0},
    {"H5Dopen2", PR_HDF5, OP_META, NONE, NONE, NONE, NONE, NONE, 0},
    {"H5Dclose", PR_HDF5, OP_META, NONE, NONE, NONE, NONE, NONE, 0},
    {"H5Dread", PR_HDF5, OP_READ, NONE, NONE, NONE, NONE, NONE, 0},
    {"H5Dwrite", PR_HDF5, OP_WRITE, NONE, NONE, NONE, NONE, NONE, 0},
    {"H5Aread", PR_HDF5, OP_READ, NONE, NONE, NONE, NONE, NONE, 0},
    {"H5Awrite", PR_HDF5, OP_WRITE, NONE, NONE, NONE, NONE, NONE, 0},
    /* PnetCDF */
    {"ncmpi_create", PR_PNETCDF, OP_OPEN, NONE, NONE, NONE, NONE, 1, 0},
    {"ncmpi_open", PR_PNETCDF, OP_OPEN, NONE, NONE, NONE, NONE, 1, 0},
    {"ncmpi_close", PR_PNETCDF, OP_CLOSE, NONE, NONE, NONE, NONE, NONE, 0},
    {"ncmpi_sync", PR_PNETCDF, OP_FLUSH, NONE, NONE, NONE, NONE, NONE, 0},
    {"ncmpi_enddef", PR_PNETCDF, OP_META, NONE, NONE, NONE, NONE, NONE, 0},
    {"ncmpi_def_", PR_PNETCDF, OP_META, NONE, NONE, NONE, NONE, NONE, IO_PREFIX},
    {"ncmpi_put_", PR_PNETCDF, OP_WRITE, NONE, NONE, NONE, NONE, NONE, IO_PREFIX},
    {"ncmpi_get_", PR_PNETCDF, OP_READ, NONE, NONE, NONE, NONE, NONE, IO_PREFIX},
    {"ncmpi_iput_", PR_PNETCDF, OP_WRITE, NONE, NONE, NONE, NONE, NONE, IO_PREFIX | IO_ASYNC},
    {"ncmpi_bput_", PR_PNETCDF, OP_WRITE, NONE, NONE, NONE, NONE, NONE, IO_PREFIX | IO_ASYNC},
    {"ncmpi_iget_", PR_PNETCDF, OP_READ, NONE, NONE, NONE, NONE, NONE, IO_PREFIX | IO_ASYNC},
};

const struct pr_iofunc *pr_iofunc_find(const char *name)
{
    /* Every name in the table starts with one of these letters. */
    if (!strchr("ocrwplfsaudgmMHn", name[0]))
        return NULL;
    for (size_t i = 0; i < sizeof(iofuncs) / sizeof(iofuncs[0]); i++) {
        const struct pr_iofunc *f = &iofuncs[i];
        if (f->flags & IO_PREFIX ? !strncmp(name, f->name, strlen(f->name))
                                 : !strcmp(name, f->name))
            return f;
    }
    return NULL;
}

int pr_is_random_source(const char *name)
{
    static const char *const sources[] = {"rand", "random", "rand_r", "lrand48", "mrand48",
                                          "drand48", "erand48", "nrand48", "jrand48",
                                          "random_r", "arc4random", "arc4random_uniform"};
    for (size_t i = 0; i < sizeof(sources) / sizeof(sources[0]); i++)
        if (!strcmp(name, sources[i]))
            return 1;
    return 0;
}

int pr_mpi_type_size(const char *name)
{
    static const struct {
        const char *name;
        int size;
    } types[] = {{"MPI_BYTE", 1},   {"MPI_CHAR", 1},          {"MPI_UNSIGNED_CHAR", 1},
                 {"MPI_SHORT", 2},  {"MPI_INT", 4},           {"MPI_UNSIGNED", 4},
                 {"MPI_FLOAT", 4},  {"MPI_INT32_T", 4},       {"MPI_LONG", 8},
                 {"MPI_DOUBLE", 8}, {"MPI_LONG_LONG", 8},     {"MPI_UNSIGNED_LONG", 8},
                 {"MPI_INT64_T", 8}, {"MPI_LONG_LONG_INT", 8}, {"MPI_LONG_DOUBLE", 16}};
    for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++)
        if (!strcmp(name, types[i].name))
            return types[i].size;
    return 0;
}
