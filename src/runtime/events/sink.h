/* Where events go: a sink is a small table of three functions, chosen by
 * the scheme of EVENTS's value (file: today; mqtt:// and ldms:// next, each
 * in its own file, loading its library with dlopen only when configured).
 * Every call runs on the events thread, never on the application's. */
#ifndef IOL_RT_EVENTS_SINK_H
#define IOL_RT_EVENTS_SINK_H

#include <stddef.h>

struct iol_sink;

struct iol_sink_ops {
    const char *scheme; /* "file:" */
    /* Connect to target (the value after the scheme). @return 0, or -1. */
    int (*open)(struct iol_sink *s, const char *target);
    /* Send n messages: len bytes of JSON objects, each ended by '\n'.
     * @return 0 when all were taken, -1 when they were lost. */
    int (*send)(struct iol_sink *s, const char *msgs, size_t len, size_t n);
    /* Flush and disconnect; the sink may be opened again. */
    void (*close)(struct iol_sink *s);
    /* In a forked child: forget the parent's connection without a word to
     * it (the parent goes on using it). */
    void (*forget)(struct iol_sink *s);
};

/* A sink in use: its table and its state (each sink's own fields). */
struct iol_sink {
    const struct iol_sink_ops *ops;
    int fd;          /* file: the open file, -1 if none */
};

extern const struct iol_sink_ops iol_sink_file;

/* The table of the sink named by spec ("file:DIR"), and in *target the rest
 * of spec. @return NULL if no sink has that scheme. */
const struct iol_sink_ops *iol_sink_find(const char *spec, const char **target);

#endif
