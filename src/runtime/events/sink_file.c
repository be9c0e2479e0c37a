/* The file: sink. file:DIR writes JSON lines to one file per process in the
 * directory DIR, named iolens-events_<host>_<pid>_<start seconds>.jsonl;
 * file:PATH of an existing non-directory (a FIFO, a device) writes there. */
#include "sink.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "core/core.h"
#include "core/fmt.h"
#include "core/real.h"

static int file_open(struct iol_sink *s, const char *target)
{
    char path[IOL_PATH_MAX + 256], host[256];
    struct stat st;

    if (iol_sys_stat(target, &st) == 0 && !S_ISDIR(st.st_mode)) {
        iol_fmt(path, sizeof(path), "%s", target);
    } else {
        if (gethostname(host, sizeof(host)) != 0)
            host[0] = '\0';
        host[sizeof(host) - 1] = '\0';
        for (char *p = host; *p; p++)
            if (*p == '/')
                *p = '-';
        if (iol_fmt(path, sizeof(path), "%s/iolens-events_%s_%d_%lld.jsonl", target, host,
                    (int)iol_rt.pid, (long long)iol_rt.start_real.tv_sec) >= sizeof(path))
            return -1;
    }
    /* O_NONBLOCK: a FIFO without a reader fails at once instead of holding
     * the open; then cleared, so that writes wait (on this thread only). */
    int fd = iol_sys_open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | O_NONBLOCK, 0644);
    if (fd < 0)
        return -1;
    long fl = syscall(SYS_fcntl, fd, F_GETFL); /* fcntl itself is a wrapper */
    if (fl >= 0)
        syscall(SYS_fcntl, fd, F_SETFL, fl & ~(long)O_NONBLOCK);
    s->fd = fd;
    return 0;
}

static int file_send(struct iol_sink *s, const char *msgs, size_t len, size_t n,
                     const unsigned char *events)
{
    if (s->fd < 0 || iol_sys_write_all(s->fd, msgs, len) != 0)
        return -1;
    for (size_t i = 0; i < n; i++)
        s->delivered += events[i];
    return 0;
}

static void file_close(struct iol_sink *s, double limit)
{
    (void)limit; /* every write was complete when it returned */
    if (s->fd >= 0)
        iol_sys_close(s->fd);
    s->fd = -1;
}

static void file_forget(struct iol_sink *s)
{
    file_close(s, 0); /* the parent's description stays open in the parent */
}

const struct iol_sink_ops iol_sink_file = {
    .scheme = "file:",
    .open = file_open,
    .send = file_send,
    .close = file_close,
    .forget = file_forget,
};
