/* The mqtt:// sink: mqtt://HOST:PORT/TOPIC publishes every message (one JSON
 * object, without its '\n') to TOPIC at QoS 1 through libmosquitto, loaded
 * with dlopen at the sink's open: a program that does not ask for this sink
 * maps no libmosquitto. libmosquitto runs no thread of its own here: the
 * events thread drives the connection (mosquitto_loop) between and while
 * it sends.
 *
 * An event is delivered when the broker has acknowledged its message
 * (PUBACK). Messages not yet acknowledged wait in libmosquitto's queue, at
 * most MAX_PENDING of them; when the queue is full, send waits for
 * acknowledgements, so the rings fill up and the program's further events
 * are dropped and counted, as with a file that cannot keep up. A lost
 * connection is made again after a delay growing from 50 ms to 2 s;
 * libmosquitto then sends the unacknowledged messages again (QoS 1: a
 * message may arrive twice; it is lost only if the process ends first).
 *
 * Two things mosquitto_lib_init and mosquitto_new do to the whole process
 * are avoided: lib_init reseeds rand() (it is not needed without TLS), and
 * mosquitto_new sets SIGPIPE to be ignored (the program's action is put
 * back; the events thread blocks every signal, and a write to a closed
 * socket fails with EPIPE). */
#include "sink.h"

#include <dlfcn.h>
#include <mosquitto.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/clock.h"
#include "core/core.h"
#include "core/diag.h"
#include "core/fmt.h"
#include "core/real.h"
#include "core/signals.h"

#define LIB_NAME "libmosquitto.so.1"
#define MAX_PENDING 1024u  /* messages sent and not acknowledged, at most */
#define MAX_INFLIGHT 256u  /* of which libmosquitto has on the wire */
#define KEEPALIVE 60       /* seconds */
#define RETRY_FIRST 0.05   /* seconds before a new connection, doubled each */
#define RETRY_MAX 2.0      /* failure up to this */

/* The libmosquitto functions used, with the header's types. */
struct mosq_api {
    __typeof__(mosquitto_new) *new_client;
    __typeof__(mosquitto_connect) *connect;
    __typeof__(mosquitto_disconnect) *disconnect;
    __typeof__(mosquitto_publish) *publish;
    __typeof__(mosquitto_loop) *loop;
    __typeof__(mosquitto_publish_callback_set) *publish_callback_set;
    __typeof__(mosquitto_max_inflight_messages_set) *max_inflight_messages_set;
    __typeof__(mosquitto_destroy) *destroy;
    __typeof__(mosquitto_socket) *socket;
};

struct iol_mqtt {
    struct mosquitto *m;
    struct iol_sink_address addr; /* broker and topic */
    int connected;       /* mosquitto_connect succeeded and no error since */
    double retry_at;     /* iol_now() of the next connection attempt */
    double retry_delay;
    unsigned pending;    /* messages published and not acknowledged */
    unsigned char events_of[65536]; /* events of each unacknowledged message id */
};

static struct mosq_api api;
static void *lib;
static struct iol_mqtt client;
/* Clients a forked child inherited from its ancestors: never used or freed
 * (their locks may be held by a thread the fork left behind), only kept
 * reachable, so that a leak checker does not report them. */
static struct mosquitto *inherited[8];

/* libmosquitto and its functions, once. @return 0, or -1. */
static int load_api(void)
{
    if (lib)
        return 0;
    void *h = dlopen(LIB_NAME, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        iol_diag("events: cannot load %s (%s): install libmosquitto1", LIB_NAME, dlerror());
        return -1;
    }
    const struct iol_sink_symbol syms[] = {
        {"mosquitto_new", (void **)&api.new_client},
        {"mosquitto_connect", (void **)&api.connect},
        {"mosquitto_disconnect", (void **)&api.disconnect},
        {"mosquitto_publish", (void **)&api.publish},
        {"mosquitto_loop", (void **)&api.loop},
        {"mosquitto_publish_callback_set", (void **)&api.publish_callback_set},
        {"mosquitto_max_inflight_messages_set", (void **)&api.max_inflight_messages_set},
        {"mosquitto_destroy", (void **)&api.destroy},
        {"mosquitto_socket", (void **)&api.socket},
    };
    if (iol_sink_resolve(h, LIB_NAME, syms, sizeof(syms) / sizeof(*syms)) != 0)
        return -1;
    lib = h;
    return 0;
}

/* The broker acknowledged message mid: its events are delivered. */
static void on_publish(struct mosquitto *m, void *obj, int mid)
{
    (void)m;
    struct iol_sink *s = obj;
    struct iol_mqtt *c = s->mqtt;
    if (mid <= 0 || mid > 65535 || !c->pending)
        return;
    s->delivered += c->events_of[mid];
    c->events_of[mid] = 0;
    c->pending--;
}

/* Connect when it is time to try. */
static void try_connect(struct iol_mqtt *c)
{
    double now = iol_now();
    if (now < c->retry_at)
        return;
    if (api.connect(c->m, c->addr.host, c->addr.port, KEEPALIVE) == MOSQ_ERR_SUCCESS) {
        c->connected = 1;
        c->retry_delay = RETRY_FIRST;
        return;
    }
    c->retry_at = now + c->retry_delay;
    c->retry_delay = c->retry_delay * 2 < RETRY_MAX ? c->retry_delay * 2 : RETRY_MAX;
}

/* Serve the connection for at most ms milliseconds: send what is queued,
 * read acknowledgements, keep the connection alive or make it again. */
static void serve(struct iol_mqtt *c, int ms)
{
    if (!c->connected)
        try_connect(c);
    if (!c->connected) {
        if (ms)
            iol_sink_sleep_ms(ms);
        return;
    }
    if (api.loop(c->m, ms, 1) != MOSQ_ERR_SUCCESS) {
        c->connected = 0;
        c->retry_at = iol_now() + c->retry_delay;
    }
}

static int mqtt_open(struct iol_sink *s, const char *target)
{
    struct iol_mqtt *c = &client;
    char id[128], host[64];

    memset(c, 0, sizeof(*c));
    if (iol_sink_parse_address(target, 1883, &c->addr) != 0) {
        iol_diag("events: mqtt:%s is not mqtt://HOST:PORT/TOPIC", target);
        return -1;
    }
    if (load_api() != 0)
        return -1;
    if (gethostname(host, sizeof(host)) != 0)
        host[0] = '\0';
    host[sizeof(host) - 1] = '\0';
    iol_fmt(id, sizeof(id), "iolens-%s-%d-%lld", host, (int)iol_rt.pid,
            (long long)iol_rt.start_real.tv_sec);
    struct sigaction pipe_action;
    int have_action = iol_sys_sigaction(SIGPIPE, NULL, &pipe_action) == 0;
    c->m = api.new_client(id, true, s);
    if (have_action)
        iol_sys_sigaction(SIGPIPE, &pipe_action, NULL);
    if (!c->m) {
        iol_diag("events: mosquitto_new failed");
        return -1;
    }
    api.publish_callback_set(c->m, on_publish);
    api.max_inflight_messages_set(c->m, MAX_INFLIGHT);
    c->retry_delay = RETRY_FIRST;
    s->mqtt = c;
    try_connect(c);
    if (!c->connected)
        iol_diag("events: no MQTT broker at %s:%d yet; trying again", c->addr.host, c->addr.port);
    return 0;
}

static int mqtt_send(struct iol_sink *s, const char *msgs, size_t len, size_t n,
                     const unsigned char *events)
{
    struct iol_mqtt *c = s->mqtt;
    const char *p = msgs, *end = msgs + len;
    int lost = 0;

    for (size_t i = 0; i < n && p < end; i++) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t mlen = nl ? (size_t)(nl - p) : (size_t)(end - p);
        while (c->pending >= MAX_PENDING)
            serve(c, 10);
        int mid = 0;
        int rc = api.publish(c->m, &mid, c->addr.name, (int)mlen, p, 1, false);
        /* A message id means the message is queued: sent now, or again
         * after the next connection (NO_CONN, CONN_LOST, ERRNO). */
        if (mid > 0 && mid <= 65535 && rc != MOSQ_ERR_NOMEM) {
            c->events_of[mid] = events[i];
            c->pending++;
        } else {
            lost = 1;
        }
        if (rc != MOSQ_ERR_SUCCESS && c->connected) {
            c->connected = 0;
            c->retry_at = iol_now() + c->retry_delay;
        }
        p = nl ? nl + 1 : end;
    }
    serve(c, 0);
    return lost ? -1 : 0;
}

static void mqtt_idle(struct iol_sink *s, int ms)
{
    serve(s->mqtt, ms);
}

/* Waits for the acknowledgements while connected; a connection that is
 * down (or goes down) gets one immediate attempt, so that a process ending
 * without a broker does not wait the whole bound. */
static void mqtt_close(struct iol_sink *s, double limit)
{
    struct iol_mqtt *c = s->mqtt;
    if (!c)
        return;
    double until = iol_now() + limit;
    while (c->pending && iol_now() < until) {
        if (!c->connected) {
            c->retry_at = 0;
            try_connect(c);
            if (!c->connected)
                break;
        }
        serve(c, 10);
    }
    if (c->connected) {
        api.disconnect(c->m);
        api.loop(c->m, 10, 1);
    }
    api.destroy(c->m);
    s->mqtt = NULL;
}

/* The parent's client is left as it is (the parent's, in memory the child
 * has a copy of); the child's copy of its socket is closed. */
static void mqtt_forget(struct iol_sink *s)
{
    struct mosquitto *m = s->mqtt ? s->mqtt->m : NULL;
    int fd = m ? api.socket(m) : -1;
    if (fd >= 0)
        iol_sys_close(fd);
    for (size_t i = 0; m && i < sizeof(inherited) / sizeof(*inherited); i++)
        if (!inherited[i]) {
            inherited[i] = m;
            break;
        }
    s->mqtt = NULL;
}

const struct iol_sink_ops iol_sink_mqtt = {
    .scheme = "mqtt:",
    .open = mqtt_open,
    .send = mqtt_send,
    .idle = mqtt_idle,
    .close = mqtt_close,
    .forget = mqtt_forget,
};
