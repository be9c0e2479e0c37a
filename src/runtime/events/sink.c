/* The table of sinks, by scheme, and what the sinks that load a library share. */
#include "sink.h"

#include <dlfcn.h>
#include <string.h>

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
