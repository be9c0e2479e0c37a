/* The shared-record reduction of the MPI runtime, as Darshan 3.5 does it,
 * without MPI: the MPI code calls these from a commutative user operation
 * of MPI_Reduce (elementwise, incoming and accumulated record) and from the
 * two variance reductions that follow it. Which counter follows which rule
 * comes from the module's counter tables (include/iolens/modules/); what
 * the tables cannot say is in struct iol_reduce_mod (docs/runtime.md,
 * "Shared records", lists how this differs from `parse --total`). */
#ifndef IOL_RT_REDUCE_H
#define IOL_RT_REDUCE_H

#include <stddef.h>

#include "iolens/module.h"
#include "iolens/modules/mpiio.h"
#include "iolens/modules/posix.h"
#include "iolens/modules/stdio.h"

/* A module's reduction: its descriptor (tables and roles), and the facts of
 * Darshan's runtime reduction that the tables do not hold. */
struct iol_reduce_mod {
    const struct iolens_module_desc *desc;
    size_t nclamped;      /* leading counters whose negative sums become -1 */
    int f_variance_time;  /* fcounter for the variance of ranks' I/O time */
    int f_variance_bytes; /* fcounter for the variance of ranks' bytes */
};

extern const struct iol_reduce_mod iol_reduce_posix, iol_reduce_mpiio, iol_reduce_stdio;

/* Running population variance of one value across ranks: count, total and
 * sum of squared deviations from the mean, merged pairwise. */
struct iol_variance {
    double n, T, S;
};

/* Whether every rule in m's counter tables is one iol_reduce_combine applies.
 * @return 1 if so, else 0. */
int iol_reduce_supported(const struct iol_reduce_mod *m);

/* Before reducing, each rank makes its copy of a shared record the starting
 * point: it is both fastest and slowest rank (its bytes read+written, its
 * read+write+meta time), and its rank becomes -1. */
void iol_reduce_prepare(const struct iol_reduce_mod *m, void *rec);

/* Combine incoming record in into accumulated record acc (both prepared, of
 * one file): acc becomes the pair's reduction; its variances are 0 until
 * iol_reduce_set_variances. */
void iol_reduce_combine(const struct iol_reduce_mod *m, const void *in, void *acc);

/* iol_reduce_combine over n records side by side (the MPI operation's arrays). */
void iol_reduce_combine_n(const struct iol_reduce_mod *m, const void *in, void *acc, size_t n);

/* A rank's contribution to the variance of I/O time: read+write+meta time. */
struct iol_variance iol_reduce_time_var(const struct iol_reduce_mod *m, const void *rec);

/* A rank's contribution to the variance of bytes: bytes read + written. */
struct iol_variance iol_reduce_bytes_var(const struct iol_reduce_mod *m, const void *rec);

/* Merge the incoming partial variance in into the accumulated one acc. */
void iol_variance_merge(const struct iol_variance *in, struct iol_variance *acc);

/* Store the population variances (S / n) of the reduced time and bytes in rec. */
void iol_reduce_set_variances(const struct iol_reduce_mod *m, void *rec,
                              const struct iol_variance *time, const struct iol_variance *bytes);

/* The combine step of each module, typed. */
void iol_reduce_posix_combine(const struct iolens_posix_record *in,
                              struct iolens_posix_record *acc);
void iol_reduce_mpiio_combine(const struct iolens_mpiio_record *in,
                              struct iolens_mpiio_record *acc);
void iol_reduce_stdio_combine(const struct iolens_stdio_record *in,
                              struct iolens_stdio_record *acc);

/* Merge a "four most common values" group (values v[0..3], counts c[0..3]):
 * in's group into acc's, losing what falls past the fourth place. in's
 * counts are taken by value (the function works on copies). */
void iol_reduce_top4(const int64_t in_v[4], const int64_t in_c[4], int64_t acc_v[4],
                     int64_t acc_c[4]);

#endif
