/* From one record of POSIX, MPI-IO or STDIO to the figures the summary adds
 * up (struct iolens_io_stats), and adding figures up. Counter names and
 * meanings are the modules' tables (include/iolens/modules/). */
#include <string.h>

#include "analysis_internal.h"
#include "iolens/modules/mpiio.h"
#include "iolens/modules/posix.h"
#include "iolens/modules/stdio.h"

/* A counter's value, with "not monitored" (-1) and damage read as 0. */
static int64_t val(int64_t v)
{
    return v > 0 ? v : 0;
}

static double fval(double v)
{
    return v > 0 ? v : 0;
}

/* What every record adds: its rank's bytes, or its shared ranks' figures. */
static void set_ranks(struct iolens_io_stats *o, int64_t rank, const int64_t *c, int fastest,
                      int fastest_bytes, int slowest, int slowest_bytes, const double *f,
                      int fastest_time, int slowest_time, int variance_bytes)
{
    o->records = 1;
    if (rank < 0) {
        o->shared_records = 1;
        o->fastest_rank = c[fastest];
        o->fastest_bytes = val(c[fastest_bytes]);
        o->slowest_rank = c[slowest];
        o->slowest_bytes = val(c[slowest_bytes]);
        o->fastest_time = fval(f[fastest_time]);
        o->slowest_time = fval(f[slowest_time]);
        o->variance_bytes = fval(f[variance_bytes]);
        o->rank_min = o->rank_max = -1;
        o->time_max_rank = o->slowest_rank;
        o->time_max = o->slowest_time;
    } else {
        o->rank_bytes_min = o->rank_bytes_max = iol_stats_bytes(o);
        o->rank_min = o->rank_max = rank;
        o->fastest_rank = o->slowest_rank = -1;
        o->time_max_rank = rank;
        o->time_max = iol_stats_time(o);
    }
}

static void posix_stats(const void *rec, struct iolens_io_stats *o)
{
    const struct iolens_posix_record *r = rec;
    const int64_t *c = r->counters;
    const double *f = r->fcounters;
    memset(o, 0, sizeof(*o));
    o->bytes_read = val(c[POSIX_BYTES_READ]);
    o->bytes_written = val(c[POSIX_BYTES_WRITTEN]);
    o->reads = val(c[POSIX_READS]);
    o->writes = val(c[POSIX_WRITES]);
    o->meta_ops = iol_add(iol_add(val(c[POSIX_OPENS]), val(c[POSIX_SEEKS])),
                          iol_add(val(c[POSIX_STATS]),
                                  iol_add(val(c[POSIX_FSYNCS]), val(c[POSIX_FDSYNCS]))));
    o->read_time = fval(f[POSIX_F_READ_TIME]);
    o->write_time = fval(f[POSIX_F_WRITE_TIME]);
    o->meta_time = fval(f[POSIX_F_META_TIME]);
    for (int i = 0; i < IOLENS_SIZE_BINS; i++) {
        o->read_sizes[i] = val(c[POSIX_SIZE_READ_0_100 + i]);
        o->write_sizes[i] = val(c[POSIX_SIZE_WRITE_0_100 + i]);
    }
    o->seq_reads = val(c[POSIX_SEQ_READS]);
    o->seq_writes = val(c[POSIX_SEQ_WRITES]);
    o->first_reads = o->reads > 0;
    o->first_writes = o->writes > 0;
    o->mem_not_aligned = val(c[POSIX_MEM_NOT_ALIGNED]);
    o->file_not_aligned = val(c[POSIX_FILE_NOT_ALIGNED]);
    o->file_alignment = val(c[POSIX_FILE_ALIGNMENT]);
    o->extent_read = o->reads ? iol_add(val(c[POSIX_MAX_BYTE_READ]), 1) : 0;
    o->extent_written = o->writes ? iol_add(val(c[POSIX_MAX_BYTE_WRITTEN]), 1) : 0;
    set_ranks(o, r->base.rank, c, POSIX_FASTEST_RANK, POSIX_FASTEST_RANK_BYTES,
              POSIX_SLOWEST_RANK, POSIX_SLOWEST_RANK_BYTES, f, POSIX_F_FASTEST_RANK_TIME,
              POSIX_F_SLOWEST_RANK_TIME, POSIX_F_VARIANCE_RANK_BYTES);
}

static void mpiio_stats(const void *rec, struct iolens_io_stats *o)
{
    const struct iolens_mpiio_record *r = rec;
    const int64_t *c = r->counters;
    const double *f = r->fcounters;
    memset(o, 0, sizeof(*o));
    o->bytes_read = val(c[MPIIO_BYTES_READ]);
    o->bytes_written = val(c[MPIIO_BYTES_WRITTEN]);
    o->coll_reads = iol_add(val(c[MPIIO_COLL_READS]), val(c[MPIIO_SPLIT_READS]));
    o->coll_writes = iol_add(val(c[MPIIO_COLL_WRITES]), val(c[MPIIO_SPLIT_WRITES]));
    o->indep_reads = iol_add(val(c[MPIIO_INDEP_READS]), val(c[MPIIO_NB_READS]));
    o->indep_writes = iol_add(val(c[MPIIO_INDEP_WRITES]), val(c[MPIIO_NB_WRITES]));
    o->reads = iol_add(o->coll_reads, o->indep_reads);
    o->writes = iol_add(o->coll_writes, o->indep_writes);
    o->meta_ops = iol_add(iol_add(val(c[MPIIO_INDEP_OPENS]), val(c[MPIIO_COLL_OPENS])),
                          iol_add(val(c[MPIIO_SYNCS]), val(c[MPIIO_VIEWS])));
    o->read_time = fval(f[MPIIO_F_READ_TIME]);
    o->write_time = fval(f[MPIIO_F_WRITE_TIME]);
    o->meta_time = fval(f[MPIIO_F_META_TIME]);
    for (int i = 0; i < IOLENS_SIZE_BINS; i++) {
        o->read_sizes[i] = val(c[MPIIO_SIZE_READ_AGG_0_100 + i]);
        o->write_sizes[i] = val(c[MPIIO_SIZE_WRITE_AGG_0_100 + i]);
    }
    set_ranks(o, r->base.rank, c, MPIIO_FASTEST_RANK, MPIIO_FASTEST_RANK_BYTES,
              MPIIO_SLOWEST_RANK, MPIIO_SLOWEST_RANK_BYTES, f, MPIIO_F_FASTEST_RANK_TIME,
              MPIIO_F_SLOWEST_RANK_TIME, MPIIO_F_VARIANCE_RANK_BYTES);
}

static void stdio_stats(const void *rec, struct iolens_io_stats *o)
{
    const struct iolens_stdio_record *r = rec;
    const int64_t *c = r->counters;
    const double *f = r->fcounters;
    memset(o, 0, sizeof(*o));
    o->bytes_read = val(c[STDIO_BYTES_READ]);
    o->bytes_written = val(c[STDIO_BYTES_WRITTEN]);
    o->reads = val(c[STDIO_READS]);
    o->writes = val(c[STDIO_WRITES]);
    o->meta_ops = iol_add(iol_add(val(c[STDIO_OPENS]), val(c[STDIO_SEEKS])),
                          val(c[STDIO_FLUSHES]));
    o->read_time = fval(f[STDIO_F_READ_TIME]);
    o->write_time = fval(f[STDIO_F_WRITE_TIME]);
    o->meta_time = fval(f[STDIO_F_META_TIME]);
    o->extent_read = o->reads ? iol_add(val(c[STDIO_MAX_BYTE_READ]), 1) : 0;
    o->extent_written = o->writes ? iol_add(val(c[STDIO_MAX_BYTE_WRITTEN]), 1) : 0;
    set_ranks(o, r->base.rank, c, STDIO_FASTEST_RANK, STDIO_FASTEST_RANK_BYTES,
              STDIO_SLOWEST_RANK, STDIO_SLOWEST_RANK_BYTES, f, STDIO_F_FASTEST_RANK_TIME,
              STDIO_F_SLOWEST_RANK_TIME, STDIO_F_VARIANCE_RANK_BYTES);
}

const struct iol_iface_def iol_ifaces[IOLENS_IFACES] = {
    [IOLENS_IFACE_POSIX] = {IOLENS_MOD_POSIX, "POSIX", posix_stats},
    [IOLENS_IFACE_MPIIO] = {IOLENS_MOD_MPIIO, "MPI-IO", mpiio_stats},
    [IOLENS_IFACE_STDIO] = {IOLENS_MOD_STDIO, "STDIO", stdio_stats},
};

int iol_iface_of_module(int mod_id)
{
    for (int i = 0; i < IOLENS_IFACES; i++)
        if (iol_ifaces[i].mod_id == mod_id)
            return i;
    return -1;
}

int64_t iolens_size_bin_top(int i)
{
    static const int64_t top[IOLENS_SIZE_BINS] = {
        100, 1024, 10240, 102400, 1048576, 4194304, 10485760, 104857600, 1073741824, INT64_MAX};
    return i >= 0 && i < IOLENS_SIZE_BINS ? top[i] : INT64_MAX;
}

static int64_t max64(int64_t a, int64_t b)
{
    return a > b ? a : b;
}

/* The per-rank extremes of two sets of unshared records. */
static void add_rank_extremes(struct iolens_io_stats *d, const struct iolens_io_stats *s)
{
    int64_t d_unshared = d->records - d->shared_records;
    if (s->records - s->shared_records == 0)
        return;
    if (d_unshared == 0 || s->rank_bytes_min < d->rank_bytes_min) {
        d->rank_bytes_min = s->rank_bytes_min;
        d->rank_min = s->rank_min;
    }
    if (d_unshared == 0 || s->rank_bytes_max > d->rank_bytes_max) {
        d->rank_bytes_max = s->rank_bytes_max;
        d->rank_max = s->rank_max;
    }
}

void iol_stats_add(struct iolens_io_stats *d, const struct iolens_io_stats *s)
{
    add_rank_extremes(d, s);
    if (s->shared_records && (!d->shared_records || s->slowest_time > d->slowest_time)) {
        d->fastest_rank = s->fastest_rank;
        d->fastest_bytes = s->fastest_bytes;
        d->slowest_rank = s->slowest_rank;
        d->slowest_bytes = s->slowest_bytes;
        d->fastest_time = s->fastest_time;
        d->slowest_time = s->slowest_time;
        d->variance_bytes = s->variance_bytes;
    }
    if (s->records && (!d->records || s->time_max > d->time_max)) {
        d->time_max_rank = s->time_max_rank;
        d->time_max = s->time_max;
    }
    d->records = iol_add(d->records, s->records);
    d->shared_records = iol_add(d->shared_records, s->shared_records);
    d->bytes_read = iol_add(d->bytes_read, s->bytes_read);
    d->bytes_written = iol_add(d->bytes_written, s->bytes_written);
    d->reads = iol_add(d->reads, s->reads);
    d->writes = iol_add(d->writes, s->writes);
    d->meta_ops = iol_add(d->meta_ops, s->meta_ops);
    d->read_time += s->read_time;
    d->write_time += s->write_time;
    d->meta_time += s->meta_time;
    for (int i = 0; i < IOLENS_SIZE_BINS; i++) {
        d->read_sizes[i] = iol_add(d->read_sizes[i], s->read_sizes[i]);
        d->write_sizes[i] = iol_add(d->write_sizes[i], s->write_sizes[i]);
    }
    d->seq_reads = iol_add(d->seq_reads, s->seq_reads);
    d->seq_writes = iol_add(d->seq_writes, s->seq_writes);
    d->first_reads = iol_add(d->first_reads, s->first_reads);
    d->first_writes = iol_add(d->first_writes, s->first_writes);
    d->mem_not_aligned = iol_add(d->mem_not_aligned, s->mem_not_aligned);
    d->file_not_aligned = iol_add(d->file_not_aligned, s->file_not_aligned);
    d->file_alignment = max64(d->file_alignment, s->file_alignment);
    d->coll_reads = iol_add(d->coll_reads, s->coll_reads);
    d->coll_writes = iol_add(d->coll_writes, s->coll_writes);
    d->indep_reads = iol_add(d->indep_reads, s->indep_reads);
    d->indep_writes = iol_add(d->indep_writes, s->indep_writes);
    d->extent_read = max64(d->extent_read, s->extent_read);
    d->extent_written = max64(d->extent_written, s->extent_written);
}
