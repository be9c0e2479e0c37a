/* iolens collect: one message of the runtime's live events (docs/runtime.md,
 * "Live events") checked with json-c and stored: a row per event, and per
 * batch the sums that update jobs, processes and the per-second rollups. */
#include <inttypes.h>
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "collect.h"

enum agg_kind { AGG_JOB, AGG_PROC, AGG_ROLLUP_JOB, AGG_ROLLUP_RANK, AGG_ROLLUP_FILE };

/* One row to write at commit: a job, a process or a rollup's second. */
struct agg_entry {
    struct agg_entry *next;
    enum agg_kind kind;
    char *key, *job_key, *sub, *exe; /* sub: the host or the record id */
    int64_t job_id, uid, rank, second;
    double first, last;
    int64_t events, dropped, reads, writes, bytes_read, bytes_written, other_ops;
    double io_time;
};

#define AGG_SLOTS 4096

struct collect_agg {
    struct agg_entry *slot[AGG_SLOTS];
    json_tokener *tok;
};

double collect_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

static size_t hash_str(const char *s)
{
    size_t h = 1469598103934665603ULL;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ULL;
    return h;
}

/* The entry of kind for (job_key, sub, rank, second), made when missing.
 * @return it, or NULL when memory ran out. */
static struct agg_entry *agg_get(struct collect_agg *a, enum agg_kind kind, const char *job_key,
                                 const char *sub, int64_t rank, int64_t second)
{
    char key[1024];
    snprintf(key, sizeof(key), "%d\x1f%s\x1f%s\x1f%" PRId64 "\x1f%" PRId64, kind, job_key,
             sub ? sub : "", rank, second);
    size_t h = hash_str(key) % AGG_SLOTS;
    for (struct agg_entry *e = a->slot[h]; e; e = e->next)
        if (!strcmp(e->key, key))
            return e;
    struct agg_entry *e = calloc(1, sizeof(*e));
    if (!e || !(e->key = strdup(key)) || !(e->job_key = strdup(job_key)) ||
        (sub && !(e->sub = strdup(sub)))) {
        if (e) {
            free(e->key);
            free(e->job_key);
        }
        free(e);
        return NULL;
    }
    e->kind = kind;
    e->rank = rank;
    e->second = second;
    e->first = INFINITY;
    e->last = -INFINITY;
    e->next = a->slot[h];
    a->slot[h] = e;
    return e;
}

static void agg_clear(struct collect_agg *a)
{
    for (size_t i = 0; i < AGG_SLOTS; i++) {
        for (struct agg_entry *e = a->slot[i], *n; e; e = n) {
            n = e->next;
            free(e->key);
            free(e->job_key);
            free(e->sub);
            free(e->exe);
            free(e);
        }
        a->slot[i] = NULL;
    }
}

void collect_free(struct collector *c)
{
    if (!c->agg)
        return;
    agg_clear(c->agg);
    if (c->agg->tok)
        json_tokener_free(c->agg->tok);
    free(c->agg);
    c->agg = NULL;
}

/* ---- reading a message ---- */

/* What a message says about its process and file. */
struct msg {
    int64_t job_id, rank, uid, cnt, max_byte, switches, flushes;
    const char *host, *module, *op, *file, *exe;
    char record_id[24];
    char job_key[40];
};

static const char *why_type(const char *key, const char *want)
{
    static _Thread_local char why[96];
    snprintf(why, sizeof(why), "\"%s\" is missing or not %s", key, want);
    return why;
}

static int get_str(json_object *o, const char *key, const char **out)
{
    json_object *v;
    if (!json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, json_type_string))
        return -1;
    *out = json_object_get_string(v);
    return 0;
}

static int get_int(json_object *o, const char *key, int64_t *out)
{
    json_object *v;
    if (!json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, json_type_int))
        return -1;
    *out = json_object_get_int64(v);
    return 0;
}

static int get_num(json_object *o, const char *key, double *out)
{
    json_object *v;
    if (!json_object_object_get_ex(o, key, &v) ||
        !(json_object_is_type(v, json_type_double) || json_object_is_type(v, json_type_int)))
        return -1;
    *out = json_object_get_double(v);
    return 0;
}

/* The record id, exactly: record_id_str (iolens), else the number record_id
 * (Darshan's connector; json-c keeps integers up to 2^64 - 1). */
static int get_record_id(json_object *o, char out[24])
{
    const char *s;
    json_object *v;
    if (get_str(o, "record_id_str", &s) == 0) {
        size_t n = strlen(s);
        if (n == 0 || n > 20 || strspn(s, "0123456789") != n)
            return -1;
        memcpy(out, s, n + 1);
        return 0;
    }
    if (!json_object_object_get_ex(o, "record_id", &v) || !json_object_is_type(v, json_type_int))
        return -1;
    snprintf(out, 24, "%" PRIu64, json_object_get_uint64(v));
    return 0;
}

/* Check the message's top-level fields. @return NULL, or why it is malformed. */
static const char *read_head(json_object *o, struct msg *m)
{
    static const char *const ints[] = {"job_id", "rank", "cnt"};
    int64_t *const int_out[] = {&m->job_id, &m->rank, &m->cnt};
    static const char *const strs[] = {"ProducerName", "module", "op"};
    const char **const str_out[] = {&m->host, &m->module, &m->op};
    for (size_t i = 0; i < 3; i++)
        if (get_int(o, ints[i], int_out[i]) < 0)
            return why_type(ints[i], "an integer");
    for (size_t i = 0; i < 3; i++)
        if (get_str(o, strs[i], str_out[i]) < 0)
            return why_type(strs[i], "a string");
    if (get_record_id(o, m->record_id) < 0)
        return why_type("record_id", "an unsigned 64-bit integer");
    /* optional: Darshan's connector sends "N/A" for what it does not know */
    m->uid = get_int(o, "uid", &m->uid) < 0 ? -1 : m->uid;
    if (get_str(o, "file", &m->file) < 0 || !strcmp(m->file, "N/A"))
        m->file = NULL;
    if (get_str(o, "exe", &m->exe) < 0 || !strcmp(m->exe, "N/A"))
        m->exe = NULL;
    m->max_byte = get_int(o, "max_byte", &m->max_byte) < 0 ? -1 : m->max_byte;
    m->switches = get_int(o, "switches", &m->switches) < 0 ? -1 : m->switches;
    m->flushes = get_int(o, "flushes", &m->flushes) < 0 ? -1 : m->flushes;
    snprintf(m->job_key, sizeof(m->job_key), "events:%" PRId64, m->job_id);
    return NULL;
}

/* One event of a message's seg list, checked. */
struct seg {
    int64_t off, len, cnt, max_byte, switches, flushes, thread;
    double start, dur, total, timestamp;
};

static const char *read_seg(json_object *s, const struct msg *m, struct seg *e)
{
    static const char *const nums[] = {"start", "dur", "total", "timestamp"};
    double *const num_out[] = {&e->start, &e->dur, &e->total, &e->timestamp};
    if (!json_object_is_type(s, json_type_object))
        return "a \"seg\" element is not an object";
    if (get_int(s, "off", &e->off) < 0)
        return why_type("off", "an integer");
    if (get_int(s, "len", &e->len) < 0)
        return why_type("len", "an integer");
    for (size_t i = 0; i < 4; i++)
        if (get_num(s, nums[i], num_out[i]) < 0 || !isfinite(*num_out[i]))
            return why_type(nums[i], "a number");
    /* seconds since 1970, summed per second: before year 5000 */
    if (!(e->timestamp >= 0 && e->timestamp < 1e11))
        return "\"timestamp\" out of range (seconds since 1970)";
    /* per-event counts are iolens's; a Darshan message has the top-level ones */
    e->cnt = get_int(s, "cnt", &e->cnt) < 0 ? m->cnt : e->cnt;
    e->max_byte = get_int(s, "max_byte", &e->max_byte) < 0 ? m->max_byte : e->max_byte;
    e->switches = get_int(s, "switches", &e->switches) < 0 ? m->switches : e->switches;
    e->flushes = get_int(s, "flushes", &e->flushes) < 0 ? m->flushes : e->flushes;
    if (get_int(s, "thread", &e->thread) < 0)
        e->thread = -1;
    return NULL;
}

/* ---- storing ---- */

static struct db_val opt(int64_t v)
{
    return v < 0 ? DB_NUL : DB_I(v);
}

/* Add n (when positive) to a sum, which stops at INT64_MAX: lengths and
 * counts come from the messages. */
static void add_count(int64_t *sum, int64_t n)
{
    if (n > 0)
        *sum = n > INT64_MAX - *sum ? INT64_MAX : *sum + n;
}

/* Add a stored event to the batch's sums. @return 0, or -1 without memory. */
static int add_sums(struct collect_agg *a, const struct msg *m, const struct seg *e)
{
    int64_t sec = (int64_t)floor(e->timestamp);
    struct agg_entry *r[3] = {
        agg_get(a, AGG_ROLLUP_JOB, m->job_key, NULL, 0, sec),
        agg_get(a, AGG_ROLLUP_RANK, m->job_key, m->host, m->rank, sec),
        agg_get(a, AGG_ROLLUP_FILE, m->job_key, m->record_id, 0, sec),
    };
    int is_read = !strcmp(m->op, "read"), is_write = !strcmp(m->op, "write");
    for (int i = 0; i < 3; i++) {
        if (!r[i])
            return -1;
        r[i]->reads += is_read;
        r[i]->writes += is_write;
        add_count(&r[i]->bytes_read, is_read ? e->len : 0);
        add_count(&r[i]->bytes_written, is_write ? e->len : 0);
        r[i]->other_ops += !is_read && !is_write;
        r[i]->io_time += e->dur;
    }
    return 0;
}

/* Widen a job's or a process's time span and note its program. */
static int note_span(struct agg_entry *x, const struct msg *m, double first, double last)
{
    if (!x)
        return -1;
    x->job_id = m->job_id;
    x->uid = m->uid;
    x->first = first < x->first ? first : x->first;
    x->last = last > x->last ? last : x->last;
    if (m->exe && !x->exe && !(x->exe = strdup(m->exe)))
        return -1;
    return 0;
}

/* Store the events of a checked message. @return 0, or -1 (db_error, or memory). */
static int store(struct collector *c, json_object *segs, const struct msg *m)
{
    size_t n = json_object_array_length(segs);
    int64_t stored = 0;
    double first = INFINITY, last = -INFINITY;
    for (size_t i = 0; i < n; i++) {
        struct seg e;
        read_seg(json_object_array_get_idx(segs, i), m, &e);
        struct db_val v[] = {
            DB_S(m->job_key), DB_I(m->job_id), DB_S(m->host), DB_I(m->rank), opt(e.thread),
            DB_S(m->module), DB_S(m->op), DB_S(m->record_id), DB_S(m->file), opt(e.off),
            opt(e.len), DB_R(e.timestamp - e.dur), DB_R(e.dur), DB_R(e.timestamp),
            DB_R(e.start), DB_R(e.total), DB_I(e.cnt), DB_I(e.max_byte), DB_I(e.switches),
            DB_I(e.flushes),
        };
        int64_t rc = db_run(c->db, DB_EVENT, v, sizeof(v) / sizeof(v[0]));
        if (rc < 0)
            return -1;
        first = e.timestamp - e.dur < first ? e.timestamp - e.dur : first;
        last = e.timestamp > last ? e.timestamp : last;
        if (rc == 0) {
            c->duplicates++;
            continue;
        }
        stored++;
        if (add_sums(c->agg, m, &e) < 0)
            return db_fail(c->db, "out of memory");
    }
    struct agg_entry *p = agg_get(c->agg, AGG_PROC, m->job_key, m->host, m->rank, 0);
    if (note_span(agg_get(c->agg, AGG_JOB, m->job_key, NULL, 0, 0), m, first, last) < 0 ||
        note_span(p, m, first, last) < 0)
        return db_fail(c->db, "out of memory");
    p->events += stored;
    c->events += (uint64_t)stored;
    c->pending += (size_t)stored;
    if (m->file) {
        struct db_val f[] = {DB_S(m->job_key), DB_S(m->record_id), DB_S(m->file)};
        if (db_queue(c->db, DB_FILE, f, 3) < 0)
            return -1;
    }
    return 0;
}

/* Check a parsed message. @return NULL, or why it is malformed. */
static const char *check(json_object *o, struct msg *m, json_object **segs)
{
    if (!json_object_is_type(o, json_type_object))
        return "not a JSON object";
    const char *why = read_head(o, m);
    if (why)
        return why;
    if (!strcmp(m->module, "IOLENS") && !strcmp(m->op, "dropped"))
        return NULL; /* the runtime's count of events it could not send */
    if (!json_object_object_get_ex(o, "seg", segs) || !json_object_is_type(*segs, json_type_array) ||
        json_object_array_length(*segs) == 0)
        return "\"seg\" is missing, not a list or empty";
    for (size_t i = 0; i < json_object_array_length(*segs); i++) {
        struct seg e;
        if ((why = read_seg(json_object_array_get_idx(*segs, i), m, &e)))
            return why;
    }
    return NULL;
}

static int begin(struct collector *c)
{
    if (c->in_txn)
        return 0;
    if (!c->agg && !(c->agg = calloc(1, sizeof(*c->agg))))
        return db_fail(c->db, "out of memory");
    if (db_begin(c->db) < 0)
        return -1;
    c->in_txn = 1;
    c->txn_start = collect_now();
    return 0;
}

int collect_message(struct collector *c, const char *text, size_t len, const char *where)
{
    while (len && (text[len - 1] == '\n' || text[len - 1] == '\r' || text[len - 1] == ' '))
        len--;
    if (len == 0)
        return 0; /* a blank line is no message */
    if (begin(c) < 0)
        return -1;
    if (!c->agg->tok && !(c->agg->tok = json_tokener_new()))
        return db_fail(c->db, "out of memory");
    json_tokener_reset(c->agg->tok);
    json_tokener_set_flags(c->agg->tok, JSON_TOKENER_STRICT);
    json_object *o = json_tokener_parse_ex(c->agg->tok, text, (int)len), *segs = NULL;
    enum json_tokener_error jerr = json_tokener_get_error(c->agg->tok);
    const char *why = NULL;
    char jwhy[128];
    struct msg m = {0};
    if (!o || jerr != json_tokener_success) {
        snprintf(jwhy, sizeof(jwhy), "not JSON (%s)",
                 jerr == json_tokener_continue ? "the text ends inside a value"
                                               : json_tokener_error_desc(jerr));
        why = jwhy;
    } else if ((size_t)json_tokener_get_parse_end(c->agg->tok) != len) {
        why = "not JSON (text after the value)";
    } else {
        why = check(o, &m, &segs);
    }
    int rc = 0;
    if (why) {
        c->malformed++;
        cli_error(where, "malformed message skipped: %s", why);
    } else if (!segs) {
        struct agg_entry *p = agg_get(c->agg, AGG_PROC, m.job_key, m.host, m.rank, 0);
        if (!p)
            rc = db_fail(c->db, "out of memory");
        else
            add_count(&p->dropped, m.cnt);
        c->messages++;
    } else {
        rc = store(c, segs, &m);
        c->messages++;
    }
    json_object_put(o);
    return rc;
}

/* Write one summed row. @return 0, or -1 (db_error). */
static int write_entry(struct db *db, const struct agg_entry *e)
{
    struct db_val sums[] = {DB_I(e->reads), DB_I(e->writes), DB_I(e->bytes_read),
                            DB_I(e->bytes_written), DB_I(e->other_ops), DB_R(e->io_time)};
    struct db_val v[16];
    int n = 0;
    enum db_stmt id;
    v[n++] = DB_S(e->job_key);
    switch (e->kind) {
    case AGG_JOB:
        id = DB_JOB_FROM_EVENTS;
        v[n++] = DB_I(e->job_id);
        v[n++] = opt(e->uid);
        v[n++] = DB_S(e->exe);
        v[n++] = isfinite(e->first) ? DB_R(e->first) : DB_NUL;
        v[n++] = isfinite(e->last) ? DB_R(e->last) : DB_NUL;
        return db_queue(db, id, v, n);
    case AGG_PROC:
        v[n++] = DB_S(e->sub);
        v[n++] = DB_I(e->rank);
        v[n++] = opt(e->uid);
        v[n++] = DB_S(e->exe);
        v[n++] = isfinite(e->first) ? DB_R(e->first) : DB_NUL;
        v[n++] = isfinite(e->last) ? DB_R(e->last) : DB_NUL;
        v[n++] = DB_I(e->events);
        v[n++] = DB_I(e->dropped);
        return db_queue(db, DB_PROCESS, v, n);
    case AGG_ROLLUP_JOB:
        id = DB_ROLLUP_JOB;
        break;
    case AGG_ROLLUP_RANK:
        id = DB_ROLLUP_RANK;
        v[n++] = DB_S(e->sub);
        v[n++] = DB_I(e->rank);
        break;
    default:
        id = DB_ROLLUP_FILE;
        v[n++] = DB_S(e->sub);
        break;
    }
    v[n++] = DB_I(e->second);
    for (size_t i = 0; i < 6; i++)
        v[n++] = sums[i];
    return db_queue(db, id, v, n);
}

int collect_commit(struct collector *c, int (*save)(void *arg, struct db *db), void *arg)
{
    if (!c->in_txn && begin(c) < 0)
        return -1;
    /* jobs before their processes and rollups, for a reader's joins */
    for (int kind = AGG_JOB; kind <= AGG_ROLLUP_FILE; kind++)
        for (size_t i = 0; i < AGG_SLOTS; i++)
            for (struct agg_entry *e = c->agg->slot[i]; e; e = e->next)
                if ((int)e->kind == kind && write_entry(c->db, e) < 0)
                    return -1;
    if (save && save(arg, c->db) < 0)
        return -1;
    if (db_commit(c->db) < 0)
        return -1;
    agg_clear(c->agg);
    c->in_txn = 0;
    c->pending = 0;
    return 0;
}
