/* Build-time helper of libiolens-static.a: prints the symbols the static
 * runtime wraps, one per line, from its own binding tables
 * (iolens_runtime_wrapped_symbol), for mkarchive.sh to make the --wrap
 * options, the renaming and the real-definition table from.
 *
 *   iolens-static-syms
 *
 * It is linked with the static runtime's objects before their wrappers are
 * renamed, so in this program open, write, fputs, ... are the runtime's
 * wrappers, with no real definition behind them (empty_reals.c): it runs
 * with the runtime off (mkarchive.sh sets IOLENS_DISABLE=1) and writes with
 * the system call, never through a wrapped function. */
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "iolens/runtime.h"

/* Write all of s to standard output. @return 0, or -1. */
static int out(const char *s, size_t len)
{
    while (len > 0) {
        long n = syscall(SYS_write, 1, s, len);
        if (n <= 0)
            return -1;
        s += n;
        len -= (size_t)n;
    }
    return 0;
}

int main(void)
{
    const char *name;
    for (size_t i = 0; (name = iolens_runtime_wrapped_symbol(i)) != NULL; i++)
        if (out(name, strlen(name)) != 0 || out("\n", 1) != 0)
            return 1;
    return 0;
}
