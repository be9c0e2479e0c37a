/* Path cleaning and exclusion, on caller-provided buffers. */
#include "paths.h"

#include <string.h>
#include <unistd.h>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

/* Collapse runs of '/', then walk the components: "." followed by '/' is
 * dropped (as Darshan drops "/./"), ".." takes the previous component away
 * (never above the root). Everything else, a trailing '/' included, stays. */
#ifdef __SSE2__
/* Bit i set where the 16 bytes at p hold "//" or "/." starting at byte i - 1
 * (bit 0: the pair that starts at the byte before p, if prev_slash). */
static inline unsigned pairs16(const char *p, unsigned prev_slash)
{
    __m128i v = _mm_loadu_si128((const __m128i *)p);
    unsigned slash = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8('/')));
    unsigned dot = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8('.')));
    return ((slash << 1) | prev_slash) & (slash | dot);
}
#endif

/* Does s (n bytes) hold "//" or "/." anywhere? Every record name passes
 * here and nearly none needs cleaning: 16 bytes at a time where possible. */
static int needs_cleaning(const char *s, size_t n)
{
    size_t i = 0;
#ifdef __SSE2__
    if (n >= 16) {
        unsigned prev = 0;
        for (; i + 16 <= n; i += 16) {
            if (pairs16(s + i, prev))
                return 1;
            prev = s[i + 15] == '/';
        }
        /* The last 16 bytes, overlapping what was checked: the pair that
         * ends at their first byte was checked already. */
        return i < n && pairs16(s + n - 16, 0) != 0;
    }
#endif
    for (char prev = 0; i < n; prev = s[i++])
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
