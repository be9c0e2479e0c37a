/* Combining records of one file into one record, counter by counter, by the
 * merge column of the module's counter tables (include/iolens/modules/).
 * Darshan 3.5 combines records in two ways that differ in a few rules; the
 * mode says which one to reproduce. */
#ifndef IOLENS_COMBINE_H
#define IOLENS_COMBINE_H

#include "iolens/api.h"
#include "iolens/module.h"
#include "iolens/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Which of Darshan 3.5's two combiners to reproduce. Where they differ is
 * listed once, in src/format/combine.c (struct mode_rules). */
typedef enum iolens_combine_mode {
    /* darshan-parser --total: any records of a module, one after the other,
     * into a zeroed record (iolens parse --total). */
    IOLENS_COMBINE_TOTAL,
    /* The MPI runtime's reduction of a file every rank has: each rank's
     * record prepared (iolens_combine_prepare), then combined two at a time
     * in the MPI library's order (libiolens-mpi.so; merging per-rank logs). */
    IOLENS_COMBINE_REDUCE,
} iolens_combine_mode;

/* Whether records of mod can be combined in mode: mod is fixed-size and
 * consistent, and mode applies every rule of its tables (REDUCE also needs
 * the bytes, times, fastest and slowest rank roles). @return 1 if so, else 0. */
IOLENS_API int iolens_combine_supported(const struct iolens_module_desc *mod,
                                        iolens_combine_mode mode);

/* Combine record src into dst, two records of module mod. first is non-zero
 * when src is the first record into dst: TOTAL merges it into a zeroed dst,
 * REDUCE copies it. Bytes outside the base, counters and fcounters are untouched.
 * @return IOLENS_OK, or IOLENS_ERR_ARGUMENT (dst unchanged) if mod is not supported in mode. */
IOLENS_API iolens_status iolens_combine_record(const struct iolens_module_desc *mod,
                                              iolens_combine_mode mode, void *dst,
                                              const void *src, int first);

/* REDUCE: make one rank's record of a shared file an input of the reduction:
 * its rank, bytes read + written and read + write + meta time become both the
 * fastest and the slowest rank's, and its rank -1. A module that keeps no
 * fastest or slowest rank (H5F, PNETCDF_FILE) only gets the rank -1.
 * @return IOLENS_OK, or IOLENS_ERR_ARGUMENT if mod keeps them without the
 *         roles that name their inputs. */
IOLENS_API iolens_status iolens_combine_prepare(const struct iolens_module_desc *mod, void *rec);

/* A partial population variance over ranks: count, total, and sum of squared
 * deviations from the mean. */
struct iolens_variance {
    double n, T, S;
};

/* REDUCE: one rank's part of the variances across ranks of I/O time (read +
 * write + meta) and of bytes (read + written), from its record (prepared or
 * not): n = 1, T = the value, S = 0.
 * @return IOLENS_OK, or IOLENS_ERR_ARGUMENT if mod lacks those roles. */
IOLENS_API iolens_status iolens_combine_variance_init(const struct iolens_module_desc *mod,
                                                     const void *rec,
                                                     struct iolens_variance *time,
                                                     struct iolens_variance *bytes);

/* REDUCE: merge partial variance in into acc, in the reference's arithmetic
 * (the last bits depend on the order, as the records' do). */
IOLENS_API void iolens_combine_variance_merge(const struct iolens_variance *in,
                                              struct iolens_variance *acc);

/* REDUCE: store the variances S / n of time and bytes in rec's VARIANCE_TIME
 * and VARIANCE_BYTES fcounters (which combining leaves 0). */
IOLENS_API void iolens_combine_variance_store(const struct iolens_module_desc *mod, void *rec,
                                              const struct iolens_variance *time,
                                              const struct iolens_variance *bytes);

/* REDUCE: does the MPI runtime reduce the shared records of mod, as Darshan
 * 3.5 does those of POSIX, MPI-IO, H5F, H5D, PNETCDF_FILE, PNETCDF_VAR and
 * STDIO (HEATMAP and the trace modules stay per rank)? @return 1 or 0. */
IOLENS_API int iolens_combine_reduced(const struct iolens_module_desc *mod);

/* REDUCE: does mod keep the variances across ranks of time and bytes (a
 * VARIANCE_TIME row; not H5F or PNETCDF_FILE)? @return 1 or 0. */
IOLENS_API int iolens_combine_has_variances(const struct iolens_module_desc *mod);

/* One step of a reduction over ranks: operand in is folded into operand
 * inout (each operand a rank's, holding whatever was folded into it). */
struct iolens_reduce_step {
    uint32_t in, inout;
};

/* The order in which Open MPI 4.1's MPI_Reduce (a commutative operation, root
 * 0) combines the operands of nprocs ranks for a message of bytes bytes: the
 * nprocs - 1 steps into steps (room for nprocs - 1).
 * @return the operand that holds the result (0 when nprocs is 0 or 1). */
IOLENS_API size_t iolens_combine_reduce_order(size_t nprocs, uint64_t bytes,
                                              struct iolens_reduce_step *steps);

/* REDUCE outside an MPI job: the shared record (rank -1) of one file from
 * its nprocs ranks' records (recs[r]: rank r's, as it recorded it), exactly
 * as the MPI runtime reduces it when the module has nshared shared records:
 * each prepared, combined in iolens_combine_reduce_order's order for a
 * message of nshared records, the variances in that of nshared variances.
 * Into out (record_size bytes). @return IOLENS_OK, IOLENS_ERR_ARGUMENT if
 * mod is not reduced, or IOLENS_ERR_NOMEM. */
IOLENS_API iolens_status iolens_combine_shared(const struct iolens_module_desc *mod,
                                              const void *const *recs, size_t nprocs,
                                              size_t nshared, void *out);

/* REDUCE across jobs: one record of a file from the shared records (rank
 * -1) that n jobs' logs hold of it: recs[k] from a job of nprocs[k] ranks
 * whose ranks are numbered from first_rank[k] in the combined log. Combined
 * as the runtime combines records (its fastest and slowest rank renumbered),
 * with the variances across all the jobs' ranks, taken from each record's
 * own (n = nprocs, T = its total, S = n x its variance). Into out
 * (record_size bytes). @return IOLENS_OK, IOLENS_ERR_ARGUMENT if mod is not
 * reduced, or IOLENS_ERR_NOMEM. */
IOLENS_API iolens_status iolens_combine_shared_jobs(const struct iolens_module_desc *mod,
                                                   const void *const *recs,
                                                   const int64_t *nprocs,
                                                   const int64_t *first_rank, size_t n,
                                                   void *out);

#ifdef __cplusplus
}
#endif
#endif
