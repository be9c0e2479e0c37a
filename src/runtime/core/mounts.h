/* The mount table: mount points with file-system types, read from
 * /proc/self/mounts at start-up as Darshan records it, and block sizes,
 * asked for when a mount is first matched. */
#ifndef IOL_RT_MOUNTS_H
#define IOL_RT_MOUNTS_H

#include <stddef.h>
#include <stdint.h>

#define IOL_MAX_MOUNTS 64
#define IOL_MOUNT_PATH_MAX 256
#define IOL_MOUNT_TYPE_MAX 64

struct iol_mount_entry {
    char path[IOL_MOUNT_PATH_MAX];
    char type[IOL_MOUNT_TYPE_MAX];
    int64_t block_size; /* preferred I/O size; Lustre: 1 MiB, unknown: 4096; 0 until
                         * the mount's first match */
};

struct iol_mounts {
    size_t count;
    struct iol_mount_entry e[IOL_MAX_MOUNTS]; /* longest path first */
};

/* Read /proc/self/mounts into m: file systems Darshan leaves out (tmpfs,
 * proc, sysfs, cgroup, ...) are skipped, nfs mounts come after the others,
 * duplicates are dropped, and the table is sorted longest path first.
 * @return the number of mounts (0 if the table cannot be read). */
size_t iol_mounts_load(struct iol_mounts *m);

/* The mount holding name: the longest mount point that is a prefix of name
 * at a path-component boundary, its block size filled (statfs, the first
 * time). @return the entry, or NULL. */
const struct iol_mount_entry *iol_mounts_match(struct iol_mounts *m, const char *name);

/* Write the table as "type\tpath\n" lines into buf (NUL-terminated).
 * @return the length written. */
size_t iol_mounts_text(const struct iol_mounts *m, char *buf, size_t len);

#endif
