/* iolens recover: turn the record file a process left behind (it died before
 * it could write its log) into the log it would have written. The log
 * library does the work (include/iolens/recfile.h), with the code the
 * runtime writes its own logs with. */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "iolens/recfile.h"
#include "cli.h"

static const char recover_usage[] =
    "usage: iolens recover [-o OUT] [--remove] FILE...\n"
    "\n"
    "Write the log of each record file (iolens_*.iolmap in IOLENS_MMAP_DIR, default\n"
    "/dev/shm) that a process left behind because it died before it could write\n"
    "its log: killed by SIGKILL or by the OOM killer, or the node lost power or\n"
    "crashed while the file's directory survived. Fatal signals such as SIGSEGV,\n"
    "SIGBUS, SIGABRT, SIGTERM and SIGINT need no recovery: the runtime writes the\n"
    "log itself before the process dies. Under `iolens run`, the record files of\n"
    "killed processes are recovered into the job's log automatically. Other verbs\n"
    "(parse, dxt...) read a record file directly, as this log.\n"
    "\n"
    "The log holds everything counted up to the death, is marked partial only in\n"
    "modules that dropped records, and carries the metadata line iolens_killed=1.\n"
    "A record file that its process still maps (it is running on this node) is\n"
    "refused: that process writes its own log when it ends (`iolens parse` reads\n"
    "the file as it stands meanwhile).\n"
    "  -o OUT     the log to write (one FILE), or a directory for the logs\n"
    "             (default: the current directory, with Darshan's file names)\n"
    "  --remove   delete each record file once its log is written\n"
    "\n"
    "Prints the name of each log it writes. Exit status: 0 when every log was\n"
    "written (and, with --remove, its record file deleted), 1 otherwise, 2 for\n"
    "wrong usage.\n";

static int is_dir(const char *path)
{
    struct stat st;
    return path && stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* Whether process pid maps the file st describes: its process is running
 * here, and will write its log itself. */
static int mapped_by(const struct stat *st, int64_t pid)
{
    char maps[64], line[4096];
    snprintf(maps, sizeof(maps), "/proc/%" PRId64 "/maps", pid);
    FILE *f = pid > 0 ? fopen(maps, "r") : NULL;
    int found = 0;
    while (f && !found && fgets(line, sizeof(line), f)) {
        unsigned maj, min;
        unsigned long long ino;
        if (sscanf(line, "%*s %*s %*s %x:%x %llu", &maj, &min, &ino) == 3)
            found = ino == (unsigned long long)st->st_ino && maj == major(st->st_dev) &&
                    min == minor(st->st_dev);
    }
    if (f)
        fclose(f);
    return found;
}

static int recover_one(const char *file, const char *out, int remove_after)
{
    char path[4096], name[1024], detail[256];
    struct iolens_recfile_info info;
    struct stat st;

    if (iolens_recfile_info(file, &info, detail, sizeof(detail)) != IOLENS_OK)
        return cli_error(file, "%s", detail);
    if (stat(file, &st) == 0 && mapped_by(&st, info.pid))
        return cli_error(file, "process %" PRId64 " is still running and recording into it; "
                               "it writes its own log when it ends",
                         info.pid);
    if (out && !is_dir(out)) {
        snprintf(path, sizeof(path), "%s", out);
    } else if (iolens_recfile_log_name(&info, name, sizeof(name)) >= sizeof(name) ||
               (size_t)snprintf(path, sizeof(path), "%s/%s", out ? out : ".", name) >=
                   sizeof(path)) {
        return cli_error(file, "output path too long");
    }
    if (iolens_recfile_write_log(file, path, detail, sizeof(detail)) != IOLENS_OK)
        return cli_error(path, "%s", detail);
    printf("%s\n", path);
    if (remove_after && unlink(file) != 0)
        return cli_error(file, "cannot remove: %s", strerror(errno));
    return 0;
}

int cli_recover(int argc, char **argv)
{
    static const struct option opts[] = {
        {"output", required_argument, NULL, 'o'},
        {"remove", no_argument, NULL, 'r'},
        {NULL, 0, NULL, 0},
    };
    const char *out = NULL;
    int remove_after = 0, c, rc = 0;

    optind = 1;
    while ((c = cli_getopt("recover", argc, argv, ":o:", opts)) != -1) {
        switch (c) {
        case 'o': out = optarg; break;
        case 'r': remove_after = 1; break;
        default: return 2;
        }
    }
    if (optind >= argc)
        return cli_usage_error("recover", "no record file given");
    if (argc - optind > 1 && out && !is_dir(out))
        return cli_usage_error("recover", "-o must name a directory when recovering several "
                                          "files");
    for (int i = optind; i < argc; i++)
        rc |= recover_one(argv[i], out, remove_after);
    return rc;
}

const struct cli_verb cli_recover_verb = {
    .name = "recover",
    .summary = "turn the record file of a killed process into its log",
    .usage = recover_usage,
    .run = cli_recover,
};
