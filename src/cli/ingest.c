/* iolens ingest: finished logs into the database (docs/database.md). Worker
 * threads read logs (ingest_log.c); this thread alone writes, in batched
 * transactions, in the order the logs were found. */
#include <dirent.h>
#include <getopt.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "ingest.h"

/* Logs per transaction: a crash loses at most this much work to redo. */
#define BATCH_LOGS 256

struct paths {
    char **v;
    size_t n, cap;
};

static int paths_add(struct paths *p, const char *s)
{
    if (p->n == p->cap) {
        size_t ncap = p->cap ? p->cap * 2 : 256;
        char **v = realloc(p->v, ncap * sizeof(*v));
        if (!v)
            return -1;
        p->v = v;
        p->cap = ncap;
    }
    return (p->v[p->n] = strdup(s)) ? (int)p->n++ : -1;
}

static int ends_with(const char *s, const char *tail)
{
    size_t n = strlen(s), t = strlen(tail);
    return n >= t && !strcmp(s + n - t, tail);
}

/* Add the *.darshan files under dir, depth first (links to files are
 * followed, links to directories not). @return 0, or -1 when
 * memory ran out (an unreadable directory is said and skipped). */
static int walk(const char *dir, struct paths *out, int *bad)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    if (!d) {
        cli_error(dir, "cannot read the directory: %m");
        ++*bad;
        return 0;
    }
    int rc = 0;
    while (rc == 0 && (e = readdir(d))) {
        char path[4096];
        struct stat st;
        if (e->d_name[0] == '.' ||
            snprintf(path, sizeof(path), "%s/%s", dir, e->d_name) >= (int)sizeof(path) ||
            stat(path, &st) != 0)
            continue;
        struct stat lst;
        if (S_ISDIR(st.st_mode) && lstat(path, &lst) == 0 && !S_ISLNK(lst.st_mode))
            rc = walk(path, out, bad); /* links to directories could loop: not followed */
        else if (S_ISREG(st.st_mode) && ends_with(e->d_name, ".darshan"))
            rc = paths_add(out, path) < 0 ? -1 : 0;
    }
    closedir(d);
    return rc;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The work shared by the readers and the writer: slot i holds log i once
 * read; readers stay at most `window` logs ahead of the writer. */
struct work {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    struct ingest_log *logs;
    char *done;
    size_t n, next, written, window;
};

static void *reader(void *arg)
{
    struct work *w = arg;
    pthread_mutex_lock(&w->mu);
    for (;;) {
        while (w->next < w->n && w->next >= w->written + w->window)
            pthread_cond_wait(&w->cv, &w->mu);
        if (w->next >= w->n)
            break;
        size_t i = w->next++;
        pthread_mutex_unlock(&w->mu);
        ingest_read(&w->logs[i]);
        pthread_mutex_lock(&w->mu);
        w->done[i] = 1;
        pthread_cond_broadcast(&w->cv);
    }
    pthread_mutex_unlock(&w->mu);
    return NULL;
}

struct tally {
    size_t stored, already, bad;
    int64_t records;
};

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

/* Store each log as it is read, in order. @return 0, or -1 after a database error. */
static int write_all(struct db *db, struct work *w, struct tally *t, int progress)
{
    double shown = 0;
    int in_txn = 0;
    for (size_t i = 0; i < w->n; i++) {
        pthread_mutex_lock(&w->mu);
        while (!w->done[i])
            pthread_cond_wait(&w->cv, &w->mu);
        pthread_mutex_unlock(&w->mu);
        struct ingest_log *l = &w->logs[i];
        if (!l->log) {
            cli_error(l->path, "%s", l->why);
            t->bad++;
        } else {
            int already = 0;
            if (!in_txn && db_begin(db) < 0)
                return -1;
            in_txn = 1;
            int64_t n = ingest_store(db, l, &already);
            if (n < 0)
                return -1;
            t->records += n;
            t->stored += !already;
            t->already += already;
        }
        ingest_free(l);
        if (in_txn && ((i + 1) % BATCH_LOGS == 0 || i + 1 == w->n)) {
            if (db_commit(db) < 0)
                return -1;
            in_txn = 0;
        }
        pthread_mutex_lock(&w->mu);
        w->written = i + 1;
        pthread_cond_broadcast(&w->cv);
        pthread_mutex_unlock(&w->mu);
        if (progress && (now() - shown > 0.2 || i + 1 == w->n)) {
            shown = now();
            fprintf(stderr, "\riolens ingest: %zu/%zu logs", i + 1, w->n);
        }
    }
    if (progress && w->n)
        fputc('\n', stderr);
    return in_txn ? db_commit(db) : 0;
}

/* Read with nthreads readers and store every log of paths. @return 0, or -1
 * after a database or thread error (said). */
static int ingest_all(struct db *db, struct paths *p, int nthreads, struct tally *t)
{
    struct work w = {.n = p->n, .window = 4 * (size_t)nthreads};
    pthread_t *th = calloc((size_t)nthreads, sizeof(*th));
    w.logs = calloc(p->n ? p->n : 1, sizeof(*w.logs));
    w.done = calloc(p->n ? p->n : 1, 1);
    int started = 0, rc = 0;
    if (!th || !w.logs || !w.done) {
        rc = cli_say("out of memory");
        goto out;
    }
    for (size_t i = 0; i < p->n; i++)
        w.logs[i].path = p->v[i];
    pthread_mutex_init(&w.mu, NULL);
    pthread_cond_init(&w.cv, NULL);
    for (; started < nthreads; started++)
        if (pthread_create(&th[started], NULL, reader, &w) != 0)
            break;
    if (started == 0) {
        rc = cli_say("cannot start a reader thread");
    } else if (write_all(db, &w, t, isatty(STDERR_FILENO)) < 0) {
        rc = cli_error("database", "%s", db_error(db));
        pthread_mutex_lock(&w.mu);
        w.next = w.n; /* the readers stop */
        pthread_cond_broadcast(&w.cv);
        pthread_mutex_unlock(&w.mu);
    }
    for (int i = 0; i < started; i++)
        pthread_join(th[i], NULL);
    for (size_t i = 0; i < p->n; i++)
        ingest_free(&w.logs[i]);
    pthread_mutex_destroy(&w.mu);
    pthread_cond_destroy(&w.cv);
out:
    free(th);
    free(w.logs);
    free(w.done);
    return rc ? -1 : 0;
}

static const char ingest_usage[] =
    "usage: iolens ingest [--db URL] [-j N] [--json] DIR|LOG...\n"
    "       iolens ingest --schema\n"
    "\n"
    "Store finished logs in a database: a row per log in 'jobs', a row per file\n"
    "record with its main counters in 'records' (docs/database.md). Directories\n"
    "are searched for *.darshan files; a LOG named is read whatever its name.\n"
    "A log already stored (the same content) is stored once; an interrupted run,\n"
    "run again, stores what is missing.\n"
    "  --db URL   sqlite:PATH (the default: sqlite:iolens.db) or postgresql://...\n"
    "  -j N       read N logs at a time (default: the CPUs, at most 8)\n"
    "  --json     print a summary as one JSON object\n"
    "  --schema   print the database schema (SQL) and exit\n"
    "\n"
    "A log that cannot be read is said in one line and the others go on.\n"
    "Exit status: 0 when every log is stored (or already was), 1 when a log\n"
    "could not be read, 2 for wrong usage, 3 when the database failed (what was\n"
    "committed before stays).\n";

int cli_ingest(int argc, char **argv)
{
    static const struct option opts[] = {
        {"db", required_argument, NULL, 'd'},
        {"json", no_argument, NULL, 'J'},
        {"schema", no_argument, NULL, 'S'},
        {NULL, 0, NULL, 0},
    };
    const char *url = "sqlite:iolens.db";
    long nthreads = sysconf(_SC_NPROCESSORS_ONLN);
    int json = 0, c;
    char *end;
    nthreads = nthreads < 1 ? 1 : nthreads > 8 ? 8 : nthreads;
    optind = 1;
    while ((c = cli_getopt("ingest", argc, argv, ":j:", opts)) != -1) {
        switch (c) {
        case 'd': url = optarg; break;
        case 'J': json = 1; break;
        case 'j':
            nthreads = strtol(optarg, &end, 10);
            if (*end || nthreads < 1 || nthreads > 256)
                return cli_usage_error("ingest", "-j: not a number of threads: %s", optarg);
            break;
        case 'S':
            for (int i = 0; db_schema_ddl[i]; i++)
                printf("%s;\n\n", db_schema_ddl[i]);
            return 0;
        default: return 2;
        }
    }
    if (optind == argc)
        return cli_usage_error("ingest", "no log or directory given");

    struct paths p = {0};
    struct tally t = {0};
    double t0 = now();
    int bad_paths = 0, rc = 0;
    for (int i = optind; i < argc && rc == 0; i++) {
        struct stat st;
        if (stat(argv[i], &st) != 0) {
            cli_error(argv[i], "%m");
            bad_paths++;
        } else if (S_ISDIR(st.st_mode)) {
            size_t from = p.n;
            rc = walk(argv[i], &p, &bad_paths);
            qsort(p.v + from, p.n - from, sizeof(*p.v), by_name);
        } else {
            rc = paths_add(&p, argv[i]) < 0 ? -1 : 0;
        }
    }
    if (rc < 0) {
        rc = cli_say("out of memory");
        goto out;
    }
    char why[512];
    struct db *db = db_open(url, why, sizeof(why));
    if (!db) {
        cli_error(url, "%s", why);
        rc = 3;
        goto out;
    }
    if (ingest_all(db, &p, (int)nthreads, &t) < 0)
        rc = 3;
    db_close(db);
    t.bad += (size_t)bad_paths;
    if (json)
        printf("{\"logs\":%zu,\"stored\":%zu,\"already_stored\":%zu,\"bad\":%zu,"
               "\"records\":%lld,\"seconds\":%.3f}\n",
               p.n + (size_t)bad_paths, t.stored, t.already, t.bad, (long long)t.records,
               now() - t0);
    if (rc == 0 && t.bad)
        rc = 1;
out:
    for (size_t i = 0; i < p.n; i++)
        free(p.v[i]);
    free(p.v);
    return rc;
}

const struct cli_verb cli_ingest_verb = {
    .name = "ingest",
    .summary = "store finished logs in a database (SQLite, PostgreSQL)",
    .usage = ingest_usage,
    .run = cli_ingest,
};
