/* The runtime's only diagnostics path: off by default, enabled by
 * IOLENS_DEBUG=1, written to stderr with the real write(2), never stdio. */
#ifndef IOL_RT_DIAG_H
#define IOL_RT_DIAG_H

#include <stdarg.h>

/* Read IOLENS_DEBUG from the environment. Call once at start-up. */
void iol_diag_init(void);

/* Is diagnostics output on? */
int iol_diag_enabled(void);

/* Print "iolens[<pid>]: <message>\n" on stderr when enabled. errno is kept.
 * Formats with iol_fmt (see fmt.h for the conversions it knows). */
void iol_diag(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* iol_diag with a va_list (for libiolens-mpi.so, which prints through it). */
void iol_vdiag(const char *fmt, va_list ap);

/* Print like iol_diag, whether diagnostics are on or not (for what the user
 * asked to see, such as DUMP_CONFIG). errno is kept. */
void iol_diag_always(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
