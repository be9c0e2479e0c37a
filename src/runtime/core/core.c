/* The runtime core: state machine, start and end, the module registry. */
#include "core.h"

#include <dlfcn.h>
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "diag.h"
#include "events/events.h"
#include "posix/fdtab.h"
#include "iolens/runtime.h"
#include "fmt.h"
#include "job.h"
#include "lifecycle.h"
#include "logwrite.h"
#include "heatmap/heatmap.h"
#include "callsites/callsites.h"
#include "dxt/dxt.h"
#include "hdf5/h5_mods.h"
#include "mpiio/mpi_io.h"
#include "mpi/mpi_wrap.h"
#include "pnetcdf/pnetcdf.h"
#include "posix/posix.h"
#include "signals.h"
#include "stdio/stdio_mod.h"

/* ---- the module registry: one line per module ---- */
static const struct iol_module *const modules[] = {
    &iol_posix_module,
    &iol_stdio_module,
    &iol_heatmap_module,
#ifdef IOLENS_WITH_MPI
    &iol_mpiio_module,
#endif
#ifdef IOLENS_WITH_HDF5
    &iol_h5f_module, &iol_h5d_module,
#endif
    &iol_dxt_posix_module,
#ifdef IOLENS_WITH_MPI
    &iol_dxt_mpiio_module, /* fed by the MPI-IO module */
#endif
    &iol_dxt_stdio_module, /* fed by the STDIO module */
    IOL_PNETCDF_MODULES /* PNETCDF_FILE and PNETCDF_VAR, when built (pnetcdf/pnetcdf.h) */
    &iol_callsites_module, /* fed by the modules' read and write notes */
};
#define NMODULES (sizeof(modules) / sizeof(modules[0]))
_Static_assert(NMODULES <= IOL_MAP_MAX_MODS, "too many runtime modules");

/* One line for each module MOD_ENABLE names that this build has no module
 * for: the user asked for data the log will not have. (DXT_ENABLE_IO_TRACE
 * asks for tracing in general: what this build traces, it does, silently.) */
static void warn_unrecordable(const struct iol_config *c)
{
#define IOL_MODULE_NAME(suffix, name) name,
    static const char *const names[] = {IOLENS_MODULE_IDS(IOL_MODULE_NAME)};
#undef IOL_MODULE_NAME
    uint64_t asked = c->mod_enable & ~c->mod_disable;
    for (size_t i = 0; i < NMODULES; i++)
        asked &= ~((uint64_t)1 << modules[i]->id);
    for (int id = 1; id < 64 && asked; id++) {
        if (!(asked & ((uint64_t)1 << id)))
            continue;
        iol_diag_always("the %s module was asked for but this build of iolens cannot "
                        "record it; the log will not have it",
                        id < (int)(sizeof(names) / sizeof(names[0])) ? names[id] : "unknown");
        asked &= ~((uint64_t)1 << id);
    }
}

/* At the end, one line for each enabled module that LOG_COMPAT kept from
 * being recorded (iol_config_load): the user asked for data the log has not. */
static void note_left_out(const struct iol_config *c)
{
    for (int id = 1; id < IOLENS_MAX_MODS; id++)
        if (c->compat_left_out & ((uint64_t)1 << id))
            iol_diag_always("%s not recorded: LOG_COMPAT=3.5 writes only what Darshan 3.5.0's "
                            "tools read (LOG_COMPAT=newest records it)", iolens_module_name(id));
}

/* Seconds a forked log writer may take after a fatal signal. */
#define SIGNAL_WRITE_TIMEOUT 10

struct iol_runtime iol_rt;
_Atomic int iol_state = IOL_UNINIT;
/* The thread starting the runtime (0: none); wrapped calls it makes while
 * starting pass through instead of waiting for itself. No thread-local
 * storage: libiolens.so must stay loadable with dlopen. */
static _Atomic uint64_t starter;
static int installed;

size_t iol_core_binding_tables(const struct iol_binding_table **out, size_t max)
{
    size_t n = 0;
    if (n < max)
        out[n++] = &iol_lifecycle_bindings;
    if (n < max)
        out[n++] = &iol_signal_bindings;
#ifdef IOLENS_WITH_MPI
    if (n < max)
        out[n++] = &iol_mpi_bindings;
#endif
    for (size_t i = 0; i < NMODULES; i++)
        for (const struct iol_binding_table *const *t = modules[i]->bindings; *t && n < max; t++)
            out[n++] = *t;
    return n;
}

/* The next definitions of the wrapped symbols, except MPI's (MPI_Init and
 * the modules with bindings_at_first_use): those wrappers look theirs up at
 * their first call. */
static void resolve_all(void)
{
    iol_real_resolve(&iol_lifecycle_bindings);
    iol_real_resolve(&iol_signal_bindings);
    for (size_t i = 0; i < NMODULES; i++) {
        if (modules[i]->bindings_at_first_use)
            continue;
        for (const struct iol_binding_table *const *t = modules[i]->bindings; *t; t++)
            iol_real_resolve(*t);
    }
}

/* glibc's _Fork (2.34): a fork that runs no atfork handler; NULL before. */
static pid_t (*fork_fn)(void);

/* A fresh record set: times, record file, job data, pools, descriptor table.
 * @return 0, or -1 (the runtime then stays off). */
static int begin_recording(const struct iol_map_header *parent, int keep_start)
{
    static struct iol_map_header layout; /* only used while starting */
    struct iol_map_range first[IOL_RECORDS_FIRST_RANGES];
    char tag[128];

    if (!keep_start) {
        clock_gettime(CLOCK_REALTIME, &iol_rt.start_real);
        iol_clock_start();
    }
    memset(&layout, 0, sizeof(layout));
    size_t size = iol_records_layout(&layout, modules, NMODULES, &iol_rt.cfg);
    iol_fmt(tag, sizeof(tag), "iolens_%s_%d_%lld", program_invocation_short_name,
            (int)iol_rt.pid, (long long)iol_rt.start_real.tv_sec);
    for (char *p = tag; *p; p++)
        if (*p == '/' || *p == ' ')
            *p = '-';
    size_t nfirst = iol_records_first_space(&layout, first);
    const char *dir = iol_rt.run_dir[0] ? iol_rt.run_dir : iol_rt.cfg.mmap_dir;
    if (iol_map_create(&iol_rt.map, dir, tag, size, first, nfirst) != 0) {
        iol_diag("cannot map %zu bytes for records; not recording", size);
        return -1;
    }
    struct iol_map_header *h = iol_rt.map.hdr;
    memcpy(h, &layout, sizeof(layout));
    memcpy(h->magic, IOL_MAP_MAGIC, 8);
    h->version = IOL_MAP_VERSION;
    h->header_size = sizeof(*h);
    h->map_size = size;
    h->log_compat = iol_rt.cfg.log_compat; /* for a recovered log too */
    h->pid = iol_rt.pid;
    h->start_sec = iol_rt.start_real.tv_sec;
    h->start_nsec = iol_rt.start_real.tv_nsec;
    iol_job_fill(h, iol_rt.jobid, iol_rt.fork_parent);
    iol_mounts_text(&iol_rt.mounts, h->mounts, sizeof(h->mounts));
    iol_rt.npools = NMODULES;
    for (size_t i = 0; i < NMODULES; i++)
        iol_rt.pools[i].mod = modules[i];
    if (iol_records_init(iol_rt.pools, NMODULES, &iol_rt.map, &iol_rt.cfg) != 0 ||
        (!parent && iol_fdtab_init() != 0)) {
        iol_diag("out of memory for record tables; not recording");
        iol_map_unlink(&iol_rt.map);
        return -1;
    }
    for (size_t i = 0; i < NMODULES; i++)
        if (modules[i]->start)
            modules[i]->start(&iol_rt.pools[i]);
    for (size_t i = 0; parent && i < NMODULES; i++)
        if (modules[i]->fork_child)
            modules[i]->fork_child(&iol_rt.pools[i], parent);
    atomic_store_explicit(&h->state, IOL_MAP_RUNNING, memory_order_release);
    iol_diag("recording into %s", iol_rt.map.path[0] ? iol_rt.map.path : "(anonymous memory)");
    return 0;
}

void iol_core_start(void)
{
    int expect = IOL_UNINIT;
    int saved = errno;

    if (!atomic_compare_exchange_strong(&iol_state, &expect, IOL_STARTING))
        return;
    atomic_store(&starter, iol_self());
    resolve_all();
    if (!environ) {
        /* Called from a preinit function (e.g. a sanitizer's), before libc
         * has set up the environment: pass calls through, start later. */
        atomic_store(&starter, 0);
        atomic_store_explicit(&iol_state, IOL_UNINIT, memory_order_release);
        errno = saved;
        return;
    }
    iol_diag_init();
    iol_config_load(&iol_rt.cfg);
    int next = IOL_OFF;
    if (!iol_rt.cfg.disabled) {
        warn_unrecordable(&iol_rt.cfg);
        iol_rt.pid = getpid();
        iol_rt.jobid = iol_job_id(&iol_rt.cfg, iol_job_run(iol_rt.run_dir,
                                                            sizeof(iol_rt.run_dir), iol_rt.pid));
        if (!getcwd(iol_rt.start_cwd, sizeof(iol_rt.start_cwd)))
            iol_rt.start_cwd[0] = '\0';
        iol_config_absolute_paths(&iol_rt.cfg, iol_rt.start_cwd);
        iol_mounts_load(&iol_rt.mounts);
        if (begin_recording(NULL, 0) == 0) {
            next = IOL_ON;
            iol_events_configure();
            if (!installed) {
                installed = 1;
#ifdef IOLENS_STATIC_RUNTIME
                fork_fn = _Fork; /* no dlsym in a static program */
#else
                fork_fn = (pid_t (*)(void))dlsym(RTLD_DEFAULT, "_Fork");
#endif
                iol_lifecycle_install();
            }
        }
    }
    atomic_store_explicit(&iol_state, next, memory_order_release);
    atomic_store(&starter, 0);
    errno = saved;
}

int iol_core_active_slow(void)
{
    int s = atomic_load_explicit(&iol_state, memory_order_acquire);
    if (s == IOL_UNINIT) {
        iol_core_start();
        s = atomic_load_explicit(&iol_state, memory_order_acquire);
    }
    if (s == IOL_STARTING && atomic_load(&starter) != iol_self()) {
        for (unsigned i = 0; s == IOL_STARTING; i++) {
            iol_cpu_relax(i);
            s = atomic_load_explicit(&iol_state, memory_order_acquire);
        }
    }
    return s == IOL_ON;
}

int iol_core_own_process(void)
{
    return getpid() == iol_rt.pid;
}

size_t iol_core_full_record(const struct iol_map_module *m, unsigned char *slot, void *buf,
                            size_t cap)
{
    for (size_t i = 0; i < NMODULES; i++)
        if ((uint32_t)modules[i]->id == m->mod_id && modules[i]->full_record)
            return modules[i]->full_record((struct iol_slot *)slot, buf, cap);
    return 0;
}

static void finish_modules(void)
{
    for (size_t i = 0; i < NMODULES; i++)
        if (modules[i]->finish)
            modules[i]->finish(&iol_rt.pools[i]);
}

void iol_core_retire(int written)
{
    /* When no log was written, iol_log_write said where the records are. */
    if (written) {
        atomic_store(&iol_rt.map.hdr->state, IOL_MAP_WRITTEN);
        iol_map_unlink(&iol_rt.map);
    }
}

/* Finish the modules, write the log, retire the record file. The runtime is
 * already off (this thread turned it off). A record set without records
 * writes no log when empty_writes_none (before an exec: the new image
 * writes the process's log, and Darshan writes none there at all; but
 * under iolens run, whose job log takes its command line from the job's
 * first image, it does) or when its image wrote one before an exec that
 * failed. */
static void write_log_now(int empty_writes_none)
{
    struct timespec t0, t1;
    empty_writes_none = empty_writes_none && !iol_rt.run_dir[0];
    if ((empty_writes_none || iol_rt.continued) && !iol_core_holds_records()) {
        iol_diag("no records: no log");
        iol_rt.last_log[0] = '\0';
        iol_core_retire(1);
        return;
    }
    clock_gettime(CLOCK_MONOTONIC, &t0);
    finish_modules();
    iol_records_warn_dropped(iol_rt.pools, NMODULES);
    note_left_out(&iol_rt.cfg);
    int rc = iol_log_write(&iol_rt);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    if (rc == 0)
        iol_diag("log written in %d us", (int)((t1.tv_sec - t0.tv_sec) * 1000000 +
                                               (t1.tv_nsec - t0.tv_nsec) / 1000));
    iol_core_retire(rc == 0);
}

/* Turn the runtime off if it is on or paused. @return 1 if this call did. */
static int take_end(void)
{
    int expect = IOL_ON;
    if (atomic_compare_exchange_strong(&iol_state, &expect, IOL_OFF))
        return 1;
    expect = IOL_PAUSED;
    return atomic_compare_exchange_strong(&iol_state, &expect, IOL_OFF);
}

void iol_core_end(enum iol_end_reason why)
{
    int saved = errno;

    if (!iol_core_own_process() || !take_end())
        return;
    iol_diag("ending (%s)", why == IOL_END_EXEC ? "exec" : why == IOL_END_SIGNAL ? "signal"
                                                                                 : "exit");
    iol_events_end();
    write_log_now(why == IOL_END_EXEC);
    errno = saved;
}

static int ending_for_job;

int iol_core_ending_for_job(void)
{
    return ending_for_job;
}

int iol_core_end_for_job(void)
{
    if (!iol_core_own_process() || !take_end())
        return 0;
    iol_events_end();
    ending_for_job = 1;
    finish_modules();
    ending_for_job = 0;
    iol_records_warn_dropped(iol_rt.pools, NMODULES);
    note_left_out(&iol_rt.cfg);
    return 1;
}

int iol_core_exclude(void)
{
    int expect = IOL_PAUSED;
    if (!iol_core_own_process() || !atomic_compare_exchange_strong(&iol_state, &expect, IOL_OFF))
        return 0;
    iol_rt.cfg.disabled = 1; /* no restart after a failed exec */
    iol_map_unlink(&iol_rt.map);
    return 1;
}

int iol_core_pause(void)
{
    int expect = IOL_ON;
    return iol_core_own_process() &&
           atomic_compare_exchange_strong(&iol_state, &expect, IOL_PAUSED);
}

void iol_core_resume(void)
{
    int expect = IOL_PAUSED;
    atomic_compare_exchange_strong(&iol_state, &expect, IOL_ON);
}

/* A child that can run without the parent's atfork handlers or malloc locks
 * (fork_fn: looked up with the signal handlers' installation, as dlsym is
 * not async-signal-safe). */
static pid_t fork_writer(void)
{
    if (fork_fn)
        return fork_fn();
    return (pid_t)syscall(SYS_clone, SIGCHLD, 0, 0, 0, 0);
}

void iol_core_end_from_signal(int sig)
{
    int status;

    if (!iol_core_own_process() || !take_end())
        return;
    iol_diag("signal %d: writing the log", sig);
    iol_events_end();
    pid_t child = fork_writer();
    if (child == 0) {
        sigset_t set;
        iol_lifecycle_reset_signals();
        sigemptyset(&set);
        sigaddset(&set, SIGALRM);
        sigprocmask(SIG_UNBLOCK, &set, NULL);
        alarm(SIGNAL_WRITE_TIMEOUT);
        write_log_now(0);
        syscall(SYS_exit_group, 0);
    }
    if (child < 0)
        return; /* the record file stays for iolens recover */
    for (int waited = 0; waited < SIGNAL_WRITE_TIMEOUT * 1000; waited++) {
        pid_t r = waitpid(child, &status, WNOHANG);
        if (r == child || (r < 0 && errno != EINTR))
            return;
        struct timespec ms = {0, 1000000};
        nanosleep(&ms, NULL);
    }
    kill(child, SIGKILL);
    waitpid(child, &status, 0);
}

void iol_core_fork_child(void)
{
    if (atomic_load(&iol_state) != IOL_ON)
        return;
    /* The parent's record file is shared memory: start a new one. */
    struct iol_mapping parent = iol_rt.map;
    iol_rt.fork_parent = iol_rt.pid;
    iol_rt.continued = 0; /* a new process: its own log, even without records */
    iol_rt.pid = getpid();
    /* The parent's record file stays mapped: records of inherited
     * descriptors are created from its names at first use. */
    if (begin_recording(parent.hdr, 0) != 0)
        atomic_store(&iol_state, IOL_OFF);
    else
        iol_events_fork_child();
}

int iol_core_holds_records(void)
{
    return iol_records_any(iol_rt.pools, iol_rt.npools);
}

void iol_core_restart(int was_empty)
{
    int expect = IOL_OFF;
    if (!iol_core_own_process() || iol_rt.cfg.disabled)
        return;
    if (!atomic_compare_exchange_strong(&iol_state, &expect, IOL_STARTING))
        return;
    atomic_store(&starter, iol_self());
    if (iol_rt.last_log[0])
        iol_rt.continued = 1;
    int rc = begin_recording(NULL, was_empty);
    if (rc == 0)
        iol_events_restart();
    atomic_store(&iol_state, rc == 0 ? IOL_ON : IOL_OFF);
    atomic_store(&starter, 0);
}

IOLENS_API const char *iolens_runtime_wrapped_symbol(size_t i)
{
    const struct iol_binding_table *t[64];
    size_t n = iol_core_binding_tables(t, 64);
    for (size_t k = 0; k < n; k++) {
        if (i < t[k]->count)
            return t[k]->bindings[i].name;
        i -= t[k]->count;
    }
    return NULL;
}
