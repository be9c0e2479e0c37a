/* Opening a log: the uncompressed header, region map and version rules. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../common/byteorder.h"
#include "log_internal.h"
#include "maplog.h"
#include "sysio.h"

#define IOL_MAGIC 6567223
#define HEADER_SIZE_341 1328  /* 64 module slots, 64-bit partial flags */
#define HEADER_SIZE_300 360   /* 16 module slots, 32-bit partial flags */

iolens_status iol_fail(struct iolens_log *log, iolens_status status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(log->err, sizeof(log->err), fmt, ap);
    va_end(ap);
    return status;
}

/* Parse the NUL-padded version field: only the exact strings of released
 * versions are accepted, as Darshan does. @return 0 and *minor, or -1. */
static int parse_version(const char *v, int *minor)
{
    static const struct {
        const char *text;
        int minor;
    } released[] = {{"3.00", 0}, {"3.10", 10}, {"3.20", 20}, {"3.21", 21}, {"3.41", 41}};
    for (size_t i = 0; i < sizeof(released) / sizeof(released[0]); i++) {
        if (!strcmp(v, released[i].text)) {
            *minor = released[i].minor;
            return 0;
        }
    }
    return -1;
}

/* The version field as printable text for an error message: bytes outside
 * printable ASCII become '?', so a hostile file cannot break the line. */
static void printable_version(const char *v, char *out)
{
    size_t i;
    for (i = 0; i < 8 && v[i]; i++)
        out[i] = v[i] >= 0x20 && v[i] < 0x7f ? v[i] : '?';
    out[i] = '\0';
}

static uint64_t get64(const unsigned char *p, int swap)
{
    uint64_t v;
    memcpy(&v, p, 8);
    return swap ? iol_bswap64(v) : v;
}

static uint32_t get32(const unsigned char *p, int swap)
{
    uint32_t v;
    memcpy(&v, p, 4);
    return swap ? iol_bswap32(v) : v;
}

/* Logs older than a module keep later modules one slot lower: open a slot at
 * id so every log is indexed by today's ids (and shift the partial bit too). */
static void open_module_slot(struct iolens_log_info *in, int id)
{
    memmove(&in->mod_map[id + 1], &in->mod_map[id],
            (IOLENS_MAX_MODS - id - 1) * sizeof(in->mod_map[0]));
    memmove(&in->mod_ver[id + 1], &in->mod_ver[id],
            (IOLENS_MAX_MODS - id - 1) * sizeof(in->mod_ver[0]));
    memset(&in->mod_map[id], 0, sizeof(in->mod_map[0]));
    in->mod_ver[id] = 0;
    uint64_t low = in->partial_flags & ((1ULL << id) - 1);
    uint64_t high = (in->partial_flags >> id) << (id + 1);
    in->partial_flags = low | high;
}

/* The byte order of the magic number at p: 0 this machine's, 1 swapped, -1
 * not the magic number. */
static int magic_order(const unsigned char *p)
{
    int64_t magic;
    memcpy(&magic, p, 8);
    if (magic == IOL_MAGIC)
        return 0;
    return (int64_t)iol_bswap64((uint64_t)magic) == IOL_MAGIC ? 1 : -1;
}

static iolens_status read_header(struct iolens_log *log)
{
    struct iolens_log_info *in = &log->info;
    unsigned char h[HEADER_SIZE_341];
    ssize_t got;

    do {
        got = iol_io_pread(log->fd, h, sizeof(h), 0);
    } while (got < 0 && errno == EINTR);
    if (got < 0)
        return iol_fail(log, IOLENS_ERR_IO, "cannot read header: %s", strerror(errno));

    /* A Darshan log starts with its version string and the magic number.
     * Neither: some other file. The magic number with a version we do not
     * know: a Darshan log of another version. A known version without the
     * magic number: a damaged log. */
    memset(in->version, 0, sizeof(in->version));
    memcpy(in->version, h, got < 8 ? (size_t)got : 8);
    int known = got >= 8 && parse_version(in->version, &in->version_minor) == 0;
    int swapped = got >= 16 ? magic_order(h + 8) : -1;
    if (got == 0)
        return iol_fail(log, IOLENS_ERR_NOT_LOG, "not a Darshan log (empty file)");
    if (!known && swapped < 0)
        return iol_fail(log, IOLENS_ERR_NOT_LOG, "not a Darshan log");
    if (!known) {
        char shown[9];
        printable_version(in->version, shown);
        return iol_fail(log, IOLENS_ERR_VERSION,
                        "Darshan log format version '%s' is not supported (3.00 to 3.41 are)",
                        shown);
    }

    int wide = in->version_minor >= 41;
    size_t hsize = wide ? HEADER_SIZE_341 : HEADER_SIZE_300;
    int nslots = wide ? 64 : 16;
    if ((size_t)got < hsize)
        return iol_fail(log, IOLENS_ERR_TRUNCATED, "header is %zd bytes, expected %zu", got,
                        hsize);
    in->header_size = hsize;
    if (swapped < 0)
        return iol_fail(log, IOLENS_ERR_NOT_LOG, "not a Darshan log (bad magic number)");
    int sw = in->byte_swapped = swapped;

    in->compression = h[16];
    if (in->compression > IOLENS_COMP_ZSTD)
        return iol_fail(log, IOLENS_ERR_COMPRESSION, "unknown compression type %d", h[16]);

    const unsigned char *p;
    if (wide) {
        in->partial_flags = get64(h + 24, sw);
        p = h + 32;
    } else {
        in->partial_flags = get32(h + 20, sw);
        p = h + 24;
    }
    in->name_map.off = get64(p, sw);
    in->name_map.len = get64(p + 8, sw);
    p += 16;
    for (int i = 0; i < nslots; i++, p += 16) {
        in->mod_map[i].off = get64(p, sw);
        in->mod_map[i].len = get64(p + 8, sw);
    }
    for (int i = 0; i < nslots; i++, p += 4)
        in->mod_ver[i] = get32(p, sw);

    if (in->version_minor < 20)
        open_module_slot(in, IOLENS_MOD_H5D);
    if (in->version_minor < 41)
        open_module_slot(in, IOLENS_MOD_PNETCDF_VAR);
    return IOLENS_OK;
}

/* Every region must lie inside the file, after the header. */
static iolens_status check_map(struct iolens_log *log, struct iolens_region_map m,
                               const char *what)
{
    if (m.len == 0)
        return IOLENS_OK;
    if (m.off < log->info.header_size || m.off > log->file_size ||
        m.len > log->file_size - m.off)
        return iol_fail(log, IOLENS_ERR_TRUNCATED,
                        "%s region (offset %llu, %llu bytes) lies outside the %llu-byte file",
                        what, (unsigned long long)m.off, (unsigned long long)m.len,
                        (unsigned long long)log->file_size);
    return IOLENS_OK;
}

/* The job region has no map entry: it runs from the header to the next region. */
static void locate_job_region(struct iolens_log *log)
{
    struct iolens_log_info *in = &log->info;
    uint64_t end = log->file_size;
    if (in->name_map.off != 0) {
        end = in->name_map.off;
    } else {
        for (int i = 0; i < IOLENS_MAX_MODS; i++) {
            if (in->mod_map[i].off != 0) {
                end = in->mod_map[i].off;
                break;
            }
        }
    }
    in->job_map.off = in->header_size;
    in->job_map.len = end > in->header_size ? end - in->header_size : 0;
}

static iolens_status open_checked(struct iolens_log *log, const char *path)
{
    struct stat sb;
    iolens_status st;

    log->fd = iol_io_open(path, O_RDONLY | O_CLOEXEC, 0);
    if (log->fd < 0)
        return iol_fail(log, IOLENS_ERR_IO, "%s", strerror(errno));
    /* A record file (recfile.c) reads as the log iolens recover makes of it. */
    if ((st = iol_recfile_as_log(&log->fd, log->err, sizeof(log->err))) != IOLENS_OK)
        return st;
    if (iol_io_fstat(log->fd, &sb) != 0)
        return iol_fail(log, IOLENS_ERR_IO, "%s", strerror(errno));
    if (!S_ISREG(sb.st_mode))
        return iol_fail(log, IOLENS_ERR_ARGUMENT, "not a regular file");
    log->file_size = (uint64_t)sb.st_size;

    if ((st = read_header(log)) != IOLENS_OK)
        return st;
    locate_job_region(log);
    if ((st = check_map(log, log->info.job_map, "job")) != IOLENS_OK ||
        (st = check_map(log, log->info.name_map, "name")) != IOLENS_OK)
        return st;
    for (int i = 0; i < IOLENS_MAX_MODS; i++) {
        const char *name = iolens_module_name(i);
        if ((st = check_map(log, log->info.mod_map[i], name ? name : "module")) != IOLENS_OK)
            return st;
    }
    return iol_read_job(log);
}

iolens_status iolens_log_open(const char *path, iolens_log **out, char *detail,
                              size_t detail_len)
{
    iolens_status st;
    struct iolens_log *log;

    *out = NULL;
    if (detail && detail_len)
        detail[0] = '\0';
    log = calloc(1, sizeof(*log));
    if (!log)
        return IOLENS_ERR_NOMEM;
    log->fd = -1;
    log->rg.fd = -1;
    log->rg_module = -1;
    log->rec.cap = IOL_MAX_RECORD_BYTES;
    log->scratch.cap = IOL_MAX_RECORD_BYTES;

    st = open_checked(log, path);
    if (st != IOLENS_OK) {
        if (detail && detail_len)
            snprintf(detail, detail_len, "%s", log->err[0] ? log->err : iolens_strerror(st));
        iolens_log_close(log);
        return st;
    }
    *out = log;
    return IOLENS_OK;
}

double iolens_log_run_time(const struct iolens_log_info *in)
{
    const struct iolens_job *job = &in->job;
    if (in->version_minor >= 41)
        return ((double)job->end_time_sec + (double)job->end_time_nsec / 1e9) -
               ((double)job->start_time_sec + (double)job->start_time_nsec / 1e9);
    return (double)(int64_t)((uint64_t)job->end_time_sec - (uint64_t)job->start_time_sec + 1);
}

const struct iolens_log_info *iolens_log_get_info(const iolens_log *log)
{
    return &log->info;
}

const char *iolens_log_error(const iolens_log *log)
{
    return log->err;
}
