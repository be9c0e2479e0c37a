/* JSON text of events, written without stdio or allocation into the events
 * thread's buffer. Every string is escaped; floats carry six decimals and a
 * point (the store reads "dur" and "timestamp" as floats, integers as ints). */
#include "json.h"

#include <string.h>


struct out {
    char *p;
    size_t cap, n;
    int full;
};

static void put(struct out *o, const char *s, size_t len)
{
    if (o->full || o->n + len > o->cap) {
        o->full = 1;
        return;
    }
    memcpy(o->p + o->n, s, len);
    o->n += len;
}

static void lit(struct out *o, const char *s)
{
    put(o, s, strlen(s));
}

/* s as a JSON string, quoted: '"', '\\' and control characters escaped. */
static void str(struct out *o, const char *s)
{
    static const char hex[] = "0123456789abcdef";
    put(o, "\"", 1);
    for (const unsigned char *c = (const unsigned char *)(s ? s : ""); *c; c++) {
        if (*c == '"' || *c == '\\') {
            char e[2] = {'\\', (char)*c};
            put(o, e, 2);
        } else if (*c < 0x20 || *c == 0x7f) {
            char e[6] = {'\\', 'u', '0', '0', hex[*c >> 4], hex[*c & 15]};
            put(o, e, 6);
        } else {
            put(o, (const char *)c, 1);
        }
    }
    put(o, "\"", 1);
}

/* v in decimal (a digit loop: iol_fmt's generality costs more than the
 * rest of an event's formatting). */
static void u64(struct out *o, uint64_t v)
{
    char b[20];
    size_t i = sizeof(b);
    do
        b[--i] = (char)('0' + v % 10);
    while ((v /= 10) != 0);
    put(o, b + i, sizeof(b) - i);
}

static void i64(struct out *o, int64_t v)
{
    if (v < 0) {
        put(o, "-", 1);
        u64(o, 0 - (uint64_t)v);
    } else {
        u64(o, (uint64_t)v);
    }
}

/* Seconds sec and microseconds us as "sec.uuuuuu". */
static void sec_us(struct out *o, int64_t sec, uint64_t us)
{
    char b[7];
    i64(o, sec);
    b[0] = '.';
    for (int i = 6; i >= 1; i--, us /= 10)
        b[i] = (char)('0' + us % 10);
    put(o, b, 7);
}

/* v >= 0 with six decimals (a negative value, from a clock step, prints 0). */
static void fixed6(struct out *o, double v)
{
    uint64_t us = v > 0 ? (uint64_t)(v * 1e6 + 0.5) : 0;
    sec_us(o, (int64_t)(us / 1000000), us % 1000000);
}

/* The absolute time of iol_now() seconds t. */
static void epoch(struct out *o, const struct iol_event_proc *p, double t)
{
    uint64_t us = (uint64_t)(p->epoch_nsec / 1000) + (t > 0 ? (uint64_t)(t * 1e6 + 0.5) : 0);
    sec_us(o, p->epoch_sec + (int64_t)(us / 1000000), us % 1000000);
}

static const char *const op_names[] = {"open", "read", "write", "close", "flush"};

static const char *module_name(unsigned m)
{
    switch (m) {
    case IOL_EV_POSIX: return "POSIX";
    case IOL_EV_STDIO: return "STDIO";
    case IOL_EV_MPIIO: return "MPIIO";
    case IOL_EV_H5D: return "H5D";
    default: return "H5F";
    }
}

/* An event's offset and max_byte: -1 for H5D, whose selection fields hold
 * their place in the slot. */
static int64_t off_of(const struct iol_event *e)
{
    return e->module == IOL_EV_H5D ? -1 : e->off;
}

static int64_t max_byte_of(const struct iol_event *e)
{
    return e->module == IOL_EV_H5D ? -1 : e->max_byte;
}

/* The record's counts an event carries, in the head and in each "seg"
 * element: ,"max_byte":..,"switches":..,"flushes":.. */
static void counts(struct out *o, const struct iol_event *e)
{
    lit(o, ",\"max_byte\":");
    i64(o, max_byte_of(e));
    lit(o, ",\"switches\":");
    i64(o, e->switches);
    lit(o, ",\"flushes\":");
    i64(o, e->flushes);
}

/* The fields before "seg", as the connector orders them. */
static void head(struct out *o, const struct iol_event_proc *p, const struct iol_event *e,
                 const char *module, const char *op, int meta)
{
    lit(o, "{\"schema\":");
    str(o, meta ? "darshan_data" : "N/A");
    lit(o, ",\"uid\":");
    i64(o, p->uid);
    lit(o, ",\"exe\":");
    str(o, meta ? p->exe : "N/A");
    lit(o, ",\"job_id\":");
    i64(o, p->job_id);
    lit(o, ",\"rank\":");
    i64(o, p->rank);
    lit(o, ",\"ProducerName\":");
    str(o, p->host);
    lit(o, ",\"file\":");
    str(o, e->name);
    lit(o, ",\"record_id\":");
    u64(o, e->record_id);
    lit(o, ",\"record_id_str\":\"");
    u64(o, e->record_id);
    lit(o, "\",\"module\":");
    str(o, module);
    lit(o, ",\"type\":");
    str(o, meta ? "MET" : "MOD");
    counts(o, e);
    lit(o, ",\"cnt\":");
    i64(o, e->cnt);
    lit(o, ",\"op\":");
    str(o, op);
    lit(o, ",\"seg\":[");
}

/* The HDF5 fields of "seg": H5D's values, -1 and "N/A" for other modules. */
static void h5_fields(struct out *o, const struct iol_event *e)
{
    if (e->module != IOL_EV_H5D) {
        lit(o, "{\"data_set\":\"N/A\",\"pt_sel\":-1,\"irreg_hslab\":-1,\"reg_hslab\":-1,"
               "\"ndims\":-1,\"npoints\":-1");
        return;
    }
    lit(o, "{\"data_set\":");
    str(o, e->data_set ? e->data_set : "N/A");
    lit(o, ",\"pt_sel\":");
    i64(o, e->pt_sel);
    lit(o, ",\"irreg_hslab\":");
    i64(o, e->irreg_hslab);
    lit(o, ",\"reg_hslab\":");
    i64(o, e->reg_hslab);
    lit(o, ",\"ndims\":");
    i64(o, e->ndims);
    lit(o, ",\"npoints\":");
    i64(o, e->npoints);
}

/* One element of "seg": the connector's fields, then iolens's (this event's
 * own counts, as the head holds the batch's last, and its thread). */
static void seg(struct out *o, const struct iol_event_proc *p, const struct iol_event *e)
{
    h5_fields(o, e);
    lit(o, ",\"off\":");
    i64(o, off_of(e));
    lit(o, ",\"len\":");
    i64(o, e->len);
    lit(o, ",\"start\":");
    fixed6(o, e->start);
    lit(o, ",\"dur\":");
    fixed6(o, e->end - e->start);
    lit(o, ",\"total\":");
    fixed6(o, e->total);
    lit(o, ",\"timestamp\":");
    epoch(o, p, e->end);
    lit(o, ",\"cnt\":");
    i64(o, e->cnt);
    counts(o, e);
    lit(o, ",\"thread\":");
    u64(o, e->thread);
    lit(o, "}");
}

int iol_event_json(char *buf, size_t cap, size_t *used, const struct iol_event_proc *p,
                   const struct iol_event *ev, size_t n)
{
    struct out o = {buf + *used, cap - *used, 0, 0};
    const struct iol_event *last = &ev[n - 1];
    head(&o, p, last, module_name(last->module), op_names[last->op], last->op == IOL_EV_OPEN);
    for (size_t i = 0; i < n; i++) {
        if (i)
            lit(&o, ",");
        seg(&o, p, &ev[i]);
    }
    lit(&o, "]}\n");
    if (o.full)
        return -1;
    *used += o.n;
    return 0;
}

int iol_event_json_dropped(char *buf, size_t cap, size_t *used,
                           const struct iol_event_proc *p, uint64_t count, double now)
{
    struct iol_event e = {.name = "N/A", .off = -1, .len = -1, .cnt = (int64_t)count,
                          .max_byte = -1, .switches = -1, .flushes = -1,
                          .start = now, .end = now};
    struct out o = {buf + *used, cap - *used, 0, 0};
    head(&o, p, &e, "IOLENS", "dropped", 0);
    seg(&o, p, &e);
    lit(&o, "]}\n");
    if (o.full)
        return -1;
    *used += o.n;
    return 0;
}

int iol_event_same_batch(const struct iol_event *a, const struct iol_event *b)
{
    return a->record_id == b->record_id && a->module == b->module && a->op == b->op &&
           a->thread == b->thread && a->op != IOL_EV_OPEN;
}
