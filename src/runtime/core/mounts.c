/* Mount table, parsed by hand: the runtime does not use stdio's getmntent. */
#include "mounts.h"

#include <string.h>
#include <sys/statfs.h>

#include "real.h"

#define LUSTRE_MAGIC 0x0BD00BD0

/* File-system types Darshan leaves out of its mount table. */
static const char *const skipped_types[] = {
    "tmpfs", "proc", "sysfs", "devpts", "binfmt_misc", "fusectl", "debugfs",
    "securityfs", "nfsd", "none", "rpc_pipefs", "hugetlbfs", "cgroup",
};

static int type_skipped(const char *type)
{
    for (size_t i = 0; i < sizeof(skipped_types) / sizeof(*skipped_types); i++)
        if (strcmp(type, skipped_types[i]) == 0)
            return 1;
    return 0;
}

/* Copy one whitespace-delimited field of the mounts file, decoding the
 * octal escapes (\040 for a space) the kernel writes. @return the end. */
static const char *take_field(const char *p, char *out, size_t len)
{
    size_t n = 0;
    while (*p == ' ' || *p == '\t')
        p++;
    while (*p && *p != ' ' && *p != '\t' && *p != '\n') {
        char c = *p++;
        if (c == '\\' && p[0] >= '0' && p[0] <= '3' && p[1] >= '0' && p[1] <= '7' &&
            p[2] >= '0' && p[2] <= '7') {
            c = (char)((p[0] - '0') * 64 + (p[1] - '0') * 8 + (p[2] - '0'));
            p += 3;
        }
        if (n + 1 < len)
            out[n++] = c;
    }
    out[n] = '\0';
    return p;
}

static void add_mount(struct iol_mounts *m, const char *path, const char *type)
{
    struct iol_mount_entry *e;

    if (m->count >= IOL_MAX_MOUNTS)
        return;
    for (size_t i = 0; i < m->count; i++)
        if (strcmp(m->e[i].path, path) == 0 && strcmp(m->e[i].type, type) == 0)
            return;
    e = &m->e[m->count++];
    memcpy(e->path, path, strlen(path) + 1);
    memcpy(e->type, type, strlen(type) + 1);
    e->block_size = 0;
}

/* The block size of a mount, from statfs at its first match rather than for
 * every mount at start: most mounts are never matched, and a statfs of a
 * network file system can wait on its server. The first thread to store it
 * wins and the others take its value, so an entry's block size is written
 * once. */
static int64_t block_size(struct iol_mount_entry *e)
{
    struct statfs sf;
    int64_t v = __atomic_load_n(&e->block_size, __ATOMIC_ACQUIRE), zero = 0;

    if (v)
        return v;
    if (statfs(e->path, &sf) != 0)
        v = 4096;
    else if (sf.f_type == LUSTRE_MAGIC)
        v = 1 << 20;
    else
        v = sf.f_bsize;
    if (!__atomic_compare_exchange_n(&e->block_size, &zero, v, 0, __ATOMIC_ACQ_REL,
                                     __ATOMIC_ACQUIRE))
        v = zero;
    return v;
}

/* One pass over the mounts text: nfs mounts only (want_nfs) or all others. */
static void scan(struct iol_mounts *m, const char *text, int want_nfs)
{
    char dev[IOL_MOUNT_PATH_MAX], path[IOL_MOUNT_PATH_MAX], type[IOL_MOUNT_TYPE_MAX];

    for (const char *p = text; *p;) {
        p = take_field(p, dev, sizeof(dev));
        p = take_field(p, path, sizeof(path));
        p = take_field(p, type, sizeof(type));
        while (*p && *p != '\n')
            p++;
        if (*p)
            p++;
        if (!path[0] || !type[0])
            continue;
        int is_nfs = strcmp(type, "nfs") == 0;
        if (is_nfs == want_nfs && !type_skipped(type))
            add_mount(m, path, type);
    }
}

size_t iol_mounts_load(struct iol_mounts *m)
{
    static char text[64 * 1024]; /* only touched at start-up, in one thread */

    m->count = 0;
    if (iol_sys_read_file("/proc/self/mounts", text, sizeof(text)) <= 0)
        return 0;
    scan(m, text, 0);
    scan(m, text, 1);
    /* Stable insertion sort, longest path first. */
    for (size_t i = 1; i < m->count; i++) {
        struct iol_mount_entry cur = m->e[i];
        size_t len = strlen(cur.path), j = i;
        while (j > 0 && strlen(m->e[j - 1].path) < len) {
            m->e[j] = m->e[j - 1];
            j--;
        }
        m->e[j] = cur;
    }
    return m->count;
}

const struct iol_mount_entry *iol_mounts_match(struct iol_mounts *m, const char *name)
{
    for (size_t i = 0; i < m->count; i++) {
        const char *mp = m->e[i].path;
        size_t n = strlen(mp);
        if (strncmp(mp, name, n) != 0)
            continue;
        if (n == 1 || name[n] == '/' || name[n] == '\0') {
            block_size(&m->e[i]);
            return &m->e[i];
        }
    }
    return NULL;
}

size_t iol_mounts_text(const struct iol_mounts *m, char *buf, size_t len)
{
    size_t used = 0;
    if (len == 0)
        return 0;
    buf[0] = '\0';
    for (size_t i = 0; i < m->count; i++) {
        size_t tl = strlen(m->e[i].type), pl = strlen(m->e[i].path);
        if (used + tl + pl + 3 > len)
            break;
        memcpy(buf + used, m->e[i].type, tl);
        buf[used + tl] = '\t';
        memcpy(buf + used + tl + 1, m->e[i].path, pl);
        buf[used + tl + 1 + pl] = '\n';
        used += tl + pl + 2;
        buf[used] = '\0';
    }
    return used;
}
