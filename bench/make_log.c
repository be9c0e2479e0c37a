/* Write a large synthetic log through the library, for the parse benchmark.
 *
 * usage: make_log [-n RECORDS] [-r RANKS] [-f FILES] [-d SEGMENTS]
 *                 [-c zlib|bzip2|zstd|none] OUT
 *
 * Every rank writes RECORDS/RANKS POSIX records; rank r's k-th record is for
 * file (r * RECORDS/RANKS + k) mod FILES, and the name region holds all FILES
 * names. With -d, each POSIX record has a DXT_POSIX record of SEGMENTS
 * segments (half writes, then reads), spread over the job's hour. Defaults: 1,000,000 records over 8 ranks, FILES = RECORDS/RANKS
 * (so every rank touches every file). Counter values come from a fixed-seed
 * generator: the same options always give the same log. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iolens/log.h"
#include "iolens/modules/dxt.h"
#include "iolens/modules/posix.h"

/* splitmix64: small, fast and good enough for plausible counter values. */
static uint64_t next_rand(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static void file_name(char *buf, size_t len, long i)
{
    snprintf(buf, len, "/lustre/scratch/project42/run-0817/output/dir%03ld/part-%06ld.h5",
             i % 512, i);
}

/* Size-histogram bucket (0..9) of an access of n bytes, as Darshan bins them. */
static int bucket(int64_t n)
{
    static const int64_t top[] = {100, 1024, 10240, 102400, 1048576, 4194304, 10485760,
                                  104857600, 1073741824};
    for (int i = 0; i < 9; i++)
        if (n <= top[i])
            return i;
    return 9;
}

/* Fill one record with values shaped like a real application's. */
static void fill_record(struct iolens_posix_record *r, uint64_t id, int rank, uint64_t seed)
{
    int64_t *c = r->counters;
    double *f = r->fcounters;
    uint64_t s = seed;
    int64_t xfer = (int64_t)1 << (10 + next_rand(&s) % 12);  /* 1 KiB .. 2 MiB */
    int64_t reads = (int64_t)(next_rand(&s) % 4000), writes = (int64_t)(next_rand(&s) % 3000);

    memset(r, 0, sizeof(*r));
    r->base.id = id;
    r->base.rank = rank;
    c[POSIX_OPENS] = 1 + (int64_t)(next_rand(&s) % 4);
    c[POSIX_READS] = reads;
    c[POSIX_WRITES] = writes;
    c[POSIX_SEEKS] = (reads + writes) / 3;
    c[POSIX_STATS] = 1 + (int64_t)(next_rand(&s) % 3);
    c[POSIX_FSYNCS] = writes ? (int64_t)(next_rand(&s) % 4) : 0;
    c[POSIX_MODE] = 0644;
    c[POSIX_BYTES_READ] = reads * xfer;
    c[POSIX_BYTES_WRITTEN] = writes * xfer + (int64_t)(next_rand(&s) % 4096);
    c[POSIX_MAX_BYTE_READ] = reads ? reads * xfer - 1 : 0;
    c[POSIX_MAX_BYTE_WRITTEN] = writes ? c[POSIX_BYTES_WRITTEN] - 1 : 0;
    c[POSIX_CONSEC_READS] = reads ? reads - 1 : 0;
    c[POSIX_CONSEC_WRITES] = writes ? writes - 1 : 0;
    c[POSIX_SEQ_READS] = reads ? reads - 1 : 0;
    c[POSIX_SEQ_WRITES] = writes ? writes - 1 : 0;
    c[POSIX_RW_SWITCHES] = reads && writes ? 1 + (int64_t)(next_rand(&s) % 8) : 0;
    c[POSIX_MEM_NOT_ALIGNED] = (int64_t)(next_rand(&s) % 16);
    c[POSIX_MEM_ALIGNMENT] = 8;
    c[POSIX_FILE_NOT_ALIGNED] = xfer < 1048576 ? (reads + writes) / 2 : 0;
    c[POSIX_FILE_ALIGNMENT] = 1048576;
    c[POSIX_MAX_READ_TIME_SIZE] = reads ? xfer : 0;
    c[POSIX_MAX_WRITE_TIME_SIZE] = writes ? xfer : 0;
    c[POSIX_SIZE_READ_0_100 + bucket(xfer)] = reads;
    c[POSIX_SIZE_WRITE_0_100 + bucket(xfer)] = writes;
    c[POSIX_STRIDE1_STRIDE] = xfer;
    c[POSIX_STRIDE1_COUNT] = (reads + writes) / 2;
    c[POSIX_ACCESS1_ACCESS] = xfer;
    c[POSIX_ACCESS1_COUNT] = reads + writes;
    c[POSIX_ACCESS2_ACCESS] = (int64_t)(next_rand(&s) % 4096);
    c[POSIX_ACCESS2_COUNT] = writes ? 1 : 0;
    c[POSIX_FASTEST_RANK] = rank;
    c[POSIX_FASTEST_RANK_BYTES] = c[POSIX_BYTES_READ] + c[POSIX_BYTES_WRITTEN];
    c[POSIX_SLOWEST_RANK] = rank;
    c[POSIX_SLOWEST_RANK_BYTES] = c[POSIX_FASTEST_RANK_BYTES];

    double t0 = (double)(next_rand(&s) % 3000000) / 1000.0 + 0.123456789;
    double rt = (double)reads * (double)xfer / 2.5e9, wt = (double)writes * (double)xfer / 1.5e9;
    f[POSIX_F_OPEN_START_TIMESTAMP] = t0;
    f[POSIX_F_OPEN_END_TIMESTAMP] = t0 + 0.000731;
    f[POSIX_F_READ_START_TIMESTAMP] = reads ? t0 + 0.001 : 0;
    f[POSIX_F_READ_END_TIMESTAMP] = reads ? t0 + 0.001 + rt : 0;
    f[POSIX_F_WRITE_START_TIMESTAMP] = writes ? t0 + 0.002 + rt : 0;
    f[POSIX_F_WRITE_END_TIMESTAMP] = writes ? t0 + 0.002 + rt + wt : 0;
    f[POSIX_F_CLOSE_START_TIMESTAMP] = t0 + 0.003 + rt + wt;
    f[POSIX_F_CLOSE_END_TIMESTAMP] = t0 + 0.0031 + rt + wt;
    f[POSIX_F_READ_TIME] = rt;
    f[POSIX_F_WRITE_TIME] = wt;
    f[POSIX_F_META_TIME] = 0.0007 + (double)(next_rand(&s) % 1000) / 1e6;
    f[POSIX_F_MAX_READ_TIME] = reads ? rt / (double)reads * 3.7 : 0;
    f[POSIX_F_MAX_WRITE_TIME] = writes ? wt / (double)writes * 2.9 : 0;
    f[POSIX_F_FASTEST_RANK_TIME] = rt + wt + f[POSIX_F_META_TIME];
    f[POSIX_F_SLOWEST_RANK_TIME] = f[POSIX_F_FASTEST_RANK_TIME];
}

/* The DXT_POSIX record of the record seeded seed: nseg segments of file id
 * by rank, one every 3600 / (nseg + 1) s from a start of its own. */
static void fill_trace(struct iolens_dxt_record *d, uint64_t id, int rank, long nseg,
                       uint64_t seed)
{
    uint64_t s = seed;
    double step = 3600.0 / (double)(nseg + 1), t = (double)(next_rand(&s) % 1000) / 1000.0;
    int64_t xfer = (int64_t)1 << (10 + next_rand(&s) % 12);

    memset(d, 0, sizeof(*d));
    d->base.id = id;
    d->base.rank = rank;
    snprintf(d->hostname, sizeof(d->hostname), "nid%05d", rank / 4);
    d->write_count = (nseg + 1) / 2;
    d->read_count = nseg / 2;
    for (long i = 0; i < nseg; i++, t += step) {
        struct iolens_dxt_segment *g = &d->segments[i];
        g->offset = (i % d->write_count) * xfer;
        g->length = xfer;
        g->start_time = t;
        g->end_time = t + (double)xfer / 1.5e9 + (double)(next_rand(&s) % 100) / 1e5;
        g->thread_id = 0x7f0000001000ULL + (uint64_t)rank;
    }
}

static int parse_comp(const char *s, iolens_compression *c)
{
    static const struct {
        const char *name;
        iolens_compression comp;
    } t[] = {{"zlib", IOLENS_COMP_ZLIB}, {"bzip2", IOLENS_COMP_BZIP2},
             {"zstd", IOLENS_COMP_ZSTD}, {"none", IOLENS_COMP_NONE}};
    for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++)
        if (strcmp(s, t[i].name) == 0) {
            *c = t[i].comp;
            return 0;
        }
    return -1;
}

static iolens_status write_log(const char *out, iolens_compression comp, long nrec, long ranks,
                               long nfiles, long nseg, const uint64_t *ids)
{
    static const struct iolens_mount mounts[] = {
        {"/lustre/scratch", "lustre"}, {"/home", "nfs"}, {"/tmp", "tmpfs"}, {"/", "ext4"}};
    struct iolens_job job = {.uid = 12345, .start_time_sec = 1700000000,
                             .start_time_nsec = 250000000, .end_time_sec = 1700003600,
                             .end_time_nsec = 750000000, .nprocs = ranks, .jobid = 987654};
    iolens_log_writer *w;
    struct iolens_posix_record rec;
    char name[256], detail[256];
    long per_rank = nrec / ranks;
    iolens_status st;

    snprintf(job.metadata, sizeof(job.metadata), "lib_ver=3.5.0\nh=romio_no_indep_rw=true\n");
    if ((st = iolens_writer_create(out, comp, &w, detail, sizeof(detail))) != IOLENS_OK) {
        fprintf(stderr, "make_log: %s: %s\n", out, detail[0] ? detail : iolens_strerror(st));
        return st;
    }
    st = iolens_writer_put_job(w, &job, "/opt/apps/sim/bin/sim_app -i input.nml -o output",
                               mounts, sizeof(mounts) / sizeof(mounts[0]));
    for (long i = 0; i < nfiles && st == IOLENS_OK; i++) {
        file_name(name, sizeof(name), i);
        st = iolens_writer_put_name(w, ids[i], name);
    }
    for (long r = 0; r < ranks && st == IOLENS_OK; r++) {
        for (long k = 0; k < per_rank && st == IOLENS_OK; k++) {
            long file = (r * per_rank + k) % nfiles;
            fill_record(&rec, ids[file], (int)r, (uint64_t)file * 1000003u + (uint64_t)r);
            st = iolens_writer_put_record(w, IOLENS_MOD_POSIX, &rec);
        }
    }
    struct iolens_dxt_record *trace =
        nseg ? malloc(sizeof(*trace) + (size_t)nseg * sizeof(trace->segments[0])) : NULL;
    if (nseg && !trace)
        st = IOLENS_ERR_NOMEM;
    for (long r = 0; r < ranks && nseg && st == IOLENS_OK; r++) {
        for (long k = 0; k < per_rank && st == IOLENS_OK; k++) {
            long file = (r * per_rank + k) % nfiles;
            fill_trace(trace, ids[file], (int)r, nseg, (uint64_t)file * 1000003u + (uint64_t)r);
            st = iolens_writer_put_record(w, IOLENS_MOD_DXT_POSIX, trace);
        }
    }
    free(trace);
    if (st != IOLENS_OK) {
        iolens_writer_abort(w);
    } else {
        st = iolens_writer_close(w);
    }
    if (st != IOLENS_OK)
        fprintf(stderr, "make_log: %s: %s\n", out, iolens_strerror(st));
    return st;
}

int main(int argc, char **argv)
{
    long nrec = 1000000, ranks = 8, nfiles = 0, nseg = 0;
    iolens_compression comp = IOLENS_COMP_ZLIB;
    int opt;

    while ((opt = getopt(argc, argv, "n:r:f:d:c:")) != -1) {
        switch (opt) {
        case 'n': nrec = strtol(optarg, NULL, 10); break;
        case 'r': ranks = strtol(optarg, NULL, 10); break;
        case 'f': nfiles = strtol(optarg, NULL, 10); break;
        case 'd': nseg = strtol(optarg, NULL, 10); break;
        case 'c':
            if (parse_comp(optarg, &comp) == 0)
                break;
            /* fall through */
        default:
            fprintf(stderr, "usage: make_log [-n RECORDS] [-r RANKS] [-f FILES] [-d SEGMENTS] "
                            "[-c zlib|bzip2|zstd|none] OUT\n");
            return 2;
        }
    }
    if (optind != argc - 1 || nrec <= 0 || ranks <= 0 || nfiles < 0 || nseg < 0 ||
        nrec < ranks) {
        fprintf(stderr, "make_log: need one output path, RECORDS >= RANKS > 0\n");
        return 2;
    }
    if (nfiles == 0)
        nfiles = nrec / ranks;

    uint64_t *ids = malloc((size_t)nfiles * sizeof(*ids));
    if (!ids) {
        fprintf(stderr, "make_log: out of memory\n");
        return 1;
    }
    for (long i = 0; i < nfiles; i++) {
        char name[256];
        file_name(name, sizeof(name), i);
        ids[i] = iolens_record_id(name);
    }
    iolens_status st = write_log(argv[optind], comp, nrec, ranks, nfiles, nseg, ids);
    free(ids);
    if (st != IOLENS_OK)
        return 1;
    printf("%s: %ld POSIX records, %ld ranks, %ld file names, %ld DXT segments each\n",
           argv[optind], nrec / ranks * ranks, ranks, nfiles, nseg);
    return 0;
}
