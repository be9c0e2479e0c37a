/* Write a small, realistic Darshan-format log through libiolens-log: one
 * process of a simulation that reads an input deck, writes a result file and
 * a checkpoint, and prints progress through stdio. Records of a module are
 * written only when this library has that module's descriptor, and counters
 * are set by their names from the descriptor's table.
 *
 * usage: write_log OUT.darshan */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iolens/log.h"

/* One counter value of an example record, by the counter's name. */
struct value {
    const char *name;
    double v; /* integer counters take it as is */
};

/* One example record: module, file name and the counters that are not 0. */
struct example {
    int mod;
    const char *name;
    struct value values[28]; /* ends at the first unnamed entry */
};

static const struct example examples[] = {
    {IOLENS_MOD_POSIX, "/scratch/climate/run42/input/deck.nc",
     {{"POSIX_OPENS", 1}, {"POSIX_READS", 64}, {"POSIX_SEEKS", 1}, {"POSIX_STATS", 2},
      {"POSIX_MODE", 0444}, {"POSIX_BYTES_READ", 67108864}, {"POSIX_MAX_BYTE_READ", 67108863},
      {"POSIX_CONSEC_READS", 63}, {"POSIX_SEQ_READS", 63}, {"POSIX_MEM_ALIGNMENT", 8},
      {"POSIX_FILE_ALIGNMENT", 1048576}, {"POSIX_MAX_READ_TIME_SIZE", 1048576},
      {"POSIX_SIZE_READ_100K_1M", 64}, {"POSIX_ACCESS1_ACCESS", 1048576},
      {"POSIX_ACCESS1_COUNT", 64},
      {"POSIX_F_OPEN_START_TIMESTAMP", 0.0123}, {"POSIX_F_OPEN_END_TIMESTAMP", 0.0131},
      {"POSIX_F_READ_START_TIMESTAMP", 0.0135}, {"POSIX_F_READ_END_TIMESTAMP", 0.2419},
      {"POSIX_F_READ_TIME", 0.2284}, {"POSIX_F_META_TIME", 0.0011},
      {"POSIX_F_MAX_READ_TIME", 0.0097}}},
    {IOLENS_MOD_POSIX, "/scratch/climate/run42/output/fields.nc",
     {{"POSIX_OPENS", 1}, {"POSIX_WRITES", 240}, {"POSIX_FSYNCS", 1}, {"POSIX_MODE", 0644},
      {"POSIX_BYTES_WRITTEN", 251658240}, {"POSIX_MAX_BYTE_WRITTEN", 251658239},
      {"POSIX_CONSEC_WRITES", 239}, {"POSIX_SEQ_WRITES", 239}, {"POSIX_MEM_ALIGNMENT", 8},
      {"POSIX_FILE_ALIGNMENT", 1048576}, {"POSIX_MAX_WRITE_TIME_SIZE", 1048576},
      {"POSIX_SIZE_WRITE_100K_1M", 240}, {"POSIX_ACCESS1_ACCESS", 1048576},
      {"POSIX_ACCESS1_COUNT", 240}, {"POSIX_F_OPEN_START_TIMESTAMP", 0.2501},
      {"POSIX_F_OPEN_END_TIMESTAMP", 0.2512}, {"POSIX_F_WRITE_START_TIMESTAMP", 1.8811},
      {"POSIX_F_WRITE_END_TIMESTAMP", 12.4410}, {"POSIX_F_CLOSE_START_TIMESTAMP", 12.4415},
      {"POSIX_F_CLOSE_END_TIMESTAMP", 12.5120}, {"POSIX_F_WRITE_TIME", 1.9273},
      {"POSIX_F_META_TIME", 0.0731}, {"POSIX_F_MAX_WRITE_TIME", 0.0418}}},
    {IOLENS_MOD_POSIX, "/scratch/climate/run42/restart/ckpt-0100.bin",
     {{"POSIX_OPENS", 1}, {"POSIX_WRITES", 4096}, {"POSIX_MODE", 0600},
      {"POSIX_BYTES_WRITTEN", 16777216}, {"POSIX_MAX_BYTE_WRITTEN", 16777215},
      {"POSIX_CONSEC_WRITES", 4095}, {"POSIX_SEQ_WRITES", 4095}, {"POSIX_MEM_ALIGNMENT", 8},
      {"POSIX_FILE_ALIGNMENT", 1048576}, {"POSIX_FILE_NOT_ALIGNED", 4080},
      {"POSIX_SIZE_WRITE_1K_10K", 4096}, {"POSIX_ACCESS1_ACCESS", 4096},
      {"POSIX_ACCESS1_COUNT", 4096}, {"POSIX_F_WRITE_START_TIMESTAMP", 12.6001},
      {"POSIX_F_WRITE_END_TIMESTAMP", 13.1020}, {"POSIX_F_WRITE_TIME", 0.4877},
      {"POSIX_F_META_TIME", 0.0020}, {"POSIX_F_MAX_WRITE_TIME", 0.0009}}},
    {IOLENS_MOD_STDIO, "<STDOUT>",
     {{"STDIO_WRITES", 101}, {"STDIO_FLUSHES", 101}, {"STDIO_BYTES_WRITTEN", 5353},
      {"STDIO_MAX_BYTE_WRITTEN", 5352}, {"STDIO_F_WRITE_START_TIMESTAMP", 0.0101},
      {"STDIO_F_WRITE_END_TIMESTAMP", 13.1101}, {"STDIO_F_WRITE_TIME", 0.0008}}},
    {IOLENS_MOD_STDIO, "/home/alice/climate/run42.cfg",
     {{"STDIO_OPENS", 1}, {"STDIO_READS", 37}, {"STDIO_BYTES_READ", 1207},
      {"STDIO_MAX_BYTE_READ", 1206}, {"STDIO_F_OPEN_START_TIMESTAMP", 0.0051},
      {"STDIO_F_OPEN_END_TIMESTAMP", 0.0053}, {"STDIO_F_READ_START_TIMESTAMP", 0.0054},
      {"STDIO_F_READ_END_TIMESTAMP", 0.0061}, {"STDIO_F_CLOSE_START_TIMESTAMP", 0.0062},
      {"STDIO_F_CLOSE_END_TIMESTAMP", 0.0063}, {"STDIO_F_READ_TIME", 0.0004},
      {"STDIO_F_META_TIME", 0.0003}}},
};

/* Set one counter of rec by name. @return 0, or -1 if mod has no such counter. */
static int set_value(const struct iolens_module_desc *mod, unsigned char *rec,
                     const struct value *v)
{
    for (size_t i = 0; i < mod->ncounters; i++) {
        if (strcmp(mod->counters[i].name, v->name) == 0) {
            int64_t x = (int64_t)v->v;
            memcpy(rec + mod->counters_offset + 8 * i, &x, 8);
            return 0;
        }
    }
    for (size_t i = 0; i < mod->nfcounters; i++) {
        if (strcmp(mod->fcounters[i].name, v->name) == 0) {
            memcpy(rec + mod->fcounters_offset + 8 * i, &v->v, 8);
            return 0;
        }
    }
    return -1;
}

/* Build the record of example e in rec (mod->record_size bytes). */
static int build_record(const struct iolens_module_desc *mod, const struct example *e,
                        unsigned char *rec)
{
    struct iolens_record_base base = {iolens_record_id(e->name), 0};
    memset(rec, 0, mod->record_size);
    memcpy(rec, &base, sizeof(base));
    size_t max = sizeof(e->values) / sizeof(e->values[0]);
    for (const struct value *v = e->values; v < e->values + max && v->name; v++) {
        if (set_value(mod, rec, v) != 0) {
            fprintf(stderr, "write_log: %s has no counter %s\n", mod->name, v->name);
            return -1;
        }
    }
    return 0;
}

/* A module is usable here if the library has a fixed-size descriptor for it. */
static const struct iolens_module_desc *usable(int mod)
{
    const struct iolens_module_desc *d = iolens_module(mod);
    return d && d->record_size ? d : NULL;
}

static iolens_status write_records(iolens_log_writer *w, size_t *written)
{
    static unsigned char rec[65536];
    size_t n = sizeof(examples) / sizeof(examples[0]);
    iolens_status st = IOLENS_OK;

    for (size_t i = 0; i < n && st == IOLENS_OK; i++)
        if (usable(examples[i].mod))
            st = iolens_writer_put_name(w, iolens_record_id(examples[i].name), examples[i].name);
    for (size_t i = 0; i < n && st == IOLENS_OK; i++) {
        const struct iolens_module_desc *mod = usable(examples[i].mod);
        if (!mod)
            continue;
        if (mod->record_size > sizeof(rec) || build_record(mod, &examples[i], rec) != 0)
            return IOLENS_ERR_ARGUMENT;
        st = iolens_writer_put_record(w, examples[i].mod, rec);
        (*written)++;
    }
    return st;
}

int main(int argc, char **argv)
{
    static const struct iolens_mount mounts[] = {
        {"/scratch", "lustre"}, {"/home", "nfs"}, {"/", "ext4"}};
    struct iolens_job job = {.uid = 1000, .start_time_sec = 1718000000,
                             .start_time_nsec = 125000000, .end_time_sec = 1718000013,
                             .end_time_nsec = 250000000, .nprocs = 1, .jobid = 424242};
    iolens_log_writer *w;
    char detail[256];
    size_t written = 0;

    if (argc != 2) {
        fprintf(stderr, "usage: write_log OUT.darshan\n");
        return 2;
    }
    snprintf(job.metadata, sizeof(job.metadata), "lib_ver=iolens-example\n");
    iolens_status st = iolens_writer_create(argv[1], IOLENS_COMP_ZLIB, &w, detail,
                                            sizeof(detail));
    if (st != IOLENS_OK) {
        fprintf(stderr, "write_log: %s: %s\n", argv[1], detail[0] ? detail : iolens_strerror(st));
        return 1;
    }
    st = iolens_writer_put_job(w, &job, "./climate_sim --config run42.cfg --steps 100", mounts,
                               sizeof(mounts) / sizeof(mounts[0]));
    if (st == IOLENS_OK)
        st = write_records(w, &written);
    if (st != IOLENS_OK) {
        iolens_writer_abort(w);
        fprintf(stderr, "write_log: %s: %s\n", argv[1], iolens_strerror(st));
        return 1;
    }
    if ((st = iolens_writer_close(w)) != IOLENS_OK) {
        fprintf(stderr, "write_log: %s: %s\n", argv[1], iolens_strerror(st));
        return 1;
    }
    printf("wrote %s: %zu records\n", argv[1], written);
    return 0;
}
