/* A log built from its parts (iolens/log_parts.h) as a parallel writer builds
 * one: every region but the job's is two complete streams back to back, one
 * per "rank". For each compression the library writes, the log must read back
 * with the job data, names and records put in; and a job region whose command
 * line holds a newline, as Darshan's runtime wrote some, must read as Darshan's
 * reader reads it. Linked with libiolens-log.so,
 * so the parts must also be exported.
 *
 * usage: log_parts OUT_DIR */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "iolens/log.h"
#include "iolens/log_parts.h"
#include "iolens/modules/posix.h"

#define NRECS 3000 /* records per rank: 2 MB, more than one write chunk */

static int failures;

static void check(int ok, const char *comp, const char *what)
{
    if (!ok) {
        fprintf(stderr, "FAIL %s: %s\n", comp, what);
        failures++;
    }
}

/* Append the compressed len bytes of raw at *end. @return 0 or -1. */
static int put(int fd, iolens_compression comp, const void *raw, size_t len, int records,
               uint64_t *end)
{
    unsigned char *z;
    size_t zlen;
    if (iolens_log_compress(comp, raw, len, records, &z, &zlen) != IOLENS_OK)
        return -1;
    int ok = pwrite(fd, z, zlen, (off_t)*end) == (ssize_t)zlen;
    *end += zlen;
    free(z);
    return ok ? 0 : -1;
}

/* A region of both ranks' parts from *end on; its extent in *map. */
static int put_region(int fd, iolens_compression comp, const void *const raw[2],
                      const size_t len[2], int records, uint64_t *end,
                      struct iolens_region_map *map)
{
    map->off = *end;
    for (int rank = 0; rank < 2; rank++)
        if (put(fd, comp, raw[rank], len[rank], records, end) != 0)
            return -1;
    map->len = *end - map->off;
    return 0;
}

static struct iolens_posix_record recs[2][NRECS];

static int build(const char *path, iolens_compression comp)
{
    struct iolens_job job = {.uid = 7, .nprocs = 2, .jobid = 42};
    struct iolens_mount mount = {"/scratch", "lustre"};
    unsigned char jraw[IOLENS_LOG_JOB_MAX] = {0}, header[IOLENS_LOG_HEADER_BYTES];
    unsigned char names[2][64], *rraw[2] = {NULL, NULL};
    size_t nlen[2] = {0, 0}, rlen[2] = {0, 0};
    struct iolens_region_map name_map, mods[IOLENS_MAX_MODS] = {{0, 0}};
    uint32_t versions[IOLENS_MAX_MODS] = {0};
    uint64_t end = IOLENS_LOG_HEADER_BYTES;
    int rc = -1;

    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0)
        return -1;
    snprintf(job.metadata, sizeof(job.metadata), "lib_ver=test\n");
    size_t jlen = iolens_log_job_bytes(jraw, &job, "./app --flag", &mount, 1);
    for (int rank = 0; rank < 2; rank++) {
        char name[16];
        snprintf(name, sizeof(name), "/scratch/f%d", rank);
        uint64_t id = iolens_record_id(name);
        memcpy(names[rank], &id, sizeof(id));
        memcpy(names[rank] + sizeof(id), name, strlen(name) + 1);
        nlen[rank] = sizeof(id) + strlen(name) + 1;
        for (int i = 0; i < NRECS; i++) {
            recs[rank][i].base.id = id;
            recs[rank][i].base.rank = rank;
            recs[rank][i].counters[POSIX_OPENS] = i;
            recs[rank][i].fcounters[POSIX_F_READ_TIME] = i / 8.0;
        }
        if (iolens_log_records_bytes(IOLENS_MOD_POSIX, 0, recs[rank], NRECS, sizeof(recs[0][0]),
                                     &rraw[rank], &rlen[rank]) != IOLENS_OK)
            goto out;
    }
    const void *nparts[2] = {names[0], names[1]}, *rparts[2] = {rraw[0], rraw[1]};
    versions[IOLENS_MOD_POSIX] = iolens_module(IOLENS_MOD_POSIX)->version;
    if (put(fd, comp, jraw, jlen, 0, &end) != 0 ||
        put_region(fd, comp, nparts, nlen, 0, &end, &name_map) != 0 ||
        put_region(fd, comp, rparts, rlen, 1, &end, &mods[IOLENS_MOD_POSIX]) != 0)
        goto out;
    iolens_log_header_bytes(header, comp, 0, &name_map, mods, versions);
    rc = pwrite(fd, header, sizeof(header), 0) == (ssize_t)sizeof(header) ? 0 : -1;
out:
    free(rraw[0]);
    free(rraw[1]);
    close(fd);
    return rc;
}

static void read_back(const char *path, const char *cname)
{
    iolens_log *log;
    const void *rec;
    int n = 0, same = 1;

    if (iolens_log_open(path, &log, NULL, 0) != IOLENS_OK) {
        check(0, cname, "the log does not open");
        return;
    }
    const struct iolens_log_info *info = iolens_log_get_info(log);
    check(info->job.jobid == 42 && info->job.nprocs == 2, cname, "job fields");
    check(strcmp(info->exe, "./app --flag") == 0, cname, "command line");
    check(info->nmounts == 1 && strcmp(info->mounts[0].path, "/scratch") == 0, cname, "mounts");
    check(iolens_log_load_names(log) == IOLENS_OK && iolens_log_name_count(log) == 2, cname,
          "names");
    while (iolens_log_next_record(log, IOLENS_MOD_POSIX, &rec) == IOLENS_OK) {
        const struct iolens_posix_record *p = rec;
        int rank = n / NRECS, i = n % NRECS;
        same &= n < 2 * NRECS && memcmp(p, &recs[rank][i], sizeof(*p)) == 0;
        n++;
    }
    check(same && n == 2 * NRECS, cname, "records");
    iolens_log_close(log);
}

/* A job region whose command line held a newline (Darshan's runtime wrote
 * such logs: the text after it was read as mount lines): each newline still
 * starts an entry, whose type and path are the next two words even across a
 * line break, as Darshan's reader takes them. The log must open, with the
 * command line cut at the first newline. */
static void newline_in_command_line(const char *dir)
{
    static const char text[] = "./app -c\n\xb0junk \nlustre\t/scratch\nnfs\t/home";
    struct iolens_job job = {.uid = 7, .nprocs = 1, .jobid = 43};
    unsigned char jraw[IOLENS_LOG_JOB_MAX] = {0}, header[IOLENS_LOG_HEADER_BYTES];
    struct iolens_region_map name_map = {0, 0}, mods[IOLENS_MAX_MODS] = {{0, 0}};
    uint32_t versions[IOLENS_MAX_MODS] = {0};
    uint64_t end = IOLENS_LOG_HEADER_BYTES;
    char path[4096];
    iolens_log *log;

    size_t fixed = iolens_log_job_bytes(jraw, &job, "", NULL, 0) - 1;
    memcpy(jraw + fixed, text, sizeof(text));
    snprintf(path, sizeof(path), "%s/log_parts_newline.darshan", dir);
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    int ok = fd >= 0 && put(fd, IOLENS_COMP_ZLIB, jraw, fixed + sizeof(text), 0, &end) == 0;
    iolens_log_header_bytes(header, IOLENS_COMP_ZLIB, 0, &name_map, mods, versions);
    ok = ok && pwrite(fd, header, sizeof(header), 0) == (ssize_t)sizeof(header);
    if (fd >= 0)
        close(fd);
    check(ok, "newline", "the log cannot be written");
    if (!ok)
        return;
    if (iolens_log_open(path, &log, NULL, 0) != IOLENS_OK) {
        check(0, "newline", "the log does not open");
        return;
    }
    const struct iolens_log_info *in = iolens_log_get_info(log);
    check(strcmp(in->exe, "./app -c") == 0, "newline", "command line");
    /* longest mount point first */
    static const char *const want[3][2] = {
        {"/scratch", "lustre"}, {"lustre", "\xb0junk"}, {"/home", "nfs"}};
    int same = in->nmounts == 3;
    for (size_t i = 0; same && i < 3; i++)
        same = !strcmp(in->mounts[i].path, want[i][0]) && !strcmp(in->mounts[i].type, want[i][1]);
    check(same, "newline", "mount entries");
    iolens_log_close(log);
    unlink(path);
}

int main(int argc, char **argv)
{
    static const struct {
        iolens_compression comp;
        const char *name;
    } comps[] = {{IOLENS_COMP_ZLIB, "zlib"},
                 {IOLENS_COMP_BZIP2, "bzip2"},
                 {IOLENS_COMP_ZSTD, "zstd"},
                 {IOLENS_COMP_NONE, "none"}};
    char path[4096];

    if (argc != 2) {
        fprintf(stderr, "usage: log_parts OUT_DIR\n");
        return 2;
    }
    for (size_t c = 0; c < sizeof(comps) / sizeof(comps[0]); c++) {
        snprintf(path, sizeof(path), "%s/log_parts.%s.darshan", argv[1], comps[c].name);
        if (build(path, comps[c].comp) != 0)
            check(0, comps[c].name, "building the log failed");
        else
            read_back(path, comps[c].name);
        unlink(path);
    }
    newline_in_command_line(argv[1]);
    if (failures == 0)
        printf("ok: logs built from parts read back (zlib, bzip2, zstd, none), and one whose "
               "command line holds a newline\n");
    return failures != 0;
}
