/* A small recursive-descent JSON reader (RFC 8259; \u escapes outside ASCII
 * become '?', which no run file needs). Depth is bounded. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"

#define MAX_DEPTH 64

struct reader {
    const char *s, *end;
    char *err;
    size_t errlen;
    int depth;
};

/* Note why parsing stopped (pj_parse adds the line). @return -1. */
static int fail(struct reader *r, const char *why)
{
    snprintf(r->err, r->errlen, "%s", why);
    return -1;
}

static void skip_space(struct reader *r)
{
    while (r->s < r->end && *r->s && strchr(" \t\r\n", *r->s))
        r->s++;
}

static int parse_value(struct reader *r, struct pj_value *v);

static int parse_string(struct reader *r, char **out)
{
    size_t cap = 16, n = 0;
    char *buf = malloc(cap);
    if (!buf)
        return fail(r, "out of memory");
    r->s++; /* the opening quote */
    while (r->s < r->end && *r->s != '"') {
        char c = *r->s++;
        if ((unsigned char)c < 0x20) {
            free(buf);
            return fail(r, "control character in a string");
        }
        if (c == '\\') {
            if (r->s >= r->end)
                break;
            char e = *r->s++;
            const char *from = "\"\\/bfnrt", *to = "\"\\/\b\f\n\r\t";
            const char *at = strchr(from, e);
            if (e == 'u') {
                if (r->end - r->s < 4) {
                    free(buf);
                    return fail(r, "short \\u escape");
                }
                char hex[5] = {r->s[0], r->s[1], r->s[2], r->s[3], 0};
                char *stop;
                long code = strtol(hex, &stop, 16);
                if (*stop || !isxdigit((unsigned char)hex[0])) { /* strtol takes " -1a" */
                    free(buf);
                    return fail(r, "bad \\u escape");
                }
                r->s += 4;
                c = code < 0x80 ? (char)code : '?';
            } else if (at && e) {
                c = to[at - from];
            } else {
                free(buf);
                return fail(r, "bad escape in a string");
            }
        }
        if (n + 2 > cap) {
            char *b = realloc(buf, cap *= 2);
            if (!b) {
                free(buf);
                return fail(r, "out of memory");
            }
            buf = b;
        }
        buf[n++] = c;
    }
    if (r->s >= r->end) {
        free(buf);
        return fail(r, "unterminated string");
    }
    r->s++;
    buf[n] = '\0';
    *out = buf;
    return 0;
}

static int push_item(struct reader *r, struct pj_value *v, size_t *cap, char *key)
{
    if (v->n == *cap) {
        size_t c = *cap ? *cap * 2 : 8;
        struct pj_value *items = realloc(v->items, c * sizeof *items);
        if (!items)
            return fail(r, "out of memory");
        v->items = items;
        if (v->type == PJ_OBJECT) {
            char **keys = realloc(v->keys, c * sizeof *keys);
            if (!keys)
                return fail(r, "out of memory");
            v->keys = keys;
        }
        *cap = c;
    }
    memset(&v->items[v->n], 0, sizeof v->items[v->n]);
    if (v->type == PJ_OBJECT)
        v->keys[v->n] = key;
    v->n++;
    return parse_value(r, &v->items[v->n - 1]);
}

static int parse_container(struct reader *r, struct pj_value *v, char close)
{
    size_t cap = 0;
    v->type = close == ']' ? PJ_ARRAY : PJ_OBJECT;
    if (++r->depth > MAX_DEPTH)
        return fail(r, "nested too deeply");
    r->s++;
    skip_space(r);
    if (r->s < r->end && *r->s == close) {
        r->s++;
        r->depth--;
        return 0;
    }
    for (;;) {
        char *key = NULL;
        skip_space(r);
        if (v->type == PJ_OBJECT) {
            if (r->s >= r->end || *r->s != '"' || parse_string(r, &key))
                return r->err[0] ? -1 : fail(r, "expected a member name");
            skip_space(r);
            if (r->s >= r->end || *r->s != ':') {
                free(key);
                return fail(r, "expected ':'");
            }
            r->s++;
        }
        if (push_item(r, v, &cap, key))
            return -1;
        skip_space(r);
        if (r->s < r->end && *r->s == ',') {
            r->s++;
            continue;
        }
        if (r->s < r->end && *r->s == close) {
            r->s++;
            r->depth--;
            return 0;
        }
        return fail(r, close == ']' ? "expected ',' or ']'" : "expected ',' or '}'");
    }
}

static int parse_value(struct reader *r, struct pj_value *v)
{
    skip_space(r);
    if (r->s >= r->end)
        return fail(r, "unexpected end");
    char c = *r->s;
    if (c == '{')
        return parse_container(r, v, '}');
    if (c == '[')
        return parse_container(r, v, ']');
    if (c == '"') {
        v->type = PJ_STRING;
        return parse_string(r, &v->string);
    }
    static const struct {
        const char *word;
        enum pj_type type;
        double value;
    } words[] = {{"null", PJ_NULL, 0}, {"true", PJ_BOOL, 1}, {"false", PJ_BOOL, 0}};
    for (size_t i = 0; i < 3; i++) {
        size_t n = strlen(words[i].word);
        if ((size_t)(r->end - r->s) >= n && !strncmp(r->s, words[i].word, n)) {
            v->type = words[i].type;
            v->number = words[i].value;
            r->s += n;
            return 0;
        }
    }
    if (c == '-' || (c >= '0' && c <= '9')) {
        char num[64];
        size_t n = 0, left = (size_t)(r->end - r->s);
        while (n < left && r->s[n] && strchr("+-0123456789.eE", r->s[n])) /* text has no NUL */
            n++;
        if (n >= sizeof num)
            return fail(r, "bad number");
        memcpy(num, r->s, n);
        num[n] = '\0';
        char *stop;
        errno = 0;
        v->number = strtod(num, &stop);
        if (*stop || errno)
            return fail(r, "bad number");
        v->type = PJ_NUMBER;
        r->s += n;
        return 0;
    }
    return fail(r, "unexpected character");
}

int pj_parse(const char *text, size_t len, struct pj_value *out, char *err, size_t errlen)
{
    struct reader r = {text, text + len, err, errlen, 0};
    memset(out, 0, sizeof *out);
    err[0] = '\0';
    int rc = parse_value(&r, out);
    if (!rc) {
        skip_space(&r);
        if (r.s != r.end)
            rc = fail(&r, "text after the value");
    }
    if (rc) {
        int line = 1;
        for (const char *p = text; p < r.s; p++)
            line += *p == '\n';
        char why[256];
        snprintf(why, sizeof why, "%s", err);
        snprintf(err, errlen, "line %d: %s", line, why);
        pj_free(out);
    }
    return rc;
}

void pj_free(struct pj_value *v)
{
    for (size_t i = 0; i < v->n; i++) {
        pj_free(&v->items[i]);
        if (v->type == PJ_OBJECT)
            free(v->keys[i]);
    }
    free(v->items);
    free(v->keys);
    free(v->string);
    memset(v, 0, sizeof *v);
}

/* Largest file read: a run file of a million call sites is about 300 MB. */
#define MAX_FILE_BYTES ((size_t)1 << 30)

static char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    char *buf = NULL;
    size_t cap = 0, n = 0;
    if (!f)
        return NULL;
    for (;;) {
        if (n + 4096 > cap) {
            if (cap >= MAX_FILE_BYTES) { /* /dev/zero, or not a run file */
                free(buf);
                fclose(f);
                errno = EFBIG;
                return NULL;
            }
            char *b = realloc(buf, cap = cap ? cap * 2 : 65536);
            if (!b) {
                free(buf);
                fclose(f);
                errno = ENOMEM;
                return NULL;
            }
            buf = b;
        }
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (got == 0)
            break;
    }
    int bad = ferror(f);
    fclose(f);
    if (bad) {
        free(buf);
        return NULL;
    }
    *len = n;
    return buf;
}

int pj_load(const char *path, struct pj_value *v, char *err, size_t errlen)
{
    size_t len;
    char *text = read_file(path, &len), why[256];
    if (!text) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return -1;
    }
    int rc = pj_parse(text, len, v, why, sizeof why);
    free(text);
    if (rc)
        snprintf(err, errlen, "%s: %s", path, why);
    return rc;
}

const struct pj_value *pj_get(const struct pj_value *v, const char *key)
{
    if (!v || v->type != PJ_OBJECT)
        return NULL;
    for (size_t i = 0; i < v->n; i++)
        if (v->keys[i] && !strcmp(v->keys[i], key))
            return &v->items[i];
    return NULL;
}

const char *pj_string(const struct pj_value *v, const char *key, const char *fallback)
{
    const struct pj_value *m = pj_get(v, key);
    return m && m->type == PJ_STRING ? m->string : fallback;
}

double pj_number(const struct pj_value *v, const char *key, double fallback)
{
    const struct pj_value *m = pj_get(v, key);
    return m && m->type == PJ_NUMBER ? m->number : fallback;
}
