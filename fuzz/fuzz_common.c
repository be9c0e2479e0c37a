/* Shared by the fuzz targets: scratch file and the read-everything walk. */
#include "fuzz_common.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "iolens/accumulate.h"
#include "iolens/log.h"

static FILE *devnull;

/* A broken library promise: stop here so the fuzzer keeps the input. */
static void broken(const char *what, const char *detail)
{
    fprintf(stderr, "fuzz: contract broken: %s [%s]\n", what, detail ? detail : "(null)");
    abort();
}

static void check_detail(const char *detail)
{
    if (!detail || !detail[0])
        broken("error without detail", detail);
    if (strchr(detail, '\n'))
        broken("detail spans several lines", detail);
}

const char *fuzz_scratch(const uint8_t *data, size_t size)
{
    static int fd = -1;
    static char path[64];
    if (fd < 0) {
        fd = memfd_create("iolens-fuzz", MFD_CLOEXEC);
        if (fd < 0)
            abort();
        snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
        devnull = fopen("/dev/null", "w");
        if (!devnull)
            abort();
    }
    if (ftruncate(fd, 0) != 0)
        abort();
    size_t done = 0;
    while (done < size) {
        ssize_t w = pwrite(fd, data + done, size - done, (off_t)done);
        if (w <= 0)
            abort();
        done += (size_t)w;
    }
    return path;
}

static int on_name(uint64_t id, const char *name, void *arg)
{
    fprintf(devnull, "%llu %s\n", (unsigned long long)id, name);
    (void)arg;
    return 0;
}

static void print_record(iolens_log *log, const struct iolens_module_desc *mod, const void *rec)
{
    struct iolens_record_base b;
    struct iolens_print_ctx ctx = {.mnt_pt = "UNKNOWN", .fs_type = "UNKNOWN"};
    const struct iolens_log_info *in = iolens_log_get_info(log);

    memcpy(&b, rec, sizeof(b));
    ctx.name = iolens_log_name(log, b.id);
    if (ctx.name) {
        for (size_t i = 0; i < in->nmounts; i++) {
            if (!strncmp(in->mounts[i].path, ctx.name, strlen(in->mounts[i].path))) {
                ctx.mnt_pt = in->mounts[i].path;
                ctx.fs_type = in->mounts[i].type;
                break;
            }
        }
    } else {
        ctx.name = "(null)";
    }
    if (mod->print)
        mod->print(devnull, rec, &ctx);
    else
        iolens_print_counters(devnull, mod, rec, &ctx);

    /* Every byte of the size the library claims must be readable. */
    size_t size = iolens_record_size(mod, rec);
    const unsigned char *p = rec;
    unsigned sum = 0;
    for (size_t i = 0; i < size; i++)
        sum += p[i];
    fprintf(devnull, "%u\n", sum);
}

/* Read every record of one module. @return 0, or -1 after an error. */
static int read_module(iolens_log *log, int id)
{
    const struct iolens_module_desc *mod = iolens_module(id);
    const struct iolens_log_info *in = iolens_log_get_info(log);
    iolens_accumulator *acc = NULL;
    const void *rec;
    iolens_status st;

    if (!mod) {
        st = iolens_log_next_record(log, id, &rec);
        if (st == IOLENS_OK)
            broken("record from a module without a descriptor", NULL);
        return 0;
    }
    if (iolens_accumulator_create(mod, in->job.nprocs, &acc) != IOLENS_OK)
        acc = NULL;
    while ((st = iolens_log_next_record(log, id, &rec)) == IOLENS_OK) {
        if (!rec)
            broken("IOLENS_OK without a record", NULL);
        print_record(log, mod, rec);
        if (acc)
            iolens_accumulator_inject(acc, rec);
    }
    if (acc) {
        struct iolens_metrics m;
        void *total = calloc(1, mod->record_size ? mod->record_size : 1);
        if (total) {
            iolens_accumulator_emit(acc, &m, total);
            if (mod->record_size)
                print_record(log, mod, total);
            free(total);
        }
        iolens_accumulator_free(acc);
    }
    if (st != IOLENS_END) {
        check_detail(iolens_log_error(log));
        return -1;
    }
    /* The end is sticky. */
    if (iolens_log_next_record(log, id, &rec) == IOLENS_OK)
        broken("a record after IOLENS_END", NULL);
    return 0;
}

void fuzz_read_log(const char *path)
{
    iolens_log *log = NULL;
    char detail[256];
    iolens_status st = iolens_log_open(path, &log, detail, sizeof(detail));
    if (st != IOLENS_OK) {
        if (log)
            broken("failed open returned a handle", detail);
        check_detail(detail);
        return;
    }
    const struct iolens_log_info *in = iolens_log_get_info(log);
    fprintf(devnull, "%s %d %s %s\n", in->version, in->compression, in->exe,
            in->job.metadata);
    for (size_t i = 0; i < in->nmounts; i++)
        fprintf(devnull, "%s\t%s\n", in->mounts[i].path, in->mounts[i].type);

    st = iolens_log_load_names(log);
    if (st != IOLENS_OK)
        check_detail(iolens_log_error(log));
    iolens_log_each_name(log, on_name, NULL);
    if (iolens_log_load_names(log) != IOLENS_OK && st == IOLENS_OK)
        broken("second name load failed", iolens_log_error(log));
    /* Modules are read even after a name error: more of the reader is reached. */
    for (int id = 0; id < IOLENS_MAX_MODS; id++)
        read_module(log, id);
    /* Switching modules restarts a region: one record each, backwards. */
    for (int id = IOLENS_MAX_MODS - 1; id >= 0; id--) {
        const void *rec;
        if (iolens_module(id) && iolens_log_next_record(log, id, &rec) == IOLENS_OK)
            print_record(log, iolens_module(id), rec);
    }
    iolens_log_close(log);
}
