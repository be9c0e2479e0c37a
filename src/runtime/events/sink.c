/* The table of sinks, by scheme, and what the sinks that load a library share. */
#include "sink.h"

#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/diag.h"

const struct iol_sink_ops *iol_sink_find(const char *spec, const char **target)
{
    static const struct iol_sink_ops *const sinks[] = {
        &iol_sink_file,
#ifdef IOLENS_WITH_MQTT
        &iol_sink_mqtt,
#endif
#ifdef IOLENS_WITH_LDMS
        &iol_sink_ldms,
#endif
    };
    for (size_t i = 0; i < sizeof(sinks) / sizeof(*sinks); i++) {
        size_t n = strlen(sinks[i]->scheme);
        if (strncmp(spec, sinks[i]->scheme, n) == 0 && spec[n]) {
            *target = spec + n;
            return sinks[i];
        }
    }
    return NULL;
}

int iol_sink_resolve(void *h, const char *lib, const struct iol_sink_symbol *syms, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!(*syms[i].fn = dlsym(h, syms[i].name))) {
            iol_diag("events: %s lacks %s", lib, syms[i].name);
            dlclose(h);
            return -1;
        }
    return 0;
}

int iol_sink_parse_address(const char *target, int default_port, struct iol_sink_address *a)
{
    if (strncmp(target, "//", 2) != 0)
        return -1;
    target += 2;
    const char *slash = strchr(target, '/');
    if (!slash || !slash[1] || strlen(slash + 1) >= sizeof(a->name))
        return -1;
    const char *colon = memchr(target, ':', (size_t)(slash - target));
    size_t hlen = (size_t)((colon ? colon : slash) - target);
    if (hlen == 0 || hlen >= sizeof(a->host))
        return -1;
    memcpy(a->host, target, hlen);
    a->host[hlen] = '\0';
    a->port = default_port;
    if (colon) {
        char *end;
        long p = strtol(colon + 1, &end, 10);
        if (end != slash || p <= 0 || p > 65535)
            return -1;
        a->port = (int)p;
    }
    memcpy(a->name, slash + 1, strlen(slash + 1) + 1);
    return 0;
}

void iol_sink_sleep_ms(int ms)
{
    struct timespec t = {ms / 1000, (long)(ms % 1000) * 1000000L};
    nanosleep(&t, NULL);
}
