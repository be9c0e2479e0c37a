/* Threshold values of the insight rules: defaults from the table
 * (thresholds.h), set one by one or from a "KEY = VALUE" text. */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iolens/analysis.h"
#include "thresholds.h"

static const struct iolens_threshold_info table[IOL_NTHRESHOLDS] = {
#define IOL_X_ROW(e, key, def, unit, src, meaning) {key, def, unit, src, meaning},
    IOL_THRESHOLDS(IOL_X_ROW)
#undef IOL_X_ROW
};

size_t iolens_insight_thresholds(const struct iolens_threshold_info **out)
{
    *out = table;
    return IOL_NTHRESHOLDS;
}

iolens_insight_config *iolens_insight_config_new(void)
{
    iolens_insight_config *c = malloc(sizeof(*c));
    if (c)
        for (int i = 0; i < IOL_NTHRESHOLDS; i++)
            c->v[i] = table[i].value;
    return c;
}

void iolens_insight_config_free(iolens_insight_config *c)
{
    free(c);
}

static int find_key(const char *key, size_t len)
{
    for (int i = 0; i < IOL_NTHRESHOLDS; i++)
        if (strlen(table[i].key) == len && !strncmp(table[i].key, key, len))
            return i;
    return -1;
}

double iolens_insight_config_get(const iolens_insight_config *c, const char *key)
{
    int i = find_key(key, strlen(key));
    return i < 0 ? NAN : c->v[i];
}

/* Set from the len bytes at s, "KEY = VALUE" with optional blanks around.
 * @return IOLENS_OK, or IOLENS_ERR_ARGUMENT with the reason in detail. */
static iolens_status set_span(iolens_insight_config *c, const char *s, size_t len, char *detail,
                              size_t detail_len)
{
    const char *end = s + len, *eq = memchr(s, '=', len);
    char num[64];
    if (!eq) {
        snprintf(detail, detail_len, "expected KEY=VALUE");
        return IOLENS_ERR_ARGUMENT;
    }
    const char *k = s, *kend = eq, *v = eq + 1, *vend = end;
    while (k < kend && isspace((unsigned char)*k))
        k++;
    while (kend > k && isspace((unsigned char)kend[-1]))
        kend--;
    while (v < vend && isspace((unsigned char)*v))
        v++;
    while (vend > v && isspace((unsigned char)vend[-1]))
        vend--;
    int i = find_key(k, (size_t)(kend - k));
    if (i < 0) {
        snprintf(detail, detail_len, "unknown threshold '%.*s' (iolens insights --thresholds "
                 "lists them)", (int)(kend - k > 60 ? 60 : kend - k), k);
        return IOLENS_ERR_ARGUMENT;
    }
    if (vend - v == 0 || (size_t)(vend - v) >= sizeof(num)) {
        snprintf(detail, detail_len, "%s: expected a number", table[i].key);
        return IOLENS_ERR_ARGUMENT;
    }
    memcpy(num, v, (size_t)(vend - v));
    num[vend - v] = '\0';
    char *stop;
    double d = strtod(num, &stop);
    if (*stop || !isfinite(d) || d < 0) {
        snprintf(detail, detail_len, "%s: '%s' is not a number of 0 or more", table[i].key, num);
        return IOLENS_ERR_ARGUMENT;
    }
    c->v[i] = d;
    return IOLENS_OK;
}

iolens_status iolens_insight_config_set(iolens_insight_config *c, const char *assignment,
                                        char *detail, size_t detail_len)
{
    return set_span(c, assignment, strlen(assignment), detail, detail_len);
}

iolens_status iolens_insight_config_parse(iolens_insight_config *c, const char *text, size_t len,
                                          char *detail, size_t detail_len)
{
    const char *p = text, *end = text + len;
    char why[200];
    for (int line = 1; p < end; line++) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *eol = nl ? nl : end;
        const char *hash = memchr(p, '#', (size_t)(eol - p));
        const char *stop = hash ? hash : eol, *q = p;
        while (q < stop && isspace((unsigned char)*q))
            q++;
        if (q < stop && memchr(q, '\0', (size_t)(stop - q))) {
            snprintf(detail, detail_len, "line %d: a NUL byte", line);
            return IOLENS_ERR_ARGUMENT;
        }
        if (q < stop && set_span(c, q, (size_t)(stop - q), why, sizeof(why)) != IOLENS_OK) {
            snprintf(detail, detail_len, "line %d: %s", line, why);
            return IOLENS_ERR_ARGUMENT;
        }
        p = eol + 1;
    }
    return IOLENS_OK;
}
