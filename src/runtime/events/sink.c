/* The table of sinks, by scheme. */
#include "sink.h"

#include <string.h>

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
