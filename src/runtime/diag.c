/* Diagnostics: one line per message, straight to descriptor 2. */
#include "diag.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fmt.h"
#include "real.h"

static int diag_on;

void iol_diag_init(void)
{
    const char *v = getenv("IOLENS_DEBUG");
    diag_on = v && *v && strcmp(v, "0") != 0;
}

int iol_diag_enabled(void)
{
    return diag_on;
}

void iol_diag(const char *fmt, ...)
{
    char line[512];
    va_list ap;
    int saved = errno;

    if (!diag_on)
        return;
    size_t n = iol_fmt(line, sizeof(line), "iolens[%d]: ", (int)getpid());
    if (n >= sizeof(line))
        n = sizeof(line) - 1;
    va_start(ap, fmt);
    size_t m = iol_vfmt(line + n, sizeof(line) - n, fmt, ap);
    va_end(ap);
    n = (n + m < sizeof(line) - 1) ? n + m : sizeof(line) - 2;
    line[n++] = '\n';
    iol_sys_write_all(2, line, n);
    errno = saved;
}
