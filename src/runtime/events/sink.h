/* Where events go: a sink is a small table of functions, chosen by the
 * scheme of EVENTS's value: file: (sink_file.c), mqtt:// (sink_mqtt.c,
 * which loads libmosquitto with dlopen only when configured) and ldms://
 * (sink_ldms.c, LDMS's libraries likewise). Every call runs on the events
 * thread, never on the application's. */
#ifndef IOL_RT_EVENTS_SINK_H
#define IOL_RT_EVENTS_SINK_H

#include <stddef.h>
#include <stdint.h>

struct iol_sink;
struct iol_mqtt;
struct iol_ldms;

struct iol_sink_ops {
    const char *scheme; /* "file:" */
    /* Get ready to send to target (the value after the scheme).
     * @return 0, or -1 (the sink is not usable: events are dropped). */
    int (*open)(struct iol_sink *s, const char *target);
    /* Send n messages: len bytes of JSON objects, each ended by '\n';
     * message i holds events[i] events. Adds the events delivered for good
     * to s->delivered, now or in a later call (a broker's acknowledgement).
     * May wait while the sink is behind. @return 0 when all were taken,
     * -1 when some were lost. */
    int (*send)(struct iol_sink *s, const char *msgs, size_t len, size_t n,
                const unsigned char *events);
    /* Nothing to send: wait at most ms milliseconds, serving the sink
     * meanwhile. NULL: the events thread sleeps. */
    void (*idle)(struct iol_sink *s, int ms);
    /* Deliver what is still pending, waiting at most limit seconds, then
     * disconnect; the sink may be opened again. */
    void (*close)(struct iol_sink *s, double limit);
    /* In a forked child: forget the parent's connection without a word to
     * it (the parent goes on using it). */
    void (*forget)(struct iol_sink *s);
};

/* A sink in use: its table and its state (each sink's own fields). */
struct iol_sink {
    const struct iol_sink_ops *ops;
    int fd;                /* file: the open file, -1 if none */
    struct iol_mqtt *mqtt; /* mqtt://: the client (sink_mqtt.c), NULL if none */
    struct iol_ldms *ldms; /* ldms://: the publisher (sink_ldms.c), NULL if none */
    uint64_t delivered;    /* events delivered for good since the start */
};

extern const struct iol_sink_ops iol_sink_file;
#ifdef IOLENS_WITH_MQTT
extern const struct iol_sink_ops iol_sink_mqtt;
#define IOL_SINK_MQTT_KNOWN ", mqtt://HOST:PORT/TOPIC"
#else
#define IOL_SINK_MQTT_KNOWN "; mqtt:// is not in this build"
#endif
#ifdef IOLENS_WITH_LDMS
extern const struct iol_sink_ops iol_sink_ldms;
#define IOL_SINK_LDMS_KNOWN ", ldms://HOST:PORT/STREAM"
#else
#define IOL_SINK_LDMS_KNOWN "; ldms:// is not in this build"
#endif
#define IOL_SINKS_KNOWN "file:DIR" IOL_SINK_MQTT_KNOWN IOL_SINK_LDMS_KNOWN

/* A network sink's target, //HOST[:PORT]/NAME (NAME: the topic or stream). */
struct iol_sink_address {
    char host[256];
    int port;
    char name[1024];
};

/* Parse target into a, port default_port when left out.
 * @return 0, or -1 (not of that form, or a part too long). */
int iol_sink_parse_address(const char *target, int default_port, struct iol_sink_address *a);

/* Wait ms milliseconds (a sink's waits, on the events thread). */
void iol_sink_sleep_ms(int ms);

/* A function a sink takes from the library it loads with dlopen. */
struct iol_sink_symbol {
    const char *name;
    void **fn;
};

/* Resolve syms[0..n) in the library h (named lib in the diagnostic); if one
 * is missing, h is closed. @return 0, or -1. */
int iol_sink_resolve(void *h, const char *lib, const struct iol_sink_symbol *syms, size_t n);

/* The table of the sink named by spec ("file:DIR"), and in *target the rest
 * of spec. @return NULL if no sink has that scheme. */
const struct iol_sink_ops *iol_sink_find(const char *spec, const char **target);

#endif
