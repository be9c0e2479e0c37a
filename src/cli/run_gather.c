/* iolens run's end: the logs the job's processes left in the run directory,
 * and the record files of those that were killed, become one job log
 * (include/iolens/joblog.h does the combining). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "../common/logname.h"
#include "cli.h"
#include "iolens/joblog.h"
#include "iolens/recfile.h"
#include "run.h"

/* One process image's log in the run directory. */
struct proc {
    char path[PATH_MAX];
    iolens_log *log;
    long pid;
};

/* Does name end with suffix? */
static int ends_with(const char *name, const char *suffix)
{
    size_t n = strlen(name), s = strlen(suffix);
    return n >= s && !strcmp(name + n - s, suffix);
}

/* The process id in a log name "..._id<jobid>-<pid>_...": the last such
 * field (the program's name may hold "_id" too). @return it, or -1. */
static long name_pid(const char *name)
{
    long pid = -1;
    for (const char *p = name; (p = strstr(p, "_id")); p++) {
        char *end;
        strtol(p + 3, &end, 10);
        if (end == p + 3 || *end != '-')
            continue;
        long v = strtol(end + 1, &end, 10);
        if (*end == '_')
            pid = v;
    }
    return pid;
}

/* Turn the record file of a process that died without writing its log into
 * that log, in the run directory. A process still running (it outlived the
 * wait) is left alone. */
static void recover(const char *dir, const char *file)
{
    char path[PATH_MAX], name[512], out[PATH_MAX], detail[256];
    struct iolens_recfile_info info;

    snprintf(path, sizeof(path), "%s/%s", dir, file);
    if (iolens_recfile_info(path, &info, detail, sizeof(detail)) != IOLENS_OK) {
        cli_error(path, "%s", detail);
        return;
    }
    if (!info.log_written && kill((pid_t)info.pid, 0) == 0)
        return;
    if (!info.log_written) {
        if (iolens_recfile_log_name(&info, name, sizeof(name)) >= sizeof(name) ||
            (size_t)snprintf(out, sizeof(out), "%s/%s", dir, name) >= sizeof(out) ||
            iolens_recfile_write_log(path, out, detail, sizeof(detail)) != IOLENS_OK) {
            cli_error(path, "cannot recover: %s", detail);
            return;
        }
    }
    unlink(path);
}

static int by_start(const void *a, const void *b)
{
    const struct proc *x = a, *y = b;
    const struct iolens_job *p = &iolens_log_get_info(x->log)->job;
    const struct iolens_job *q = &iolens_log_get_info(y->log)->job;
    if (p->start_time_sec != q->start_time_sec)
        return p->start_time_sec < q->start_time_sec ? -1 : 1;
    if (p->start_time_nsec != q->start_time_nsec)
        return p->start_time_nsec < q->start_time_nsec ? -1 : 1;
    return x->pid < y->pid ? -1 : x->pid > y->pid;
}

/* Is name a script the process ran (an executable file starting with "#!")?
 * A shell reads its script as it runs it: that is no I/O of the job's. */
static int is_script(const char *name)
{
    struct stat st;
    char head[2];
    if (name[0] != '/' || stat(name, &st) != 0 || !S_ISREG(st.st_mode) ||
        !(st.st_mode & (S_IXUSR | S_IXGRP | S_IXOTH)))
        return 0;
    int fd = open(name, O_RDONLY | O_CLOEXEC);
    int yes = fd >= 0 && read(fd, head, 2) == 2 && head[0] == '#' && head[1] == '!';
    if (fd >= 0)
        close(fd);
    return yes;
}

/* Did the process do I/O of its own: a record (of a module that does not just
 * summarise the others, as HEATMAP does) of something other than a standard
 * stream or its script? */
static int did_io(iolens_log *log)
{
    const struct iolens_log_info *in = iolens_log_get_info(log);
    const void *rec;

    if (iolens_log_load_names(log) != IOLENS_OK)
        return 1;
    for (int m = 0; m < IOLENS_MAX_MODS; m++) {
        const struct iolens_module_desc *mod = iolens_module(m);
        if ((mod && mod->summarises_others) || in->mod_map[m].len == 0)
            continue;
        while (iolens_log_next_record(log, m, &rec) == IOLENS_OK) {
            const char *name = iolens_log_name(log, ((const struct iolens_record_base *)rec)->id);
            if (!name || (strcmp(name, "<STDIN>") && strcmp(name, "<STDOUT>") &&
                          strcmp(name, "<STDERR>") && !is_script(name)))
                return 1;
        }
    }
    return 0;
}

/* The first non-empty variable of the two. */
static const char *env2(const char *a, const char *b)
{
    const char *v = getenv(a);
    if (!v || !*v)
        v = getenv(b);
    return v && *v ? v : NULL;
}

/* The value of key in the config file (the runtime's syntax: key, blanks,
 * value), into buf. @return buf, or NULL. */
static const char *config_value(const char *key, char *buf, size_t len)
{
    const char *file = env2("IOLENS_CONFIG_PATH", "DARSHAN_CONFIG_PATH");
    char line[PATH_MAX + 64];
    const char *found = NULL;
    FILE *f = file ? fopen(file, "r") : NULL;

    while (f && fgets(line, sizeof(line), f)) {
        char *save, *k = strtok_r(line, " \t\r\n", &save), *v;
        if (k && !strcmp(k, key) && (v = strtok_r(NULL, " \t\r\n", &save)) &&
            (size_t)snprintf(buf, len, "%s", v) < len)
            found = buf; /* the last line wins, as in the runtime */
    }
    if (f)
        fclose(f);
    return found;
}

/* Under an MPI launcher, this iolens run is one rank's: the MPI job log is
 * the one IOLENS_LOGFILE names. */
static int under_mpi(void)
{
    return getenv("OMPI_COMM_WORLD_RANK") || getenv("PMI_RANK") || getenv("PMIX_RANK");
}

/* Where the job log goes (the runtime's rules, docs/runtime.md "Where logs
 * go"), into out: the exact file, else the directory's dated subdirectory
 * when it exists, else the directory, else the current one. With a file,
 * *exact is set. */
static void destination(char *out, size_t len, time_t start, int *exact)
{
    char fbuf[PATH_MAX], dbuf[PATH_MAX], dated[PATH_MAX];
    const char *file = env2("IOLENS_LOGFILE", "DARSHAN_LOGFILE");
    const char *dir = env2("IOLENS_LOGPATH", "DARSHAN_LOGPATH");
    struct stat st;
    struct tm tm;

    if (!file && !dir && !(file = config_value("LOGFILE", fbuf, sizeof(fbuf))))
        dir = config_value("LOGPATH", dbuf, sizeof(dbuf));
    *exact = file && !under_mpi();
    if (*exact) {
        snprintf(out, len, "%s", file);
        return;
    }
    if (file) { /* one rank's processes: beside the MPI job's log */
        snprintf(dbuf, sizeof(dbuf), "%s", file);
        char *slash = strrchr(dbuf, '/');
        if (slash)
            *slash = '\0';
        dir = slash ? dbuf : ".";
    }
    if (!dir) {
        snprintf(out, len, ".");
        return;
    }
    localtime_r(&start, &tm);
    int n = snprintf(dated, sizeof(dated), "%s/%d/%d/%d", dir, tm.tm_year + 1900, tm.tm_mon + 1,
                     tm.tm_mday);
    if (n > 0 && (size_t)n < sizeof(dated) && stat(dated, &st) == 0 && S_ISDIR(st.st_mode))
        dir = dated;
    snprintf(out, len, "%s", dir);
}

/* The record file directory the runtime falls back to for logs. */
static const char *mmap_dir(void)
{
    const char *d = env2("IOLENS_MMAP_DIR", "DARSHAN_MMAP_LOGPATH");
    return d ? d : access("/dev/shm", W_OK | X_OK) == 0 ? "/dev/shm" : "/tmp";
}

/* Write the job log of c, named after the root process. @return 0, or 1. */
static int write_job(const struct iolens_joblog *c, const struct run_result *res)
{
    char where[PATH_MAX], name[512], user[64], exe[256], path[PATH_MAX], detail[256];
    struct iolens_job job;
    struct timeval now;
    int exact;

    iolens_joblog_job(c, &job);
    const char *cmd = iolens_log_get_info(c->job_from)->exe;
    size_t n = strcspn(cmd ? cmd : "", " ");
    snprintf(exe, sizeof(exe), "%.*s", (int)(n < sizeof(exe) ? n : sizeof(exe) - 1),
             cmd ? cmd : "");
    iol_log_user(user, sizeof(user), geteuid());
    gettimeofday(&now, NULL);
    struct iol_log_name_parts parts = {
        .user = user,
        .exe = exe,
        .jobid = job.jobid,
        .pid = res->root,
        .start_sec = job.start_time_sec,
        .seed = (uint64_t)now.tv_sec * 1000000u + (uint64_t)now.tv_usec,
        .n = 1,
    };
    if (iol_log_file_name(name, sizeof(name), &parts) >= sizeof(name))
        return cli_say("job log name too long");
    destination(where, sizeof(where), (time_t)job.start_time_sec, &exact);
    if ((size_t)snprintf(path, sizeof(path), "%s%s%s", where, exact ? "" : "/",
                         exact ? "" : name) >= sizeof(path))
        return cli_error(where, "job log path too long");
    if (iolens_joblog_write(c, path, detail, sizeof(detail)) == IOLENS_OK)
        return 0;
    cli_error(path, "cannot write the job log: %s", detail);
    if (exact)
        return 1;
    /* As the runtime does: the record file directory instead. */
    if ((size_t)snprintf(path, sizeof(path), "%s/%s", mmap_dir(), name) >= sizeof(path) ||
        iolens_joblog_write(c, path, detail, sizeof(detail)) != IOLENS_OK)
        return cli_error(path, "cannot write the job log: %s", detail);
    cli_say("job log written to %s instead", path);
    return 0;
}

/* Open every log of the run directory into *out; *failed is set when one
 * could not be taken in (its error said), so that nothing is removed.
 * @return how many. */
static size_t open_logs(const char *dir, struct proc **out, int *failed)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    size_t n = 0, cap = 0;
    struct proc *v = NULL;
    char detail[256];

    while (d && (e = readdir(d))) {
        if (!ends_with(e->d_name, ".darshan"))
            continue;
        if (n == cap) {
            struct proc *p = realloc(v, (cap = cap ? 2 * cap : 16) * sizeof(*v));
            if (!p) {
                *failed = cli_say("%s", strerror(ENOMEM));
                break;
            }
            v = p;
        }
        struct proc *p = &v[n];
        snprintf(p->path, sizeof(p->path), "%s/%s", dir, e->d_name);
        p->pid = name_pid(e->d_name);
        if (iolens_log_open(p->path, &p->log, detail, sizeof(detail)) != IOLENS_OK) {
            *failed = cli_error(p->path, "%s", detail);
            continue;
        }
        n++;
    }
    if (d)
        closedir(d);
    *out = v;
    return n;
}

int run_gather(const char *dir, const struct run_result *res)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    struct proc *procs;
    int rc = 0;

    while (d && (e = readdir(d)))
        if (ends_with(e->d_name, ".iolmap"))
            recover(dir, e->d_name);
    if (d)
        closedir(d);
    size_t n = open_logs(dir, &procs, &rc), kept = 0;
    if (n)
        qsort(procs, n, sizeof(*procs), by_start);
    iolens_log **logs = calloc(n ? n : 1, sizeof(*logs));
    iolens_log *root = NULL;
    for (size_t i = 0; logs && i < n; i++) {
        if (!root && procs[i].pid == (long)res->root)
            root = procs[i].log;
        if (did_io(procs[i].log))
            logs[kept++] = procs[i].log;
    }
    /* A job without I/O: its first process alone, as a lone process's log.
     * Without the first process's log (an MPI rank: its records are in the
     * MPI job's log) and no I/O, there is no job log to write. */
    if (logs && !kept && root)
        logs[kept++] = root;
    if (!logs) {
        rc = cli_say("%s", strerror(ENOMEM));
    } else if (kept) {
        struct iolens_joblog c = {logs, kept, root ? root : logs[0], NULL};
        rc |= write_job(&c, res);
    }
    for (size_t i = 0; i < n; i++) {
        iolens_log_close(procs[i].log);
        if (!rc)
            unlink(procs[i].path);
    }
    free(logs);
    free(procs);
    if (!rc && !res->remaining && rmdir(dir) != 0)
        cli_error(dir, "cannot remove: %s", strerror(errno));
    if (rc)
        cli_say("the logs of the job's processes stay in %s", dir);
    if (res->remaining)
        cli_say("processes of the job still running after %d s: left out; their logs "
                "will be in %s", RUN_GRACE_SECONDS, dir);
    return rc;
}
