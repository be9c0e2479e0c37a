/* A small snprintf replacement: the runtime formats file names and
 * diagnostics without stdio, whose locks and buffers belong to the program. */
#include "fmt.h"

#include <stdint.h>

struct out {
    char *buf;
    size_t len;  /* capacity of buf */
    size_t used; /* characters produced so far (may exceed len) */
};

static void put(struct out *o, char c)
{
    if (o->used + 1 < o->len)
        o->buf[o->used] = c;
    o->used++;
}

static void put_str(struct out *o, const char *s)
{
    if (!s)
        s = "(null)";
    while (*s)
        put(o, *s++);
}

static void put_unsigned(struct out *o, uintmax_t v, unsigned base)
{
    char digits[32];
    int n = 0;
    do {
        digits[n++] = "0123456789abcdef"[v % base];
        v /= base;
    } while (v);
    while (n > 0)
        put(o, digits[--n]);
}

static void put_signed(struct out *o, intmax_t v)
{
    if (v < 0) {
        put(o, '-');
        put_unsigned(o, (uintmax_t)0 - (uintmax_t)v, 10);
    } else {
        put_unsigned(o, (uintmax_t)v, 10);
    }
}

/* Read the next integer argument with the given length modifier
 * (0 none, 1 l, 2 ll, 3 z). */
static intmax_t arg_signed(va_list *ap, int size)
{
    switch (size) {
    case 1: return va_arg(*ap, long);
    case 2: return va_arg(*ap, long long);
    case 3: return (intmax_t)va_arg(*ap, size_t);
    default: return va_arg(*ap, int);
    }
}

static uintmax_t arg_unsigned(va_list *ap, int size)
{
    switch (size) {
    case 1: return va_arg(*ap, unsigned long);
    case 2: return va_arg(*ap, unsigned long long);
    case 3: return va_arg(*ap, size_t);
    default: return va_arg(*ap, unsigned int);
    }
}

size_t iol_vfmt(char *buf, size_t len, const char *fmt, va_list ap)
{
    struct out o = {buf, len, 0};
    va_list args;

    va_copy(args, ap);
    for (const char *p = fmt; *p; p++) {
        if (*p != '%') {
            put(&o, *p);
            continue;
        }
        int size = 0;
        p++;
        if (*p == 'z') {
            size = 3;
            p++;
        } else {
            while (*p == 'l' && size < 2) {
                size++;
                p++;
            }
        }
        switch (*p) {
        case 'd': case 'i': put_signed(&o, arg_signed(&args, size)); break;
        case 'u': put_unsigned(&o, arg_unsigned(&args, size), 10); break;
        case 'x': put_unsigned(&o, arg_unsigned(&args, size), 16); break;
        case 'p':
            put_str(&o, "0x");
            put_unsigned(&o, (uintptr_t)va_arg(args, void *), 16);
            break;
        case 's': put_str(&o, va_arg(args, const char *)); break;
        case 'c': put(&o, (char)va_arg(args, int)); break;
        case '%': put(&o, '%'); break;
        case '\0': p--; break; /* a lone '%' at the end */
        default: put(&o, '%'); put(&o, *p); break;
        }
    }
    va_end(args);
    if (len > 0)
        buf[o.used < len ? o.used : len - 1] = '\0';
    return o.used;
}

size_t iol_fmt(char *buf, size_t len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    size_t n = iol_vfmt(buf, len, fmt, ap);
    va_end(ap);
    return n;
}
