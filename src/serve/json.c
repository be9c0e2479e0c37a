/* JSON text for iolens serve's answers (json.h). */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"

void jb_add(struct jbuf *b, const char *s, size_t n)
{
    if (b->failed)
        return;
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 4096;
        while (cap < b->len + n + 1)
            cap *= 2;
        char *p = realloc(b->p, cap);
        if (!p) {
            b->failed = 1;
            return;
        }
        b->p = p;
        b->cap = cap;
    }
    memcpy(b->p + b->len, s, n);
    b->len += n;
    b->p[b->len] = '\0';
}

void jb_raw(struct jbuf *b, const char *s)
{
    jb_add(b, s, strlen(s));
}

/* The length of the UTF-8 sequence at s (well formed, no overlong form,
 * no surrogate, at most U+10FFFF), or 0. */
static size_t utf8_len(const unsigned char *s)
{
    size_t n = s[0] >= 0xf0 ? 4 : s[0] >= 0xe0 ? 3 : 2;
    if (s[0] < 0xc2 || s[0] > 0xf4)
        return 0;
    for (size_t i = 1; i < n; i++)
        if ((s[i] & 0xc0) != 0x80)
            return 0;
    if ((s[0] == 0xe0 && s[1] < 0xa0) || (s[0] == 0xed && s[1] >= 0xa0) ||
        (s[0] == 0xf0 && s[1] < 0x90) || (s[0] == 0xf4 && s[1] >= 0x90))
        return 0;
    return n;
}

void jb_str(struct jbuf *b, const char *s)
{
    if (!s) {
        jb_raw(b, "null");
        return;
    }
    jb_add(b, "\"", 1);
    for (const unsigned char *c = (const unsigned char *)s; *c;) {
        char esc[8];
        size_t n;
        if (*c == '"' || *c == '\\') {
            esc[0] = '\\';
            esc[1] = (char)*c;
            jb_add(b, esc, 2);
            c++;
        } else if (*c < 0x20 || *c == '<' || *c == '>' || *c == '&' || *c == 0x7f) {
            snprintf(esc, sizeof(esc), "\\u%04x", *c);
            jb_add(b, esc, 6);
            c++;
        } else if (*c < 0x80) {
            jb_add(b, (const char *)c, 1);
            c++;
        } else if ((n = utf8_len(c)) > 0) {
            jb_add(b, (const char *)c, n);
            c += n;
        } else {
            jb_raw(b, "\\ufffd");
            c++;
        }
    }
    jb_add(b, "\"", 1);
}

void jb_int(struct jbuf *b, int64_t v)
{
    char t[32];
    snprintf(t, sizeof(t), "%" PRId64, v);
    jb_raw(b, t);
}

void jb_num(struct jbuf *b, double v)
{
    char t[32];
    if (!isfinite(v)) {
        jb_raw(b, "null");
        return;
    }
    /* the shortest of 15 or 17 digits that reads back as v */
    snprintf(t, sizeof(t), "%.15g", v);
    if (strtod(t, NULL) != v)
        snprintf(t, sizeof(t), "%.17g", v);
    jb_raw(b, t);
}

void jb_val(struct jbuf *b, const struct db_val *v)
{
    switch (v->kind) {
    case DB_INT:
        jb_int(b, v->i);
        break;
    case DB_REAL:
        jb_num(b, v->d);
        break;
    case DB_TEXT:
        jb_str(b, v->s);
        break;
    default:
        jb_raw(b, "null");
    }
}

double jb_number_of(const struct db_val *v, double missing)
{
    return v->kind == DB_INT ? (double)v->i : v->kind == DB_REAL ? v->d : missing;
}

void jb_key(struct jbuf *b, const char *key, int first)
{
    if (!first)
        jb_add(b, ",", 1);
    jb_str(b, key);
    jb_add(b, ":", 1);
}

void jb_free(struct jbuf *b)
{
    free(b->p);
    *b = (struct jbuf){0};
}
