/* The ldms:// sink: ldms://HOST:PORT/STREAM publishes every message (one JSON
 * object, without its '\n', ended by a NUL as ldmsd's JSON parser wants) to
 * the LDMS stream STREAM of the ldmsd at HOST:PORT with ldmsd_stream_publish
 * (type JSON), over the transport LDMS_XPRT (default sock) with the
 * authentication LDMS_AUTH (default none; munge when chosen by Darshan's
 * DARSHAN_LDMS_ENABLE, as Darshan does). libldmsd_stream (and with it
 * libldms) is loaded with dlopen at the sink's open: a program that does not
 * ask for this sink maps none of LDMS. LDMS runs its own I/O threads, started
 * from the events thread and so with every signal blocked; they call
 * on_event, which only stores into atomics. Everything else runs on the
 * events thread.
 *
 * An event is delivered when ldmsd has answered its message: ldmsd answers
 * every publish (with an error code: a daemon without `stream_enable`
 * refuses with ENOSYS), before it hands the message to its stores. Messages
 * not yet answered are kept here, at most MAX_PENDING of them in
 * PENDING_BYTES; when that is full, send waits for answers, so the rings
 * fill up and the program's further events are dropped and counted, as with
 * a file that cannot keep up. A lost connection is made again after a delay
 * growing from 50 ms to 2 s, and the unanswered messages are published
 * again (a message may reach the store twice; it is lost only if the
 * process ends first). */
#include "sink.h"

#include <dlfcn.h>
#include <ldms/ldmsd_stream.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/clock.h"
#include "core/core.h"
#include "core/diag.h"
#include "core/fmt.h"

#define LIB_NAME "libldmsd_stream.so.0"
#define MAX_PENDING 1024u             /* messages published and not answered */
#define PENDING_BYTES (8u << 20)      /* their bytes, at most */
#define CONNECT_TIMEOUT 5.0           /* seconds for a connection to be made */
#define RETRY_FIRST 0.05              /* seconds before a new connection, doubled */
#define RETRY_MAX 2.0                 /* each failure up to this */
/* ldmsd's response record starts with six big-endian 32-bit words (struct
 * ldmsd_req_hdr_s of ldmsd_request.h, which LDMS does not install): marker,
 * type, flags, msg_no, rsp_err, rec_len. */
#define RSP_HDR_BYTES 24u
#define RSP_FLAGS 2u
#define RSP_ERR 4u
#define RSP_EOM 2u /* LDMSD_REQ_EOM_F: the response's last record */

/* The LDMS functions used, with the headers' types. */
struct ldms_api {
    __typeof__(ldms_xprt_new_with_auth) *xprt_new;
    __typeof__(ldms_xprt_connect_by_name) *connect;
    __typeof__(ldms_xprt_close) *close;
    __typeof__(_ldms_xprt_put) *put;
    __typeof__(ldmsd_stream_publish) *publish;
};

enum link { LINK_DOWN, LINK_CONNECTING, LINK_UP };

/* A message kept until ldmsd answers it: len bytes of JSON and its NUL
 * follow the head in pend. */
struct pend_head {
    uint32_t len;
    uint32_t events;
};

struct iol_ldms {
    struct iol_sink_address addr; /* ldmsd and stream */
    char port[8];                 /* addr.port, as LDMS takes it */
    char xprt[64], auth[64];
    ldms_t x;                /* the transport, NULL if none */
    double connect_until;    /* iol_now() by which a connection must be made */
    double retry_at;         /* iol_now() of the next connection attempt */
    double retry_delay;
    char *pend;              /* the unanswered messages, oldest first */
    size_t pend_start, pend_end; /* their bytes in pend */
    unsigned pending;        /* messages in pend */
    unsigned published;      /* of which published on this connection */
    unsigned answered;       /* of which answered (responses taken) */
    int refusal_said;        /* a refusal was reported */
};

static struct ldms_api api;
static void *lib;
static struct iol_ldms client;
/* Written by LDMS's threads (on_event), read by the events thread. */
static _Atomic uintptr_t generation; /* the connection on_event reports about */
static _Atomic int link_state;
static _Atomic unsigned responses; /* answers on this connection */
static uint32_t response_err[MAX_PENDING]; /* their error codes, by number % MAX_PENDING */

/* LDMS's libraries and their functions, once. @return 0, or -1. */
static int load_api(void)
{
    if (lib)
        return 0;
    void *h = NULL;
#ifdef IOLENS_LDMS_LIBDIR
    h = dlopen(IOLENS_LDMS_LIBDIR "/" LIB_NAME, RTLD_NOW | RTLD_LOCAL);
#endif
    if (!h)
        h = dlopen(LIB_NAME, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        iol_diag("events: cannot load %s (%s): LDMS is not installed where iolens was "
                 "built with it, nor on LD_LIBRARY_PATH", LIB_NAME, dlerror());
        return -1;
    }
    const struct iol_sink_symbol syms[] = {
        {"ldms_xprt_new_with_auth", (void **)&api.xprt_new},
        {"ldms_xprt_connect_by_name", (void **)&api.connect},
        {"ldms_xprt_close", (void **)&api.close},
        {"_ldms_xprt_put", (void **)&api.put},
        {"ldmsd_stream_publish", (void **)&api.publish},
    };
    if (iol_sink_resolve(h, LIB_NAME, syms, sizeof(syms) / sizeof(*syms)) != 0)
        return -1;
    lib = h;
    return 0;
}

/* The n bytes at src into dst (size bytes), NUL-ended.
 * @return 0, or -1 when empty or too long. */
static int copy_word(char *dst, size_t size, const char *src, size_t n)
{
    if (n == 0 || n >= size)
        return -1;
    memcpy(dst, src, n);
    dst[n] = '\0';
    return 0;
}

static uint32_t be32(const char *p)
{
    const unsigned char *u = (const unsigned char *)p;
    return (uint32_t)u[0] << 24 | (uint32_t)u[1] << 16 | (uint32_t)u[2] << 8 | u[3];
}

/* LDMS's threads: the connection's news. arg is the generation of the
 * connection: news of an older one are not this one's. */
static void on_event(ldms_t x, ldms_xprt_event_t e, void *arg)
{
    (void)x;
    if ((uintptr_t)arg != atomic_load(&generation))
        return;
    switch (e->type) {
    case LDMS_XPRT_EVENT_CONNECTED:
        atomic_store(&link_state, LINK_UP);
        break;
    case LDMS_XPRT_EVENT_RECV:
        if (e->data_len >= RSP_HDR_BYTES && (be32(e->data + 4 * RSP_FLAGS) & RSP_EOM)) {
            unsigned n = atomic_load_explicit(&responses, memory_order_relaxed);
            response_err[n % MAX_PENDING] = be32(e->data + 4 * RSP_ERR);
            atomic_store_explicit(&responses, n + 1, memory_order_release);
        }
        break;
    case LDMS_XPRT_EVENT_REJECTED:
    case LDMS_XPRT_EVENT_ERROR:
    case LDMS_XPRT_EVENT_DISCONNECTED:
        atomic_store(&link_state, LINK_DOWN);
        break;
    default: /* send completions, quotas: nothing to do */
        break;
    }
}

static struct pend_head *pend_at(struct iol_ldms *c, size_t off)
{
    return (struct pend_head *)(c->pend + off);
}

static size_t pend_size(uint32_t len)
{
    return (sizeof(struct pend_head) + len + 1 + 7) & ~(size_t)7;
}

/* Drop the transport (its resources go once LDMS is done with them) and
 * plan the next attempt. */
static void link_lost(struct iol_ldms *c)
{
    if (c->x) {
        atomic_fetch_add(&generation, 1);
        api.close(c->x);
        api.put(c->x, "rail_ref", __func__, __LINE__);
        c->x = NULL;
    }
    atomic_store(&link_state, LINK_DOWN);
    c->retry_at = iol_now() + c->retry_delay;
    c->retry_delay = c->retry_delay * 2 < RETRY_MAX ? c->retry_delay * 2 : RETRY_MAX;
}

/* Start a connection when it is time to try; it is made on LDMS's threads. */
static void try_connect(struct iol_ldms *c)
{
    double now = iol_now();
    if (c->x || now < c->retry_at)
        return;
    c->x = api.xprt_new(c->xprt, c->auth, NULL);
    if (!c->x) {
        c->retry_at = now + RETRY_MAX;
        return;
    }
    uintptr_t g = atomic_fetch_add(&generation, 1) + 1;
    atomic_store(&responses, 0);
    c->published = c->answered = 0;
    atomic_store(&link_state, LINK_CONNECTING);
    c->connect_until = now + CONNECT_TIMEOUT;
    if (api.connect(c->x, c->addr.host, c->port, on_event, (void *)g) != 0)
        link_lost(c);
}

/* Take the answers: answered messages leave pend, delivered or refused. */
static void take_answers(struct iol_sink *s, struct iol_ldms *c)
{
    unsigned n = atomic_load_explicit(&responses, memory_order_acquire);
    while (c->answered < n && c->pending) {
        struct pend_head *h = pend_at(c, c->pend_start);
        uint32_t err = response_err[c->answered % MAX_PENDING];
        if (err == 0)
            s->delivered += h->events;
        else if (!c->refusal_said) {
            c->refusal_said = 1;
            iol_diag("events: ldmsd at %s:%s refused a message (error %u; it needs "
                     "stream_enable in its configuration)", c->addr.host, c->port, err);
        }
        c->pend_start += pend_size(h->len);
        c->pending--;
        c->published--;
        c->answered++;
    }
    if (!c->pending)
        c->pend_start = c->pend_end = 0;
}

/* Serve the connection: make it, take answers, publish what is not yet
 * published on it. */
static void serve(struct iol_sink *s, struct iol_ldms *c)
{
    int state = atomic_load(&link_state);
    if (c->x && (state == LINK_DOWN ||
                 (state == LINK_CONNECTING && iol_now() > c->connect_until)))
        link_lost(c);
    if (!c->x)
        try_connect(c);
    if (!c->x || atomic_load(&link_state) != LINK_UP)
        return;
    c->retry_delay = RETRY_FIRST;
    take_answers(s, c);
    size_t off = c->pend_start;
    for (unsigned i = 0; i < c->published; i++)
        off += pend_size(pend_at(c, off)->len);
    while (c->published < c->pending) {
        struct pend_head *h = pend_at(c, off);
        if (api.publish(c->x, c->addr.name, LDMSD_STREAM_JSON, (const char *)(h + 1),
                        h->len + 1) != 0) {
            link_lost(c);
            return;
        }
        c->published++;
        off += pend_size(h->len);
    }
}

static int ldms_open(struct iol_sink *s, const char *target)
{
    struct iol_ldms *c = &client;
    const struct iol_config *cfg = &iol_rt.cfg;
    char *pend = c->pend;

    memset(c, 0, sizeof(*c));
    c->pend = pend;
    if (iol_sink_parse_address(target, 412, &c->addr) != 0) { /* Darshan's port */
        iol_diag("events: ldms:%s is not ldms://HOST:PORT/STREAM", target);
        return -1;
    }
    iol_fmt(c->port, sizeof(c->port), "%d", c->addr.port);
    const char *xprt = cfg->ldms_xprt && cfg->ldms_xprt[0] ? cfg->ldms_xprt : "sock";
    const char *auth = cfg->ldms_auth && cfg->ldms_auth[0] ? cfg->ldms_auth
                       : cfg->events[0]                   ? "none"
                                                          : "munge";
    if (copy_word(c->xprt, sizeof(c->xprt), xprt, strlen(xprt)) ||
        copy_word(c->auth, sizeof(c->auth), auth, strlen(auth))) {
        iol_diag("events: LDMS transport or authentication name too long");
        return -1;
    }
    if (load_api() != 0)
        return -1;
    if (!c->pend && !(c->pend = malloc(PENDING_BYTES))) {
        iol_diag("events: no memory for the ldms:// sink");
        return -1;
    }
    c->retry_delay = RETRY_FIRST;
    s->ldms = c;
    try_connect(c);
    double until = iol_now() + 0.5;
    while (c->x && atomic_load(&link_state) == LINK_CONNECTING && iol_now() < until)
        iol_sink_sleep_ms(1);
    if (atomic_load(&link_state) != LINK_UP)
        iol_diag("events: no ldmsd at %s:%s (%s, auth %s) yet; trying again", c->addr.host,
                 c->port, c->xprt, c->auth);
    return 0;
}

/* Keep message msg (len bytes, no NUL) in pend. @return 0, or -1 if it
 * cannot fit even in an empty pend. */
static int keep(struct iol_sink *s, struct iol_ldms *c, const char *msg, size_t len,
                unsigned events)
{
    size_t need = pend_size((uint32_t)len);
    if (need > PENDING_BYTES)
        return -1;
    for (;;) {
        if (c->pending < MAX_PENDING && c->pend_end + need <= PENDING_BYTES)
            break;
        if (c->pending < MAX_PENDING && c->pend_end - c->pend_start + need <= PENDING_BYTES) {
            memmove(c->pend, c->pend + c->pend_start, c->pend_end - c->pend_start);
            c->pend_end -= c->pend_start;
            c->pend_start = 0;
            break;
        }
        serve(s, c);
        iol_sink_sleep_ms(1);
    }
    struct pend_head *h = pend_at(c, c->pend_end);
    h->len = (uint32_t)len;
    h->events = events;
    memcpy(h + 1, msg, len);
    ((char *)(h + 1))[len] = '\0';
    c->pend_end += need;
    c->pending++;
    return 0;
}

static int ldms_send(struct iol_sink *s, const char *msgs, size_t len, size_t n,
                     const unsigned char *events)
{
    struct iol_ldms *c = s->ldms;
    const char *p = msgs, *end = msgs + len;
    int lost = 0;

    for (size_t i = 0; i < n && p < end; i++) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t mlen = nl ? (size_t)(nl - p) : (size_t)(end - p);
        if (keep(s, c, p, mlen, events[i]) != 0)
            lost = 1;
        p = nl ? nl + 1 : end;
    }
    serve(s, c);
    return lost ? -1 : 0;
}

static void ldms_idle(struct iol_sink *s, int ms)
{
    serve(s, s->ldms);
    iol_sink_sleep_ms(ms);
}

/* Waits for the answers while connected; a connection that is down (or
 * goes down) gets one immediate attempt, so that a process ending without
 * a daemon does not wait the whole bound. */
static void ldms_close(struct iol_sink *s, double limit)
{
    struct iol_ldms *c = s->ldms;
    if (!c)
        return;
    double until = iol_now() + limit;
    int attempted = 0;
    while (c->pending && iol_now() < until) {
        serve(s, c);
        if (!c->x) {
            if (attempted)
                break;
            attempted = 1;
            c->retry_at = 0;
            try_connect(c);
        }
        iol_sink_sleep_ms(1);
    }
    if (c->x)
        link_lost(c);
    s->ldms = NULL;
}

/* In a forked child: the parent's transport is the parent's; the child's
 * LDMS starts again (zap resets itself at fork) at its next open. */
static void ldms_forget(struct iol_sink *s)
{
    struct iol_ldms *c = s->ldms;
    if (c) {
        atomic_fetch_add(&generation, 1);
        c->x = NULL;
        c->pending = c->published = c->answered = 0;
        c->pend_start = c->pend_end = 0;
    }
    s->ldms = NULL;
}

const struct iol_sink_ops iol_sink_ldms = {
    .scheme = "ldms:",
    .open = ldms_open,
    .send = ldms_send,
    .idle = ldms_idle,
    .close = ldms_close,
    .forget = ldms_forget,
};
