/* iolens collect --from mqtt://HOST:PORT/TOPIC: the runtime's events through
 * an MQTT broker, with libmosquitto. A persistent session (clean_session
 * false, a fixed client id) subscribed at QoS 1: while collect is away or
 * the broker restarts, the broker keeps the messages for it. libmosquitto
 * 2.0 acknowledges a QoS 1 message before handing it over (it has no manual
 * acknowledgement), so an acknowledged message is stored at the next commit:
 * at most one batch is lost if collect itself is killed (SIGKILL); SIGINT
 * and SIGTERM commit first. Messages redelivered are stored once (events'
 * unique key). */
#include <mosquitto.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "collect.h"

struct mqtt_source {
    struct mosquitto *m;
    char host[256], topic[1024];
    int port;
    int linked;                /* the client has a socket to the broker */
    int connected, subscribed, said_down;
    double last_message, next_try;
    struct collector *c; /* during a poll */
    long got;
    int failed;
};

static void on_connect(struct mosquitto *m, void *arg, int rc)
{
    struct mqtt_source *s = arg;
    if (rc != 0)
        return;
    s->connected = 1;
    if (s->said_down)
        cli_say("mqtt: connected again to %s:%d", s->host, s->port);
    s->said_down = 0;
    mosquitto_subscribe(m, NULL, s->topic, 1);
}

static void on_subscribe(struct mosquitto *m, void *arg, int mid, int n, const int *qos)
{
    struct mqtt_source *s = arg;
    s->subscribed = 1;
    s->last_message = collect_now();
}

static void on_disconnect(struct mosquitto *m, void *arg, int rc)
{
    struct mqtt_source *s = arg;
    s->connected = s->subscribed = 0;
}

static void on_message(struct mosquitto *m, void *arg, const struct mosquitto_message *msg)
{
    struct mqtt_source *s = arg;
    char where[1100];
    s->last_message = collect_now();
    if (s->failed || !s->c)
        return;
    snprintf(where, sizeof(where), "mqtt %s", msg->topic);
    if (collect_message(s->c, msg->payload, (size_t)msg->payloadlen, where) < 0)
        s->failed = 1;
    s->got++;
}

/* Split mqtt://HOST[:PORT]/TOPIC. @return 0, or -1. */
static int parse_url(struct mqtt_source *s, const char *url)
{
    const char *p = url + strlen("mqtt://"), *slash = strchr(p, '/'), *colon;
    if (strncmp(url, "mqtt://", 7) || !slash || !slash[1])
        return -1;
    colon = memchr(p, ':', (size_t)(slash - p));
    size_t hl = (size_t)((colon ? colon : slash) - p);
    if (hl == 0 || hl >= sizeof(s->host) || strlen(slash + 1) >= sizeof(s->topic))
        return -1;
    memcpy(s->host, p, hl);
    s->host[hl] = '\0';
    s->port = 1883;
    if (colon) {
        char *end;
        long port = strtol(colon + 1, &end, 10);
        if (end != slash || port < 1 || port > 65535)
            return -1;
        s->port = (int)port;
    }
    snprintf(s->topic, sizeof(s->topic), "%s", slash + 1);
    return 0;
}

struct mqtt_source *mqtt_source_open(const char *url, const char *client_id, char *why,
                                     size_t whylen)
{
    struct mqtt_source *s = calloc(1, sizeof(*s));
    if (!s) {
        snprintf(why, whylen, "out of memory");
        return NULL;
    }
    if (parse_url(s, url) < 0) {
        snprintf(why, whylen, "not mqtt://HOST[:PORT]/TOPIC");
        free(s);
        return NULL;
    }
    mosquitto_lib_init();
    s->m = mosquitto_new(client_id, false, s);
    if (!s->m) {
        snprintf(why, whylen, "cannot make an MQTT client");
        mosquitto_lib_cleanup();
        free(s);
        return NULL;
    }
    mosquitto_connect_callback_set(s->m, on_connect);
    mosquitto_subscribe_callback_set(s->m, on_subscribe);
    mosquitto_disconnect_callback_set(s->m, on_disconnect);
    mosquitto_message_callback_set(s->m, on_message);
    return s;
}

/* Try to (re)connect, at most twice a second. */
static void reconnect(struct mqtt_source *s)
{
    double now = collect_now();
    if (now < s->next_try)
        return;
    s->next_try = now + 0.5;
    if (mosquitto_connect(s->m, s->host, s->port, 10) == MOSQ_ERR_SUCCESS) {
        s->linked = 1;
    } else if (!s->said_down) {
        cli_say("mqtt: cannot connect to %s:%d; trying again", s->host, s->port);
        s->said_down = 1;
    }
}

long mqtt_source_poll(struct mqtt_source *s, struct collector *c, int timeout_ms)
{
    if (!s->linked)
        reconnect(s);
    if (!s->linked) {
        struct timespec t = {timeout_ms / 1000, (timeout_ms % 1000) * 1000000L};
        nanosleep(&t, NULL);
        return 0;
    }
    s->c = c;
    s->got = 0;
    int rc = mosquitto_loop(s->m, timeout_ms, 1);
    s->c = NULL;
    if (rc != MOSQ_ERR_SUCCESS) {
        if (!s->said_down) {
            cli_say("mqtt: lost the broker at %s:%d; reconnecting", s->host, s->port);
            s->said_down = 1;
        }
        s->linked = s->connected = s->subscribed = 0;
    }
    return s->failed ? -1 : s->got;
}

int mqtt_source_drained(const struct mqtt_source *s, double idle)
{
    return s->subscribed && collect_now() - s->last_message >= idle;
}

void mqtt_source_close(struct mqtt_source *s)
{
    if (!s)
        return;
    mosquitto_disconnect(s->m);
    mosquitto_destroy(s->m);
    mosquitto_lib_cleanup();
    free(s);
}
