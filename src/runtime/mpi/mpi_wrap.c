/* MPI_Init, MPI_Init_thread and MPI_Finalize.
 *
 * Each is exported under its MPI_ and its PMPI_ name: Open MPI's Fortran
 * bindings call PMPI_Init and friends directly, so a tool that defines only
 * the MPI_ names never sees a Fortran program start or end. Both names
 * forward to the next definition of the PMPI_ name (dlsym(RTLD_NEXT)), so
 * that another preloaded tool behind us still sees the call. mpi.h gives the
 * types only: no MPI function is called except through those pointers, and
 * libiolens.so does not link an MPI library (see mpi_ops.h). */
#include <mpi.h>

#include <dlfcn.h>
#include <stdatomic.h>

#include "core/core.h"
#include "mpi_job.h"
#include "mpi_wrap.h"

typedef int (*init_fn)(int *, char ***);
typedef int (*init_thread_fn)(int *, char ***, int, int *);
typedef int (*finalize_fn)(void);

static init_fn real_init;
static init_thread_fn real_init_thread;
static finalize_fn real_finalize;
/* The MPI_ names forward to the PMPI_ ones: their own next definitions are
 * looked up but never called. */
static void *unused_init, *unused_init_thread, *unused_finalize;

/* Calls in progress: a tool behind us may call PMPI_Init from its MPI_Init,
 * which reaches us again; only the outermost call starts or ends the job. */
static _Atomic int init_depth, finalize_depth;

/* The next definition of a PMPI_ name, looked up now if MPI was not loaded
 * when the runtime started (a program that dlopen()s its MPI library). */
static void *next_of(void **cached, const char *name)
{
    if (!*cached)
        *cached = dlsym(RTLD_NEXT, name);
    return *cached;
}

/* Run the real initialisation with recording paused (Darshan records no I/O
 * of MPI_Init), then start the job. */
static int start(int ret, int paused)
{
    if (ret == MPI_SUCCESS)
        iol_mpi_job_start(paused);
    if (paused)
        iol_core_resume();
    return ret;
}

static int begin_init(void)
{
    if (atomic_fetch_add(&init_depth, 1) != 0)
        return -1;
    iol_active(); /* start the runtime if nothing has yet */
    return iol_core_pause();
}

IOL_EXPORT int MPI_Init(int *argc, char ***argv)
{
    init_fn real = (init_fn)next_of((void **)&real_init, "PMPI_Init");
    if (!real)
        return MPI_ERR_OTHER;
    int paused = begin_init();
    int ret = real(argc, argv);
    if (paused >= 0)
        ret = start(ret, paused);
    atomic_fetch_sub(&init_depth, 1);
    return ret;
}

IOL_EXPORT int PMPI_Init(int *argc, char ***argv) __attribute__((alias("MPI_Init")));

IOL_EXPORT int MPI_Init_thread(int *argc, char ***argv, int required, int *provided)
{
    init_thread_fn real =
        (init_thread_fn)next_of((void **)&real_init_thread, "PMPI_Init_thread");
    if (!real)
        return MPI_ERR_OTHER;
    int paused = begin_init();
    int ret = real(argc, argv, required, provided);
    if (paused >= 0)
        ret = start(ret, paused);
    atomic_fetch_sub(&init_depth, 1);
    return ret;
}

IOL_EXPORT int PMPI_Init_thread(int *argc, char ***argv, int required, int *provided)
    __attribute__((alias("MPI_Init_thread")));

IOL_EXPORT int MPI_Finalize(void)
{
    finalize_fn real = (finalize_fn)next_of((void **)&real_finalize, "PMPI_Finalize");
    if (!real)
        return MPI_ERR_OTHER;
    if (atomic_fetch_add(&finalize_depth, 1) == 0)
        iol_mpi_job_end();
    int ret = real();
    atomic_fetch_sub(&finalize_depth, 1);
    return ret;
}

IOL_EXPORT int PMPI_Finalize(void) __attribute__((alias("MPI_Finalize")));

static const struct iol_binding bindings[] = {
    {"MPI_Init", (void *)MPI_Init, &unused_init},
    {"PMPI_Init", (void *)PMPI_Init, (void **)&real_init},
    {"MPI_Init_thread", (void *)MPI_Init_thread, &unused_init_thread},
    {"PMPI_Init_thread", (void *)PMPI_Init_thread, (void **)&real_init_thread},
    {"MPI_Finalize", (void *)MPI_Finalize, &unused_finalize},
    {"PMPI_Finalize", (void *)PMPI_Finalize, (void **)&real_finalize},
};

const struct iol_binding_table iol_mpi_bindings = {
    bindings, sizeof(bindings) / sizeof(bindings[0]),
};
