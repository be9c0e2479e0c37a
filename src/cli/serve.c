/* iolens serve: the live web page over the database that ingest and collect
 * fill (docs/serve.md); src/serve/ is the server. */
#include <getopt.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "../db/db.h"
#include "../serve/server.h"
#include "cli.h"

static const char serve_usage[] =
    "usage: iolens serve [--db URL] [--listen HOST:PORT] [--live SEC]\n"
    "\n"
    "Serve a web page of the jobs in a database (iolens ingest, iolens collect):\n"
    "the list of jobs, live and finished, and for each its bytes and operations\n"
    "per second by rank and by file, its calls' latency percentiles and its\n"
    "slowest files, updated while the job runs; and the JSON they come from\n"
    "(/api/jobs, /api/jobs/JOB/series, /latency, /slowest: docs/serve.md).\n"
    "Read-only: answers GET and HEAD only, and opens the database read-only.\n"
    "  --db URL           sqlite:PATH (the default: sqlite:iolens.db) or postgresql://...\n"
    "  --listen HOST:PORT address to listen on (default 127.0.0.1:8080; port 0:\n"
    "                     any free port). Anything but a loopback address lets\n"
    "                     others on the network read the database\n"
    "  --live SEC         a job is live while its last event is at most SEC\n"
    "                     seconds old (default 10)\n"
    "\n"
    "Prints 'iolens serve: listening on http://ADDRESS/' when ready, and runs\n"
    "until SIGINT or SIGTERM. Exit status: 0 when stopped, 1 when the database\n"
    "cannot be read or the address not listened on, 2 for wrong usage.\n";

int cli_serve(int argc, char **argv)
{
    static const struct option opts[] = {
        {"db", required_argument, NULL, 'd'},
        {"listen", required_argument, NULL, 'l'},
        {"live", required_argument, NULL, 'L'},
        {NULL, 0, NULL, 0},
    };
    struct serve_conf conf = {"sqlite:iolens.db", "127.0.0.1:8080", 10};
    int c, rc = 0;
    char *end;
    optind = 1;
    while (rc == 0 && (c = cli_getopt("serve", argc, argv, ":", opts)) != -1) {
        switch (c) {
        case 'd': conf.db_url = optarg; break;
        case 'l': conf.listen = optarg; break;
        case 'L':
            conf.live_window = strtod(optarg, &end);
            if (*end || end == optarg || !(conf.live_window >= 0) || conf.live_window > 1e9)
                rc = cli_usage_error("serve", "--live: not a number of seconds: %s", optarg);
            break;
        default: rc = 2;
        }
    }
    char why[512];
    if (rc == 0 && optind < argc)
        rc = cli_usage_error("serve", "unexpected argument: %s", argv[optind]);
    if (rc == 0 && server_check_listen(conf.listen, why, sizeof(why)) < 0)
        rc = cli_usage_error("serve", "%s", why);
    if (rc)
        return rc;
    /* a database that cannot be read is said now, not at the first request */
    struct db *db = db_open_reader(conf.db_url, why, sizeof(why));
    if (!db)
        return cli_error(conf.db_url, "%s", why);
    db_close(db);
    /* the signals wait for sigwait, on this thread only (the server's threads
     * inherit the mask) */
    sigset_t stop;
    sigemptyset(&stop);
    sigaddset(&stop, SIGINT);
    sigaddset(&stop, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &stop, NULL);
    struct server *s = server_start(&conf, why, sizeof(why));
    if (!s)
        return cli_say("%s", why);
    printf("iolens serve: listening on http://%s/\n", server_address(s));
    fflush(stdout);
    int sig;
    sigwait(&stop, &sig);
    server_stop(s);
    return 0;
}

const struct cli_verb cli_serve_verb = {
    .name = "serve",
    .summary = "serve a live web page of a database's jobs",
    .usage = serve_usage,
    .run = cli_serve,
};
