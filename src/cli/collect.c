/* iolens collect: the runtime's live events, from the files of its file:
 * sink or through an MQTT broker, into the database (docs/database.md). */
#include <getopt.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "collect.h"

#define MAX_SOURCES 16

static volatile sig_atomic_t stop_asked;

static void ask_stop(int sig)
{
    stop_asked = 1;
}

struct sources {
    struct file_source *file[MAX_SOURCES];
    struct mqtt_source *mqtt[MAX_SOURCES];
    const char *mqtt_url[MAX_SOURCES]; /* opened once the client id is known */
    int nfile, nmqtt;
};

/* Every file source's positions, in the commit's transaction. */
static int save_files(void *arg, struct db *db)
{
    struct sources *s = arg;
    for (int i = 0; i < s->nfile; i++)
        if (file_source_save(s->file[i], db) < 0)
            return -1;
    return 0;
}

struct settings {
    size_t batch;
    double interval, idle;
    int once;
};

/* Read the sources until asked to stop (or, with once, until they are
 * drained), committing every batch. @return 0, or -1 on a database error. */
static int collect_loop(struct collector *c, struct sources *s, const struct settings *set)
{
    while (!stop_asked) {
        long got = 0, n;
        for (int i = 0; i < s->nfile; i++) {
            if ((n = file_source_poll(s->file[i], c)) < 0)
                return -1;
            got += n;
        }
        for (int i = 0; i < s->nmqtt; i++) {
            if ((n = mqtt_source_poll(s->mqtt[i], c, s->nfile ? 20 : 100)) < 0)
                return -1;
            got += n;
        }
        if (c->in_txn && (got == 0 || c->pending >= set->batch ||
                          collect_now() - c->txn_start >= set->interval) &&
            collect_commit(c, save_files, s) < 0)
            return -1;
        if (got > 0)
            continue;
        int drained = 1;
        for (int i = 0; i < s->nmqtt; i++)
            drained &= mqtt_source_drained(s->mqtt[i], set->idle);
        if (set->once && drained)
            break;
        if (s->nmqtt == 0)
            nanosleep(&(struct timespec){0, 100 * 1000000L}, NULL);
    }
    return c->in_txn ? collect_commit(c, save_files, s) : 0;
}

static const char collect_usage[] =
    "usage: iolens collect --from SOURCE... [--db URL] [--once] [options]\n"
    "\n"
    "Store the runtime's live I/O events (IOLENS_EVENTS) in a database: jobs,\n"
    "processes, files, a row per event in 'events', and per-second rollups per\n"
    "job, rank and file (docs/database.md). Runs until SIGINT or SIGTERM, which\n"
    "commit what was read before it stops.\n"
    "  --from file:DIR    the JSON lines files in DIR (or one file), followed as\n"
    "                     they grow; where each was read to is kept in the database,\n"
    "                     so a restarted collect goes on where it stopped\n"
    "  --from mqtt://HOST[:PORT]/TOPIC\n"
    "                     an MQTT broker: a persistent session (QoS 1) that keeps\n"
    "                     messages while collect or the broker is down\n"
    "  --db URL           sqlite:PATH (the default: sqlite:iolens.db) or postgresql://...\n"
    "  --once             stop when the sources are drained (files: nothing new;\n"
    "                     MQTT: subscribed and no message for --idle seconds)\n"
    "  --idle SEC         quiet time that drains an MQTT source (default 1)\n"
    "  --client-id ID     MQTT client id of the persistent session (default\n"
    "                     iolens-collect; one per collect reading a broker)\n"
    "  --batch N          events per transaction at most (default 5000)\n"
    "  --interval SEC     longest a batch waits to be committed (default 0.5)\n"
    "  --json             print a summary as one JSON object at the end\n"
    "\n"
    "A malformed message is skipped with one line 'iolens collect: WHERE:\n"
    "malformed message skipped: REASON' and counted. Exit status: 0 when stopped\n"
    "(or drained), 1 when the database failed (what was committed stays), 2 for\n"
    "wrong usage.\n";

static int parse_number(const char *opt, const char *arg, double lo, double *out)
{
    char *end;
    *out = strtod(arg, &end);
    if (*end || end == arg || !(*out >= lo) || *out > 1e9)
        return cli_usage_error("collect", "%s: not a number of at least %g: %s", opt, lo, arg);
    return 0;
}

static int add_source(struct sources *s, const char *from)
{
    char why[512];
    if (s->nfile + s->nmqtt >= MAX_SOURCES)
        return cli_usage_error("collect", "more than %d sources", MAX_SOURCES);
    if (!strncmp(from, "file:", 5)) {
        if (!(s->file[s->nfile] = file_source_open(from + 5, why, sizeof(why))))
            return cli_usage_error("collect", "--from %s: %s", from, why);
        s->nfile++;
    } else if (!strncmp(from, "mqtt://", 7)) {
        s->mqtt_url[s->nmqtt++] = from;
    } else {
        return cli_usage_error("collect", "--from %s: not file:DIR or mqtt://HOST:PORT/TOPIC",
                               from);
    }
    return 0;
}

int cli_collect(int argc, char **argv)
{
    static const struct option opts[] = {
        {"batch", required_argument, NULL, 'b'},
        {"client-id", required_argument, NULL, 'c'},
        {"db", required_argument, NULL, 'd'},
        {"from", required_argument, NULL, 'f'},
        {"idle", required_argument, NULL, 'i'},
        {"interval", required_argument, NULL, 'I'},
        {"json", no_argument, NULL, 'J'},
        {"once", no_argument, NULL, 'o'},
        {NULL, 0, NULL, 0},
    };
    struct settings set = {.batch = 5000, .interval = 0.5, .idle = 1};
    struct sources src = {0};
    const char *url = "sqlite:iolens.db", *client_id = "iolens-collect";
    int json = 0, c, rc = 0;
    double v;
    optind = 1;
    while (rc == 0 && (c = cli_getopt("collect", argc, argv, ":", opts)) != -1) {
        switch (c) {
        case 'b':
            if (!(rc = parse_number("--batch", optarg, 1, &v)))
                set.batch = (size_t)v;
            break;
        case 'c': client_id = optarg; break;
        case 'd': url = optarg; break;
        case 'f': rc = add_source(&src, optarg); break;
        case 'i': rc = parse_number("--idle", optarg, 0, &set.idle); break;
        case 'I': rc = parse_number("--interval", optarg, 0, &set.interval); break;
        case 'J': json = 1; break;
        case 'o': set.once = 1; break;
        default: rc = 2;
        }
    }
    if (rc == 0 && optind < argc)
        rc = cli_usage_error("collect", "unexpected argument: %s", argv[optind]);
    if (rc == 0 && src.nfile + src.nmqtt == 0)
        rc = cli_usage_error("collect", "no --from source given");
    for (int i = 0; rc == 0 && i < src.nmqtt; i++) {
        char why[512];
        if (!(src.mqtt[i] = mqtt_source_open(src.mqtt_url[i], client_id, why, sizeof(why)))) {
            rc = cli_usage_error("collect", "--from %s: %s", src.mqtt_url[i], why);
            src.nmqtt = i;
        }
    }
    struct collector col = {0};
    if (rc == 0) {
        char why[512];
        if (!(col.db = db_open(url, why, sizeof(why))))
            rc = cli_error(url, "%s", why);
    }
    if (rc == 0) {
        struct sigaction sa = {.sa_handler = ask_stop};
        sigemptyset(&sa.sa_mask);
        sigaction(SIGINT, &sa, NULL);
        sigaction(SIGTERM, &sa, NULL);
        if (collect_loop(&col, &src, &set) < 0)
            rc = cli_error("database", "%s", db_error(col.db));
        if (json)
            printf("{\"messages\":%llu,\"events\":%llu,\"duplicates\":%llu,\"malformed\":%llu}\n",
                   (unsigned long long)col.messages, (unsigned long long)col.events,
                   (unsigned long long)col.duplicates, (unsigned long long)col.malformed);
    }
    collect_free(&col);
    db_close(col.db);
    for (int i = 0; i < src.nfile; i++)
        file_source_close(src.file[i]);
    for (int i = 0; i < src.nmqtt; i++)
        mqtt_source_close(src.mqtt[i]);
    return rc;
}

const struct cli_verb cli_collect_verb = {
    .name = "collect",
    .summary = "store live I/O events (file: or mqtt:) in a database",
    .usage = collect_usage,
    .run = cli_collect,
};
