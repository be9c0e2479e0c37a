/* iolens recover: turn the record file a process left behind (killed by
 * SIGKILL, or dead before it could write its log) into a log marked partial.
 * The file's layout is src/runtime/core/maplayout.h; the log is built by the same
 * code the runtime uses at exit (src/runtime/core/maplog.c). */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <libgen.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "../common/hash.h"
#include "../runtime/core/maplog.h"
#include "cli.h"

static const char recover_usage[] =
    "usage: iolens recover [-o OUT] [--remove] FILE...\n"
    "\n"
    "Write the log of each record file (iolens_*.iolmap in IOLENS_MMAP_DIR) that\n"
    "a process left behind when it could not write its own log (SIGKILL, a node\n"
    "that lost power is not covered). Every module with records is marked partial.\n"
    "  -o OUT     the log to write (one FILE), or a directory for the logs\n"
    "             (default: the current directory, with Darshan's file names)\n"
    "  --remove   delete each record file once its log is written\n"
    "\n"
    "Prints the name of each log it writes. Exit status: 0 when every log was\n"
    "written (and, with --remove, its record file deleted), 1 otherwise, 2 for\n"
    "wrong usage.\n";

/* Darshan's log name for the process the record file belonged to. */
static void log_name(const struct iol_map_header *h, char *buf, size_t len)
{
    char user[64], exe[256], host[256] = "";
    struct passwd *pw = getpwuid((uid_t)h->uid);
    time_t start = (time_t)h->start_sec;
    struct tm tm;

    snprintf(user, sizeof(user), "%s", pw ? pw->pw_name : "");
    if (!pw)
        snprintf(user, sizeof(user), "%lld", (long long)h->uid);
    size_t n = strcspn(h->exe, " ");
    snprintf(exe, sizeof(exe), "%.*s", (int)(n < sizeof(exe) - 1 ? n : sizeof(exe) - 1), h->exe);
    gethostname(host, sizeof(host) - 1);
    localtime_r(&start, &tm);
    uint64_t hash = iol_hash64(host, strlen(host), (uint64_t)h->start_sec * 1000000u);
    snprintf(buf, len, "%s_%s_id%lld-%lld_%d-%d-%d-%llu_0.darshan", user, basename(exe),
             (long long)h->jobid, (long long)h->pid, tm.tm_mon + 1, tm.tm_mday,
             tm.tm_hour * 3600 + tm.tm_min * 60 + tm.tm_sec, (unsigned long long)hash);
}

/* The output path for one record file. */
static int out_path(const char *out, const struct iol_map_header *h, char *buf, size_t len)
{
    struct stat st;
    char name[1024];
    if (out && (stat(out, &st) != 0 || !S_ISDIR(st.st_mode))) {
        snprintf(buf, len, "%s", out);
        return 0;
    }
    log_name(h, name, sizeof(name));
    return (size_t)snprintf(buf, len, "%s/%s", out ? out : ".", name) < len ? 0 : -1;
}

static int recover_one(const char *file, const char *out, int remove_after)
{
    char path[4096], detail[256];
    struct stat st;
    int rc = 1;
    int fd = open(file, O_RDONLY | O_CLOEXEC);

    if (fd < 0 || fstat(fd, &st) != 0)
        return cli_error(file, "%s", strerror(errno));
    if (st.st_size < (off_t)sizeof(struct iol_map_header)) {
        close(fd);
        return cli_error(file, "not an iolens record file");
    }
    /* A private, writable view: the end time is set in our copy only. */
    void *p = mmap(NULL, (size_t)st.st_size, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
    close(fd);
    if (p == MAP_FAILED)
        return cli_error(file, "cannot map: %s", strerror(errno));
    struct iol_map_header *h = p;
    if (iol_maplog_check(h, (size_t)st.st_size, detail, sizeof(detail)) != IOLENS_OK) {
        cli_error(file, "%s", detail);
        goto done;
    }
    if (h->end_sec == 0) { /* died running: its last change is the best end time */
        h->end_sec = st.st_mtim.tv_sec;
        h->end_nsec = st.st_mtim.tv_nsec;
    }
    if (out_path(out, h, path, sizeof(path)) != 0) {
        cli_error(file, "output path too long");
        goto done;
    }
    if (iol_maplog_write(h, (size_t)st.st_size, path, 1, detail, sizeof(detail)) != IOLENS_OK) {
        cli_error(path, "%s", detail);
        goto done;
    }
    printf("%s\n", path);
    rc = remove_after && unlink(file) != 0 ? cli_error(file, "cannot remove: %s", strerror(errno))
                                           : 0;
done:
    munmap(p, (size_t)st.st_size);
    return rc;
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
    struct stat st;
    if (argc - optind > 1 && out && (stat(out, &st) != 0 || !S_ISDIR(st.st_mode)))
        return cli_usage_error("recover", "-o must name a directory when recovering several "
                                          "files");
    for (int i = optind; i < argc; i++)
        rc |= recover_one(argv[i], out, remove_after);
    return rc;
}

const struct cli_verb cli_recover_verb = {
    .name = "recover",
    .summary = "turn the record file of a killed process into a log",
    .usage = recover_usage,
    .run = cli_recover,
};
