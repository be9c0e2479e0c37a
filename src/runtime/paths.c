/* Path cleaning and exclusion, on caller-provided buffers. */
#include "paths.h"

#include <string.h>
#include <unistd.h>


/* Collapse runs of '/', then walk the components: "." followed by '/' is
 * dropped (as Darshan drops "/./"), ".." takes the previous component away
 * (never above the root). Everything else, a trailing '/' included, stays. */
static size_t clean_in_place(char *s, size_t n)
{
    size_t w = 0;
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
