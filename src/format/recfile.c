/* Record files read as logs: iolens recover, iolens run's gathering of a
 * killed process, and iolens_log_open (through iol_recfile_as_log) all make
 * the log with maplog.c, the code the runtime writes its own log with. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>

#include "../common/logname.h"
#include "iolens/recfile.h"
#include "maplog.h"

/* A private, writable view of a record file: the end time is set in this copy
 * only, and bounded lock attempts write nothing back. */
struct view {
    struct iol_map_header *h;
    size_t len;
};

static iolens_status fail(char *detail, size_t len, iolens_status st, const char *what,
                          int err)
{
    if (detail && len)
        snprintf(detail, len, "%s%s%s", what, err ? ": " : "", err ? strerror(err) : "");
    return st;
}

/* Map the record file open on fd and check it. @return IOLENS_OK, or an error
 * with detail filled. */
static iolens_status map_fd(int fd, struct view *v, char *detail, size_t detail_len)
{
    struct stat st;

    if (fstat(fd, &st) != 0)
        return fail(detail, detail_len, IOLENS_ERR_IO, "cannot read", errno);
    if (st.st_size < (off_t)sizeof(struct iol_map_header))
        return fail(detail, detail_len, IOLENS_ERR_NOT_LOG, "not an iolens record file", 0);
    v->len = (size_t)st.st_size;
    void *p = mmap(NULL, v->len, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
    if (p == MAP_FAILED)
        return fail(detail, detail_len, IOLENS_ERR_IO, "cannot map", errno);
    v->h = p;
    iolens_status rc = iol_maplog_check(v->h, v->len, detail, detail_len);
    if (rc != IOLENS_OK) {
        munmap(p, v->len);
        return rc;
    }
    if (v->h->end_sec == 0) { /* died running: its last change is the best end time */
        v->h->end_sec = st.st_mtim.tv_sec;
        v->h->end_nsec = st.st_mtim.tv_nsec;
    }
    return IOLENS_OK;
}

static int log_written(const struct iol_map_header *h)
{
    return atomic_load((_Atomic uint32_t *)&h->state) == IOL_MAP_WRITTEN;
}

iolens_status iolens_recfile_info(const char *path, struct iolens_recfile_info *out,
                                  char *detail, size_t detail_len)
{
    struct view v;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return fail(detail, detail_len, IOLENS_ERR_IO, "cannot open", errno);
    iolens_status st = map_fd(fd, &v, detail, detail_len);
    close(fd);
    if (st != IOLENS_OK)
        return st;
    out->pid = v.h->pid;
    out->uid = v.h->uid;
    out->jobid = v.h->jobid;
    out->start_sec = v.h->start_sec;
    out->log_written = log_written(v.h);
    size_t n = strnlen(v.h->exe, sizeof(v.h->exe) - 1);
    memcpy(out->exe, v.h->exe, n);
    out->exe[n] = '\0';
    munmap(v.h, v.len);
    return IOLENS_OK;
}

/* The log of the record file open on fd, written to out. */
static iolens_status write_fd(int fd, const char *out, char *detail, size_t detail_len)
{
    struct view v;
    iolens_status st = map_fd(fd, &v, detail, detail_len);
    if (st != IOLENS_OK)
        return st;
    st = iol_maplog_write(v.h, v.len, out, !log_written(v.h), NULL, detail, detail_len);
    munmap(v.h, v.len);
    return st;
}

iolens_status iolens_recfile_write_log(const char *path, const char *out, char *detail,
                                       size_t detail_len)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return fail(detail, detail_len, IOLENS_ERR_IO, "cannot open", errno);
    iolens_status st = write_fd(fd, out, detail, detail_len);
    close(fd);
    return st;
}

size_t iolens_recfile_log_name(const struct iolens_recfile_info *info, char *buf, size_t len)
{
    char user[64], exe[256];
    struct timeval now;

    iol_log_user(user, sizeof(user), (uid_t)info->uid);
    size_t n = strcspn(info->exe, " ");
    if (n >= sizeof(exe))
        n = sizeof(exe) - 1;
    memcpy(exe, info->exe, n);
    exe[n] = '\0';
    gettimeofday(&now, NULL);
    struct iol_log_name_parts parts = {
        .user = user,
        .exe = exe,
        .jobid = info->jobid,
        .pid = info->pid,
        .start_sec = info->start_sec,
        .seed = (uint64_t)now.tv_sec * 1000000u + (uint64_t)now.tv_usec,
        .n = 1,
    };
    return iol_log_file_name(buf, len, &parts);
}

iolens_status iol_recfile_as_log(int *fd, char *detail, size_t detail_len)
{
    char magic[8], tmp[4096];
    const char *dir = getenv("TMPDIR");

    if (pread(*fd, magic, sizeof(magic), 0) != (ssize_t)sizeof(magic) ||
        memcmp(magic, IOL_MAP_MAGIC, sizeof(magic)) != 0)
        return IOLENS_OK;
    if (!dir || !*dir || strlen(dir) > sizeof(tmp) - 32)
        dir = "/tmp";
    snprintf(tmp, sizeof(tmp), "%s/iolens-recfile-XXXXXX", dir);
    int out = mkstemp(tmp);
    iolens_status st = out < 0 ? fail(detail, detail_len, IOLENS_ERR_IO,
                                      "cannot make a temporary log", errno)
                               : IOLENS_OK;
    if (out >= 0) {
        close(out);
        st = write_fd(*fd, tmp, detail, detail_len);
        out = st == IOLENS_OK ? open(tmp, O_RDONLY | O_CLOEXEC) : -1;
        if (st == IOLENS_OK && out < 0)
            st = fail(detail, detail_len, IOLENS_ERR_IO, "cannot read the temporary log", errno);
        unlink(tmp);
    }
    close(*fd);
    *fd = out;
    return st;
}
