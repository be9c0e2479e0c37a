/* The MPI job: loading libiolens-mpi.so, starting and ending the job. */
#include "mpi_job.h"

#include <dlfcn.h>
#include <string.h>

#include "core/core.h"
#include "core/diag.h"
#include "core/logwrite.h"
#include "events/events.h"
#include "mpiio/mpi_io.h"

static const struct iol_mpi_ops *ops; /* NULL: no MPI job (per-process logs) */
static int job_log;                   /* every process records: one log at MPI_Finalize */
static int my_rank, world_size;
static int excluded;                  /* RANK_EXCLUDE: no records, still in the job */

static const struct iol_mpi_host host = {
    .vdiag = iol_vdiag,
};

/* libiolens-mpi.so from the directory this library was loaded from (by name
 * through the library path if that is not known). */
static const struct iol_mpi_ops *load_ops(void)
{
    Dl_info info;
    char path[IOL_PATH_MAX];
    size_t dir = 0;

    if (dladdr((void *)load_ops, &info) && info.dli_fname) {
        const char *slash = strrchr(info.dli_fname, '/');
        dir = slash ? (size_t)(slash - info.dli_fname) + 1 : 0;
    }
    if (dir + sizeof(IOL_MPI_LIB_NAME) > sizeof(path))
        dir = 0;
    memcpy(path, info.dli_fname, dir);
    memcpy(path + dir, IOL_MPI_LIB_NAME, sizeof(IOL_MPI_LIB_NAME));
    void *lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        iol_diag("cannot load %s (%s): each MPI process gets its own log", path, dlerror());
        return NULL;
    }
    const struct iol_mpi_ops *o = dlsym(lib, IOL_MPI_OPS_SYMBOL);
    if (!o || o->version != IOL_MPI_OPS_VERSION) {
        iol_diag("%s is from another iolens build: each MPI process gets its own log", path);
        dlclose(lib);
        return NULL;
    }
    return o;
}

void iol_mpi_job_start(int recording)
{
    /* A process whose runtime is off (IOLENS_DISABLE, APP_EXCLUDE in an
     * MPMD job) still takes part, so that the others do not wait for it. */
    if (ops || !(ops = load_ops()))
        return;
    iol_mpiio_set_nulls(ops->info_null, ops->datatype_null);
    int64_t jobid = iol_rt.jobid;
    int r = ops->init(&host, recording, &my_rank, &world_size, &jobid);
    if (r < 0) {
        iol_diag("MPI job set-up failed: each MPI process gets its own log");
        ops = NULL;
        return;
    }
    job_log = r == 1;
    iol_events_set_rank(my_rank);
    if (jobid)
        iol_events_set_job(jobid);
    /* The rank is known only now: an excluded rank drops what it recorded
     * since start (constructor to MPI_Init) and records nothing more, but
     * still takes part in the job's collectives, as in Darshan. */
    if (recording && iol_config_rank_excluded(&iol_rt.cfg, my_rank, world_size) &&
        iol_core_exclude()) {
        excluded = 1;
        iol_diag("MPI job: rank %d excluded (RANK_EXCLUDE): no records", my_rank);
    }
    if (job_log)
        iol_diag("MPI job: rank %d of %d; one log for the job at MPI_Finalize", my_rank,
                 world_size);
    else
        iol_diag("MPI job: not every process records; each gets its own log");
}

void iol_mpi_job_end(void)
{
    char written[IOL_PATH_MAX] = "";

    if (!ops)
        return;
    if (job_log) {
        /* An excluded rank gives its job data (times) and no records. */
        int ended = !excluded && iol_core_end_for_job();
        struct iol_mpi_local *local =
            ended || excluded ? iol_mpi_local_collect(my_rank, !excluded) : NULL;
        int rc = ops->write_job_log(local, written, sizeof(written));
        if (rc == 0 && (my_rank == 0 || iol_rt.cfg.log_per_rank))
            iol_diag("wrote %s", written);
        if (rc != 0 && ended) {
            /* No job log on any process: each keeps its data in a log of
             * its own, as without MPI. */
            if (my_rank == 0)
                iol_diag_always("the job's log could not be written; each process writes "
                                "a log of its own");
            rc = iol_log_write(&iol_rt);
        }
        if (ended)
            iol_core_retire(rc == 0);
        iol_mpi_local_free(local);
        job_log = 0;
    }
    ops->finalize();
    ops = NULL;
}
