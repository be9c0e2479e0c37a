/* iolens report: one self-contained HTML page per log (docs/report.md). The
 * log library builds the job summary and the findings in one pass; the page
 * (src/report/) holds them as JSON with its own script and Chart.js. The
 * page is written beside its final name and renamed into place, so that a
 * reader never sees half a report. */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../report/page.h"
#include "callsites.h"
#include "cli.h"

/* The default page name: the log's base name, without ".darshan", plus
 * ".html", in the current directory. */
static char *default_output(const char *log)
{
    const char *base = strrchr(log, '/') ? strrchr(log, '/') + 1 : log;
    size_t n = strlen(base);
    if (n > 8 && !strcmp(base + n - 8, ".darshan"))
        n -= 8;
    char *out = malloc(n + 6);
    if (out)
        snprintf(out, n + 6, "%.*s.html", (int)n, base);
    return out;
}

/* Write the page to path (a temporary file renamed to it), or to stdout
 * for "-". @return 0, or 1 after the error. */
static int write_to(const char *path, const struct report_input *in)
{
    if (!strcmp(path, "-")) {
        if (report_write_page(stdout, in) < 0)
            return cli_say("out of memory");
        return fflush(stdout) == 0 ? 0 : cli_error("stdout", "%s", strerror(errno));
    }
    size_t n = strlen(path) + 16;
    char *tmp = malloc(n);
    if (!tmp)
        return cli_say("out of memory");
    snprintf(tmp, n, "%s.tmp-XXXXXX", path);
    int fd = mkstemp(tmp);
    mode_t mask = umask(0);
    umask(mask);
    if (fd >= 0)
        fchmod(fd, 0666 & ~mask); /* mkstemp's 0600 would hide the page from others */
    FILE *out = fd >= 0 ? fdopen(fd, "w") : NULL;
    int rc = 0;
    if (!out) {
        rc = cli_error(path, "%s", strerror(errno));
        if (fd >= 0)
            close(fd);
        free(tmp);
        return rc;
    }
    int failed = report_write_page(out, in) < 0;
    int err = ferror(out) ? errno : 0;
    if (fclose(out) != 0 && !err)
        err = errno;
    if (failed)
        rc = cli_say("out of memory");
    else if (err)
        rc = cli_error(path, "%s", strerror(err ? err : EIO));
    else if (rename(tmp, path) != 0)
        rc = cli_error(path, "%s", strerror(errno));
    if (rc)
        unlink(tmp);
    free(tmp);
    return rc;
}

/* The log's call sites, resolved, read with a handle of their own (a handle
 * reads each module's records once). @return 1 (r filled), or 0: the log
 * has none, or they cannot be read (the page then has no such section). */
static int load_callsites(const char *path, struct cs_result *r)
{
    iolens_log *log = NULL;
    if (iolens_log_open(path, &log, NULL, 0) != IOLENS_OK)
        return 0;
    int ok = cs_load(log, r) == IOLENS_OK;
    iolens_log_close(log);
    return ok;
}

static int report_one(const char *path, const char *output,
                      const struct iolens_dxt_options *dxt_opts)
{
    iolens_log *log = cli_open_log(path);
    struct iolens_summary *s = NULL;
    struct iolens_finding *f = NULL;
    size_t n = 0;
    if (!log)
        return 1;
    struct iolens_dxt_timeline *dxt = NULL;
    iolens_status st = iolens_summary_build(log, NULL, &s);
    if (st == IOLENS_OK)
        st = iolens_insights(s, NULL, &f, &n);
    if (st == IOLENS_OK)
        st = iolens_dxt_timeline_build(log, dxt_opts, &dxt);
    int rc;
    if (st != IOLENS_OK) {
        const char *why = iolens_log_error(log);
        rc = cli_error(path, "%s", why[0] ? why : iolens_strerror(st));
    } else {
        const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
        struct cs_result cs;
        int have_cs = load_callsites(path, &cs);
        struct report_input in = {base, log, s, f, n, dxt, have_cs ? &cs : NULL};
        rc = write_to(output, &in);
        if (have_cs)
            cs_result_free(&cs);
    }
    iolens_dxt_timeline_free(dxt);
    iolens_findings_free(f);
    iolens_summary_free(s);
    iolens_log_close(log);
    return rc;
}

static const char report_usage[] =
    "usage: iolens report [-o FILE.html] [--dxt-segments N] [--dxt-slowest N] LOG\n"
    "\n"
    "Write one self-contained HTML page about a log: the job, the insights,\n"
    "I/O time by module and operation, access sizes, a sortable per-file table,\n"
    "the heatmap, the DXT timeline; docs/report.md describes every section. The page needs no\n"
    "network: its script, style and Chart.js are inside.\n"
    "  -o, --output FILE   write the page to FILE ('-': standard output); default:\n"
    "                      the log's name without .darshan, plus .html, in the\n"
    "                      current directory. An existing FILE is replaced.\n"
    "  --dxt-segments N    the timeline keeps at most N segments of DXT traces\n"
    "                      evenly spread over its lanes (default 10000), plus\n"
    "  --dxt-slowest N     the N slowest of the others (default 1000)\n"
    "\n"
    "Exit status: 0 when the page was written, 1 when the log could not be read\n"
    "or the page not written, 2 for wrong usage.\n";

int cli_report(int argc, char **argv)
{
    static const struct option opts[] = {
        {"output", required_argument, NULL, 'o'},
        {"dxt-segments", required_argument, NULL, 'S'},
        {"dxt-slowest", required_argument, NULL, 'W'},
        {NULL, 0, NULL, 0},
    };
    struct iolens_dxt_options dxt = {0};
    const char *output = NULL;
    int c;
    optind = 1;
    while ((c = cli_getopt("report", argc, argv, ":o:", opts)) != -1) {
        if (c == 'o') {
            output = optarg;
        } else if (c == 'S' || c == 'W') {
            char *end;
            errno = 0;
            unsigned long long v = strtoull(optarg, &end, 10);
            if (errno || *end || !*optarg || optarg[0] == '-' || v == 0 || v > 100000000)
                return cli_usage_error("report", c == 'S' ? "--dxt-segments: not a number "
                                       "from 1 to 100000000" : "--dxt-slowest: not a number "
                                       "from 1 to 100000000");
            *(c == 'S' ? &dxt.max_segments : &dxt.max_slowest) = (size_t)v;
        } else {
            return 2;
        }
    }
    if (optind == argc || argc - optind > 1)
        return cli_usage_error("report", optind == argc ? "no log given" : "one log at a time");
    if (output && !output[0])
        return cli_usage_error("report", "-o: empty file name");
    char *name = output ? NULL : default_output(argv[optind]);
    if (!output && !name)
        return cli_say("out of memory");
    int rc = report_one(argv[optind], output ? output : name, &dxt);
    free(name);
    return rc;
}

const struct cli_verb cli_report_verb = {
    .name = "report",
    .summary = "write one self-contained HTML page about a log",
    .usage = report_usage,
    .run = cli_report,
};
