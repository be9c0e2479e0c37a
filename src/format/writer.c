/* Writing version 3.41 logs. The layout is Darshan's: a fixed 1328-byte header
 * at offset 0 (written last, once every region's extent is known), then the
 * job region, the name region and one region per module in increasing module
 * id, each region one compressed stream (a large zlib region: one stream per
 * chunk of input, compressed on several threads; see region_write.c). The log
 * is written under a temporary name beside the target and renamed over it
 * only when everything succeeded. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "iolens/log_parts.h"
#include "log_internal.h"
#include "region_write.h"
#include "sysio.h"

#define LOG_MAGIC 6567223
#define HEADER_BYTES IOLENS_LOG_HEADER_BYTES
#define JOB_STRUCT_BYTES (7 * 8 + 1024)
#define JOB_TEXT_MAX (IOLENS_LOG_JOB_MAX - JOB_STRUCT_BYTES - 1) /* exe and mounts, no NUL */

/* Where the writer is in the format's fixed order of regions. */
enum stage { STAGE_NEW, STAGE_JOB_DONE, STAGE_NAMES, STAGE_MODULES };

struct iolens_log_writer {
    char *path;                    /* final name */
    char *tmp;                     /* name written until close succeeds */
    int fd;
    iolens_compression comp;
    enum stage stage;
    int cur_mod;                   /* module whose region is open, or -1 */
    iolens_status failed;          /* first write error; every later call returns it */
    struct iol_region_writer rw;
    struct iolens_region_map name_map;
    struct iolens_region_map mod_map[IOLENS_MAX_MODS];
    uint32_t mod_ver[IOLENS_MAX_MODS];
    uint32_t put_ver[IOLENS_MAX_MODS]; /* version to write each module at; 0: newest */
    uint64_t left_out;             /* bit per module whose records are not written */
    uint64_t partial;
    uint64_t expect;               /* iol_writer_expect's bytes for the next region */
    struct iolens_recbuf enc;      /* encoding of a variable-size record */
};

/* Remember the first hard failure: the file is then not worth finishing. */
static iolens_status fail(struct iolens_log_writer *w, iolens_status st)
{
    if (st != IOLENS_OK && w->failed == IOLENS_OK)
        w->failed = st;
    return st;
}

static void set_detail(char *detail, size_t len, const char *what, const char *path, int err)
{
    if (detail && len)
        snprintf(detail, len, "%s %s: %s", what, path, strerror(err));
}

/* Create "<path>.<random>.tmp" exclusively. @return the descriptor, or -1 with errno. */
static int create_temp(const char *path, char **tmp_out)
{
    size_t len = strlen(path) + 32;
    char *tmp = malloc(len);
    struct timespec ts;
    int fd = -1;

    if (!tmp)
        return -1;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    unsigned long seed = (unsigned long)ts.tv_nsec ^ ((unsigned long)getpid() << 16);
    for (int attempt = 0; attempt < 100 && fd < 0; attempt++) {
        seed = seed * 6364136223846793005UL + 1442695040888963407UL;
        snprintf(tmp, len, "%s.%06lx.tmp", path, (seed >> 40) & 0xffffff);
        fd = iol_io_open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
        if (fd < 0 && errno != EEXIST)
            break;
    }
    if (fd < 0) {
        int saved = errno;
        free(tmp);
        errno = saved;
        return -1;
    }
    *tmp_out = tmp;
    return fd;
}

iolens_status iolens_writer_create(const char *path, iolens_compression comp,
                                   iolens_log_writer **out, char *detail, size_t detail_len)
{
    struct iolens_log_writer *w;
    iolens_status st;

    if (detail && detail_len)
        detail[0] = '\0';
    if (!out)
        return IOLENS_ERR_ARGUMENT;
    *out = NULL;
    if (!path || !*path)
        return IOLENS_ERR_ARGUMENT;
    if (comp != IOLENS_COMP_ZLIB && comp != IOLENS_COMP_BZIP2 && comp != IOLENS_COMP_NONE &&
        comp != IOLENS_COMP_ZSTD)
        return IOLENS_ERR_COMPRESSION;
    w = calloc(1, sizeof(*w));
    if (!w || !(w->path = strdup(path))) {
        free(w);
        return IOLENS_ERR_NOMEM;
    }
    w->comp = comp;
    w->cur_mod = -1;
    w->enc.cap = IOL_MAX_RECORD_BYTES;
    w->fd = create_temp(path, &w->tmp);
    if (w->fd < 0) {
        set_detail(detail, detail_len, "cannot create a file beside", path, errno);
        free(w->path);
        free(w);
        return errno == ENOMEM ? IOLENS_ERR_NOMEM : IOLENS_ERR_IO;
    }
    st = iol_rw_init(&w->rw, w->fd, comp, HEADER_BYTES);
    if (st != IOLENS_OK) {
        iolens_writer_abort(w);
        return st;
    }
    *out = w;
    return IOLENS_OK;
}

/* Append "\n<type>\t<path>" for each mount that fits and that the format can
 * carry (both fields non-empty, without white space), as the runtime does. */
static size_t put_mount_lines(char *text, size_t used, const struct iolens_mount *mounts,
                              size_t nmounts)
{
    static const char blanks[] = " \t\n\r\f\v";
    for (size_t i = 0; i < nmounts; i++) {
        const char *type = mounts[i].type, *mpath = mounts[i].path;
        if (!type || !mpath || !*type || !*mpath || type[strcspn(type, blanks)] ||
            mpath[strcspn(mpath, blanks)])
            continue;
        size_t need = 2 + strlen(type) + strlen(mpath);
        if (need > JOB_TEXT_MAX - used)
            continue;
        used += (size_t)snprintf(text + used, JOB_TEXT_MAX + 1 - used, "\n%s\t%s", type, mpath);
    }
    return used;
}

/* Lay out the job region: seven 64-bit fields, 1024 bytes of metadata (given a
 * final newline, as Darshan's writer does, and zero-filled), the command line
 * and the mount table, NUL-terminated. @return its length. */
size_t iolens_log_job_bytes(unsigned char *buf, const struct iolens_job *job, const char *exe,
                            const struct iolens_mount *mounts, size_t nmounts)
{
    const int64_t fields[7] = {job->uid,          job->start_time_sec, job->start_time_nsec,
                               job->end_time_sec, job->end_time_nsec,  job->nprocs,
                               job->jobid};
    char *meta = (char *)buf + sizeof(fields);
    char *text = meta + sizeof(job->metadata);

    memcpy(buf, fields, sizeof(fields));
    size_t mlen = strnlen(job->metadata, sizeof(job->metadata) - 1);
    memcpy(meta, job->metadata, mlen);
    memset(meta + mlen, 0, sizeof(job->metadata) - mlen);
    if (mlen > 0 && mlen < sizeof(job->metadata) - 1 && meta[mlen - 1] != '\n')
        meta[mlen] = '\n';

    /* The command line ends at the first newline in the log, so a newline
     * inside it would cut it short: it becomes a space. */
    size_t used = exe ? strnlen(exe, JOB_TEXT_MAX) : 0;
    memcpy(text, exe ? exe : "", used);
    for (size_t i = 0; i < used; i++)
        if (text[i] == '\n')
            text[i] = ' ';
    text[used] = '\0';
    used = put_mount_lines(text, used, mounts, nmounts);
    return JOB_STRUCT_BYTES + used + 1;
}

iolens_status iolens_writer_put_job(iolens_log_writer *w, const struct iolens_job *job,
                                    const char *exe, const struct iolens_mount *mounts,
                                    size_t nmounts)
{
    unsigned char buf[JOB_STRUCT_BYTES + JOB_TEXT_MAX + 1];
    struct iolens_region_map map;
    iolens_status st;

    if (!w || !job || (nmounts && !mounts))
        return IOLENS_ERR_ARGUMENT;
    if (w->failed)
        return w->failed;
    if (w->stage != STAGE_NEW)
        return IOLENS_ERR_ORDER;
    size_t len = iolens_log_job_bytes(buf, job, exe, mounts, nmounts);
    iol_rw_begin(&w->rw, 0, len);
    if ((st = iol_rw_write(&w->rw, buf, len)) != IOLENS_OK ||
        (st = iol_rw_finish(&w->rw, &map)) != IOLENS_OK)
        return fail(w, st);
    w->stage = STAGE_JOB_DONE;
    return IOLENS_OK;
}

iolens_status iolens_writer_put_name(iolens_log_writer *w, uint64_t id, const char *name)
{
    iolens_status st;

    if (!w || !name)
        return IOLENS_ERR_ARGUMENT;
    if (w->failed)
        return w->failed;
    if (w->stage != STAGE_JOB_DONE && w->stage != STAGE_NAMES)
        return IOLENS_ERR_ORDER;
    if (w->stage == STAGE_JOB_DONE) {
        iol_rw_begin(&w->rw, 0, w->expect);
        w->expect = 0;
        w->stage = STAGE_NAMES;
    }
    /* 8-byte id in host order, then the name and its NUL. */
    if ((st = iol_rw_write(&w->rw, &id, sizeof(id))) != IOLENS_OK ||
        (st = iol_rw_write(&w->rw, name, strlen(name) + 1)) != IOLENS_OK)
        return fail(w, st);
    return IOLENS_OK;
}

/* Close the region being written (names or a module), if any. */
static iolens_status end_open_region(struct iolens_log_writer *w)
{
    iolens_status st = IOLENS_OK;
    if (w->stage == STAGE_NAMES) {
        st = iol_rw_finish(&w->rw, &w->name_map);
        w->stage = STAGE_MODULES;
    } else if (w->stage == STAGE_MODULES && w->cur_mod >= 0) {
        st = iol_rw_finish(&w->rw, &w->mod_map[w->cur_mod]);
        w->cur_mod = -1;
    }
    return fail(w, st);
}

/* The bytes to write for one record at version ver: fixed-size ones as they
 * are, variable-size ones through the module's encoder.
 * @return IOLENS_OK with *bytes and *len set. */
static iolens_status record_bytes(struct iolens_log_writer *w,
                                  const struct iolens_module_desc *mod, uint32_t ver,
                                  const void *rec, const void **bytes, size_t *len)
{
    if (mod->encode) {
        w->enc.size = 0;
        iolens_status st = mod->encode(rec, ver, &w->enc);
        if (st != IOLENS_OK)
            return st;
        *bytes = w->enc.data;
        *len = w->enc.size;
        return IOLENS_OK;
    }
    if (mod->record_size == 0)
        return IOLENS_ERR_UNKNOWN_MODULE; /* variable size but no encoder */
    *bytes = rec;
    *len = mod->record_size;
    return IOLENS_OK;
}

iolens_status iolens_writer_put_record(iolens_log_writer *w, int mod_id, const void *rec)
{
    const struct iolens_module_desc *mod;
    const void *bytes = NULL;
    size_t len = 0;
    iolens_status st;

    if (!w || !rec || mod_id < 0 || mod_id >= IOLENS_MAX_MODS)
        return IOLENS_ERR_ARGUMENT;
    if (w->failed)
        return w->failed;
    if (w->stage == STAGE_NEW || (w->stage == STAGE_MODULES && mod_id < w->cur_mod))
        return IOLENS_ERR_ORDER;
    if (!(mod = iolens_module(mod_id)))
        return IOLENS_ERR_UNKNOWN_MODULE;
    if (w->left_out & (1ULL << mod_id))
        return IOLENS_OK;
    uint32_t ver = w->put_ver[mod_id] ? w->put_ver[mod_id] : mod->version;
    /* Encode first: a record that cannot be encoded leaves the log untouched. */
    if ((st = record_bytes(w, mod, ver, rec, &bytes, &len)) != IOLENS_OK)
        return st;

    if (w->stage != STAGE_MODULES || mod_id != w->cur_mod) {
        if (w->stage == STAGE_JOB_DONE)
            w->stage = STAGE_MODULES;
        if ((st = end_open_region(w)) != IOLENS_OK)
            return st;
        iol_rw_begin(&w->rw, mod->record_size != 0, w->expect);
        w->expect = 0;
        w->cur_mod = mod_id;
        w->mod_ver[mod_id] = ver;
    }
    if ((st = iol_rw_write(&w->rw, bytes, len)) != IOLENS_OK)
        return fail(w, st);
    return IOLENS_OK;
}

iolens_status iol_writer_set_version(iolens_log_writer *w, int mod_id, uint32_t ver)
{
    const struct iolens_module_desc *mod = iolens_module(mod_id);

    if (!mod)
        return IOLENS_ERR_UNKNOWN_MODULE;
    if (ver && ver != mod->version && ver != mod->darshan_3_5_version)
        return IOLENS_ERR_VERSION;
    w->put_ver[mod_id] = ver;
    if (ver)
        w->left_out &= ~(1ULL << mod_id);
    else
        w->left_out |= 1ULL << mod_id;
    return IOLENS_OK;
}

void iolens_writer_set_compat(iolens_log_writer *w, iolens_log_compat compat)
{
    for (int id = 0; w && id < IOLENS_MAX_MODS; id++) {
        const struct iolens_module_desc *mod = iolens_module(id);
        if (mod) /* a version the descriptor writes, or 0: never an error */
            (void)iol_writer_set_version(w, id, iolens_module_compat_version(mod, compat));
    }
}

iolens_status iolens_writer_set_mode(iolens_log_writer *w, unsigned mode)
{
    if (!w || w->fd < 0 || (mode & ~07777u))
        return IOLENS_ERR_ARGUMENT;
    return fchmod(w->fd, (mode_t)mode) == 0 ? IOLENS_OK : IOLENS_ERR_IO;
}

void iolens_writer_set_threads(iolens_log_writer *w, int nthreads)
{
    if (w)
        iol_rw_set_threads(&w->rw, nthreads);
}

void iol_writer_expect(iolens_log_writer *w, uint64_t bytes)
{
    w->expect = bytes;
}

void iolens_writer_set_partial(iolens_log_writer *w, int mod_id)
{
    if (w && mod_id >= 0 && mod_id < IOLENS_MAX_MODS)
        w->partial |= 1ULL << mod_id;
}

static void put64(unsigned char *p, uint64_t v)
{
    memcpy(p, &v, 8);
}

void iolens_log_header_bytes(unsigned char *h, iolens_compression comp, uint64_t partial,
                             const struct iolens_region_map *names,
                             const struct iolens_region_map *mods, const uint32_t *versions)
{
    unsigned char *p = h + 48;

    memset(h, 0, HEADER_BYTES);
    memcpy(h, IOLENS_LOG_VERSION, sizeof(IOLENS_LOG_VERSION) - 1);
    put64(h + 8, LOG_MAGIC);
    h[16] = (unsigned char)comp;
    put64(h + 24, partial);
    put64(h + 32, names->off);
    put64(h + 40, names->len);
    for (int i = 0; i < IOLENS_MAX_MODS; i++, p += 16) {
        put64(p, mods[i].off);
        put64(p + 8, mods[i].len);
    }
    memcpy(p, versions, IOLENS_MAX_MODS * sizeof(uint32_t));
}

/* The header, in host byte order (the magic number tells readers which). */
static iolens_status write_header(struct iolens_log_writer *w)
{
    unsigned char h[HEADER_BYTES];

    iolens_log_header_bytes(h, w->comp, w->partial, &w->name_map, w->mod_map, w->mod_ver);
    size_t done = 0;
    while (done < sizeof(h)) {
        ssize_t n = iol_io_pwrite(w->fd, h + done, sizeof(h) - done, (off_t)done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return IOLENS_ERR_IO;
        done += (size_t)n;
    }
    return IOLENS_OK;
}

static void free_writer(struct iolens_log_writer *w)
{
    iol_rw_free(&w->rw);
    free(w->enc.data);
    free(w->tmp);
    free(w->path);
    free(w);
}

iolens_status iolens_writer_close(iolens_log_writer *w)
{
    iolens_status st;

    if (!w)
        return IOLENS_ERR_ARGUMENT;
    if (w->failed) {
        st = w->failed;
        iolens_writer_abort(w);
        return st;
    }
    if (w->stage == STAGE_NEW) {
        iolens_writer_abort(w);
        return IOLENS_ERR_ORDER; /* a log needs its job region */
    }
    if ((st = end_open_region(w)) != IOLENS_OK || (st = write_header(w)) != IOLENS_OK) {
        iolens_writer_abort(w);
        return st;
    }
    int rc = iol_io_close(w->fd);
    w->fd = -1;
    if (rc != 0 || iol_io_rename(w->tmp, w->path) != 0) {
        iolens_writer_abort(w);
        return IOLENS_ERR_IO;
    }
    free_writer(w);
    return IOLENS_OK;
}

void iolens_writer_abort(iolens_log_writer *w)
{
    if (!w)
        return;
    if (w->fd >= 0)
        iol_io_close(w->fd);
    if (w->tmp)
        iol_io_unlink(w->tmp);
    free_writer(w);
}
