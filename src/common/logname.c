/* Log names without stdio (the runtime calls this at the end of a process). */
#include "logname.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "hash.h"
#include "numfmt.h"

/* Appends to buf (len bytes) at *n, counting what does not fit. */
static void put(char *buf, size_t len, size_t *n, const char *s, size_t slen)
{
    if (*n < len) {
        size_t k = len - 1 - *n < slen ? len - 1 - *n : slen;
        memcpy(buf + *n, s, k);
        buf[*n + k] = '\0';
    }
    *n += slen;
}

static void put_str(char *buf, size_t len, size_t *n, const char *s)
{
    put(buf, len, n, s, strlen(s));
}

static void put_num(char *buf, size_t len, size_t *n, int64_t v)
{
    char d[24];
    put(buf, len, n, d, iol_fmt_i64(d, v));
}

size_t iol_log_file_name(char *buf, size_t len, const struct iol_log_name_parts *p)
{
    char host[256] = "", num[24];
    time_t start = (time_t)p->start_sec;
    struct tm tm;
    size_t n = 0;
    const char *exe = strrchr(p->exe, '/');

    exe = exe ? exe + 1 : p->exe;
    gethostname(host, sizeof(host) - 1);
    localtime_r(&start, &tm);
    if (len)
        buf[0] = '\0';
    put_str(buf, len, &n, p->user);
    put_str(buf, len, &n, "_");
    size_t at = n;
    put_str(buf, len, &n, exe);
    for (size_t i = at; i < n && i < len; i++)
        if (buf[i] == ' ' || buf[i] == '/')
            buf[i] = '-';
    put_str(buf, len, &n, "_id");
    put_num(buf, len, &n, p->jobid);
    put_str(buf, len, &n, "-");
    put_num(buf, len, &n, p->pid);
    put_str(buf, len, &n, "_");
    put_num(buf, len, &n, tm.tm_mon + 1);
    put_str(buf, len, &n, "-");
    put_num(buf, len, &n, tm.tm_mday);
    put_str(buf, len, &n, "-");
    put_num(buf, len, &n, tm.tm_hour * 3600 + tm.tm_min * 60 + tm.tm_sec);
    put_str(buf, len, &n, "-");
    put(buf, len, &n, num, iol_fmt_u64(num, iol_hash64(host, strlen(host), p->seed)));
    put_str(buf, len, &n, "_");
    put_num(buf, len, &n, p->n);
    put_str(buf, len, &n, ".darshan");
    return n;
}

void iol_log_user(char *buf, size_t len, uid_t uid)
{
    const char *v = getenv("LOGNAME");
    size_t n = 0;
    if (len)
        buf[0] = '\0';
    if (uid == geteuid() && v && *v && !strchr(v, '/'))
        put_str(buf, len, &n, v);
    else
        put_num(buf, len, &n, (int64_t)uid);
}
