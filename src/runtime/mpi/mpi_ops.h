/* The interface between libiolens.so and libiolens-mpi.so.
 *
 * libiolens.so must not depend on an MPI library: a program without MPI must
 * not load one because of iolens. Everything that calls MPI therefore lives
 * in libiolens-mpi.so, which the MPI_Init wrapper dlopen()s from the
 * directory libiolens.so was loaded from, and reaches through one const
 * table, the symbol IOL_MPI_OPS_SYMBOL. Both libraries come from the same
 * build; the version number guards against mixing builds. */
#ifndef IOL_RT_MPI_OPS_H
#define IOL_RT_MPI_OPS_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "common/recfile.h"
#include "format/runtime_api.h"
#include "core/paths.h"

#define IOL_MPI_OPS_SYMBOL "iolens_mpi_ops"
#define IOL_MPI_OPS_VERSION 8
#define IOL_MPI_LIB_NAME "libiolens-mpi.so"
#define IOL_MPI_MAX_PATHS 3 /* candidate log paths, tried in order */

/* What libiolens.so lends libiolens-mpi.so. */
struct iol_mpi_host {
    void (*vdiag)(const char *fmt, va_list ap); /* iol_diag with a va_list */
};

/* One module's records of this process, as they go into the log. */
struct iol_mpi_module {
    int mod_id;              /* log module id */
    uint32_t partial;        /* 1: records were dropped */
    size_t rec_size;         /* bytes of one decoded record; 0: variable-size
                              * records (a trace module's) packed one after the
                              * other, each its module's var_size bytes */
    size_t count;            /* records at recs */
    unsigned char *recs;     /* count decoded records, rank already set */
};

/* One record name of this process and the modules that have a record of it. */
struct iol_mpi_name {
    uint64_t id;
    uint64_t mods;           /* bit (1 << module id) per module with this record */
    const char *name;        /* NUL-terminated, in the record file */
};

/* Everything one process contributes to the job's log. libiolens-mpi.so may
 * change records and counts in place (the shared-record reduction). */
struct iol_mpi_local {
    struct iol_maplog_job job;              /* this process's job data, end time set */
    struct iol_mpi_name *names;             /* by increasing id, once each */
    size_t nnames;
    struct iol_mpi_module mods[IOL_MAP_MAX_MODS]; /* by increasing module id */
    size_t nmods;
    char paths[IOL_MPI_MAX_PATHS][IOL_PATH_MAX]; /* log paths to try (rank 0's count) */
    size_t npaths;
    unsigned mode;                          /* permission bits of the finished log */
    int disable_shared_reduction;           /* DISABLE_SHARED_REDUCTION on this process */
    int log_per_rank;                       /* LOG_PER_RANK on this process (any rank's
                                             * holds for the job) */
    iolens_log_compat log_compat;           /* LOG_COMPAT on this process (any rank's
                                             * 3.5 holds for the job) */
    const char *log_hints;                  /* LOGHINTS: "key=value;..." MPI-IO hints of
                                             * the log ("": none), NULL for the default
                                             * of libiolens-mpi.so (rank 0's count) */
};

/* The table libiolens-mpi.so exports as IOL_MPI_OPS_SYMBOL. */
struct iol_mpi_ops {
    uint32_t version; /* IOL_MPI_OPS_VERSION */

    /* Collective over MPI_COMM_WORLD, right after the real MPI_Init: keep a
     * duplicate of the world communicator, learn this process's rank and the
     * world size, and agree whether every process is recording (recording:
     * this one is). *jobid receives rank 0's job id (0 when rank 0 has
     * none), so that every rank's events name one job even without a
     * scheduler's id. @return 1 if the job log will be written (all record),
     * 0 if not (then each process records on its own), -1 on an MPI error. */
    int (*init)(const struct iol_mpi_host *host, int recording, int *rank, int *nprocs,
                int64_t *jobid);

    /* Collective, before the real MPI_Finalize: write the one log of the job
     * from every process's local (NULL: this process has nothing, and then no
     * process writes a log). written receives the log's path on rank 0.
     * With LOG_PER_RANK on any process, each writes a log of its own instead
     * (rank_log.c), written receiving its path.
     * @return 0 if the log is complete under its final name, -1 if no log was
     * written (on every process alike; with LOG_PER_RANK, this process's). */
    int (*write_job_log)(struct iol_mpi_local *local, char *written, size_t len);

    /* Free the duplicate communicator (before the real MPI_Finalize). */
    void (*finalize)(void);

    /* MPI_INFO_NULL and MPI_DATATYPE_NULL, each stored in an object of its
     * handle type (MPI_Info, MPI_Datatype), for the MPI-IO wrappers: in Open
     * MPI these handles are addresses of objects in libmpi, which
     * libiolens.so must not reference. */
    const void *info_null;
    const void *datatype_null;
};

#endif
