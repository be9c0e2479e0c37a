/* The record file. Space is reserved with fallocate as pools grow, by
 * reopening the file by name, so that no descriptor of ours stays open in the
 * program (a program may close every descriptor it does not know). */
#include "mapfile.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "diag.h"
#include "fmt.h"
#include "real.h"

static int reserve_fd(int fd, uint64_t off, uint64_t len)
{
    if (fallocate(fd, 0, (off_t)off, (off_t)len) == 0)
        return 0;
    /* A file system that cannot reserve space: go on without the guarantee. */
    if (errno == EOPNOTSUPP || errno == ENOSYS)
        return 0;
    return -1;
}

static int map_anonymous(struct iol_mapping *m, size_t size)
{
    void *p = iol_sys_mmap(NULL, size, PROT_READ | PROT_WRITE,
                           MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED)
        return -1;
    m->hdr = p;
    m->size = size;
    m->path[0] = '\0';
    return 0;
}

int iol_map_create(struct iol_mapping *m, const char *dir, const char *tag, size_t size,
                   const struct iol_map_range *reserve, size_t nreserve)
{
    int fd, rc;
    void *p = MAP_FAILED;

    memset(m, 0, sizeof(*m));
    if (iol_fmt(m->path, sizeof(m->path), "%s/%s.iolmap", dir, tag) >= sizeof(m->path))
        return map_anonymous(m, size);
    fd = iol_sys_open(m->path, O_RDWR | O_CREAT | O_EXCL, 0600);
    if (fd < 0) {
        iol_diag("cannot create %s (errno %d); records will not survive a crash",
                 m->path, errno);
        return map_anonymous(m, size);
    }
    rc = ftruncate(fd, (off_t)size);
    for (size_t i = 0; i < nreserve && rc == 0; i++)
        rc = reserve_fd(fd, reserve[i].off, reserve[i].len);
    if (rc == 0)
        p = iol_sys_mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    iol_sys_close(fd);
    if (p == MAP_FAILED) {
        iol_diag("cannot map %s (errno %d); using anonymous memory", m->path, errno);
        unlink(m->path);
        return map_anonymous(m, size);
    }
    m->hdr = p;
    m->size = size;
    return 0;
}

int iol_map_reserve(struct iol_mapping *m, uint64_t off, uint64_t len)
{
    if (!m->path[0])
        return 0; /* anonymous memory: nothing to reserve */
    if (off >= m->size)
        return -1;
    if (len > m->size - off)
        len = m->size - off;
    int fd = iol_sys_open(m->path, O_RDWR, 0);
    if (fd < 0)
        return -1;
    int rc = reserve_fd(fd, off, len);
    iol_sys_close(fd);
    return rc;
}

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23 /* Linux 5.14 */
#endif

void iol_map_populate(void *p, size_t len)
{
    int saved = errno;
    (void)madvise(p, len, MADV_POPULATE_WRITE);
    errno = saved;
}

void iol_map_unlink(struct iol_mapping *m)
{
    if (m->path[0])
        unlink(m->path);
}

void iol_map_release(struct iol_mapping *m)
{
    if (m->hdr)
        munmap(m->hdr, m->size);
    m->hdr = NULL;
}
