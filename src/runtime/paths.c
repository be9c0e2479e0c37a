/* Path cleaning and exclusion, on caller-provided buffers. */
#include "paths.h"

#include <string.h>
#include <unistd.h>

#include "../common/byteorder.h"

/* Collapse runs of '/', then walk the components: "." followed by '/' is
 * dropped (as Darshan drops "/./"), ".." takes the previous component away
 * (never above the root). Everything else, a trailing '/' included, stays. */
/* 0x80 in each byte of w that equals the byte that c repeats, 0 elsewhere. */
static inline uint64_t bytes_equal(uint64_t w, uint64_t c)
{
    const uint64_t low7 = 0x7f7f7f7f7f7f7f7fULL;
    uint64_t t = w ^ c;
    return ~(((t & low7) + low7) | t | low7);
}

/* Does s (n bytes) hold "//" or "/." anywhere? Eight bytes at a time: every
 * record name passes here, and nearly none needs cleaning. */
static int needs_cleaning(const char *s, size_t n)
{
    const uint64_t slashes = 0x2f2f2f2f2f2f2f2fULL, dots = 0x2e2e2e2e2e2e2e2eULL;
    uint64_t carry = 0; /* 0x80 if the previous word ended in '/' */
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t w = iol_load_le64((const unsigned char *)s + i);
        uint64_t slash = bytes_equal(w, slashes);
        if (((slash << 8) | carry) & (slash | bytes_equal(w, dots)))
            return 1;
        carry = slash >> 56;
    }
    for (char prev = carry ? '/' : 0; i < n; prev = s[i++])
        if (prev == '/' && (s[i] == '/' || s[i] == '.'))
            return 1;
    return 0;
}

static size_t clean_in_place(char *s, size_t n)
{
    size_t w = 0;
    if (!needs_cleaning(s, n))
        return n;
    for (size_t r = 0; r < n; r++) {
        if (s[r] == '/' && w > 0 && s[w - 1] == '/')
            continue;
        s[w++] = s[r];
    }
    n = w;
    w = 0;
    for (size_t r = 0; r < n;) {
        size_t start = ++r; /* s[r - 1] is a '/' */
        while (r < n && s[r] != '/')
            r++;
        size_t len = r - start;
        if (len == 1 && s[start] == '.' && r < n)
            continue;
        if (len == 2 && s[start] == '.' && s[start + 1] == '.') {
            while (w > 0 && s[w - 1] != '/')
                w--;
            if (w > 0)
                w--;
            continue;
        }
        s[w++] = '/';
        memmove(s + w, s + start, len);
        w += len;
    }
    if (w == 0)
        s[w++] = '/';
    s[w] = '\0';
    return w;
}

int iol_path_clean(const char *path, const char *dir, char *out)
{
    size_t plen, used = 0;

    if (!path || !*path)
        return -1;
    plen = strnlen(path, IOL_PATH_MAX);
    if (plen >= IOL_PATH_MAX)
        return -1;
    if (path[0] == '<') {
        memcpy(out, path, plen + 1);
        return (int)plen;
    }
    if (path[0] != '/') {
        if (dir) {
            used = strnlen(dir, IOL_PATH_MAX);
            if (used >= IOL_PATH_MAX)
                return -1;
            memcpy(out, dir, used);
        } else {
            if (!getcwd(out, IOL_PATH_MAX))
                return -1;
            used = strlen(out);
        }
        if (used + 1 + plen >= IOL_PATH_MAX)
            return -1;
        out[used++] = '/';
    }
    memcpy(out + used, path, plen);
    used += plen;
    out[used] = '\0';
    if (out[0] != '/')
        return -1; /* e.g. getcwd's "(unreachable)" */
    return (int)clean_in_place(out, used);
}

int iol_path_excluded(const struct iol_config *c, const char *name)
{
    int excluded = 0;
    for (size_t i = 0; i < c->nexcludes && !excluded; i++)
        excluded = strncmp(c->excludes[i], name, strlen(c->excludes[i])) == 0;
    /* Darshan's default inclusion goes with its default exclusions only; an
     * inclusion list that was set applies to any exclusion list. */
    if (!excluded || (c->user_excludes && !c->user_includes))
        return excluded;
    for (size_t i = 0; i < c->nincludes; i++)
        if (strncmp(c->includes[i], name, strlen(c->includes[i])) == 0)
            return 0;
    return 1;
}
