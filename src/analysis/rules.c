/* The insight rules: one small function each, and the one table that gives
 * each rule its id, severity, meaning and recommendations (its thresholds
 * are in thresholds.h). Each rule reads the summary's files by the records
 * they are judged by (iol_judged), skips negligible files, and makes at most
 * one finding, whose evidence names the files and ranks involved. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "rules.h"

static double share(double part, double whole)
{
    return whole > 0 ? part / whole : 0;
}

static int64_t max0(int64_t v)
{
    return v > 0 ? v : 0;
}

/* The files a rule looks at, one by one: kept, not negligible. */
#define FOR_FILES(c, f) \
    for (const struct iolens_file_summary *f = (c)->s->files; f < (c)->s->files + (c)->s->nfiles; f++) \
        if (!iol_negligible((c), f))

/* ---- small-io ---- */

/* Small accesses beyond the fewest that could have moved the bytes: a file
 * of 2 KiB written in one request has none. */
static int64_t avoidable_small(const int64_t *bins, int64_t bytes, double size)
{
    int64_t small = 0;
    for (int b = 0; b < IOLENS_SIZE_BINS; b++)
        if ((double)iolens_size_bin_top(b) <= size)
            small = iol_add(small, bins[b]);
    double avoidable = (double)small - ceil((double)bytes / (size > 1 ? size : 1));
    if (avoidable <= 0)
        return 0;
    return avoidable < (double)small ? (int64_t)avoidable : small;
}

struct small_count {
    int64_t reads, writes, small_reads, small_writes;
};

static void count_small(struct small_count *n, const struct iolens_io_stats *io, double size)
{
    n->reads = iol_add(n->reads, io->reads);
    n->writes = iol_add(n->writes, io->writes);
    n->small_reads = iol_add(n->small_reads, avoidable_small(io->read_sizes, io->bytes_read, size));
    n->small_writes = iol_add(n->small_writes,
                              avoidable_small(io->write_sizes, io->bytes_written, size));
}

static int too_many(int64_t part, int64_t whole, double min_share, double min_count)
{
    return (double)part > min_count && share((double)part, (double)whole) > min_share;
}

static void rule_small_io(struct iol_ctx *c, const struct iolens_rule_info *rule)
{
    double size = c->t[IOL_T_SMALL_IO_SIZE];
    struct small_count n[IOLENS_IFACES] = {{0}}, all = {0};
    for (int i = IOLENS_IFACE_POSIX; i <= IOLENS_IFACE_MPIIO; i++) {
        FOR_FILES(c, f) if (iol_judged(f, i)) count_small(&n[i], &f->io[i], size);
        count_small(&n[i], &c->s->rest[i], size);
        all.reads = iol_add(all.reads, n[i].reads);
        all.writes = iol_add(all.writes, n[i].writes);
        all.small_reads = iol_add(all.small_reads, n[i].small_reads);
        all.small_writes = iol_add(all.small_writes, n[i].small_writes);
    }
    double sh = c->t[IOL_T_SMALL_IO_SHARE], cnt = c->t[IOL_T_SMALL_IO_COUNT];
    int reads = too_many(all.small_reads, all.reads, sh, cnt);
    int writes = too_many(all.small_writes, all.writes, sh, cnt);
    if (!reads && !writes)
        return;
    int mpi = iol_add(n[IOLENS_IFACE_MPIIO].small_reads, n[IOLENS_IFACE_MPIIO].small_writes) >
              iol_add(n[IOLENS_IFACE_POSIX].small_reads, n[IOLENS_IFACE_POSIX].small_writes);
    char sz[32], r[64] = "", w[64] = "";
    if (reads)
        snprintf(r, sizeof(r), "%lld of %lld reads", (long long)all.small_reads,
                 (long long)all.reads);
    if (writes)
        snprintf(w, sizeof(w), "%lld of %lld writes", (long long)all.small_writes,
                 (long long)all.writes);
    struct iolens_finding *fd = iol_finding(
        c, rule, rule->severity, mpi ? "MPI-IO" : "POSIX",
        "%s%s%s are small (at most %s), beyond the fewest requests the bytes needed", r,
        reads && writes ? " and " : "", w, iol_bytes_text(size, sz, sizeof(sz)));
    if (!fd)
        return;
    iol_evidence(fd, "small_reads", IOLENS_EV_COUNT, (double)all.small_reads);
    iol_evidence(fd, "small_read_share", IOLENS_EV_SHARE, share(all.small_reads, all.reads));
    iol_evidence(fd, "small_writes", IOLENS_EV_COUNT, (double)all.small_writes);
    iol_evidence(fd, "small_write_share", IOLENS_EV_SHARE, share(all.small_writes, all.writes));
    iol_evidence(fd, "small_size", IOLENS_EV_BYTES, size);
    for (int i = IOLENS_IFACE_POSIX; i <= IOLENS_IFACE_MPIIO; i++) {
        FOR_FILES(c, f) if (iol_judged(f, i)) {
            struct small_count one = {0};
            count_small(&one, &f->io[i], size);
            int64_t both = iol_add(one.small_reads, one.small_writes);
            if (both > 0)
                iol_offer_file(fd, f, "small_accesses", (double)both);
        }
    }
}

/* ---- misaligned-io ---- */

static void rule_misaligned_io(struct iol_ctx *c, const struct iolens_rule_info *rule)
{
    /* Alignment is kept by POSIX only: every file's POSIX records count. */
    struct iolens_io_stats sum = c->s->rest[IOLENS_IFACE_POSIX];
    FOR_FILES(c, f) if (f->ifaces >> IOLENS_IFACE_POSIX & 1) iol_stats_add(&sum, &f->io[IOLENS_IFACE_POSIX]);
    int64_t ops = iol_add(sum.reads, sum.writes);
    double file_share = share((double)sum.file_not_aligned, (double)ops);
    double mem_share = share((double)sum.mem_not_aligned, (double)ops);
    double limit = c->t[IOL_T_MISALIGNED_SHARE];
    if (file_share <= limit && mem_share <= limit)
        return;
    struct iolens_finding *fd = iol_finding(
        c, rule, rule->severity, "POSIX",
        "%.0f%% of %lld POSIX accesses start at an unaligned file offset, %.0f%% use an "
        "unaligned memory buffer", 100 * file_share, (long long)ops, 100 * mem_share);
    if (!fd)
        return;
    iol_evidence(fd, "file_not_aligned", IOLENS_EV_COUNT, (double)sum.file_not_aligned);
    iol_evidence(fd, "file_not_aligned_share", IOLENS_EV_SHARE, file_share);
    iol_evidence(fd, "mem_not_aligned", IOLENS_EV_COUNT, (double)sum.mem_not_aligned);
    iol_evidence(fd, "mem_not_aligned_share", IOLENS_EV_SHARE, mem_share);
    iol_evidence(fd, "file_alignment", IOLENS_EV_BYTES, (double)sum.file_alignment);
    FOR_FILES(c, f) if (f->io[IOLENS_IFACE_POSIX].file_not_aligned > 0)
        iol_offer_file(fd, f, "file_not_aligned", (double)f->io[IOLENS_IFACE_POSIX].file_not_aligned);
}

/* ---- random-io ---- */

/* Accesses not at a higher offset than the previous one, the first of
 * each record aside (it has no previous one). */
static int64_t random_reads(const struct iolens_io_stats *s)
{
    return max0(s->reads - s->seq_reads - s->first_reads);
}

static int64_t random_writes(const struct iolens_io_stats *s)
{
    return max0(s->writes - s->seq_writes - s->first_writes);
}

static void rule_random_io(struct iol_ctx *c, const struct iolens_rule_info *rule)
{
    /* POSIX keeps the order of accesses; MPI-IO files are left out. */
    struct iolens_io_stats sum = c->s->rest[IOLENS_IFACE_POSIX];
    FOR_FILES(c, f) if (iol_judged(f, IOLENS_IFACE_POSIX)) iol_stats_add(&sum, &f->io[IOLENS_IFACE_POSIX]);
    int64_t rr = random_reads(&sum), rw = random_writes(&sum);
    double sh = c->t[IOL_T_RANDOM_SHARE], cnt = c->t[IOL_T_RANDOM_COUNT];
    if (!too_many(rr, sum.reads, sh, cnt) && !too_many(rw, sum.writes, sh, cnt))
        return;
    struct iolens_finding *fd = iol_finding(
        c, rule, rule->severity, "POSIX",
        "%lld of %lld reads and %lld of %lld writes go back or jump instead of moving forward",
        (long long)rr, (long long)sum.reads, (long long)rw, (long long)sum.writes);
    if (!fd)
        return;
    iol_evidence(fd, "random_reads", IOLENS_EV_COUNT, (double)rr);
    iol_evidence(fd, "random_read_share", IOLENS_EV_SHARE, share(rr, sum.reads));
    iol_evidence(fd, "random_writes", IOLENS_EV_COUNT, (double)rw);
    iol_evidence(fd, "random_write_share", IOLENS_EV_SHARE, share(rw, sum.writes));
    FOR_FILES(c, f) if (iol_judged(f, IOLENS_IFACE_POSIX)) {
        int64_t n = iol_add(random_reads(&f->io[IOLENS_IFACE_POSIX]),
                            random_writes(&f->io[IOLENS_IFACE_POSIX]));
        if (n > 0)
            iol_offer_file(fd, f, "random_accesses", (double)n);
    }
}

/* ---- redundant-read ---- */

/* Bytes a file's judged records read, and the extent its POSIX or STDIO
 * records read (MPI-IO keeps no offsets). */
static void read_extent(const struct iolens_file_summary *f, int64_t *bytes, int64_t *extent)
{
    *bytes = *extent = 0;
    for (int i = 0; i < IOLENS_IFACES; i++) {
        if (iol_judged(f, i))
            *bytes = iol_add(*bytes, f->io[i].bytes_read);
        if (f->ifaces >> i & 1 && f->io[i].extent_read > *extent)
            *extent = f->io[i].extent_read;
    }
}

static void rule_redundant_read(struct iol_ctx *c, const struct iolens_rule_info *rule)
{
    struct iolens_finding *fd = NULL;
    int64_t total_extra = 0;
    FOR_FILES(c, f) {
        int64_t bytes, extent;
        read_extent(f, &bytes, &extent);
        if (extent <= 0 || (double)bytes < c->t[IOL_T_REDUNDANT_FACTOR] * (double)extent ||
            (double)(bytes - extent) < c->t[IOL_T_REDUNDANT_BYTES])
            continue;
        if (!fd && !(fd = iol_finding(c, rule, rule->severity, "POSIX", "%s", "")))
            return;
        total_extra = iol_add(total_extra, bytes - extent);
        iol_offer_file(fd, f, "times_read", (double)bytes / (double)extent);
    }
    if (!fd)
        return;
    char b[32];
    snprintf(fd->summary, sizeof(fd->summary),
             "%zu file(s) read %s more than their extent: data read more than once",
             fd->nfiles + (size_t)fd->more_files, iol_bytes_text((double)total_extra, b, sizeof(b)));
    iol_evidence(fd, "bytes_read_again", IOLENS_EV_BYTES, (double)total_extra);
    iol_evidence(fd, "files", IOLENS_EV_COUNT, (double)(fd->nfiles + (size_t)fd->more_files));
}

/* ---- rank-imbalance ---- */

/* How unbalanced one file's judged records are across ranks (0: not). */
static double file_imbalance(const struct iol_ctx *c, const struct iolens_io_stats *s,
                             int64_t *rank)
{
    double worst = 0, bytes = (double)iol_stats_bytes(s);
    *rank = -1;
    if (s->shared_records && bytes > 0) {
        double straggler = fabs((double)(s->slowest_bytes - s->fastest_bytes)) / bytes;
        double dt = s->slowest_time - s->fastest_time;
        double tshare = share(dt, iol_stats_time(s));
        double mean = c->s->nprocs > 0 ? bytes / (double)c->s->nprocs : bytes;
        double spread = mean > 0 ? sqrt(s->variance_bytes) / mean : 0;
        if (straggler > c->t[IOL_T_IMBALANCE_STRAGGLER])
            worst = straggler;
        if (dt >= c->t[IOL_T_IMBALANCE_SECONDS] && tshare > c->t[IOL_T_IMBALANCE_STRAGGLER] &&
            tshare > worst)
            worst = tshare;
        if (spread > c->t[IOL_T_IMBALANCE_SPREAD] && spread > worst)
            worst = spread;
        *rank = s->slowest_rank;
    }
    if (s->records - s->shared_records >= 2 && s->rank_bytes_max > 0) {
        double size = (double)(s->rank_bytes_max - s->rank_bytes_min) / (double)s->rank_bytes_max;
        if (size > c->t[IOL_T_IMBALANCE_SIZE] && size > worst) {
            worst = size;
            *rank = s->rank_max;
        }
    }
    return worst;
}

/* Darshan's names for the standard streams ("<STDOUT>"): one rank printing
 * to them is how MPI programs print, not an imbalance. */
static int standard_stream(const struct iolens_file_summary *f)
{
    return f->name && f->name[0] == '<';
}

static void rule_rank_imbalance(struct iol_ctx *c, const struct iolens_rule_info *rule)
{
    struct iolens_finding *fd = NULL;
    FOR_FILES(c, f) {
        for (int i = 0; i < IOLENS_IFACES && !standard_stream(f); i++) {
            int64_t rank;
            double how = iol_judged(f, i) ? file_imbalance(c, &f->io[i], &rank) : 0;
            if (how <= 0)
                continue;
            if (!fd && !(fd = iol_finding(c, rule, rule->severity, iol_ifaces[i].name, "%s", "")))
                return;
            iol_offer_file(fd, f, "imbalance", how);
            if (rank >= 0)
                iol_add_rank(fd, rank);
        }
    }
    if (!fd)
        return;
    snprintf(fd->summary, sizeof(fd->summary),
             "%zu file(s) shared by several ranks are unevenly loaded (worst: %.0f%%)",
             fd->nfiles + (size_t)fd->more_files, 100 * fd->files[0].value);
    iol_evidence(fd, "files", IOLENS_EV_COUNT, (double)(fd->nfiles + (size_t)fd->more_files));
    iol_evidence(fd, "worst_imbalance", IOLENS_EV_SHARE, fd->files[0].value);
}

/* ---- rank0-io ---- */

static void rule_rank0_io(struct iol_ctx *c, const struct iolens_rule_info *rule)
{
    const struct iolens_summary *s = c->s;
    if (s->nprocs < 2)
        return;
    int64_t total = s->shared_unattributed_bytes, top = -1, top_bytes = 0;
    total = iol_add(total, iol_add(s->rest_ranks.bytes_read, s->rest_ranks.bytes_written));
    for (size_t r = 0; r < s->nranks; r++) {
        int64_t b = iol_add(s->ranks[r].bytes_read, s->ranks[r].bytes_written);
        total = iol_add(total, b);
        if (b > top_bytes) {
            top_bytes = b;
            top = (int64_t)r;
        }
    }
    double sh = share((double)top_bytes, (double)total);
    if ((double)total < c->t[IOL_T_RANK0_BYTES] || sh < c->t[IOL_T_RANK0_SHARE])
        return;
    char b[32];
    struct iolens_finding *fd = iol_finding(
        c, rule, rule->severity, NULL, "rank %lld of %lld moves %.0f%% of the job's %s",
        (long long)top, (long long)s->nprocs, 100 * sh, iol_bytes_text((double)total, b, sizeof(b)));
    if (!fd)
        return;
    iol_add_rank(fd, top);
    iol_evidence(fd, "rank", IOLENS_EV_COUNT, (double)top);
    iol_evidence(fd, "rank_bytes", IOLENS_EV_BYTES, (double)top_bytes);
    iol_evidence(fd, "rank_share", IOLENS_EV_SHARE, sh);
    iol_evidence(fd, "job_bytes", IOLENS_EV_BYTES, (double)total);
    iol_evidence(fd, "nprocs", IOLENS_EV_COUNT, (double)s->nprocs);
}

/* ---- metadata-heavy ---- */

static void rule_metadata_heavy(struct iol_ctx *c, const struct iolens_rule_info *rule)
{
    const struct iolens_summary *s = c->s;
    double shared_each = s->nprocs > 0 ? s->shared_meta_time / (double)s->nprocs : 0;
    int64_t slow_ranks = 0;
    double worst = 0;
    for (size_t r = 0; r < s->nranks; r++) {
        double t = s->ranks[r].meta_time + shared_each;
        slow_ranks += t > c->t[IOL_T_META_RANK_SECONDS];
        worst = t > worst ? t : worst;
    }
    struct iolens_io_stats sum = {0};
    for (int i = 0; i < IOLENS_IFACES; i++) {
        FOR_FILES(c, f) if (iol_judged(f, i)) iol_stats_add(&sum, &f->io[i]);
        iol_stats_add(&sum, &s->rest[i]);
    }
    /* Opening each file once is what any I/O needs: the operations that
     * count are those beyond one per record (reopens, stats, seeks, syncs). */
    int64_t extra_ops = max0(sum.meta_ops - sum.records);
    double sh = share(sum.meta_time, iol_stats_time(&sum));
    int by_share = sh >= c->t[IOL_T_META_SHARE] && (double)extra_ops >= c->t[IOL_T_META_OPS];
    if (!slow_ranks && !by_share)
        return;
    struct iolens_finding *fd = iol_finding(
        c, rule, rule->severity, NULL,
        "metadata takes %.0f%% of the I/O time (%.3g s, %lld operations beyond one open per "
        "file); %lld rank(s) spend more than %g s in it", 100 * sh, sum.meta_time,
        (long long)extra_ops,
        (long long)slow_ranks, c->t[IOL_T_META_RANK_SECONDS]);
    if (!fd)
        return;
    iol_evidence(fd, "meta_time", IOLENS_EV_SECONDS, sum.meta_time);
    iol_evidence(fd, "meta_time_share", IOLENS_EV_SHARE, sh);
    iol_evidence(fd, "meta_ops", IOLENS_EV_COUNT, (double)sum.meta_ops);
    iol_evidence(fd, "meta_ops_beyond_first_open", IOLENS_EV_COUNT, (double)extra_ops);
    iol_evidence(fd, "slow_ranks", IOLENS_EV_COUNT, (double)slow_ranks);
    iol_evidence(fd, "worst_rank_meta_time", IOLENS_EV_SECONDS, worst);
    for (size_t r = 0; r < s->nranks; r++)
        if (s->ranks[r].meta_time + shared_each > c->t[IOL_T_META_RANK_SECONDS])
            iol_add_rank(fd, (int64_t)r);
    for (int i = 0; i < IOLENS_IFACES; i++)
        FOR_FILES(c, f) if (iol_judged(f, i) && f->io[i].meta_time > 0)
            iol_offer_file(fd, f, "meta_time", f->io[i].meta_time);
}

/* ---- no-collective-io ---- */

static void rule_no_collective_io(struct iol_ctx *c, const struct iolens_rule_info *rule)
{
    const struct iolens_io_stats *m = &c->s->iface[IOLENS_IFACE_MPIIO];
    double cnt = c->t[IOL_T_COLLECTIVE_COUNT];
    int reads = m->coll_reads == 0 && (double)m->reads > cnt;
    int writes = m->coll_writes == 0 && (double)m->writes > cnt;
    if (!reads && !writes)
        return;
    struct iolens_finding *fd = iol_finding(
        c, rule, rule->severity, "MPI-IO",
        "MPI-IO %s%s%s are all independent: %lld reads, %lld writes, none collective",
        reads ? "reads" : "", reads && writes ? " and " : "", writes ? "writes" : "",
        (long long)m->indep_reads, (long long)m->indep_writes);
    if (!fd)
        return;
    iol_evidence(fd, "independent_reads", IOLENS_EV_COUNT, (double)m->indep_reads);
    iol_evidence(fd, "collective_reads", IOLENS_EV_COUNT, (double)m->coll_reads);
    iol_evidence(fd, "independent_writes", IOLENS_EV_COUNT, (double)m->indep_writes);
    iol_evidence(fd, "collective_writes", IOLENS_EV_COUNT, (double)m->coll_writes);
    FOR_FILES(c, f) if (f->ifaces >> IOLENS_IFACE_MPIIO & 1) {
        const struct iolens_io_stats *io = &f->io[IOLENS_IFACE_MPIIO];
        int64_t indep = iol_add(io->indep_reads, io->indep_writes);
        if (share((double)indep, (double)iol_add(io->reads, io->writes)) >
            c->t[IOL_T_COLLECTIVE_SHARE])
            iol_offer_file(fd, f, "independent_ops", (double)indep);
    }
}

/* ---- stdio-heavy ---- */

static void rule_stdio_heavy(struct iol_ctx *c, const struct iolens_rule_info *rule)
{
    const struct iolens_summary *s = c->s;
    int64_t stdio = iol_stats_bytes(&s->iface[IOLENS_IFACE_STDIO]);
    int64_t mpiio = iol_stats_bytes(&s->iface[IOLENS_IFACE_MPIIO]);
    /* POSIX carries MPI-IO's bytes too: only what is left is POSIX's own. */
    int64_t posix = max0(iol_stats_bytes(&s->iface[IOLENS_IFACE_POSIX]) - mpiio);
    double sh = share((double)stdio, (double)stdio + (double)mpiio + (double)posix);
    if (sh <= c->t[IOL_T_STDIO_SHARE] || (double)stdio < c->t[IOL_T_STDIO_BYTES])
        return;
    char b[32];
    struct iolens_finding *fd = iol_finding(c, rule, rule->severity, "STDIO",
                                            "STDIO streams move %.0f%% of the job's bytes (%s)",
                                            100 * sh, iol_bytes_text((double)stdio, b, sizeof(b)));
    if (!fd)
        return;
    iol_evidence(fd, "stdio_bytes", IOLENS_EV_BYTES, (double)stdio);
    iol_evidence(fd, "stdio_share", IOLENS_EV_SHARE, sh);
    FOR_FILES(c, f) if (f->ifaces >> IOLENS_IFACE_STDIO & 1 && iol_stats_bytes(&f->io[IOLENS_IFACE_STDIO]))
        iol_offer_file(fd, f, "stdio_bytes", (double)iol_stats_bytes(&f->io[IOLENS_IFACE_STDIO]));
}

/* ---- many-small-files ---- */

static void rule_many_small_files(struct iol_ctx *c, const struct iolens_rule_info *rule)
{
    const struct iolens_summary *s = c->s;
    int64_t small = 0, written = 0;
    for (int b = 0; b < IOLENS_FILE_SIZE_BINS; b++) {
        written = iol_add(written, s->written_file_sizes[b]);
        /* bin b holds sizes below 2^b */
        if (b < 63 && ldexp(1, b) <= c->t[IOL_T_SMALL_FILES_SIZE])
            small = iol_add(small, s->written_file_sizes[b]);
    }
    if ((double)small < c->t[IOL_T_SMALL_FILES_COUNT] || small == 0)
        return;
    char b[32];
    struct iolens_finding *fd = iol_finding(
        c, rule, rule->severity, NULL, "%lld of the %lld files written are smaller than %s",
        (long long)small, (long long)written,
        iol_bytes_text(c->t[IOL_T_SMALL_FILES_SIZE], b, sizeof(b)));
    if (!fd)
        return;
    iol_evidence(fd, "small_files", IOLENS_EV_COUNT, (double)small);
    iol_evidence(fd, "files_written", IOLENS_EV_COUNT, (double)written);
    iol_evidence(fd, "nprocs", IOLENS_EV_COUNT, (double)s->nprocs);
}

/* ---- partial-log ---- */

static void rule_partial_log(struct iol_ctx *c, const struct iolens_rule_info *rule)
{
    char mods[160] = "";
    int records = 0, traces = 0;
    for (int id = 0; id < IOLENS_MAX_MODS; id++) {
        if (!c->s->modules[id].partial)
            continue;
        const struct iolens_module_desc *mod = iolens_module(id);
        const char *name = iolens_module_name(id);
        size_t used = strlen(mods);
        snprintf(mods + used, sizeof(mods) - used, "%s%s", used ? ", " : "", name ? name : "?");
        if (mod && mod->trace)
            traces++;
        else
            records++;
    }
    if (!records && !traces)
        return;
    struct iolens_finding *fd = iol_finding(
        c, rule, records ? rule->severity : IOLENS_SEV_INFO, NULL,
        "the log is partial: %s ran out of memory; %s", mods,
        records ? "files or operations are missing: raise IOLENS_MAX_RECORDS (records per module) "
                  "or IOLENS_MODMEM (Darshan: DARSHAN_MODMEM, MAX_RECORDS in its config file)"
                : "traces are cut short (counters are whole): raise IOLENS_DXT_MEM");
    if (!fd)
        return;
    iol_evidence_text(fd, "modules", mods);
}

/* ---- the table ---- */

const struct iol_rule iol_rules[] = {
    {{"small-io", IOLENS_SEV_HIGH,
      "many reads or writes smaller than small-io.size, beyond the fewest the bytes needed",
      "gather data into larger requests (a buffer of several MiB, or writev/readv)",
      "give the stream a larger buffer (setvbuf) or move bulk data to POSIX or MPI-IO",
      "use collective calls (MPI_File_write_all, MPI_File_read_all) so that requests are "
      "aggregated; raise the cb_buffer_size hint",
      "write whole chunks: larger chunks (H5Pset_chunk) and collective transfers "
      "(H5Pset_dxpl_mpio with H5FD_MPIO_COLLECTIVE)"},
     rule_small_io},
    {{"misaligned-io", IOLENS_SEV_HIGH,
      "accesses that start off the file system's block (or stripe) boundaries, or use "
      "unaligned memory",
      "make offsets and sizes multiples of the file alignment (st_blksize, the Lustre stripe "
      "size); allocate buffers with posix_memalign",
      NULL,
      "set the striping_unit hint to the stripe size and let collective buffering align "
      "requests",
      "align objects with H5Pset_alignment(fapl, threshold, stripe size)"},
     rule_misaligned_io},
    {{"random-io", IOLENS_SEV_HIGH,
      "reads or writes that go back or jump instead of moving forward through the file",
      "sort requests by offset, or read whole regions and pick the parts in memory",
      NULL,
      "describe the pattern with a file view (MPI_File_set_view) and use collective calls",
      "select regular hyperslabs, in chunk order"},
     rule_random_io},
    {{"redundant-read", IOLENS_SEV_WARN,
      "a file's bytes read are well above its extent: the same data read again",
      "read the data once and keep it in memory; when every rank reads the same file, read "
      "it on one rank and broadcast it (MPI_Bcast)",
      "read the data once and keep it in memory",
      "read shared input with one collective call (MPI_File_read_all) or on one rank and "
      "MPI_Bcast",
      "keep the dataset in memory or raise the chunk cache (H5Pset_chunk_cache)"},
     rule_redundant_read},
    {{"rank-imbalance", IOLENS_SEV_HIGH,
      "the ranks sharing a file move very different amounts of data, or take very different "
      "times",
      "give every rank a similar share of the file; check the striping (lfs setstripe)",
      NULL,
      "balance the data across ranks, and use collective calls so that aggregators even out "
      "the load",
      "balance the hyperslabs across ranks and use collective transfers"},
     rule_rank_imbalance},
    {{"rank0-io", IOLENS_SEV_WARN,
      "one rank of a multi-rank job moves nearly all the bytes",
      "let every rank write its part (pwrite at its own offset) instead of gathering the data "
      "on one rank",
      "let every rank write its part instead of gathering the data on one rank",
      "open the file on all ranks and write with MPI_File_write_at_all",
      "open the file with the MPI-IO driver (H5Pset_fapl_mpio) and write from every rank"},
     rule_rank0_io},
    {{"metadata-heavy", IOLENS_SEV_HIGH,
      "metadata operations (open, stat, seek, sync) take much of the I/O time",
      "open files once and keep them open; avoid repeated stat and fsync calls; use fewer files",
      "open streams once; avoid fflush after every write",
      "open the file once, collectively; avoid MPI_File_sync in loops",
      "use collective metadata (H5Pset_all_coll_metadata_ops, H5Pset_coll_metadata_write) and "
      "a larger metadata cache"},
     rule_metadata_heavy},
    {{"no-collective-io", IOLENS_SEV_HIGH,
      "the job uses MPI-IO but no collective reads (or writes), over many operations",
      NULL, NULL,
      "use MPI_File_read_all / MPI_File_write_all (or the _at_all forms) and set one "
      "aggregator per node (the cb_nodes hint)",
      "request collective transfers: H5Pset_dxpl_mpio(dxpl, H5FD_MPIO_COLLECTIVE)"},
     rule_no_collective_io},
    {{"stdio-heavy", IOLENS_SEV_HIGH,
      "buffered STDIO streams carry a large share of the job's bytes",
      NULL,
      "write bulk data with POSIX write/pwrite or MPI-IO; keep fprintf for text",
      "write bulk data through MPI-IO (MPI_File_write_all)",
      "store bulk data in HDF5 datasets rather than text streams"},
     rule_stdio_heavy},
    {{"many-small-files", IOLENS_SEV_WARN,
      "the job writes thousands of files of a few KiB each",
      "write fewer, larger files: one file per node or per job, with each rank at its offset",
      "write fewer, larger files",
      "write one shared file with MPI-IO (each rank at its offset)",
      "put the small pieces in one HDF5 file as datasets or groups"},
     rule_many_small_files},
    {{"partial-log", IOLENS_SEV_WARN,
      "the runtime ran out of memory for a module: records or traces are missing",
      NULL, NULL, NULL, NULL},
     rule_partial_log},
};

const size_t iol_nrules = sizeof(iol_rules) / sizeof(iol_rules[0]);
