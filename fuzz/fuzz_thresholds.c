/* Fuzz target: the input is a thresholds file of `iolens insights`
 * ("KEY = VALUE" lines), parsed into a configuration. Besides crashes, it
 * checks the parser's promise: on success every threshold is a finite number
 * of 0 or more; on failure the reason is one line. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "iolens/analysis.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    iolens_insight_config *c = iolens_insight_config_new();
    const struct iolens_threshold_info *t;
    size_t n = iolens_insight_thresholds(&t);
    char why[256] = "";
    if (!c)
        abort();
    if (iolens_insight_config_parse(c, (const char *)data, size, why, sizeof(why)) == IOLENS_OK) {
        for (size_t i = 0; i < n; i++) {
            double v = iolens_insight_config_get(c, t[i].key);
            if (!isfinite(v) || v < 0)
                abort();
        }
    } else if (!why[0] || strchr(why, '\n')) {
        abort();
    }
    iolens_insight_config_free(c);
    return 0;
}
