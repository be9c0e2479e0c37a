/* iolens run: run a program under the runtime, as `LD_PRELOAD=libiolens.so
 * PROGRAM ARGS...` would, with the runtime found beside this iolens and the
 * common settings as options, and make its whole process tree one job: every
 * process logs into a private run directory, and at the end iolens run
 * gathers those logs into one job log (run_tree.c, run_gather.c). iolens run
 * stays the program's parent and ends as it ends: the program's exit status,
 * or death by the same signal. */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <link.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "run.h"

#define RUNTIME_NAME "libiolens.so"

/* Long-only options. */
enum { OPT_DEBUG = 256, OPT_LIB };

static const char run_usage[] =
    "usage: iolens run [options] [--] PROGRAM [ARGS...]\n"
    "\n"
    "Run PROGRAM with the runtime (libiolens.so) preloaded, as one job: PROGRAM and\n"
    "every process it starts log into a private directory, and at the end their\n"
    "logs become one Darshan-format job log, each process's records with its own\n"
    "rank (processes that did no I/O are left out; killed ones are recovered). See\n"
    "docs/runtime.md. The exit status is PROGRAM's (a death by signal is passed\n"
    "on); 125 when iolens run fails, 126 when PROGRAM cannot be run, 127 when it is\n"
    "not found. Options end at PROGRAM.\n"
    "  -c, --config FILE   read settings from FILE (IOLENS_CONFIG_PATH)\n"
    "      --debug         runtime diagnostics on stderr (IOLENS_DEBUG=1)\n"
    "      --lib PATH      the runtime to preload (default: $IOLENS_LIB, else the\n"
    "                      libiolens.so installed with this iolens)\n"
    "  -o, --log FILE      write the job log to FILE (IOLENS_LOGFILE)\n"
    "  -d, --logdir DIR    write the job log into DIR (IOLENS_LOGPATH)\n";

/* dl_iterate_phdr callback: the directory of the loaded log library, into
 * data (PATH_MAX bytes). @return 1 once found, 0 to go on. */
static int log_library_dir(struct dl_phdr_info *info, size_t size, void *data)
{
    const char *slash = strrchr(info->dlpi_name, '/');
    if (!slash || strncmp(slash + 1, "libiolens-log.so", 16) != 0)
        return 0;
    size_t n = (size_t)(slash - info->dlpi_name);
    if (n >= PATH_MAX)
        return 0;
    memcpy(data, info->dlpi_name, n);
    ((char *)data)[n] = '\0';
    return 1;
}

/* The runtime installed with this iolens: ../lib or ../lib64 beside the
 * executable (the build tree, and installs to lib or lib64), else the
 * directory the log library was loaded from, which the executable's RUNPATH
 * names and where the runtime is installed too (any GNUInstallDirs libdir,
 * such as lib/x86_64-linux-gnu). @return 0 with its path in buf, or -1. */
static int default_runtime(char *buf, size_t len)
{
    static const char *const libdirs[] = {"../lib", "../lib64"};
    char dir[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", dir, sizeof(dir) - 1);

    if (n > 0) {
        dir[n] = '\0';
        char *slash = strrchr(dir, '/');
        if (slash) {
            *slash = '\0';
            for (size_t i = 0; i < sizeof(libdirs) / sizeof(libdirs[0]); i++)
                if ((size_t)snprintf(buf, len, "%s/%s/%s", dir, libdirs[i], RUNTIME_NAME) < len &&
                    access(buf, R_OK) == 0)
                    return 0;
        }
    }
    if (dl_iterate_phdr(log_library_dir, dir) &&
        (size_t)snprintf(buf, len, "%s/%s", dir, RUNTIME_NAME) < len && access(buf, R_OK) == 0)
        return 0;
    return -1;
}

/* The runtime to preload, as an absolute path in out (PATH_MAX bytes), and
 * its identity in st. @return 0, or RUN_FAILED after printing why. */
static int find_runtime(const char *opt, char *out, struct stat *st)
{
    char found[PATH_MAX];
    const char *lib = opt;

    if (!lib && (lib = getenv("IOLENS_LIB")) && !*lib)
        lib = NULL; /* set but empty: unset, as for the runtime's variables */
    if (!lib) {
        if (default_runtime(found, sizeof(found)) != 0) {
            cli_say("no " RUNTIME_NAME " beside this iolens (use --lib or IOLENS_LIB)");
            return RUN_FAILED;
        }
        lib = found;
    }
    if (!realpath(lib, out) || stat(out, st) != 0) {
        cli_error(lib, "%s", strerror(errno));
        return RUN_FAILED;
    }
    if (!S_ISREG(st->st_mode)) {
        cli_error(lib, "not a shared library");
        return RUN_FAILED;
    }
    if (strpbrk(out, " :")) {
        cli_error(out, "cannot be preloaded (LD_PRELOAD splits paths at spaces and colons)");
        return RUN_FAILED;
    }
    return 0;
}

/* Is this LD_PRELOAD entry a sanitizer runtime (libasan.so, libclang_rt.asan-
 * x86_64.so, ...)? The sanitizers insist on being loaded before any other
 * library. */
static int is_sanitizer(const char *entry, size_t len)
{
    const char *base = entry;
    for (size_t i = 0; i < len; i++)
        if (entry[i] == '/')
            base = entry + i + 1;
    size_t n = len - (size_t)(base - entry);
    const char *dot = memchr(base, '.', n);
    size_t stem = dot ? (size_t)(dot - base) : n;
    if (n >= 12 && !memcmp(base, "libclang_rt.", 12))
        return 1;
    return stem >= 6 && !memcmp(base, "lib", 3) && !memcmp(base + stem - 3, "san", 3);
}

/* Is this LD_PRELOAD entry the runtime, or another copy of it (which would
 * instrument the program a second time)? */
static int is_runtime(const char *entry, size_t len, const struct stat *lib)
{
    char path[PATH_MAX];
    struct stat st;
    if (len >= sizeof(path))
        return 0;
    memcpy(path, entry, len);
    path[len] = '\0';
    const char *base = strrchr(path, '/');
    if (!strcmp(base ? base + 1 : path, RUNTIME_NAME))
        return 1;
    return stat(path, &st) == 0 && st.st_dev == lib->st_dev && st.st_ino == lib->st_ino;
}

/* Append to out (at *n) the entries of the LD_PRELOAD list old that are
 * sanitizer runtimes (sanitizers = 1) or the others (0), leaving out the
 * runtime itself, each after a ':'. */
static void append_entries(char *out, size_t *n, const char *old, int sanitizers,
                           const struct stat *lib)
{
    for (const char *p = old; *p;) {
        size_t len = strcspn(p, " :");
        if (len && is_sanitizer(p, len) == sanitizers && !is_runtime(p, len, lib)) {
            if (*n)
                out[(*n)++] = ':';
            memcpy(out + *n, p, len);
            *n += len;
        }
        p += len;
        p += strspn(p, " :");
    }
    out[*n] = '\0';
}

/* The new LD_PRELOAD: sanitizer runtimes of the old list first, then the
 * runtime, then the old list's other entries in their order. @return a
 * malloc'd string, or NULL when out of memory. */
static char *preload_list(const char *lib, const struct stat *lib_st, const char *old)
{
    old = old ? old : "";
    size_t libn = strlen(lib), n = 0;
    char *out = malloc(strlen(old) + libn + 3);
    if (!out)
        return NULL;
    append_entries(out, &n, old, 1, lib_st);
    if (n)
        out[n++] = ':';
    memcpy(out + n, lib, libn + 1);
    n += libn;
    append_entries(out, &n, old, 0, lib_st);
    return out;
}

/* Set the variable name to value. @return 0, or RUN_FAILED after printing why. */
static int set_value(const char *name, const char *value)
{
    if (setenv(name, value, 1) == 0)
        return 0;
    cli_say("%s", strerror(errno));
    return RUN_FAILED;
}

/* Set the variable name to path made absolute (the program may change
 * directory, and so may the processes it starts); must_exist: path names an
 * existing file (0), directory (1), or may not exist yet (-1).
 * @return 0, or RUN_FAILED after printing why. */
static int set_path(const char *name, const char *path, int must_exist)
{
    char abs[PATH_MAX], cwd[PATH_MAX];
    struct stat st;

    if (must_exist >= 0) {
        if (!realpath(path, abs) || stat(abs, &st) != 0) {
            cli_error(path, "%s", strerror(errno));
            return RUN_FAILED;
        }
        if (must_exist == 1 && !S_ISDIR(st.st_mode)) {
            cli_error(path, "%s", strerror(ENOTDIR));
            return RUN_FAILED;
        }
    } else if (path[0] == '/') {
        snprintf(abs, sizeof(abs), "%s", path);
    } else if (!getcwd(cwd, sizeof(cwd)) ||
               (size_t)snprintf(abs, sizeof(abs), "%s/%s", cwd, path) >= sizeof(abs)) {
        cli_error(path, "cannot make the path absolute");
        return RUN_FAILED;
    }
    return set_value(name, abs);
}

/* The run's private directory, where its processes leave their record files
 * and logs (IOLENS_RUN_DIR): iolens-run-XXXXXX, mode 0700, in the record file
 * directory (IOLENS_MMAP_DIR, DARSHAN_MMAP_LOGPATH, else /dev/shm if
 * writable, else /tmp), into dir (len bytes). @return 0, or RUN_FAILED after
 * printing why. */
static int make_run_dir(char *dir, size_t len)
{
    const char *base = getenv("IOLENS_MMAP_DIR");
    if (!base || !*base)
        base = getenv("DARSHAN_MMAP_LOGPATH");
    if (!base || !*base)
        base = access("/dev/shm", W_OK | X_OK) == 0 ? "/dev/shm" : "/tmp";
    if ((size_t)snprintf(dir, len, "%s/iolens-run-XXXXXX", base) >= len || !mkdtemp(dir)) {
        cli_error(base, "cannot make the run directory: %s", strerror(errno));
        return RUN_FAILED;
    }
    return set_path("IOLENS_RUN_DIR", dir, 1);
}

/* Report a bad option (arg, else the short option getopt saw) in one line.
 * @return RUN_FAILED. */
static int bad_option(const char *why, const char *arg)
{
    if (arg)
        cli_usage_error("run", "%s: %s", arg, why);
    else
        cli_usage_error("run", "-%c: %s", optopt, why);
    return RUN_FAILED;
}

int cli_run(int argc, char **argv)
{
    static const struct option opts[] = {
        {"config", required_argument, NULL, 'c'},
        {"debug", no_argument, NULL, OPT_DEBUG},
        {"help", no_argument, NULL, 'h'},
        {"lib", required_argument, NULL, OPT_LIB},
        {"log", required_argument, NULL, 'o'},
        {"logdir", required_argument, NULL, 'd'},
        {NULL, 0, NULL, 0},
    };
    const char *lib_opt = NULL;
    char lib[PATH_MAX];
    struct stat lib_st;
    int c, rc;

    opterr = 0; /* one line of our own instead of getopt's */
    /* '+': options end at PROGRAM, whose own options are its business. */
    while ((c = getopt_long(argc, argv, "+:c:d:ho:", opts, NULL)) != -1) {
        switch (c) {
        case 'c': rc = set_path("IOLENS_CONFIG_PATH", optarg, 0); break;
        case 'd': rc = set_path("IOLENS_LOGPATH", optarg, 1); break;
        case 'h': fputs(run_usage, stdout); return 0;
        case 'o': rc = set_path("IOLENS_LOGFILE", optarg, -1); break;
        case OPT_DEBUG: rc = set_value("IOLENS_DEBUG", "1"); break;
        case OPT_LIB: rc = 0; lib_opt = optarg; break;
        case ':': return bad_option("needs an argument", argv[optind - 1]);
        default: return bad_option("unknown option", optopt ? NULL : argv[optind - 1]);
        }
        if (rc != 0)
            return rc;
    }
    if (optind >= argc) {
        cli_usage_error("run", "no program to run");
        return RUN_FAILED;
    }
    if ((rc = find_runtime(lib_opt, lib, &lib_st)) != 0)
        return rc;
    char *preload = preload_list(lib, &lib_st, getenv("LD_PRELOAD"));
    if (!preload || setenv("LD_PRELOAD", preload, 1) != 0) {
        cli_say("%s", strerror(errno));
        return RUN_FAILED;
    }
    free(preload);

    char dir[PATH_MAX];
    if (make_run_dir(dir, sizeof(dir)) != 0)
        return RUN_FAILED;
    run_warn_static(argv[optind]);
    struct run_result res;
    if ((rc = run_tree(argv + optind, &res)) != 0) {
        rmdir(dir);
        return rc;
    }
    run_gather(dir, &res);
    run_exit_like(res.status);
}

const struct cli_verb cli_run_verb = {
    .name = "run",
    .summary = "run a program with the runtime preloaded",
    .usage = run_usage,
    .run = cli_run,
    .own_help = 1,
};
