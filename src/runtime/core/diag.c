/* Diagnostics: one line per message, straight to descriptor 2. */
#include "diag.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fmt.h"
#include "real.h"
#include "settings.h"

static int diag_on;

void iol_diag_init(void)
{
    const char *v = getenv(IOL_SETTING_DEBUG_ENV);
    diag_on = v && *v && strcmp(v, "0") != 0;
}

int iol_diag_enabled(void)
{
    return diag_on;
}

/* One line "iolens[<pid>]: <message>\n" on descriptor 2. */
static void put_line(const char *fmt, va_list ap)
{
    char line[512];
    int saved = errno;

    size_t n = iol_fmt(line, sizeof(line), "iolens[%d]: ", (int)getpid());
    if (n >= sizeof(line))
        n = sizeof(line) - 1;
    size_t m = iol_vfmt(line + n, sizeof(line) - n, fmt, ap);
    n = (n + m < sizeof(line) - 1) ? n + m : sizeof(line) - 2;
    line[n++] = '\n';
    iol_sys_write_all(2, line, n);
    errno = saved;
}

void iol_diag(const char *fmt, ...)
{
    va_list ap;

    if (!diag_on)
        return;
    va_start(ap, fmt);
    put_line(fmt, ap);
    va_end(ap);
}

void iol_vdiag(const char *fmt, va_list ap)
{
    if (diag_on)
        put_line(fmt, ap);
}

void iol_diag_always(const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    put_line(fmt, ap);
    va_end(ap);
}
