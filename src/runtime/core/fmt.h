/* Bounded text formatting for the runtime, which must not use stdio. */
#ifndef IOL_RT_FMT_H
#define IOL_RT_FMT_H

#include <stdarg.h>
#include <stddef.h>

/* Format into buf (size len, always NUL-terminated when len > 0). Knows
 * %s %c %d %i %u %x %p %% with the length modifiers l, ll and z; nothing else.
 * Never allocates and never calls into stdio.
 * @return the length the full text needs, without the NUL (like snprintf). */
size_t iol_vfmt(char *buf, size_t len, const char *fmt, va_list ap);

/* iol_vfmt with a variable argument list. @return as iol_vfmt. */
size_t iol_fmt(char *buf, size_t len, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif
