/* Unit tests of the runtime's path cleaning (src/runtime/core/paths.c) against
 * the rule written plainly: runs of '/' collapse, "." followed by '/' is
 * dropped, ".." removes the previous component, everything else stays. The
 * cleaner looks for work 16 bytes at a time, so paths of every length and
 * with "//" and "/." at every offset are tried. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "runtime/core/paths.h"

/* The rule on an absolute path, component by component. */
static void plain_clean(const char *in, char *out)
{
    const char *kept[512];
    size_t lens[512], n = 0;
    const char *p = in;
    while (*p) {
        while (*p == '/')
            p++;
        const char *start = p;
        while (*p && *p != '/')
            p++;
        size_t len = (size_t)(p - start);
        int last = *p == '\0';
        if (len == 0 && !last)
            continue;
        if (len == 1 && start[0] == '.' && !last)
            continue;
        if (len == 2 && start[0] == '.' && start[1] == '.') {
            if (n > 0)
                n--;
            continue;
        }
        kept[n] = start;
        lens[n++] = len;
    }
    size_t w = 0;
    for (size_t i = 0; i < n; i++) {
        out[w++] = '/';
        memcpy(out + w, kept[i], lens[i]);
        w += lens[i];
    }
    if (w == 0)
        out[w++] = '/';
    out[w] = '\0';
}

static void check(const char *path)
{
    char got[IOL_PATH_MAX], want[IOL_PATH_MAX];
    plain_clean(path, want);
    int len = iol_path_clean(path, NULL, got);
    if (len < 0 || strcmp(got, want) != 0 || (size_t)len != strlen(want))
        fail_msg("clean(\"%s\") = \"%s\" (%d), expected \"%s\"", path, got, len, want);
}

static void clean_paths_unchanged(void **state)
{
    (void)state;
    check("/");
    check("/a");
    check("/dev/shm/iolens-bench.12345/input.dat");
    check("/home/user/.bashrc");
    check("/a/b/");
    check("/a/.");
}

static void clean_paths_cleaned(void **state)
{
    (void)state;
    check("//");
    check("/a//b");
    check("/a/./b");
    check("/a/b/../c");
    check("/..");
    check("/a/..");
    check("/a/../");
    check("/0123456789abcde//x");
    check("/0123456789abcdef/./x");
    check("/0123456789abcdef0123456789abcd/.x");
}

/* Random paths of up to ~150 bytes from components that need and do not
 * need cleaning, so that every case lands at every offset of a block. */
static void clean_random_paths(void **state)
{
    static const char *const parts[] = {"a", "bc", "def", "0123456789", ".", "..", "", ".h", "x.y"};
    char path[512];
    (void)state;
    srand(12345);
    for (int round = 0; round < 200000; round++) {
        size_t w = 0;
        int k = 1 + rand() % 16;
        for (int i = 0; i < k; i++) {
            const char *s = parts[rand() % (sizeof parts / sizeof parts[0])];
            path[w++] = '/';
            memcpy(path + w, s, strlen(s));
            w += strlen(s);
        }
        path[w] = '\0';
        check(path);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(clean_paths_unchanged),
        cmocka_unit_test(clean_paths_cleaned),
        cmocka_unit_test(clean_random_paths),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
