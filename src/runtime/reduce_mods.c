/* The three reduced modules: what Darshan 3.5's runtime reduction does that
 * their counter tables do not say, and the typed combine steps. */
#include "reduce.h"

/* Only the operation counts, OPENS through RENAME_TARGETS, are clamped to -1
 * (POSIX_MMAPS is -1 when mmap is not watched); bytes, histograms and the
 * rest are summed as they are. */
const struct iol_reduce_mod iol_reduce_posix = {
    .desc = &iolens_posix_module,
    .nclamped = POSIX_RENAME_TARGETS + 1,
    .f_variance_time = POSIX_F_VARIANCE_RANK_TIME,
    .f_variance_bytes = POSIX_F_VARIANCE_RANK_BYTES,
};

/* MPI-IO and STDIO sums are never clamped. */
const struct iol_reduce_mod iol_reduce_mpiio = {
    .desc = &iolens_mpiio_module,
    .nclamped = 0,
    .f_variance_time = MPIIO_F_VARIANCE_RANK_TIME,
    .f_variance_bytes = MPIIO_F_VARIANCE_RANK_BYTES,
};

const struct iol_reduce_mod iol_reduce_stdio = {
    .desc = &iolens_stdio_module,
    .nclamped = 0,
    .f_variance_time = STDIO_F_VARIANCE_RANK_TIME,
    .f_variance_bytes = STDIO_F_VARIANCE_RANK_BYTES,
};

void iol_reduce_posix_combine(const struct iolens_posix_record *in,
                              struct iolens_posix_record *acc)
{
    iol_reduce_combine(&iol_reduce_posix, in, acc);
}

void iol_reduce_mpiio_combine(const struct iolens_mpiio_record *in,
                              struct iolens_mpiio_record *acc)
{
    iol_reduce_combine(&iol_reduce_mpiio, in, acc);
}

void iol_reduce_stdio_combine(const struct iolens_stdio_record *in,
                              struct iolens_stdio_record *acc)
{
    iol_reduce_combine(&iol_reduce_stdio, in, acc);
}
